import PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';

/** The background jobs this service runs, with their payloads. */
export interface JobPayloads {
  /** Fetch a linked repository and store its new commits. */
  'repo-ingest': { linkId: string };
  /**
   * Store the entries of a project's new commits (those stored since `storedSince`, ISO 8601), or
   * of its whole history when `full` (a force-push dropped commits); `retagged`: tags of commits
   * stored before changed too.
   */
  generate: { projectId: string; storedSince?: string; full?: boolean; retagged?: boolean };
  /** One attempt of an outbound webhook delivery (src/webhooks/). */
  'webhook-deliver': { deliveryId: string };
  /** Queue the ingest of links without push webhooks, then schedule the next poll (src/repos/ingest.job.ts). */
  'repo-poll': Record<string, never>;
  /** Bring a GitHub link's releases up to date with its project's published notes (src/github/publishing.service.ts). */
  'github-release-sync': { linkId: string };
  /** Report how a pull request will read in the next release note, as a check run (src/github/pr-check.service.ts). */
  'github-pr-check': { linkId: string; number: number };
  /** Bring a GitHub link's CHANGELOG.md pull request up to date (src/github/changelog-pr.service.ts). */
  'github-changelog-pr': { linkId: string };
  /**
   * Read a GitHub link's merged pull requests newer than the ones cached, then queue `generate` (the
   * run an ingest handed over, when given) (src/github/pull-requests.service.ts).
   */
  'github-pull-requests': { linkId: string; generate?: JobPayloads['generate'] };
}
export type JobName = keyof JobPayloads;

export interface JobQueueOptions {
  /** How often an idle worker looks for jobs (pg-boss polls; sends from this process wake it at once). */
  pollingIntervalSeconds?: number;
  retryLimit?: number;
  /** First retry delay; doubled on each attempt (pg-boss's exponential backoff). */
  retryDelaySeconds?: number;
  /** Retry settings of single queues, over the ones above; `expireInSeconds`: how long one attempt may run (default an hour). */
  queues?: Partial<Record<JobName, { retryLimit?: number; retryDelaySeconds?: number; expireInSeconds?: number }>>;
  /**
   * Queues worked with several jobs at once in this process, fairly: `slots` jobs at a time here,
   * never two of one key at once (in any process), and at most `perGroup` of one group (a tenant)
   * at once across all processes, the group with the fewest running first. Other queues run one job
   * at a time per process.
   */
  fair?: Partial<Record<JobName, { slots: number; perGroup: number }>>;
}

/** Where `send` records a job's group (`{ group }`) in its data, for the fair fetch of its queue. */
export const JOB_GROUP_FIELD = 'fairnessGroup';

