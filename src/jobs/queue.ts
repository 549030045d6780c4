import PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';

/** The background jobs this service runs, with their payloads. */
export interface JobPayloads {
  /** Fetch a linked repository and store its new commits. */
  'repo-ingest': { linkId: string };
  /**
   * Store the entries of a project's new commits (those stored since `storedSince`, ISO 8601), or
   * of its whole history when `full` (a force-push dropped commits).
   */
  generate: { projectId: string; storedSince?: string; full?: boolean };
}
export type JobName = keyof JobPayloads;

export interface JobQueueOptions {
  /** How often an idle worker looks for jobs (pg-boss polls; sends from this process wake it at once). */
  pollingIntervalSeconds?: number;
  retryLimit?: number;
  /** First retry delay; doubled on each attempt (pg-boss's exponential backoff). */
  retryDelaySeconds?: number;
}

export interface JobQueue {
  /** Queues a job. Jobs with the same key collapse: at most one waits while one runs. */
  send<N extends JobName>(name: N, data: JobPayloads[N], options: { key: string }): Promise<void>;
  /** Runs jobs of `name` in this process until `stop`. A handler that throws is retried with backoff. */
  work<N extends JobName>(name: N, handler: (data: JobPayloads[N]) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

const QUEUES: JobName[] = ['repo-ingest', 'generate'];

/**
 * pg-boss on the service's own database. On PostgreSQL it shares the pool; on the embedded
 * database (PGlite) the very same pg-boss runs through `executeSql`, which waits its turn on
 * PGlite's single session, so both deployments use one queue implementation and jobs survive a
 * restart on both.
 */
export function createJobQueue(database: Database, options: JobQueueOptions = {}): JobQueue {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => database.executeSql(text, values) },
    schedule: false,
    supervise: true,
  });
  const workers = new Map<JobName, string>();
  let started: Promise<void> | null = null;
  let stopped = false;
  boss.on('error', () => {
    // Failed maintenance runs are retried by pg-boss on its next interval; a failed job is
    // recorded on the job itself.
  });

  const ensureStarted = () =>
    (started ??= (async () => {
      await boss.start();
      for (const name of QUEUES) {
        await boss.createQueue(name, {
          name,
          // One job per key waits while one runs: a burst of pushes means one more fetch, not many.
          policy: 'stately',
          retryLimit: options.retryLimit ?? 6,
          retryDelay: options.retryDelaySeconds ?? 5,
          retryBackoff: true,
          expireInSeconds: 3600,
        });
      }
    })());

  return {
    async send(name, data, { key }) {
      await ensureStarted();
      await boss.send(name, data as object, { singletonKey: key });
      const worker = workers.get(name);
      if (worker) boss.notifyWorker(worker);
    },

    async work(name, handler) {
      await ensureStarted();
      const id = await boss.work<JobPayloads[typeof name]>(
        name,
        { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
        async ([job]) => {
          if (job) await handler(job.data);
        },
      );
      workers.set(name, id);
    },

    async stop() {
      if (stopped || !started) return;
      stopped = true;
      await started.catch(() => {});
      // Waits for running jobs so that the database is not closed under them.
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
