import { testConfig } from '../../test/helpers/config.js';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { insertEntries } from '../../test/helpers/factories.js';
import { DashboardClient, secretOn, signUpTeam, type PageResponse, type Person } from '../../test/helpers/dashboard-client.js';
import { buildApp } from '../app.js';
import { hashKey } from '../keys/key-format.js';
import { createServices, type Services } from '../services.js';

let database: TestDatabase;
let services: Services;
let app: FastifyInstance;
const lines: string[] = [];
let people: Record<Person, DashboardClient>;

beforeAll(async () => {
  database = await createTestDatabase();
  const config = testConfig({ LOG_LEVEL: 'trace', SIGNUP_OPEN: 'true' });
  services = createServices(database, config);
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  app = await buildApp({ config, database, services, logStream });
  // acme: alice owner, bob admin, carol member; dave is not in it.
  people = await signUpTeam(app, services, { bob: 'admin', carol: 'member' });
  await people.alice.submit('/dashboard/orgs/acme', '/dashboard/orgs/acme/projects', { name: 'Acme App', slug: 'acme-app' });
  await people.alice.submit('/dashboard/personal', '/dashboard/personal/projects', { name: 'Alice Blog', slug: 'alice-blog' });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const keyCount = async () => Number((await database.db.selectFrom('api_keys').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const keyIdOn = (page: PageResponse) => /href="\/dashboard\/keys\/([0-9a-f-]{36})"/.exec(page.body)![1]!;

async function createKey(who: DashboardClient, base: string, form: Record<string, string | string[]>) {
  const page = await who.submit(`${base}/keys`, `${base}/keys`, form);
  expect(page.status).toBe(200);
  return { secret: secretOn(page), id: keyIdOn(page) };
}

describe('CSRF', () => {
  it('refuses a state change with a missing, wrong or foreign token (403) and changes nothing', async () => {
    const before = await keyCount();
    await people.alice.get('/dashboard/personal/keys');
    const bobToken = (await people.bob.get('/dashboard')).body.match(/name="_csrf" value="([^"]+)"/)![1]!;
    for (const _csrf of [null, '', 'x'.repeat(43), bobToken]) {
      const res = await people.alice.post('/dashboard/personal/keys', { _csrf, name: 'forged', scope: 'all' });
      expect(res.status).toBe(403);
      expect(res.body).toContain('did not come from this site');
    }
    expect(await keyCount()).toBe(before);
  });

  it('guards revoke, delete, project deletion and sign-out the same way', async () => {
    const key = await createKey(people.alice, '/dashboard/personal', { name: 'guarded', scope: 'all' });
    for (const action of ['revoke', 'delete', 'rename', 'rotate']) {
      expect((await people.alice.post(`/dashboard/keys/${key.id}/${action}`, { _csrf: 'wrong', name: 'x', grace: '0' })).status).toBe(403);
    }
    const after = await services.keys.get(key.id);
    expect(after.revoked_at).toBeNull();
    expect(after.name).toBe('guarded');
    expect((await app.inject({ url: '/v1/projects', headers: { authorization: `Bearer ${key.secret}` } })).statusCode).toBe(200);

    expect((await people.alice.post('/dashboard/projects/alice-blog/delete', { _csrf: null, confirm: 'alice-blog' })).status).toBe(403);
    expect(await services.projects.findBySlug('alice-blog')).toBeDefined();

    const sessions = await database.db.selectFrom('sessions').select('id').execute();
    expect((await people.alice.post('/logout', { _csrf: 'nope' })).status).toBe(403);
    expect(await database.db.selectFrom('sessions').select('id').execute()).toHaveLength(sessions.length);
  });

  it('refuses sign-in and sign-up forms without the pre-session token', async () => {
    const stranger = new DashboardClient(app);
    expect((await stranger.post('/login', { _csrf: null, email: 'alice@example.com', password: 'correct-horse-battery' })).status).toBe(403);
    expect((await stranger.post('/dashboard/signup', { _csrf: 'x', name: 'M', email: 'm@example.com', password: 'long-enough-pw' })).status).toBe(403);
    expect(await database.db.selectFrom('users').select('id').where('email', '=', 'm@example.com').executeTakeFirst()).toBeUndefined();
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, path-wide, expiring, and not Secure on http', async () => {
    const res = await new DashboardClient(app).signIn('dave@example.com');
    const cookie = res.setCookies.find((c) => c.startsWith('cl_session='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Expires=/);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('is Secure when the public URL is https', async () => {
    const config = testConfig({ PUBLIC_URL: 'https://changelog.example.com', SIGNUP_OPEN: 'true' });
    const secureApp = await buildApp({ config, database, services: createServices(database, config) });
    try {
      const res = await new DashboardClient(secureApp).signIn('dave@example.com');
      expect(res.status).toBe(303);
      const cookie = res.setCookies.find((c) => c.startsWith('cl_session='))!;
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
    } finally {
      await secureApp.close();
    }
  });
});

describe('Cache-Control', () => {
  it('keeps every page private and unstored, signed in or not, errors and redirects too; only assets are shared', async () => {
    const anonymous = new DashboardClient(app);
    const pages = [
      await people.alice.get('/dashboard'),
      await people.alice.get('/dashboard/personal/keys'),
      await people.alice.post('/dashboard/personal/keys', { _csrf: 'forged', name: 'x', scope: 'all' }),
      await people.dave.get('/dashboard/orgs/acme'),
      await anonymous.get('/login'),
      await anonymous.get('/dashboard/personal/keys'),
    ];
    expect(pages.map((p) => p.status)).toEqual([200, 200, 403, 404, 200, 303]);
    for (const page of pages) expect(page.headers['cache-control']).toBe('private, no-store');
    const css = /href="(\/dashboard\/assets\/dashboard\.css\?v=\w+)"/.exec(pages[0]!.body)![1]!;
    expect((await anonymous.get(css)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await anonymous.get('/dashboard/assets/nothing.css')).headers['cache-control']).toBe('private, no-store');
  });
});

describe('form errors', () => {
  it('list at most 20 problems and count the rest, however many unknown fields a form has', async () => {
    await people.alice.get('/dashboard/projects/alice-blog/webhooks');
    const form: Record<string, string> = { url: 'https://hooks.example.com/x' };
    for (let i = 0; i < 500; i++) form[`unknown_${i}`] = 'x';
    const page = await people.alice.post('/dashboard/projects/alice-blog/webhooks', form);
    expect(page.status).toBe(400);
    expect(page.body).toContain('…and 480 more problems');
    expect(page.body.length).toBeLessThan(20_000);
  });
});

describe('who may manage which keys', () => {
  let orgKey: { id: string; secret: string };
  let alicePersonal: { id: string; secret: string };
  let carolPersonal: { id: string; secret: string };

  beforeAll(async () => {
    orgKey = await createKey(people.alice, '/dashboard/orgs/acme', { name: 'acme-ci', scope: 'selected', projects: 'acme-app' });
    alicePersonal = await createKey(people.alice, '/dashboard/personal', { name: 'alice-own', scope: 'all' });
    carolPersonal = await createKey(people.carol, '/dashboard/personal', { name: 'carol-own', scope: 'all' });
  });

  it('lets org owners and admins see and manage org keys', async () => {
    for (const who of [people.alice, people.bob]) {
      const list = await who.get('/dashboard/orgs/acme/keys');
      expect(list.status).toBe(200);
      expect(list.body).toContain('acme-ci');
      expect(list.body).not.toContain('alice-own');
      expect((await who.get(`/dashboard/keys/${orgKey.id}`)).status).toBe(200);
    }
    const renamed = await people.bob.submit(`/dashboard/keys/${orgKey.id}`, `/dashboard/keys/${orgKey.id}/rename`, { name: 'acme-ci-2' });
    expect(renamed.status).toBe(303);
    const created = await createKey(people.bob, '/dashboard/orgs/acme', { name: 'bob-made', scope: 'all' });
    expect((await services.keys.get(created.id)).org_id).not.toBeNull();
  });

  it('keeps members and outsiders away from org keys: no list, no create, no edit route', async () => {
    expect((await people.carol.get('/dashboard/orgs/acme/keys')).status).toBe(403);
    expect((await people.dave.get('/dashboard/orgs/acme/keys')).status).toBe(404);
    const before = await keyCount();
    expect((await people.carol.post('/dashboard/orgs/acme/keys', { name: 'sneaky', scope: 'all' })).status).toBe(403);
    expect(await keyCount()).toBe(before);
    for (const who of [people.carol, people.dave]) {
      await who.get('/dashboard');
      const page = await who.get(`/dashboard/keys/${orgKey.id}`);
      expect(page.status).toBe(404);
      expect(page.body).not.toContain('acme-ci');
      for (const action of ['rename', 'rotate', 'revoke', 'delete']) {
        await who.get('/dashboard');
        expect((await who.post(`/dashboard/keys/${orgKey.id}/${action}`, { name: 'taken-over', grace: '0' })).status).toBe(404);
      }
    }
    const key = await services.keys.get(orgKey.id);
    expect(key.name).toBe('acme-ci-2');
    expect(key.revoked_at).toBeNull();
    expect((await app.inject({ url: '/v1/projects', headers: { authorization: `Bearer ${orgKey.secret}` } })).statusCode).toBe(200);
  });

  it('creates a key with the publish scope only when its box is ticked, and says which keys have it', async () => {
    const publishing = await createKey(people.bob, '/dashboard/orgs/acme', { name: 'acme-release', scope: 'selected', projects: 'acme-app', publish: 'on' });
    expect(await services.keys.get(publishing.id)).toMatchObject({ can_publish: true, projects: ['acme-app'] });
    expect((await services.keys.get(orgKey.id)).can_publish).toBe(false);
    expect((await people.bob.get(`/dashboard/keys/${publishing.id}`)).body).toContain('read and publish');
    const list = (await people.alice.get('/dashboard/orgs/acme/keys')).body;
    expect(list).toContain('name="publish"');
    const rowOf = (name: string) => list.split('<tr>').find((row) => row.includes(`>${name}</a>`)) ?? '';
    expect(rowOf('acme-release')).toContain('read and publish');
    expect(rowOf('acme-ci-2')).not.toContain('publish');
    // Only "on" means ticked: anything else is a 400 and no key.
    const before = await keyCount();
    await people.bob.get('/dashboard/orgs/acme/keys');
    expect((await people.bob.submit('/dashboard/orgs/acme/keys', '/dashboard/orgs/acme/keys', { name: 'odd', scope: 'all', publish: 'yes' })).status).toBe(400);
    expect(await keyCount()).toBe(before);
  });

  it('keeps personal keys to their owner, even from the org owner', async () => {
    expect((await people.carol.get('/dashboard/personal/keys')).body).toContain('carol-own');
    expect((await people.carol.get('/dashboard/personal/keys')).body).not.toContain('alice-own');
    expect((await people.alice.get('/dashboard/personal/keys')).body).not.toContain('carol-own');
    for (const [who, key] of [
      [people.alice, carolPersonal],
      [people.bob, carolPersonal],
      [people.carol, alicePersonal],
    ] as const) {
      expect((await who.get(`/dashboard/keys/${key.id}`)).status).toBe(404);
      expect((await who.post(`/dashboard/keys/${key.id}/revoke`)).status).toBe(404);
      expect((await who.post(`/dashboard/keys/${key.id}/delete`)).status).toBe(404);
    }
    expect((await services.keys.get(carolPersonal.id)).revoked_at).toBeNull();
    // Carol manages her own.
    expect((await people.carol.submit(`/dashboard/keys/${carolPersonal.id}`, `/dashboard/keys/${carolPersonal.id}/revoke`)).status).toBe(303);
    expect((await app.inject({ url: '/v1/projects', headers: { 'x-api-key': carolPersonal.secret } })).statusCode).toBe(401);
  });

  it('refuses a key limited to a project of another context', async () => {
    const res = await people.carol.submit('/dashboard/personal/keys', '/dashboard/personal/keys', { name: 'x', scope: 'selected', projects: 'acme-app' });
    expect(res.status).toBe(400);
    expect(res.body).toContain('acme-app is not a project of this context');
  });
});

describe('entries of other contexts', () => {
  it('are "Entry not found" to outsiders, the same as an unknown id: no project slug revealed', async () => {
    const project = await services.projects.findBySlug('alice-blog');
    const [draft] = await insertEntries(services, project!.id, [{ title: 'Secret draft', status: 'draft' }]);
    const unknown = '00000000-0000-4000-8000-000000000000';
    // 36 dashes passed a looser id check and reached the database as an invalid uuid (a 500).
    for (const id of [draft!, unknown, '-'.repeat(36)]) {
      for (const res of [
        await people.dave.get(`/dashboard/entries/${id}`),
        await people.dave.post(`/dashboard/entries/${id}/status`, { status: 'published' }),
        await people.dave.post(`/dashboard/entries/${id}/regenerate`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toContain('Entry not found');
        expect(res.body).not.toContain('alice-blog');
      }
    }
    expect((await services.entries.get(draft!)).status).toBe('draft');
  });
});

describe('secrets', () => {
  it('never shows a key secret or hash again: pages, API responses and logs', async () => {
    const created = await createKey(people.alice, '/dashboard/personal', { name: 'leak-check', scope: 'all' });
    const rotatedPage = await people.alice.submit(`/dashboard/keys/${created.id}`, `/dashboard/keys/${created.id}/rotate`, { grace: '3600' });
    expect(rotatedPage.headers['cache-control']).toBe('private, no-store');
    const rotated = secretOn(rotatedPage);
    expect(rotated).not.toBe(created.secret);

    const seen: string[] = [];
    const record = (res: { body: string; headers: Record<string, unknown> }) => seen.push(res.body, JSON.stringify(res.headers));
    for (const path of ['/dashboard', '/dashboard/personal', '/dashboard/personal/keys', `/dashboard/keys/${created.id}`, '/dashboard/account', '/dashboard/orgs/acme', '/dashboard/orgs/acme/keys']) {
      const page = await people.alice.get(path);
      expect(page.status).toBe(200);
      record(page);
    }
    for (const secret of [created.secret, rotated]) {
      const api = await app.inject({ url: '/v1/projects', headers: { authorization: `Bearer ${secret}` } });
      expect(api.statusCode).toBe(200);
      record({ body: api.body, headers: api.headers });
    }
    record(await app.inject({ url: '/openapi.json' }));
    await people.alice.submit(`/dashboard/keys/${created.id}`, `/dashboard/keys/${created.id}/revoke`);
    record(await people.alice.get(`/dashboard/keys/${created.id}`));

    const logs = lines.join('');
    expect(logs).toContain('/dashboard/keys/');
    for (const secret of [created.secret, rotated]) {
      for (const value of [secret, secret.slice(4, 24), hashKey(secret)]) {
        for (const text of seen) expect(text).not.toContain(value);
        expect(logs).not.toContain(value);
      }
    }
    // Passwords and session tokens stay out of the logs too.
    expect(logs).not.toContain('correct-horse-battery');
    for (const who of Object.values(people)) {
      const token = who.cookies.get('cl_session');
      if (token) expect(logs).not.toContain(token);
    }
  });

  it('keeps invitation tokens out of the logs', async () => {
    const page = await people.alice.submit('/dashboard/orgs/acme', '/dashboard/orgs/acme/invites', { role: 'member' });
    const token = /\/dashboard\/invites\/([\w-]+)/.exec(page.body)![1]!;
    await new DashboardClient(app).get(`/dashboard/invites/${token}`);
    // The invitation page sends signed-out visitors to sign in with the invitation as `next`.
    await new DashboardClient(app).get(`/login?next=${encodeURIComponent(`/dashboard/invites/${token}`)}`);
    await new DashboardClient(app).get(`/login?next=${encodeURIComponent(`/dashboard/invites/${token}`).replaceAll('%2F', '%2f')}`);
    expect(lines.join('')).toContain('/dashboard/invites/[redacted]');
    expect(lines.join('')).toContain('%2Fdashboard%2Finvites%2F[redacted]');
    expect(lines.join('')).not.toContain(token);
  });
});