export interface JobQueue {
  /**
   * Queues a job. Jobs with the same key collapse: at most one waits while one runs. `group` (a
   * tenant) is what a fair queue shares its slots by.
   */
  send<N extends JobName>(name: N, data: JobPayloads[N], options: { key: string; group?: string; startAfterSeconds?: number }): Promise<void>;
  /**
   * Runs jobs of `name` in this process until `stop`. A handler that throws is retried with backoff.
   * `stopping` is aborted when `stop` begins: a long handler ends after its current step and throws,
   * so the job is retried (by the next process) rather than cut off mid-step.
   */
  work<N extends JobName>(name: N, handler: (data: JobPayloads[N], stopping: AbortSignal) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
  /** Runs `callback` when `stop` begins, before the queue waits for running jobs (a loop that queues jobs ends first). */
  onStop(callback: () => Promise<void>): void;
  /**
   * Jobs per queue in each unfinished or failed state, read from the queue's own tables (so a web-only
   * process sees the worker's backlog too); null when the queue's tables do not exist yet.
   */
  counts(): Promise<QueueCount[] | null>;
  /** Whether a job of `name` with this key is waiting or running (false before anything was ever queued). */
  pending(name: JobName, key: string): Promise<boolean>;
  /** Job attempts that threw in this process since it started, per queue. */
  failures(): Record<JobName, number>;
  /** Whether this process works the queue: `none` when it runs no worker (WORKER_IN_PROCESS=false, tests, the CLI). */
  workerStatus(): { status: 'none' | 'running' } | { status: 'failing'; reason: string };
}

export const QUEUE_STATES = ['created', 'retry', 'active', 'failed'] as const;
export interface QueueCount {
  queue: JobName;
  state: (typeof QUEUE_STATES)[number];
  count: number;
}

export const QUEUES: JobName[] = ['repo-ingest', 'generate', 'webhook-deliver', 'repo-poll', 'github-release-sync', 'github-pr-check', 'github-changelog-pr', 'github-pull-requests'];

/**
 * Where `send` announces a job (the payload is the queue's name): workers in other processes that
 * work that queue fetch it at once instead of at their next poll. A link made with the CLI while
 * the server runs was picked up 0-2 s later (the poll interval); now in tens of milliseconds.
 */
export const JOBS_CHANNEL = 'changelog_jobs';

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** unique_violation, duplicate_object/table/schema/function, deadlock_detected, serialization_failure. */
const RETRYABLE_START = new Set(['23505', '42710', '42P07', '42P06', '42723', '40P01', '40001']);

/**
 * pg-boss on the service's own database. On PostgreSQL it shares the pool; on the embedded
 * database (PGlite) the very same pg-boss runs through `executeSql`, which waits its turn on
 * PGlite's single session, so both deployments use one queue implementation and jobs survive a
 * restart on both.
 */
export function createJobQueue(database: Database, options: JobQueueOptions = {}): JobQueue {
  // Set once stop() has stopped waiting for pg-boss's running jobs (its timeout): the database may
  // close next, and a job that ends after that cannot record its end (it expires and is retried, as a
  // fair job the stop fails). Its late write is dropped rather than left to reject inside pg-boss,
  // where nothing could catch it. Dropped as "no result" (null), which pg-boss's completion and
  // failure commands read as nothing affected; empty rows made them throw in turn.
  let released = false;
  const newBoss = () => {
    const instance = new PgBoss({
      db: {
        executeSql: (text: string, values: unknown[]) =>
          database.executeSql(text, values).catch((error: unknown) => {
            // pg-boss's typings promise rows; its code (mapCommandResponse) checks for a result first.
            if (released) return null as unknown as { rows: Record<string, unknown>[] };
            throw error;
          }),
      },
      schedule: false,
      supervise: true,
    });
    instance.on('error', () => {
      // Failed maintenance runs are retried by pg-boss on its next interval; a failed job is
      // recorded on the job itself.
    });
    return instance;
  };
  let boss = newBoss();
  /** Per queue worked here: how to wake its worker(s) when a job was sent. */
  const workers = new Map<JobName, () => void>();
  /** The loops of fair queues, and the jobs they run (failed as pg-boss fails its own if a stop times out). */
  const fairLoops: Promise<void>[] = [];
  const fairRunning = new Map<string, JobName>();
  let started: Promise<void> | null = null;
  let stopped = false;
  let startFailure = false;
  const stopping = new AbortController();
  const stopCallbacks: (() => Promise<void>)[] = [];
  const failures = Object.fromEntries(QUEUES.map((name) => [name, 0])) as Record<JobName, number>;
  // The subscription to other processes' sends, made by the first `work`. Where there is none (a
  // process that reaches the embedded database through the server's socket hears no
  // notifications), workers find jobs by polling as before.
  let subscription: Promise<(() => Promise<void>) | null> | null = null;
  const subscribe = () =>
    (subscription ??= database
      .listen(
        JOBS_CHANNEL,
        (payload) => {
          const wake = workers.get(payload as JobName);
          if (wake && !stopped) wake();
        },
        () => {},
      )
      .catch(() => null));

  const ensureStarted = () =>
    (started ??= (async () => {
      const startOnce = async () => {
        await boss.start();
        for (const name of QUEUES) {
          await boss.createQueue(name, {
            name,
            // One job per key waits while one runs: a burst of pushes means one more fetch, not many.
            policy: 'stately',
            retryLimit: options.queues?.[name]?.retryLimit ?? options.retryLimit ?? 6,
            retryDelay: options.queues?.[name]?.retryDelaySeconds ?? options.retryDelaySeconds ?? 5,
            retryBackoff: true,
            expireInSeconds: options.queues?.[name]?.expireInSeconds ?? 3600,
          });
        }
      };
      for (let attempt = 1; ; attempt++) {
        try {
          await startOnce();
          return;
        } catch (error) {
          // Processes starting together on a fresh database race to install pg-boss's schema and
          // queues (its advisory lock does not refresh the catalog): the losers see a duplicate
          // object or a deadlock. The winner's work is there now; a fresh instance (a failed one
          // cannot start again) finds it installed.
          if (attempt >= 5 || !RETRYABLE_START.has(String((error as { code?: unknown }).code))) throw error;
          // Ignored: this instance failed to start and is dropped for a fresh one; its stop error says nothing new.
          await boss.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => {});
          boss = newBoss();
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
        }
      }
    })());

