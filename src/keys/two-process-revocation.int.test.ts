import { spawn, type ChildProcess } from 'node:child_process';
import { TEST_ENV } from '../../test/helpers/config.js';
import { httpSession } from '../../test/helpers/http-session.js';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, usePostgres, type TestDatabase } from '../../test/helpers/database.js';

const SERVE = fileURLToPath(new URL('../../test/helpers/serve.ts', import.meta.url));

interface Server {
  child: ChildProcess;
  base: string;
  /** The setup link the process printed at start-up (path only), if it printed one. */
  setupPath?: string | undefined;
}

/** One real server process on the shared database; resolves once it listens. */
function startProcess(databaseUrl: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVE], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: '3',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'false',
      SIGNUP_OPEN: 'true',
      ...TEST_ENV,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 45_000);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
    let setupPath: string | undefined;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      // Printed before it listens while the installation has no account: the operator's setup link.
      setupPath ??= /^Set up the dashboard: \S+(\/dashboard\/setup\/[\w-]{43}) \(works once/.exec(line)?.[1];
      const match = /^\{"port":(\d+)\}$/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: `http://127.0.0.1:${match[1]}`, setupPath });
      }
    });
  });
}

async function stopProcess(server: Server | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

const listProjects = async (base: string, secret: string) =>
  fetch(`${base}/v1/projects`, { headers: { authorization: `Bearer ${secret}` } }).then(async (r) => ({ status: r.status, body: await r.text() }));

// Two processes need a shared server database; the embedded one belongs to a single process.
describe.runIf(usePostgres)('revocation across two server processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let a: Server | undefined;
  let b: Server | undefined;
  let dashboard: ReturnType<typeof httpSession>;

  beforeAll(async () => {
    database = await createTestDatabase();
    [a, b] = await Promise.all([startProcess(database.url!), startProcess(database.url!)]);
    dashboard = httpSession(a.base);
    // The first account, through the setup link a process printed at start-up.
    const setup = a.setupPath!;
    expect(setup).toBeDefined();
    await dashboard.request(setup);
    expect((await dashboard.request(setup, { name: 'Ada', email: 'ada@example.com', password: 'correct-horse-battery' })).status).toBe(303);
    await dashboard.request('/dashboard/personal');
    expect((await dashboard.request('/dashboard/personal/projects', { name: 'Shared', slug: 'shared' })).status).toBe(303);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([stopProcess(a), stopProcess(b)]);
    await database?.close();
  });

  async function createKey(name: string) {
    await dashboard.request('/dashboard/personal/keys');
    const page = await dashboard.request('/dashboard/personal/keys', { name, scope: 'all' });
    const secret = /id="new-secret"[^>]*value="(clk_\w+)"/.exec(page.body)![1]!;
    const id = /href="\/dashboard\/keys\/([0-9a-f-]{36})"/.exec(page.body)![1]!;
    return { secret, id };
  }

  it('a key revoked through process A is refused by process B on the very next request', async () => {
    const key = await createKey('revoke-me');
    for (let i = 0; i < 3; i++) {
      const ok = await listProjects(b!.base, key.secret);
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('"slug":"shared"');
    }
    await dashboard.request(`/dashboard/keys/${key.id}`);
    expect((await dashboard.request(`/dashboard/keys/${key.id}/revoke`, {})).status).toBe(303);
    expect((await listProjects(b!.base, key.secret)).status).toBe(401);
    expect((await listProjects(a!.base, key.secret)).status).toBe(401);
  });

  it('a key deleted through process A is refused by process B on the very next request', async () => {
    const key = await createKey('delete-me');
    expect((await listProjects(b!.base, key.secret)).status).toBe(200);
    await dashboard.request(`/dashboard/keys/${key.id}`);
    expect((await dashboard.request(`/dashboard/keys/${key.id}/delete`, {})).status).toBe(303);
    expect((await listProjects(b!.base, key.secret)).status).toBe(401);
  });

  it('a key rotated through process A without grace: B refuses the old secret and accepts the new one at once', async () => {
    const key = await createKey('rotate-me');
    expect((await listProjects(b!.base, key.secret)).status).toBe(200);
    await dashboard.request(`/dashboard/keys/${key.id}`);
    const page = await dashboard.request(`/dashboard/keys/${key.id}/rotate`, { grace: '0' });
    const fresh = /id="new-secret"[^>]*value="(clk_\w+)"/.exec(page.body)![1]!;
    expect((await listProjects(b!.base, key.secret)).status).toBe(401);
    expect((await listProjects(b!.base, fresh)).status).toBe(200);
  });
});
