import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { loadMigrations } from '../db/migrate.js';
import type { JobQueue } from '../queue/queue.js';

type Check = { status: 'ok' } | { status: 'failing'; reason: string };

/** Rejects after `ms`, so a probe never waits on a database that stopped answering. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Readiness: the database answers, its schema is at the version of this build's migrations, and,
 * when this process works the job queue (WORKER_IN_PROCESS), the queue is running.
 * Kept out of /openapi.json (an operator endpoint, not part of the client contract) and always
 * answered quickly: 200 when ready, 503 naming each failing check otherwise.
 */
export const readyRoutes: FastifyPluginAsync<{ database: Database; timeoutMs: number; jobs?: JobQueue }> = async (app, { database, timeoutMs, jobs }) => {
  const expected = loadMigrations().map((m) => m.version);

  async function checkDatabase(log: FastifyBaseLogger): Promise<{ database: Check; migrations: Check }> {
    try {
      const rows = await withTimeout(
        sql<{ version: number }>`SELECT version FROM schema_migrations`.execute(database.db),
        timeoutMs,
      );
      const applied = new Set(rows.rows.map((r) => Number(r.version)));
      const pending = expected.filter((v) => !applied.has(v));
      return {
        database: { status: 'ok' },
        migrations: pending.length ? { status: 'failing', reason: `pending migrations: ${pending.join(', ')}` } : { status: 'ok' },
      };
    } catch (error) {
      // The cause goes to the log; the public answer names no host or driver detail.
      log.warn({ err: error }, 'readiness: database check failed');
      return { database: { status: 'failing', reason: 'database unreachable' }, migrations: { status: 'failing', reason: 'unknown while the database is unreachable' } };
    }
  }

  app.get('/ready', { schema: { hide: true }, config: { internal: true } }, async (request, reply) => {
    const checks: Record<string, Check> = await checkDatabase(request.log);
    const worker = jobs?.workerStatus();
    if (worker?.status === 'running') checks.jobQueue = { status: 'ok' };
    else if (worker?.status === 'failing') checks.jobQueue = { status: 'failing', reason: worker.reason };
    const ready = Object.values(checks).every((c) => c.status === 'ok');
    reply.status(ready ? 200 : 503).header('cache-control', 'no-store');
    if (!ready) reply.header('retry-after', 5);
    return { status: ready ? 'ready' : 'not_ready', checks };
  });
};
