/**
 * A generation run over GENERATION_TIME_BUDGET_MS is stopped (its worker thread terminated) and
 * its job fails with that error recorded on the job, where /metrics and pg-boss's tables show it.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { waitFor } from '../../test/helpers/scm.js';
import { createServices, type Services } from '../services.js';
import { startWorker } from './worker.js';

let database: TestDatabase;
let services: Services;
const scratch: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const reposDir = tempDir('budget-mirrors');
  scratch.push(reposDir);
  // 1 ms: starting the worker thread alone takes longer, so every run is over budget.
  const config = testConfig({ REPOS_DIR: reposDir, GENERATION_TIME_BUDGET_MS: '1' });
  services = createServices(database, config, { jobs: { pollingIntervalSeconds: 0.5, queues: { generate: { retryLimit: 0 } } } });
  await startWorker(services);
});

afterAll(async () => {
  await services?.jobs.stop();
  await database?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('generation time budget', () => {
  it('fails the generate job with the budget error instead of running on', async () => {
    const parent = tempDir('budget');
    scratch.push(parent);
    const dir = join(parent, 'repo');
    execFileSync('git', ['init', '--quiet', '--initial-branch=main', dir]);
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    execFileSync('git', ['-C', dir, 'add', '-A']);
    execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'feat: one']);
    const user = await buildUser(services);
    const project = await buildProject(services, { type: 'user', email: user.email }, { slug: 'budget' });
    // Linking queues the first ingest, which queues generation.
    await services.repos.linkLocalRepo({ projectSlug: project.slug, source: dir, branch: 'main' });

    const failed = await waitFor(
      async () => {
        const { rows } = await sql<{ state: string; output: { message?: string } | null }>`
          SELECT state::text AS state, output FROM pgboss.job WHERE name = 'generate' AND data->>'projectId' = ${project.id}`.execute(database.db);
        return rows.find((r) => r.state === 'failed');
      },
      30_000,
      'the generate job to fail',
    );
    expect(failed.output?.message).toBe('generation exceeded its time budget of 1 ms (GENERATION_TIME_BUDGET_MS) and was stopped');
    expect(services.jobs.failures().generate).toBe(1);
    // Nothing half-written: the run's transaction rolled back.
    const entries = await database.db.selectFrom('changelog_entries').select('id').where('project_id', '=', project.id).execute();
    expect(entries).toEqual([]);
    // The commits were ingested all the same.
    expect((await services.repos.listLinks(project.slug)).links[0]?.status).toBe('active');
  }, 60_000);
});
