import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { waitFor } from '../../test/helpers/scm.js';
import { buildApp } from '../app.js';
import { createServices, type Services } from '../services.js';
import { startWorker } from './worker.js';

const METRICS_TOKEN = 'metrics-token-jobs-0123456789';
let database: TestDatabase;
let services: Services;
let app: FastifyInstance;
let reposDir: string;
let sourceDir: string;
let goodLinkId: string;
const scratch: string[] = [];

/** A small non-bare repository with a few commits on main. */
function smallRepo(): string {
  const parent = tempDir('observability');
  scratch.push(parent);
  const dir = join(parent, 'repo');
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', dir]);
  for (let i = 0; i < 3; i++) {
    writeFileSync(join(dir, `f${i}.txt`), `change ${i}\n`);
    execFileSync('git', ['-C', dir, 'add', '-A']);
    execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', `feat: change ${i}`]);
  }
  return dir;
}

const metrics = async () => {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};
/** The value of one series, or undefined when it is absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
  database = await createTestDatabase();
  reposDir = tempDir('observability-mirrors');
  const config = testConfig({ METRICS_TOKEN, REPOS_DIR: reposDir });
  // Failed attempts wait a minute before retrying: the failure stays visible as "retry" during the test.
  services = createServices(database, config, { jobs: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 60 } });
  app = await buildApp({ config, database, services });
  const user = await buildUser(services);
  const good = await buildProject(services, { type: 'user', email: user.email }, { slug: 'good' });
  const broken = await buildProject(services, { type: 'user', email: user.email }, { slug: 'broken' });
  sourceDir = smallRepo();
  goodLinkId = (await services.repos.linkLocalRepo({ projectSlug: good.slug, source: sourceDir, branch: 'main' })).link.id;
  // Linked, then the repository disappears: every ingest of it fails.
  const gone = smallRepo();
  await services.repos.linkLocalRepo({ projectSlug: broken.slug, source: gone, branch: 'main' });
  rmSync(gone, { recursive: true, force: true });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  for (const dir of [reposDir, ...scratch]) rmSync(dir, { recursive: true, force: true });
});

describe('job queue observability', () => {
  it('/ready has no job queue check while this process runs no worker', async () => {
    const res = await app.inject({ url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json().checks).not.toHaveProperty('jobQueue');
  });

  it('/metrics reports ingest lag for links that never ingested, counted from linking', async () => {
    const text = await metrics();
    const lag = sample(text, `ingest_lag_seconds{project="good",repo="${sourceDir}",branch="main"}`);
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(120);
  });

  it('with the worker running: /ready checks the queue, /metrics shows depth, failures and lag per repository', async () => {
    await startWorker(services);
    const ready = await app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks.jobQueue).toEqual({ status: 'ok' });

    await waitFor(async () => ((await services.repos.listLinks('good')).links[0]?.status === 'active' ? true : undefined), 20_000, 'the good ingest');
    // The failure counter moves when the handler throws, and the link when the ingest ends, each a
    // moment before the queue records the job's state: wait for the states /metrics reads from the
    // queue — the failed job waiting for its retry, the good one completed and counted nowhere.
    const settled = (text: string) =>
      sample(text, 'job_queue_jobs{queue="repo-ingest",state="retry"}') === 1 && sample(text, 'job_queue_jobs{queue="repo-ingest",state="active"}') === 0;
    const text = await waitFor(async () => {
      const current = await metrics();
      return settled(current) ? current : undefined;
    }, 20_000, 'one ingest waiting for its retry and none active in /metrics');
    expect(sample(text, 'job_failures_total{queue="repo-ingest"}')).toBe(1);
    expect(sample(text, 'job_queue_jobs{queue="repo-ingest",state="failed"}')).toBe(0);
    expect(sample(text, `ingest_lag_seconds{project="good",repo="${sourceDir}",branch="main"}`)).toBeLessThan(60);
    expect(text).toMatch(/^ingest_lag_seconds\{project="broken",repo="[^"]+",branch="main"\} \d/m);

    // Lag is measured from the last successful ingest.
    await database.db.updateTable('repo_links').set({ last_ingested_at: new Date(Date.now() - 3_600_000) }).where('id', '=', goodLinkId).execute();
    const later = sample(await metrics(), `ingest_lag_seconds{project="good",repo="${sourceDir}",branch="main"}`)!;
    expect(later).toBeGreaterThanOrEqual(3600);
    expect(later).toBeLessThan(3700);
  }, 60_000);

  it('/ready fails once the queue is stopping (shutdown)', async () => {
    await services.jobs.stop();
    const res = await app.inject({ url: '/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks.jobQueue).toEqual({ status: 'failing', reason: 'the job queue is stopping' });
  });
});
