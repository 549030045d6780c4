import { AppError } from '../http/errors.js';
import type { Services } from '../services.js';

/**
 * Runs the background jobs in this process: repository ingestion, retried with backoff by the
 * queue when it fails. Links whose ingest a stopped process left unfinished are queued again.
 */
export async function startWorker(services: Services): Promise<{ resumed: number }> {
  await services.jobs.work('repo-ingest', async ({ linkId }, stopping) => {
    try {
      await services.ingest.ingestLink(linkId, { signal: stopping });
    } catch (error) {
      // The link was deleted meanwhile: nothing left to do, and retrying will not change that.
      if (error instanceof AppError && error.code === 'not_found') return;
      throw error;
    }
  });
  return { resumed: await services.scm.resumeUnfinished() };
}
