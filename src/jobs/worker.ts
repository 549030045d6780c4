import { AppError } from '../errors.js';
import type { Services } from '../services.js';

/** Slack for clock differences between this process and the database that stamps `created_at`. */
const CLOCK_SLACK_MS = 60_000;

/**
 * Runs the background jobs in this process: repository ingestion, then generation of the new
 * commits' entries, and outbound webhook deliveries, each retried with backoff by the queue when it fails. Links whose ingest a
 * stopped process left unfinished are queued again.
 */
export async function startWorker(services: Services): Promise<{ resumed: number }> {
  await services.jobs.work('repo-ingest', async ({ linkId }, stopping) => {
    const startedAt = new Date(Date.now() - CLOCK_SLACK_MS);
    try {
      const result = await services.ingest.ingestLink(linkId, { signal: stopping });
      if (result.status === 'active') {
        await services.jobs.send(
          'generate',
          { projectId: result.projectId, storedSince: startedAt.toISOString(), full: result.unreachable > 0 },
          { key: result.projectId },
        );
      }
    } catch (error) {
      // The link was deleted meanwhile: nothing left to do, and retrying will not change that.
      if (error instanceof AppError && error.code === 'not_found') return;
      throw error;
    }
  });
  await services.jobs.work('generate', async ({ projectId, storedSince, full }) => {
    try {
      await services.generation.generateProject(projectId, full || !storedSince ? {} : { storedSince: new Date(storedSince) });
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return;
      throw error;
    }
  });
  await services.jobs.work('webhook-deliver', async ({ deliveryId }) => {
    await services.webhooks.deliver(deliveryId);
  });
  // Deliveries of the events database triggers wrote are queued as jobs by this loop.
  services.jobs.onStop(services.webhooks.startDispatcher());
  return { resumed: await services.scm.resumeUnfinished() };
}
