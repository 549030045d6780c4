import { AppError } from '../errors.js';
import type { JobQueue } from '../queue/queue.js';
import type { GenerationService } from './generation.service.js';
import type { Summarizer } from './summaries/summarizer.js';

/**
 * The `generate` job: store the entries of a project's new commits, or of its whole history when `full`;
 * then, with a language model configured, summarize the newest release notes (docs/summaries.md), after
 * the run committed and outside its lock, so a slow model holds up no editor.
 */
export async function workGenerateJobs(jobs: JobQueue, generation: GenerationService, summarizer: Summarizer | null = null): Promise<void> {
  await jobs.work('generate', async ({ projectId, storedSince, full, retagged }) => {
    try {
      await generation.generateProject(projectId, full || !storedSince ? {} : { storedSince: new Date(storedSince), retagged: retagged === true });
      if (summarizer) await summarizer.summarizeProject(projectId);
    } catch (error) {
      // The project was deleted meanwhile: nothing left to do, and retrying will not change that.
      if (error instanceof AppError && error.code === 'not_found') return;
      throw error;
    }
  });
}