  /**
   * Works `name` with `slots` loops in this process, each fetching with `fairFetch`: the oldest job
   * whose key runs nowhere and whose group runs fewer than `perGroup` jobs anywhere, groups with the
   * fewest running first. So one link is never ingested twice at once, and a tenant whose remote
   * hangs holds `perGroup` slots at most while every other tenant's jobs go on. Returns the wake-up
   * for `send` and notifications.
   */
  function workFairly(name: JobName, handler: (data: unknown, stopping: AbortSignal) => Promise<void>, fair: { slots: number; perGroup: number }): () => void {
    let sleepers: (() => void)[] = [];
    const wake = () => {
      const waiting = sleepers;
      sleepers = [];
      for (const resolve of waiting) resolve();
    };
    const pollMs = (options.pollingIntervalSeconds ?? 2) * 1000;
    const loop = async () => {
      while (!stopped) {
        let job: { id: string; data: Record<string, unknown> } | null = null;
        try {
          job = await fairFetch(name, fair.perGroup);
        } catch {
          // Two processes took the last job of one key at the same instant (the unique index
          // refused the second): nothing to run this time.
        }
        if (!job) {
          // Until the next poll, or a wake-up (a job sent, a slot freed, the stop).
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs);
            sleepers.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
          continue;
        }
        fairRunning.set(job.id, name);
        try {
          await handler(job.data, stopping.signal);
          await boss.complete(name, job.id).catch(() => {});
        } catch (error) {
          if (!stopping.signal.aborted) failures[name]++;
          await boss.fail(name, job.id, error instanceof Error ? error : { message: String(error) }).catch(() => {});
        } finally {
          fairRunning.delete(job.id);
        }
        // A slot just freed: a sibling asleep may now take a job this one could not.
        wake();
      }
    };
    for (let i = 0; i < fair.slots; i++) fairLoops.push(loop());
    return wake;
  }

  /** Takes the next job of a fair queue (see workFairly), or null; one statement, so on PostgreSQL rows are locked as pg-boss locks them. */
  async function fairFetch(name: JobName, perGroup: number): Promise<{ id: string; data: Record<string, unknown> } | null> {
    const { rows } = await database.executeSql(
      `WITH running AS (
         SELECT singleton_key, COALESCE(data->>'${JOB_GROUP_FIELD}', singleton_key) AS grp
         FROM pgboss.job WHERE name = $1 AND state = 'active'
       ), load AS (
         SELECT grp, count(*) AS n FROM running GROUP BY grp
       ), next AS (
         SELECT j.id
         FROM pgboss.job j
         LEFT JOIN load l ON l.grp = COALESCE(j.data->>'${JOB_GROUP_FIELD}', j.singleton_key)
         WHERE j.name = $1 AND j.state < 'active' AND j.start_after < now()
           AND NOT EXISTS (SELECT 1 FROM running r WHERE r.singleton_key = j.singleton_key)
           AND COALESCE(l.n, 0) < $2
         ORDER BY COALESCE(l.n, 0), j.priority DESC, j.created_on, j.id
         LIMIT 1
         FOR UPDATE OF j SKIP LOCKED
       )
       UPDATE pgboss.job j SET
         state = 'active',
         started_on = now(),
         retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
       FROM next
       WHERE j.name = $1 AND j.id = next.id
       RETURNING j.id, j.data`,
      [name, perGroup],
    );
    const row = rows[0] as { id: string; data: Record<string, unknown> | null } | undefined;
    return row ? { id: row.id, data: row.data ?? {} } : null;
  }

  return {
    async send(name, data, { key, group, startAfterSeconds }) {
      await ensureStarted();
      const expireInSeconds = options.queues?.[name]?.expireInSeconds;
      await boss.send(name, (group !== undefined ? { ...data, [JOB_GROUP_FIELD]: group } : data) as object, {
        singletonKey: key,
        // Per job too: a queue made by an older version keeps the expiry it was made with.
        ...(expireInSeconds !== undefined ? { expireInSeconds } : {}),
        ...(startAfterSeconds ? { startAfter: startAfterSeconds } : {}),
      });
      if (startAfterSeconds) return;
      workers.get(name)?.();
      // Workers elsewhere. The job is stored either way: a lost notification only means a poll.
      await database.executeSql('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, name]).catch(() => {});
    },

    async work(name, handler) {
      await ensureStarted().catch((error: unknown) => {
        startFailure = true;
        throw error;
      });
      const fair = options.fair?.[name];
      if (fair) {
        workers.set(name, workFairly(name, handler as (data: unknown, stopping: AbortSignal) => Promise<void>, fair));
        await subscribe();
        return;
      }
      const id = await boss.work<JobPayloads[typeof name]>(
        name,
        { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
        async ([job]) => {
          if (!job) return;
          try {
            await handler(job.data, stopping.signal);
          } catch (error) {
            if (!stopping.signal.aborted) failures[name]++;
            throw error;
          }
        },
      );
      workers.set(name, () => boss.notifyWorker(id));
      await subscribe();
    },

    async counts() {
      let rows: Record<string, unknown>[];
      try {
        ({ rows } = await database.executeSql(
          `SELECT name, state::text AS state, count(*)::int AS n FROM pgboss.job WHERE state::text = ANY($1) GROUP BY name, state`,
          [[...QUEUE_STATES]],
        ));
      } catch {
        // No pgboss schema yet: nothing was ever queued on this database.
        return null;
      }
      return QUEUES.flatMap((queue) =>
        QUEUE_STATES.map((state) => ({ queue, state, count: Number(rows.find((r) => r.name === queue && r.state === state)?.n ?? 0) })),
      );
    },

    async pending(name, key) {
      try {
        const { rows } = await database.executeSql(
          `SELECT 1 FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state::text = ANY($3) LIMIT 1`,
          [name, key, ['created', 'retry', 'active']],
        );
        return rows.length > 0;
      } catch (error) {
        // No pgboss schema yet (undefined_table): nothing was ever queued on this database. Any
        // other failure is the database's, not an answer.
        if ((error as { code?: string } | null)?.code === '42P01') return false;
        throw error;
      }
    },

    failures: () => ({ ...failures }),

    onStop(callback) {
      stopCallbacks.push(callback);
    },

    workerStatus() {
      if (workers.size === 0 && !startFailure) return { status: 'none' };
      if (stopped) return { status: 'failing', reason: 'the job queue is stopping' };
      if (startFailure) return { status: 'failing', reason: 'the job queue did not start' };
      return { status: 'running' };
    },

    async stop() {
      if (stopped) return;
      // Ignored: stopping goes on whatever one callback says; each reports its own failures where it runs.
      for (const callback of stopCallbacks.splice(0)) await callback().catch(() => {});
      if (!started) return;
      stopped = true;
      stopping.abort();
      for (const wake of workers.values()) wake();
      // Ignored: a subscription that fails to end is gone with the connection the database closes next.
      await (await subscription)?.().catch(() => {});
      // Ignored here: a failed start was reported when it failed (startFailure, workerStatus); this only waits it out.
      await started.catch(() => {});
      // Fair queues' jobs end after their current step, as pg-boss's own workers' do; those still
      // running after its timeout are failed as it fails its own, to be retried by the next process.
      const fairDone = Promise.all(fairLoops);
      if ((await Promise.race([fairDone.then(() => true), delay(10_000).then(() => false)])) === false) {
        // Ignored: a job that cannot be failed now expires and is retried by the next process.
        for (const [id, name] of fairRunning) await boss.fail(name, id, { message: 'the worker stopped while this job ran' }).catch(() => {});
      }
      // Waits for running jobs so that the database is not closed under them.
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      released = true;
    },
  };
}
