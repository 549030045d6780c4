import type { JobQueue } from '../queue/queue.js';
import type { PrCheckService } from './pr-check.service.js';
import type { PublishingService } from './publishing.service.js';

/** How often the worker looks for release notes whose GitHub Release is behind. */
export const RELEASE_DISPATCH_INTERVAL_MS = 1_000;

/**
 * `github-release-sync`: a link's GitHub Releases brought up to date (the queue retries a failed run
 * with back-off), and the loop that queues it. It only ever runs in the worker, never inside an HTTP request.
 */
export async function workReleaseSyncJobs(jobs: JobQueue, publishing: PublishingService): Promise<void> {
  await jobs.work('github-release-sync', async ({ linkId }) => {
    await publishing.syncLink(linkId);
  });
  jobs.onStop(publishing.startDispatcher(RELEASE_DISPATCH_INTERVAL_MS));
}

/** `github-pr-check`: a pull request's check run (retried with back-off when GitHub fails). */
export async function workPrCheckJobs(jobs: JobQueue, prChecks: PrCheckService): Promise<void> {
  await jobs.work('github-pr-check', async (data) => {
    await prChecks.report(data);
  });
}
