import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { cachedDatasetRepo, commitCount, DATASETS_DIR, tempDir } from '../../test/helpers/git-fixtures.js';
import { waitFor } from '../../test/helpers/scm.js';
import { createServices } from '../services.js';
import { startWorker } from './worker.js';

// Graceful shutdown with the worker in-process: stopping the queue (what closing the app does on
// SIGTERM) lets the running ingest finish the batch it is storing, then ends it; the next process
// picks the job up and stores the rest exactly once.
describe('stopping the worker during an ingest', () => {
  let database: TestDatabase;
  let scratch: string;
  let origin: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    scratch = tempDir('worker-shutdown');
    // 7,157 commits: eight batches, so the stop lands between two of them.
    origin = cachedDatasetRepo(join(DATASETS_DIR, 'vue-core-history.jsonl.gz'), 'vue-core');
  }, 180_000);

  afterAll(async () => {
    await database?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('ends after the current batch, and the next start finishes the job with no duplicates', async () => {
    const config = testConfig({ REPOS_DIR: join(scratch, 'repos') });
    const jobs = { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 };
    const first = createServices(database, config, { jobs });
    const user = await buildUser(first);
    const project = await buildProject(first, { type: 'user', email: user.email });
    const { link } = await first.repos.linkLocalRepo({ projectSlug: project.slug, source: origin, branch: 'main' });
    const expected = commitCount(origin);
    const db = database.db;
    const stored = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM commits WHERE repo_link_id = ${link.id}`.execute(db)).rows[0]!.n);

    await startWorker(first);
    await waitFor(async () => ((await stored()) > 0 ? true : undefined), 60_000, 'the first stored batch');
    const stopping = Date.now();
    await first.jobs.stop();
    const stopMs = Date.now() - stopping;

    const partial = await stored();
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(expected);
    // Whole batches only, and nothing is stored after the stop returned.
    expect(partial % 1000).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await stored()).toBe(partial);
    // Well before pg-boss's own 10 s stop timeout: the ingest ended, it was not abandoned.
    expect(stopMs).toBeLessThan(10_000);
    const row = await db.selectFrom('repo_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ingesting', last_ingested_sha: null, last_error: null });
    // An interruption is not a failure.
    expect(first.jobs.failures()['repo-ingest']).toBe(0);

    // The next process.
    const second = createServices(database, config, { jobs });
    await startWorker(second);
    try {
      await waitFor(async () => {
        const current = await db.selectFrom('repo_links').select('status').where('id', '=', link.id).executeTakeFirstOrThrow();
        return current.status === 'active' ? true : undefined;
      }, 60_000, 'the resumed ingest');
      const { rows } = await sql<{ total: string; distinct_shas: string }>`
        SELECT count(*) AS total, count(DISTINCT sha) AS distinct_shas FROM commits WHERE repo_link_id = ${link.id}`.execute(db);
      expect({ total: Number(rows[0]!.total), distinct: Number(rows[0]!.distinct_shas) }).toEqual({ total: expected, distinct: expected });
    } finally {
      await second.jobs.stop();
    }
  }, 150_000);
});
