import { workGenerateJobs } from '../generation/generate.job.js';
import { workIngestJobs, workPollJobs } from '../repos/ingest.job.js';
import type { Services } from '../services.js';
import { workDeliverJobs } from '../webhooks/deliver.job.js';

/**
 * Runs the background jobs in this process: repository ingestion, then generation of the new
 * commits' entries, and outbound webhook deliveries, each retried with backoff by the queue when it
 * fails. Each job's handler lives beside its domain; this only registers them. Links whose ingest a
 * stopped process left unfinished are queued again. Links without push webhooks are polled every
 * `pollIntervalSeconds` (REPO_POLL_INTERVAL_SECONDS; 0 = never).
 */
export async function startWorker(services: Services, options: { pollIntervalSeconds?: number } = {}): Promise<{ resumed: number }> {
  await workIngestJobs(services.jobs, services.ingest);
  await workPollJobs(services.jobs, services.repos, options.pollIntervalSeconds ?? 0);
  await workGenerateJobs(services.jobs, services.generation);
  await workDeliverJobs(services.jobs, services.webhooks);
  return { resumed: await services.repos.resumeUnfinished() };
}
