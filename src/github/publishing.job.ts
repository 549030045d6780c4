import { repeatPass } from '../queue/repeat.js';
import type { JobQueue } from '../queue/queue.js';
import type { ChangelogPrService } from './changelog-pr.service.js';
import type { PrCheckService } from './pr-check.service.js';
import type { PublishingService } from './publishing.service.js';
import type { PullRequestsService } from './pull-requests.service.js';

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

/** `github-changelog-pr`: a link's CHANGELOG.md pull request brought up to date, and the loop that queues it. */
export async function workChangelogPrJobs(jobs: JobQueue, changelogPr: ChangelogPrService): Promise<void> {
  await jobs.work('github-changelog-pr', async ({ linkId }) => {
    await changelogPr.sync(linkId);
  });
  // A failed pass is tried again at the next tick.
  jobs.onStop(repeatPass(() => changelogPr.dispatchPending(), RELEASE_DISPATCH_INTERVAL_MS));
}

/**
 * `github-pull-requests`: a GitHub link's merged pull requests read into the cache, then the
 * generation its ingest handed over queued (a rate limit queues the job again for the reset itself;
 * other failures are retried by the queue with back-off).
 */
export async function workPullRequestJobs(jobs: JobQueue, pullRequests: PullRequestsService): Promise<void> {
  await jobs.work('github-pull-requests', async (data, stopping) => {
    await pullRequests.sync(data, stopping);
  });
}
