import { workGenerateJobs } from '../generation/generate.job.js';
import { workChangelogPrJobs, workPrCheckJobs, workPullRequestJobs, workReleaseSyncJobs } from '../github/publishing.job.js';
import { workIngestJobs, workPollJobs } from '../repos/ingest.job.js';
import type { Services } from '../services.js';
import { workDeliverJobs } from '../webhooks/deliver.job.js';

/**
 * Runs the background jobs in this process: repository ingestion, then generation of the new
 * commits' entries, outbound webhook deliveries and GitHub Releases of published notes and pull-request checks, each retried with backoff by the queue when it
 * fails. Each job's handler lives beside its domain; this only registers them. Links whose ingest a
 * stopped process left unfinished are queued again. Links without push webhooks are polled every
 * REPO_POLL_INTERVAL_SECONDS (0 = never), read from the configuration the services were made with,
 * whoever starts the worker (the server or `changelog worker`).
 */
export async function startWorker(services: Services): Promise<{ resumed: number }> {
  // Queued before ingests start: a link whose job still waits gets no second one (jobs of one key
  // collapse while one waits), whereas once its job runs, a second would fetch it again at once.
  const resumed = await services.repos.resumeUnfinished();
  // A GitHub link's new commits wait for their pull requests (read through the App) before generation.
  await workIngestJobs(services.jobs, services.ingest, { generateVia: (linkId, generate) => services.pullRequests.queueAfterIngest(linkId, generate) });
  await workPollJobs(services.jobs, services.repos, services.config.repoLinks.pollIntervalSeconds);
  await workGenerateJobs(services.jobs, services.generation, services.summarizer);
  await workDeliverJobs(services.jobs, services.webhooks);
  await workReleaseSyncJobs(services.jobs, services.publishing);
  await workPrCheckJobs(services.jobs, services.prChecks);
  await workChangelogPrJobs(services.jobs, services.changelogPr);
  await workPullRequestJobs(services.jobs, services.pullRequests);
  return { resumed };
}
