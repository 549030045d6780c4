import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../src/services.js';
import { createTestDatabase, usePostgres, type TestDatabase } from './helpers/database.js';
import { buildProject, buildUser, insertEntries } from './helpers/factories.js';
import { startServerProcess, type ServerProcess } from './helpers/processes.js';

/**
 * Two API processes on one PostgreSQL, each with its own response cache: a change made anywhere
 * reaches both within a second, and a revoked key is refused by both at once. (PGlite is one
 * process by design, so this runs on PostgreSQL only.)
 */
describe.runIf(usePostgres)('two server processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let services: Services;
  let servers: ServerProcess[] = [];
  let slug: string;
  let entryId: string;
  let projectId: string;
  let secret: string;
  let keyId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    services = createServices(database);
    const user = await buildUser(services);
    const project = await buildProject(services, { type: 'user', email: user.email });
    slug = project.slug;
    projectId = project.id;
    [entryId] = (await insertEntries(services, project.id, [{ status: 'draft', title: 'Coming soon' }])) as [string];
    await insertEntries(services, project.id, [{ status: 'published', title: 'Old news', published_at: new Date('2026-01-01') }]);
    const key = await services.keys.create({ name: 'k', context: { type: 'user', email: user.email } });
    secret = key.secret;
    keyId = key.key.id;
    servers = await Promise.all([1, 2].map(() => startServerProcess({ DATABASE_URL: database.url! })));
  }, 150_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
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
    throw new Error(`not visible within ${ms} ms`);
  }

  it('serves a publish in every process within one second, and an unpublish too', async () => {
    for (const server of servers) {
      expect(await titles(server)).toEqual(['Old news']);
      const again = await fetch(`${server.url}/v1/changelog/${slug}`);
      expect(again.headers.get('x-cache')).toBe('hit'); // each process now answers from its cache
    }
    await services.entries.publish(entryId);
    for (const server of servers) {
      const took = await within(1_000, async () => (await titles(server)).includes('Coming soon'));
      expect(took).toBeLessThan(1_000);
    }
    await services.entries.unpublish(entryId);
    for (const server of servers) await within(1_000, async () => !(await titles(server)).includes('Coming soon'));
  });

  it('serves an edit made by plain SQL (the trigger announces it)', async () => {
    for (const server of servers) await titles(server);
    await database.db.updateTable('changelog_entries').set({ title: 'Old news, edited' }).where('project_id', '=', projectId).where('status', '=', 'published').execute();
    for (const server of servers) await within(1_000, async () => (await titles(server)).includes('Old news, edited'));
  });

  it('refuses a revoked key in every process on the very next request', async () => {
    for (const server of servers) {
      const res = await fetch(`${server.url}/v1/projects`, { headers: { authorization: `Bearer ${secret}` } });
      expect(res.status).toBe(200);
    }
    await services.keys.revoke(keyId);
    for (const server of servers) {
      const res = await fetch(`${server.url}/v1/projects`, { headers: { authorization: `Bearer ${secret}` } });
      expect(res.status).toBe(401);
    }
  });
});
