import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, usePostgres, type TestDatabase } from '../../test/helpers/database.js';
import { httpSession } from '../../test/helpers/http-session.js';
import { startServerScript, type ServerProcess } from '../../test/helpers/process.js';

/** One real server process on the shared database; resolves once it listens. */
const startProcess = (databaseUrl: string) =>
  startServerScript({ DATABASE_URL: databaseUrl, DATABASE_POOL_MAX: '3', LOG_LEVEL: 'silent', SIGNUP_OPEN: 'true' });

/** The setup link the process printed at start-up (path only), if it printed one. */
const setupPathOf = (server: ServerProcess) =>
  /^Set up the dashboard: \S+(\/dashboard\/setup\/[\w-]{43}) \(works once/m.exec(server.output())?.[1];

const listProjects = async (base: string, secret: string) =>
  fetch(`${base}/v1/projects`, { headers: { authorization: `Bearer ${secret}` } }).then(async (r) => ({ status: r.status, body: await r.text() }));

// Two processes need a shared server database; the embedded one belongs to a single process.
describe.runIf(usePostgres)('revocation across two server processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  let dashboard: ReturnType<typeof httpSession>;

  beforeAll(async () => {
    database = await createTestDatabase();
    [a, b] = await Promise.all([startProcess(database.url!), startProcess(database.url!)]);
    dashboard = httpSession(a.url);
    // The first account, through the setup link a process printed at start-up.
    const setup = setupPathOf(a)!;
    expect(setup).toBeDefined();
    await dashboard.request(setup);
    expect((await dashboard.request(setup, { name: 'Ada', email: 'ada@example.com', password: 'correct-horse-battery' })).status).toBe(303);
    await dashboard.request('/dashboard/personal');
    expect((await dashboard.request('/dashboard/personal/projects', { name: 'Shared', slug: 'shared' })).status).toBe(303);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
  });

  async function createKey(name: string, options: { publish?: boolean } = {}) {
    await dashboard.request('/dashboard/personal/keys');
    const page = await dashboard.request('/dashboard/personal/keys', { name, scope: 'all', ...(options.publish ? { publish: 'on' } : {}) });
    const secret = /id="new-secret"[^>]*value="(clk_\w+)"/.exec(page.body)![1]!;
    const id = /href="\/dashboard\/keys\/([0-9a-f-]{36})"/.exec(page.body)![1]!;
    return { secret, id };
  }

  it('a key revoked through process A is refused by process B on the very next request', async () => {
    const key = await createKey('revoke-me');
    for (let i = 0; i < 3; i++) {
      const ok = await listProjects(b!.url, key.secret);
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('"slug":"shared"');
    }
    await dashboard.request(`/dashboard/keys/${key.id}`);
    expect((await dashboard.request(`/dashboard/keys/${key.id}/revoke`, {})).status).toBe(303);
    expect((await listProjects(b!.url, key.secret)).status).toBe(401);
    expect((await listProjects(a!.url, key.secret)).status).toBe(401);
  });

  it('a publishing key revoked through process A can no longer publish through process B', async () => {
    const key = await createKey('ci-publish', { publish: true });
    expect((await dashboard.request(`/dashboard/keys/${key.id}`)).body).toContain('read and publish');
    const drafts = () => fetch(`${b!.url}/v1/projects/shared/drafts/entries`, { headers: { authorization: `Bearer ${key.secret}` } });
    const publish = () =>
      fetch(`${b!.url}/v1/projects/shared/releases/unreleased/publish`, { method: 'POST', headers: { authorization: `Bearer ${key.secret}` } });
    expect((await drafts()).status).toBe(200);
    expect((await publish()).status).toBe(404); // no such note yet: the key was let through to the project
    await dashboard.request(`/dashboard/keys/${key.id}`);
    expect((await dashboard.request(`/dashboard/keys/${key.id}/revoke`, {})).status).toBe(303);
    expect((await drafts()).status).toBe(401);
    expect((await publish()).status).toBe(401);
  });

  it('a key deleted through process A is refused by process B on the very next request', async () => {
    const key = await createKey('delete-me');
    expect((await listProjects(b!.url, key.secret)).status).toBe(200);
    await dashboard.request(`/dashboard/keys/${key.id}`);
    expect((await dashboard.request(`/dashboard/keys/${key.id}/delete`, {})).status).toBe(303);
    expect((await listProjects(b!.url, key.secret)).status).toBe(401);
  });

  it('a key rotated through process A without grace: B refuses the old secret and accepts the new one at once', async () => {
    const key = await createKey('rotate-me');
    expect((await listProjects(b!.url, key.secret)).status).toBe(200);
    await dashboard.request(`/dashboard/keys/${key.id}`);
    const page = await dashboard.request(`/dashboard/keys/${key.id}/rotate`, { grace: '0' });
    const fresh = /id="new-secret"[^>]*value="(clk_\w+)"/.exec(page.body)![1]!;
    expect((await listProjects(b!.url, key.secret)).status).toBe(401);
    expect((await listProjects(b!.url, fresh)).status).toBe(200);
  });
});
