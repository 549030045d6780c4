import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import { createServices, type Services } from '../src/services.js';
import { testConfig } from './helpers/config.js';
import { createTestDatabase, seedDataDir, usePostgres, type TestDatabase } from './helpers/database.js';
import { httpSession } from './helpers/http-session.js';
import { startServerScript, type ServerProcess } from './helpers/process.js';

const CLI = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed CLI output, checked field by field
type Json = any;

async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`not true within ${ms} ms`);
}

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

/**
 * The embedded default: `changelog serve` holds DATA_DIR and shares it over its socket, so CLI
 * commands run while it serves (each a real process, as from a shell) and the server sees their
 * writes at once, cache included. Once it stops, or after it crashed, the CLI opens the directory
 * itself.
 */
describe.skipIf(usePostgres)('the CLI beside a server on the embedded database', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  const env = () => ({ ...process.env, DATABASE_URL: '', NODE_ENV: 'test', LOG_LEVEL: 'warn', DATA_DIR: dataDir, REPOS_DIR: join(dataDir, 'repos') });

  /** Runs `changelog ...args --json` in its own process; resolves with its exit code and output. */
  const cli = (...args: string[]) =>
    new Promise<{ code: number | null; json: Json; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args, '--json'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (chunk) => (stdout += String(chunk)));
      child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
      child.on('exit', (code) => resolve({ code, json: stdout ? JSON.parse(stdout) : null, stderr }));
    });
  const ok = async (...args: string[]) => {
    const result = await cli(...args);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return result.json;
  };
  /**
   * `changelog ...args --json` in this process, with the same environment: for setting up what a test
   * then checks from other processes. It reaches the directory as a process of its own would (the lock,
   * then the holder's socket), without paying a process's start (seconds on a busy machine).
   */
  const okHere = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t), env: env() };
    const code = await main(['node', 'changelog', ...args, '--json'], io);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    return JSON.parse(stdout) as Json;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'shared-pglite-'));
    await seedDataDir(dataDir);
    server = await startServerScript({ DATABASE_URL: '', DATA_DIR: dataDir, REPOS_DIR: join(dataDir, 'repos') });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs projects create, keys create and entries publish while the server serves, and the server sees them', async () => {
    const live = server!;
    // The setup: what the three commands below and the server then read.
    await okHere('users', 'create', '--email', 'ada@example.com', '--name', 'Ada');
    await okHere('projects', 'create', '--name', 'Shared', '--slug', 'shared', '--owner', 'user:ada@example.com');
    const entriesFile = join(dataDir, 'entries.json');
    writeFileSync(entriesFile, JSON.stringify([{ entry_type: 'weekly', title: 'Through the socket' }]));
    const [draftId] = (await okHere('entries', 'import', '--project', 'shared', entriesFile)).ids as [string];

    // The public page is cached (and stays right: a miss, then hits) before the publish.
    const page = () => fetch(`${live.url}/v1/changelog/shared`);
    expect(((await (await page()).json()) as { entries: unknown[] }).entries).toEqual([]);
    await within(2_000, async () => (await page()).headers.get('x-cache') === 'hit');

    // Three commands at once, while the server keeps answering requests.
    const reads = (async () => {
      for (let i = 0; i < 20; i++) expect((await fetch(`${live.url}/health`)).status).toBe(200);
    })();
    const [project, key, published] = await Promise.all([
      ok('projects', 'create', '--name', 'Second', '--slug', 'second', '--owner', 'user:ada@example.com'),
      ok('keys', 'create', '--name', 'ci', '--context', 'user:ada@example.com'),
      ok('entries', 'publish', draftId),
      reads,
    ]);
    expect(project).toMatchObject({ slug: 'second' });
    expect(published).toMatchObject({ id: draftId, status: 'published' });

    // The publish dropped the server's cached page (its notification reached the server).
    await within(1_000, async () => {
      const res = await page();
      return ((await res.json()) as { entries: { title: string }[] }).entries.some((e) => e.title === 'Through the socket');
    });
    // The key the CLI made works against the server, which lists the project the CLI made.
    const projects = await fetch(`${live.url}/v1/projects`, { headers: { authorization: `Bearer ${key.key as string}` } });
    expect(projects.status).toBe(200);
    expect(JSON.stringify(await projects.json())).toContain('"second"');
    // The lock names the server's socket.
    expect(readFileSync(join(dataDir, 'changelog.lock'), 'utf8')).toMatch(/\nsocket=.+\.s\.PGSQL\.5432\n/);
  }, 120_000);

  it('runs a separately started worker through the server too', async () => {
    const worker = spawn(process.execPath, ['--import', 'tsx', CLI, 'worker'], { env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    worker.stderr!.on('data', (chunk) => (err += String(chunk)));
    const exited = new Promise<string>((resolve) => worker.on('exit', (code, signal) => resolve(`code ${code} signal ${signal}`)));
    try {
      await within(30_000, async () => err.includes('Worker running'));
      expect(err).toContain(`on the server's embedded database (pid ${server!.child.pid})`);
      // The server keeps answering while the worker polls its queue through it.
      expect((await fetch(`${server!.url}/v1/changelog/shared`)).status).toBe(200);
    } finally {
      // Also when an expectation above fails: a worker left running polls for good.
      worker.kill('SIGTERM');
    }
    expect(await exited, err).toBe('code 0 signal null');
  }, 60_000);

  it('opens the directory itself once the server has stopped', async () => {
    await server!.stop();
    server = undefined;
    expect(existsSync(join(dataDir, 'changelog.lock'))).toBe(false);
    const list = await ok('keys', 'list');
    expect(list.count).toBe(1);
    expect(existsSync(join(dataDir, 'changelog.lock'))).toBe(false);
  }, 60_000);

  it('is not blocked by the lock and socket a crashed server left', async () => {
    const crashed = await startServerScript({ DATABASE_URL: '', DATA_DIR: dataDir, REPOS_DIR: join(dataDir, 'repos') });
    await within(10_000, async () => /socket=/.test(readFileSync(join(dataDir, 'changelog.lock'), 'utf8')));
    crashed.child.kill('SIGKILL');
    await crashed.exited;
    expect(existsSync(join(dataDir, 'changelog.lock'))).toBe(true);
    expect((await ok('keys', 'list')).count).toBe(1);
  }, 120_000);

  it('shares the directory from a worker started alone: CLI commands run beside it, and a server refuses, naming it', async () => {
    const worker = spawn(process.execPath, ['--import', 'tsx', CLI, 'worker'], { env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    worker.stderr!.on('data', (chunk) => (err += String(chunk)));
    const exited = new Promise<number | null>((resolve) => worker.on('exit', resolve));
    try {
      await within(60_000, async () => err.includes('Worker running'));
      expect(err).toContain('Worker running on the embedded database, shared with local processes at ');
      expect(readFileSync(join(dataDir, 'changelog.lock'), 'utf8')).toMatch(/\nsocket=.+\.s\.PGSQL\.5432\nrole=worker\n/);
      // A command beside it goes through its socket.
      await ok('projects', 'create', '--name', 'Beside', '--slug', 'beside', '--owner', 'user:ada@example.com');
      expect((await ok('keys', 'list')).count).toBe(1);
      // The server would run the same jobs: it refuses while the worker holds the directory, and says why.
      const refused = await startServerScript({ DATABASE_URL: '', DATA_DIR: dataDir, REPOS_DIR: join(dataDir, 'repos') }).then(
        (started) => started.stop().then(() => null),
        (error: Error) => error.message,
      );
      expect(refused).toContain(`in use by \`changelog worker\` (pid ${worker.pid}); stop it first (the server runs the background worker itself)`);
    } finally {
      worker.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(existsSync(join(dataDir, 'changelog.lock'))).toBe(false);
  }, 120_000);
});
