import { AppError } from '../errors.js';
import { redactSourcesIn } from '../git/source-name.js';
import type { JobPayloads, JobQueue } from '../queue/queue.js';
import type { IngestService } from './ingest.service.js';
import type { ReposService } from './repos.service.js';

/** Slack for clock differences between this process and the database that stamps `created_at`. */
const CLOCK_SLACK_MS = 60_000;

/**
 * The `repo-ingest` job: fetch a link's repository and store its new commits, then queue the
 * generation of their entries (of the whole history when a force-push dropped commits or brought
 * dropped ones back) when the ingest changed anything.
 */
export async function workIngestJobs(
  jobs: JobQueue,
  ingest: IngestService,
  options: {
    /**
     * Takes over the generation of a link's ingest (a GitHub link reads its new pull requests first,
     * then queues it): true when it did, false to have it queued here. Called with null after an
     * ingest that changed nothing (a sync asked for by hand): pull requests may have changed all the same.
     */
    generateVia?: (linkId: string, generate: JobPayloads['generate'] | null) => Promise<boolean>;
  } = {},
): Promise<void> {
  await jobs.work('repo-ingest', async ({ linkId }, stopping) => {
    const startedAt = new Date(Date.now() - CLOCK_SLACK_MS);
    try {
      // Queued before the link shows its sync as finished (see IngestOptions.beforeIdle); not at all
      // when the ingest found nothing new (most polls).
      await ingest.ingestLink(linkId, {
        signal: stopping,
        beforeIdle: async (result) => {
          if (!result.changed) {
            await options.generateVia?.(result.linkId, null);
            return;
          }
          const generate = { projectId: result.projectId, storedSince: startedAt.toISOString(), full: result.unreachable > 0 || result.returned > 0, retagged: result.retagged > 0 };
          if (options.generateVia && (await options.generateVia(result.linkId, generate))) return;
          await jobs.send('generate', generate, { key: result.projectId });
        },
      });
    } catch (error) {
      // The link was deleted meanwhile: nothing left to do, and retrying will not change that.
      if (error instanceof AppError && error.code === 'not_found') return;
      throw redactedError(error);
    }
  });
}

/**
 * The queue keeps a failed job's error (message, stack and every other property) in its table: only
 * its message and stack go there, with any source URL in them redacted (git's own messages can quote
 * a URL's query).
 */
function redactedError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(redactSourcesIn(String(error)));
  const redacted = new Error(redactSourcesIn(error.message));
  redacted.name = error.name;
  if (error.stack !== undefined) redacted.stack = redactSourcesIn(error.stack);
  return redacted;
}

/**
 * The `repo-poll` job: every `intervalSeconds`, queue the ingest of the links that no push webhook
 * announces (local paths, plain git URLs). One chain of polls for every worker: each run schedules
 * the next one (a job held back for the interval), and jobs of one key collapse, so a second worker
 * starting adds no second chain. A failing link fails only its own ingest job.
 */
export async function workPollJobs(jobs: JobQueue, repos: Pick<ReposService, 'pollLinks'>, intervalSeconds: number): Promise<void> {
  if (intervalSeconds <= 0) return;
  await jobs.work('repo-poll', async () => {
    try {
      await repos.pollLinks();
    } finally {
      await jobs.send('repo-poll', {}, { key: POLL_KEY, startAfterSeconds: intervalSeconds });
    }
  });
  await jobs.send('repo-poll', {}, { key: POLL_KEY });
}

const POLL_KEY = 'poll';
