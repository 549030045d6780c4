import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import { createServices, type Services } from '../src/services.js';
import { testConfig } from './helpers/config.js';
import { createTestDatabase, usePostgres, type TestDatabase } from './helpers/database.js';
import { httpSession } from './helpers/http-session.js';
import { startServerScript, type ServerProcess } from './helpers/process.js';

const CLI = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

/**
 * The scale-out shape on one PostgreSQL: two API processes (each with its own response cache,
 * no worker) and one `changelog worker`. A publish through A's dashboard is served by B within a
 * second; a key revoked through A is refused by B at once; the worker, not an API process, ingests
 * a newly linked repository. (PGlite belongs to one process, so this runs on PostgreSQL only.)
 */
describe.runIf(usePostgres)('two API processes and one worker on one PostgreSQL', () => {
  let database: TestDatabase;
  let services: Services;
  let servers: ServerProcess[] = [];
  let worker: ChildProcess | undefined;
  let repoDir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let dashboard: ReturnType<typeof httpSession>;
  let slug: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    services = createServices(database, testConfig({ DATABASE_URL: database.url! }));
    const env = { DATABASE_URL: database.url!, WORKER_IN_PROCESS: 'false', SIGNUP_OPEN: 'true' };
    servers = await Promise.all([1, 2].map(() => startServerScript(env, { migrate: false })));
    [a, b] = servers as [ServerProcess, ServerProcess];
    worker = spawn(process.execPath, ['--import', 'tsx', CLI, 'worker'], {
      env: { ...process.env, ...env, NODE_ENV: 'test', LOG_LEVEL: 'warn', REPOS_DIR: mkdtempSync(join(tmpdir(), 'worker-repos-')) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let err = '';
      worker!.stderr!.on('data', (chunk) => {
        err += String(chunk);
        if (err.includes('Worker running')) resolve();
      });
      worker!.on('exit', (code) => reject(new Error(`worker exited ${code}: ${err}`)));
    });

    dashboard = httpSession(a.url);
    // The first account, through a setup link (each process printed one too).
    const setup = `/dashboard/setup/${(await services.accounts.firstAccountSetupLink())!.token}`;
    await dashboard.request(setup);
    expect((await dashboard.request(setup, { name: 'Ada', email: 'ada@example.com', password: 'correct-horse-battery' })).status).toBe(303);
    await dashboard.request('/dashboard/personal');
    expect((await dashboard.request('/dashboard/personal/projects', { name: 'Scaled', slug: 'scaled' })).status).toBe(303);
    slug = 'scaled';

    // A small local repository for the worker to ingest.
    repoDir = mkdtempSync(join(tmpdir(), 'scale-repo-'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repoDir, env: { ...process.env, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' } });
    git('init', '-q', '-b', 'main');
    for (const n of [1, 2, 3]) {
      writeFileSync(join(repoDir, `f${n}.txt`), String(n));
      git('add', '.');
      git('commit', '-q', '-m', `feat: change ${n}`);
    }
  }, 150_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker!.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
    }
    if (repoDir) rmSync(repoDir, { recursive: true, force: true });
    await database?.close();
  });

  const titles = async (server: ServerProcess) => {
    const res = await fetch(`${server.url}/v1/changelog/${slug}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { entries: { title: string }[] }).entries.map((e) => e.title);
  };

  async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
    const start = Date.now();
    while (Date.now() - start < ms) {
      if (await check()) return Date.now() - start;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`not true within ${ms} ms`);
  }

  it('serves a publish made through A from B (and A) within one second', async () => {
    const [draftId] = (await services.entries.import(slug, [{ entry_type: 'weekly', title: 'Coming soon' }])).ids as [string];
    for (const server of servers) {
      expect(await titles(server)).toEqual([]);
      // Both now answer from their caches (once the import's own change notification has arrived:
      // on a busy machine it can land after the first read and rightly drop what that read stored).
      await within(1000, async () => (await fetch(`${server.url}/v1/changelog/${slug}`)).headers.get('x-cache') === 'hit');
    }
    await dashboard.request(`/dashboard/entries/${draftId}`);
    const published = await dashboard.request(`/dashboard/entries/${draftId}/status`, { status: 'published' });
    expect(published.status).toBe(303);
    const tookB = await within(1_000, async () => (await titles(b)).includes('Coming soon'));
    expect(tookB).toBeLessThan(1_000);
    await within(1_000, async () => (await titles(a)).includes('Coming soon'));

    await dashboard.request(`/dashboard/entries/${draftId}/status`, { status: 'draft' });
    await within(1_000, async () => !(await titles(b)).includes('Coming soon'));
  });

  it('refuses a key revoked through A on B at once', async () => {
    await dashboard.request('/dashboard/personal/keys');
    const page = await dashboard.request('/dashboard/personal/keys', { name: 'scaled-key', scope: 'all' });
    const secret = /id="new-secret"[^>]*value="(clk_\w+)"/.exec(page.body)![1]!;
    const id = /href="\/dashboard\/keys\/([0-9a-f-]{36})"/.exec(page.body)![1]!;
    const list = (server: ServerProcess) => fetch(`${server.url}/v1/projects`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await list(b)).status).toBe(200);
    await dashboard.request(`/dashboard/keys/${id}`);
    expect((await dashboard.request(`/dashboard/keys/${id}/revoke`, {})).status).toBe(303);
    expect((await list(b)).status).toBe(401);
    expect((await list(a)).status).toBe(401);
  });

  it('lets the worker, not an API process, ingest a newly linked repository', async () => {
    let out = '';
    const io = { stdout: (t: string) => void (out += t), stderr: () => {}, env: { NODE_ENV: 'test', DATABASE_URL: database.url! } };
    expect(await main(['node', 'changelog', 'repos', 'link', '--project', slug, '--path', repoDir, '--json'], io)).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ created: true });
    const count = async () =>
      Number((await database.db.selectFrom('commits').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    await within(30_000, async () => (await count()) === 3);
    expect(await count()).toBe(3);
  });
});
