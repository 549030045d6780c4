import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.js';
import { createTestDatabase, usePostgres, type TestDatabase } from '../../test/helpers/database.js';
import { createJobQueue, type JobQueue } from './queue.js';

// Several processes starting at once on a fresh PostgreSQL database all install pg-boss's schema;
// none may fail for it. (The embedded database has one process per data directory.)
describe.runIf(usePostgres)('job queues starting together on a fresh database', () => {
  const opened: (Database | TestDatabase)[] = [];
  const queues: JobQueue[] = [];
  afterAll(async () => {
    for (const queue of queues) await queue.stop();
    for (const database of opened.reverse()) await database.close();
  });

  it('all start, each with its own pool', async () => {
    const fresh = await createTestDatabase();
    opened.push(fresh);
    for (let i = 0; i < 4; i++) {
      const database = await openDatabase({ kind: 'postgres', url: fresh.url!, readUrl: null, poolMax: 2 });
      opened.push(database);
      queues.push(createJobQueue(database, { pollingIntervalSeconds: 0.5 }));
    }
    const started = await Promise.allSettled(queues.map((queue) => queue.work('repo-ingest', async () => {})));
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : s.status))).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(queues.map((queue) => queue.workerStatus().status)).toEqual(['running', 'running', 'running', 'running']);
  }, 60_000);
});
