import { testConfig } from '../../test/helpers/config.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildOrg, buildProject, buildUser, insertEntries } from '../../test/helpers/factories.js';
import { buildApp } from '../app.js';
import type { NewEntry } from '../db/schema.js';
import { generateKey } from '../keys/key-format.js';
import { createServices, type Services } from '../services.js';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

interface ProjectJson {
  id: string;
  name: string;
  slug: string;
  owner_type: 'user' | 'org';
  owner_id: string;
  created_at: string;
  updated_at: string;
  changelog_entries: { id: string; project_id: string; status: string; published_at: string }[];
}

interface ProjectsBody {
  projects: ProjectJson[];
  meta: { count: number; entries_limit: number };
}

type Headers = Record<string, string>;

const bearer = (secret: string): Headers => ({ authorization: `Bearer ${secret}` });
const apiKeyHeader = (secret: string): Headers => ({ 'x-api-key': secret });

function listProjects(context: TestContext, headers: Headers = {}, query = '') {
  return context.app.inject({ method: 'GET', url: `/v1/projects${query}`, headers });
}

function bodyOf(res: LightMyRequestResponse): ProjectsBody {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ProjectsBody>();
}

const slugsOf = (body: ProjectsBody) => body.projects.map((p) => p.slug);
const projectBySlug = (body: ProjectsBody, slug: string) => {
  const project = body.projects.find((p) => p.slug === slug);
  if (!project) throw new Error(`project ${slug} missing from the response`);
  return project;
};

function expectUnauthorized(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(401);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json()).toEqual({ error: expect.any(String), code: 'unauthorized' });
}

function expectInvalidEntriesLimit(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json<{ error: string; code: string; details: { parameter?: string }[] }>();
  expect(body.error).toEqual(expect.any(String));
  expect(body.code).toBe('invalid_request');
  expect(body.details.map((d) => d.parameter)).toContain('entries_limit');
}

/** Changes the last (checksum) character, so the key keeps its shape but fails its checksum. */
const withBadChecksum = (secret: string) => secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');

async function lastUsedAt(services: Services, keyId: string): Promise<Date | null> {
  const row = await services.database.db
    .selectFrom('api_keys')
    .select('last_used_at')
    .where('id', '=', keyId)
    .executeTakeFirstOrThrow();
  return row.last_used_at;
}

/** Polls `read` until `done` holds, and returns that value; fails after `timeoutMs`. */
async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 2_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met after ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await sleep(25);
  }
}

/** Polls until `read` gives a non-null value: the last_used_at write is fire-and-forget. */
const eventually = async <T>(read: () => Promise<T | null>, timeoutMs = 2_000): Promise<T> =>
  (await pollUntil(read, (value) => value !== null, timeoutMs)) as T;

const HOUR = 3_600_000;
const BASE = Date.parse('2026-01-01T00:00:00Z');

function publishedRows(count: number, startAt = BASE): Partial<NewEntry>[] {
  return Array.from({ length: count }, (_, i) => ({
    status: 'published' as const,
    title: `Published ${i}`,
    published_at: new Date(startAt + i * HOUR),
  }));
}

// ---------------------------------------------------------------------------------------------
// Fixtures (one database for the file)
// ---------------------------------------------------------------------------------------------

let ctx: TestContext;
let alice: { id: string; email: string };
let bob: { id: string; email: string };
let acme: { id: string; slug: string };
let aliceKey: string;
/** Published entries of alpha-app, in the order the API must return them. */
let alphaExpectedOrder: string[];
let alphaHidden: string[];

const ALICE_SLUGS = ['alpha-app', 'alpha-big', 'alpha-empty'];
const BIG_PUBLISHED = 205;

beforeAll(async () => {
  ctx = await createTestContext();
  const { services } = ctx;
  alice = await buildUser(services, { email: 'alice@example.com' });
  bob = await buildUser(services, { email: 'bob@example.com' });
  acme = await buildOrg(services, alice.email, { slug: 'acme' });

  const asAlice = { type: 'user' as const, email: alice.email };
  const alphaApp = await buildProject(services, asAlice, { slug: 'alpha-app', name: 'Alpha App' });
  const alphaBig = await buildProject(services, asAlice, { slug: 'alpha-big' });
  await buildProject(services, asAlice, { slug: 'alpha-empty' });
  const bobApp = await buildProject(services, { type: 'user', email: bob.email }, { slug: 'bob-app' });
  const acmeWeb = await buildProject(services, { type: 'org', slug: 'acme' }, { slug: 'acme-web' });
  await buildProject(services, { type: 'org', slug: 'acme' }, { slug: 'acme-api' });

  // alpha-app: 5 entries an hour apart plus 3 sharing one published_at (ordered by id desc),
  // inserted out of order, and a draft and an archived entry that must never show.
  const tiedAt = new Date(BASE + 10 * HOUR);
  const published = [
    { title: 'p2', published_at: new Date(BASE + 2 * HOUR) },
    { title: 'tie-a', published_at: tiedAt },
    { title: 'p0', published_at: new Date(BASE) },
    { title: 'p20', published_at: new Date(BASE + 20 * HOUR) },
    { title: 'tie-b', published_at: tiedAt },
    { title: 'p1', published_at: new Date(BASE + HOUR) },
    { title: 'tie-c', published_at: tiedAt },
    { title: 'p5', published_at: new Date(BASE + 5 * HOUR) },
  ].map((e) => ({ ...e, status: 'published' as const }));
  const ids = await insertEntries(services, alphaApp.id, published);
  alphaExpectedOrder = published
    .map((e, i) => ({ id: ids[i]!, at: e.published_at.getTime() }))
    .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
    .map((e) => e.id);
  alphaHidden = await insertEntries(services, alphaApp.id, [
    { status: 'draft', title: 'draft' },
    { status: 'archived', title: 'archived' },
  ]);
  // A draft and an archived entry newer than every published one must not displace them either.
  alphaHidden.push(
    ...(await insertEntries(services, alphaBig.id, [
      { status: 'draft', title: 'fresh draft' },
      { status: 'archived', title: 'fresh archived' },
    ])),
  );
  await insertEntries(services, alphaBig.id, publishedRows(BIG_PUBLISHED));
  await insertEntries(services, bobApp.id, publishedRows(2));
  await insertEntries(services, acmeWeb.id, publishedRows(3));

  aliceKey = (await services.keys.create({ name: 'alice all', context: { type: 'user', email: alice.email } })).secret;
});

afterAll(async () => ctx?.close());

interface KeyInput {
  name?: string;
  context?: { type: 'user'; email: string } | { type: 'org'; slug: string };
  projectSlugs?: string[];
  expiresAt?: Date;
}

/** A new key in the main context; Alice's personal context unless told otherwise. */
const newKey = (input: KeyInput = {}) =>
  ctx.services.keys.create({
    name: input.name ?? 'test key',
    context: input.context ?? { type: 'user', email: alice.email },
    ...(input.projectSlugs ? { projectSlugs: input.projectSlugs } : {}),
    ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
  });

// ---------------------------------------------------------------------------------------------
// Response shape
// ---------------------------------------------------------------------------------------------

describe('GET /v1/projects: response', () => {
  it("lists the caller's projects by slug, with meta.count equal to the number returned", async () => {
    const res = await listProjects(ctx, bearer(aliceKey));
    const body = bodyOf(res);
    expect(slugsOf(body)).toEqual(ALICE_SLUGS);
    expect(body.meta).toEqual({ count: 3, entries_limit: 50 });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('serializes every ProjectSummary field', async () => {
    const body = bodyOf(await listProjects(ctx, bearer(aliceKey)));
    for (const project of body.projects) {
      expect(Object.keys(project).sort()).toEqual(
        ['changelog_entries', 'created_at', 'id', 'name', 'owner_id', 'owner_type', 'slug', 'updated_at'].sort(),
      );
      expect(project.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(project).toMatchObject({ owner_type: 'user', owner_id: alice.id });
      expect(project.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(project.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Array.isArray(project.changelog_entries)).toBe(true);
    }
    expect(projectBySlug(body, 'alpha-app').name).toBe('Alpha App');
    expect(projectBySlug(body, 'alpha-empty').changelog_entries).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// changelog_entries
// ---------------------------------------------------------------------------------------------

describe('GET /v1/projects: changelog_entries', () => {
  it('holds only published entries of the project itself', async () => {
    const body = bodyOf(await listProjects(ctx, bearer(aliceKey), '?entries_limit=200'));
    for (const project of body.projects) {
      for (const entry of project.changelog_entries) {
        expect(entry.status).toBe('published');
        expect(entry.project_id).toBe(project.id);
        expect(alphaHidden).not.toContain(entry.id);
      }
    }
    expect(new Set(projectBySlug(body, 'alpha-app').changelog_entries.map((e) => e.id))).toEqual(new Set(alphaExpectedOrder));
  });

  it('orders entries newest published_at first, ties by id descending', async () => {
    const entries = projectBySlug(bodyOf(await listProjects(ctx, bearer(aliceKey))), 'alpha-app').changelog_entries;
    expect(entries.map((e) => e.id)).toEqual(alphaExpectedOrder);
    const tied = entries.filter((e) => e.published_at === new Date(BASE + 10 * HOUR).toISOString()).map((e) => e.id);
    expect(tied).toHaveLength(3);
    expect(tied).toEqual([...tied].sort().reverse());
  });

  it('drops an entry once it is unpublished or archived, and shows it again when republished', async () => {
    const [newest, second] = alphaExpectedOrder as [string, string];
    const { secret } = await newKey({ name: 'watch alpha-app', projectSlugs: ['alpha-app'] });
    const alphaIds = async () =>
      projectBySlug(bodyOf(await listProjects(ctx, bearer(secret))), 'alpha-app').changelog_entries.map((e) => e.id);
    expect(await alphaIds()).toEqual(alphaExpectedOrder);
    // Responses may be cached until the database's change notification arrives: poll briefly.
    try {
      await ctx.services.entries.unpublish(newest);
      await ctx.services.entries.archive(second);
      const ids = await pollUntil(alphaIds, (list) => !list.includes(newest) && !list.includes(second));
      expect(ids).toEqual(alphaExpectedOrder.slice(2));
    } finally {
      // Restore the fixture: republishing stamps a new published_at, so put the old one back.
      for (const [id, hours] of [
        [newest, 20],
        [second, 10],
      ] as const) {
        await ctx.services.database.db
          .updateTable('changelog_entries')
          .set({ status: 'published', published_at: new Date(BASE + hours * HOUR) })
          .where('id', '=', id)
          .execute();
      }
    }
    await pollUntil(alphaIds, (list) => list.length === alphaExpectedOrder.length);
    expect(await alphaIds()).toEqual(alphaExpectedOrder);
  });
});

// ---------------------------------------------------------------------------------------------
// entries_limit
// ---------------------------------------------------------------------------------------------

describe('GET /v1/projects: entries_limit', () => {
  it('defaults to 50', async () => {
    const body = bodyOf(await listProjects(ctx, bearer(aliceKey)));
    expect(body.meta.entries_limit).toBe(50);
    const big = projectBySlug(body, 'alpha-big').changelog_entries;
    expect(big).toHaveLength(50);
    // The 50 newest: published_at of entry i is BASE + i hours.
    expect(big[0]!.published_at).toBe(new Date(BASE + (BIG_PUBLISHED - 1) * HOUR).toISOString());
    expect(big[49]!.published_at).toBe(new Date(BASE + (BIG_PUBLISHED - 50) * HOUR).toISOString());
    expect(projectBySlug(body, 'alpha-app').changelog_entries).toHaveLength(alphaExpectedOrder.length);
  });

  it('accepts 1: at most one entry per project, the newest', async () => {
    const body = bodyOf(await listProjects(ctx, bearer(aliceKey), '?entries_limit=1'));
    expect(body.meta).toEqual({ count: 3, entries_limit: 1 });
    expect(projectBySlug(body, 'alpha-app').changelog_entries.map((e) => e.id)).toEqual([alphaExpectedOrder[0]]);
    expect(projectBySlug(body, 'alpha-big').changelog_entries).toHaveLength(1);
    expect(projectBySlug(body, 'alpha-empty').changelog_entries).toHaveLength(0);
    for (const project of body.projects) expect(project.changelog_entries.length).toBeLessThanOrEqual(1);
  });

  it('accepts 200, the maximum', async () => {
    const body = bodyOf(await listProjects(ctx, bearer(aliceKey), '?entries_limit=200'));
    expect(body.meta.entries_limit).toBe(200);
    expect(projectBySlug(body, 'alpha-big').changelog_entries).toHaveLength(200);
    expect(projectBySlug(body, 'alpha-app').changelog_entries).toHaveLength(alphaExpectedOrder.length);
  });

  it('applies a value in between', async () => {
    const body = bodyOf(await listProjects(ctx, bearer(aliceKey), '?entries_limit=3'));
    expect(body.meta.entries_limit).toBe(3);
    expect(projectBySlug(body, 'alpha-app').changelog_entries.map((e) => e.id)).toEqual(alphaExpectedOrder.slice(0, 3));
    expect(projectBySlug(body, 'alpha-big').changelog_entries).toHaveLength(3);
  });

  it.each(['0', '201', '-1', '1.5', 'abc', ''])('rejects entries_limit=%s with a 400 naming the parameter', async (value) => {
    expectInvalidEntriesLimit(await listProjects(ctx, bearer(aliceKey), `?entries_limit=${value}`));
  });
});

// ---------------------------------------------------------------------------------------------
// Authentication
// ---------------------------------------------------------------------------------------------

describe('GET /v1/projects: credentials', () => {
  it('accepts the key as Authorization: Bearer and as X-API-KEY, with the same answer', async () => {
    const viaBearer = bodyOf(await listProjects(ctx, bearer(aliceKey)));
    const viaHeader = bodyOf(await listProjects(ctx, apiKeyHeader(aliceKey)));
    expect(slugsOf(viaBearer)).toEqual(ALICE_SLUGS);
    expect(viaHeader).toEqual(viaBearer);
  });

  it('accepts the Bearer scheme in any letter case', async () => {
    expect(slugsOf(bodyOf(await listProjects(ctx, { authorization: `bearer ${aliceKey}` })))).toEqual(ALICE_SLUGS);
  });

  it.each<[string, () => Headers]>([
    ['no credentials', () => ({})],
    ['a Basic Authorization header', () => ({ authorization: 'Basic YWxpY2U6c2VjcmV0' })],
    ['"Bearer" without a key', () => ({ authorization: 'Bearer' })],
    ['a malformed Bearer key', () => bearer('not-a-real-key')],
    ['a malformed X-API-KEY', () => apiKeyHeader('clk_short')],
    ['a key with a wrong checksum', () => bearer(withBadChecksum(aliceKey))],
    ['a key with a wrong checksum in X-API-KEY', () => apiKeyHeader(withBadChecksum(aliceKey))],
    ['a well-formed key that was never issued', () => bearer(generateKey())],
    ['a well-formed never-issued key in X-API-KEY', () => apiKeyHeader(generateKey())],
  ])('answers 401 to %s', async (_label, headers) => {
    expectUnauthorized(await listProjects(ctx, headers()));
  });

  it('rejects a revoked key on the very next request', async () => {
    const { key, secret } = await newKey({ name: 'to revoke' });
    bodyOf(await listProjects(ctx, bearer(secret)));
    await ctx.services.keys.revoke(key.id);
    expectUnauthorized(await listProjects(ctx, bearer(secret)));
    expectUnauthorized(await listProjects(ctx, apiKeyHeader(secret)));
  });

  it('answers 401, not 304, to a revoked key that presents the ETag of its last answer', async () => {
    const { key, secret } = await newKey({ name: 'revoke with etag' });
    const first = await listProjects(ctx, bearer(secret));
    bodyOf(first);
    expect(first.headers.etag).toEqual(expect.any(String));
    const conditional = { ...bearer(secret), 'if-none-match': String(first.headers.etag) };
    expect((await listProjects(ctx, conditional)).statusCode).toBe(304);
    await ctx.services.keys.revoke(key.id);
    expectUnauthorized(await listProjects(ctx, conditional));
  });

  it('rejects a deleted key on the very next request', async () => {
    const { key, secret } = await newKey({ name: 'to delete' });
    bodyOf(await listProjects(ctx, apiKeyHeader(secret)));
    await ctx.services.keys.delete(key.id);
    expectUnauthorized(await listProjects(ctx, bearer(secret)));
    expectUnauthorized(await listProjects(ctx, apiKeyHeader(secret)));
  });

  it('rejects a key once its expiry has passed', async () => {
    const expiresAt = new Date(Date.now() + 1_500);
    const { secret } = await newKey({ name: 'short-lived', expiresAt });
    bodyOf(await listProjects(ctx, bearer(secret)));
    await sleep(expiresAt.getTime() - Date.now() + 250);
    expectUnauthorized(await listProjects(ctx, bearer(secret)));
    expectUnauthorized(await listProjects(ctx, apiKeyHeader(secret)));
  });

  it('rejects a key whose expires_at was moved into the past', async () => {
    const { key, secret } = await newKey({ name: 'expire in db', expiresAt: new Date(Date.now() + HOUR) });
    bodyOf(await listProjects(ctx, bearer(secret)));
    await ctx.services.database.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('id', '=', key.id)
      .execute();
    expectUnauthorized(await listProjects(ctx, bearer(secret)));
  });
});

// ---------------------------------------------------------------------------------------------
// Scope
// ---------------------------------------------------------------------------------------------

describe('GET /v1/projects: what a key may see', () => {
  it("shows a personal all-projects key every personal project of its user, and no one else's", async () => {
    const body = bodyOf(await listProjects(ctx, bearer(aliceKey)));
    expect(slugsOf(body)).toEqual(ALICE_SLUGS);
    expect(body.projects.every((p) => p.owner_type === 'user' && p.owner_id === alice.id)).toBe(true);

    const { secret: bobKey } = await newKey({ name: 'bob all', context: { type: 'user', email: bob.email } });
    const bobBody = bodyOf(await listProjects(ctx, bearer(bobKey)));
    expect(slugsOf(bobBody)).toEqual(['bob-app']);
    expect(bobBody.projects[0]).toMatchObject({ owner_type: 'user', owner_id: bob.id });
    expect(projectBySlug(bobBody, 'bob-app').changelog_entries).toHaveLength(2);
  });

  it('shows a key limited to selected projects only those projects', async () => {
    const { secret } = await newKey({ name: 'selected', projectSlugs: ['alpha-empty', 'alpha-app'] });
    const body = bodyOf(await listProjects(ctx, bearer(secret)));
    expect(slugsOf(body)).toEqual(['alpha-app', 'alpha-empty']);
    expect(body.meta.count).toBe(2);
    expect(projectBySlug(body, 'alpha-app').changelog_entries.map((e) => e.id)).toEqual(alphaExpectedOrder);
  });

  it("shows an organization key the organization's projects and not its owner's personal ones", async () => {
    const { secret } = await newKey({ name: 'acme all', context: { type: 'org', slug: 'acme' } });
    const body = bodyOf(await listProjects(ctx, bearer(secret)));
    expect(slugsOf(body)).toEqual(['acme-api', 'acme-web']);
    expect(body.projects.every((p) => p.owner_type === 'org' && p.owner_id === acme.id)).toBe(true);
    expect(projectBySlug(body, 'acme-web').changelog_entries).toHaveLength(3);
  });

  it('shows a project created in the context after the key was last used', async () => {
    const carl = await buildUser(ctx.services, { email: 'carl@example.com' });
    await buildProject(ctx.services, { type: 'user', email: carl.email }, { slug: 'carl-one' });
    const { secret } = await newKey({ name: 'carl all', context: { type: 'user', email: carl.email } });
    const read = async () => slugsOf(bodyOf(await listProjects(ctx, bearer(secret))));
    expect(await read()).toEqual(['carl-one']);
    await buildProject(ctx.services, { type: 'user', email: carl.email }, { slug: 'carl-two' });
    // Responses may be cached until the database's change notification arrives: poll briefly.
    expect(await pollUntil(read, (slugs) => slugs.length === 2)).toEqual(['carl-one', 'carl-two']);
  });

  it('shows an organization key limited to selected projects only those', async () => {
    const { secret } = await newKey({ name: 'acme web', context: { type: 'org', slug: 'acme' }, projectSlugs: ['acme-web'] });
    expect(slugsOf(bodyOf(await listProjects(ctx, apiKeyHeader(secret))))).toEqual(['acme-web']);
  });
});

// ---------------------------------------------------------------------------------------------
// Rotation
// ---------------------------------------------------------------------------------------------

describe('GET /v1/projects: key rotation', () => {
  it('stops accepting the old secret at once when rotated without a grace period', async () => {
    const { key, secret: oldSecret } = await newKey({ name: 'rotate now' });
    bodyOf(await listProjects(ctx, bearer(oldSecret)));
    const { secret: newSecret } = await ctx.services.keys.rotate(key.id);
    expect(newSecret).not.toBe(oldSecret);
    expectUnauthorized(await listProjects(ctx, bearer(oldSecret)));
    expect(slugsOf(bodyOf(await listProjects(ctx, bearer(newSecret))))).toEqual(ALICE_SLUGS);
  });

  it('keeps the old secret working during a grace period, with the same scope', async () => {
    const { key, secret: oldSecret } = await newKey({ name: 'rotate with grace', projectSlugs: ['alpha-app'] });
    const { secret: newSecret } = await ctx.services.keys.rotate(key.id, 60);
    expect(slugsOf(bodyOf(await listProjects(ctx, bearer(oldSecret))))).toEqual(['alpha-app']);
    expect(slugsOf(bodyOf(await listProjects(ctx, bearer(newSecret))))).toEqual(['alpha-app']);
  });

  it('stops accepting the old secret when the grace period is over', async () => {
    const { key, secret: oldSecret } = await newKey({ name: 'grace over' });
    const { secret: newSecret } = await ctx.services.keys.rotate(key.id, 60);
    bodyOf(await listProjects(ctx, bearer(oldSecret)));
    await ctx.services.database.db
      .updateTable('api_keys')
      .set({ previous_expires_at: new Date(Date.now() - 1_000) })
      .where('id', '=', key.id)
      .execute();
    expectUnauthorized(await listProjects(ctx, bearer(oldSecret)));
    bodyOf(await listProjects(ctx, bearer(newSecret)));
  });

  it('ends the grace period when the key is revoked', async () => {
    const { key, secret: oldSecret } = await newKey({ name: 'rotate then revoke' });
    const { secret: newSecret } = await ctx.services.keys.rotate(key.id, 60);
    bodyOf(await listProjects(ctx, bearer(oldSecret)));
    await ctx.services.keys.revoke(key.id);
    expectUnauthorized(await listProjects(ctx, bearer(oldSecret)));
    expectUnauthorized(await listProjects(ctx, bearer(newSecret)));
  });
});

// ---------------------------------------------------------------------------------------------
// last_used_at
// ---------------------------------------------------------------------------------------------

describe('GET /v1/projects: last_used_at', () => {
  it('is null before use and set after a successful request', async () => {
    const { key, secret } = await newKey({ name: 'usage' });
    expect(key.last_used_at).toBeNull();
    expect(await lastUsedAt(ctx.services, key.id)).toBeNull();
    const before = Date.now();
    bodyOf(await listProjects(ctx, bearer(secret)));
    const used = await eventually(() => lastUsedAt(ctx.services, key.id));
    // Allow for a little clock skew between this process and the database server.
    expect(used.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    expect(used.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  it('is not rewritten by every request (writes are throttled)', async () => {
    const { key, secret } = await newKey({ name: 'throttled' });
    bodyOf(await listProjects(ctx, bearer(secret)));
    const first = await eventually(() => lastUsedAt(ctx.services, key.id));
    bodyOf(await listProjects(ctx, apiKeyHeader(secret)));
    await sleep(300);
    expect(await lastUsedAt(ctx.services, key.id)).toEqual(first);
  });

  it.each<[string, (keyId: string, secret: string) => Promise<Headers>]>([
    [
      'a revoked key',
      async (keyId, secret) => {
        await ctx.services.keys.revoke(keyId);
        return bearer(secret);
      },
    ],
    [
      'an expired key',
      async (keyId, secret) => {
        await ctx.services.database.db
          .updateTable('api_keys')
          .set({ expires_at: new Date(Date.now() - 1_000) })
          .where('id', '=', keyId)
          .execute();
        return apiKeyHeader(secret);
      },
    ],
    [
      'the old secret of a rotated key',
      async (keyId, secret) => {
        await ctx.services.keys.rotate(keyId);
        return bearer(secret);
      },
    ],
    ['a wrong checksum of the key', async (_keyId, secret) => bearer(withBadChecksum(secret))],
  ])('is not touched by a failed attempt with %s', async (_label, spoil) => {
    const { key, secret } = await newKey({ name: 'unused', expiresAt: new Date(Date.now() + HOUR) });
    const headers = await spoil(key.id, secret);
    expectUnauthorized(await listProjects(ctx, headers));
    await sleep(400);
    expect(await lastUsedAt(ctx.services, key.id)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// X-Identity-User-Id
// ---------------------------------------------------------------------------------------------

describe('GET /v1/projects: X-Identity-User-Id', () => {
  it('is ignored with the default configuration', async () => {
    expectUnauthorized(await listProjects(ctx, { 'x-identity-user-id': alice.id }));
    expectUnauthorized(
      await listProjects(ctx, { 'x-identity-user-id': alice.id, 'x-gateway-secret': 'x'.repeat(40) }),
    );
  });

  describe('when the operator enables it', () => {
    const gatewaySecret = 'x'.repeat(40);
    let gw: TestContext;
    let carol: { id: string; email: string };
    let daveKey: string;

    const asIdentity = (userId: string, secret: string = gatewaySecret): Headers => ({
      'x-identity-user-id': userId,
      'x-gateway-secret': secret,
    });

    beforeAll(async () => {
      gw = await createTestContext({ IDENTITY_HEADER_ENABLED: 'true', IDENTITY_GATEWAY_SECRET: gatewaySecret });
      carol = await buildUser(gw.services, { email: 'carol@example.com' });
      const dave = await buildUser(gw.services, { email: 'dave@example.com' });
      await buildOrg(gw.services, carol.email, { slug: 'carol-org' });
      const carolOne = await buildProject(gw.services, { type: 'user', email: carol.email }, { slug: 'carol-one' });
      await buildProject(gw.services, { type: 'user', email: carol.email }, { slug: 'carol-two' });
      await buildProject(gw.services, { type: 'org', slug: 'carol-org' }, { slug: 'carol-org-site' });
      await buildProject(gw.services, { type: 'user', email: dave.email }, { slug: 'dave-app' });
      await insertEntries(gw.services, carolOne.id, [...publishedRows(2), { status: 'draft', title: 'draft' }]);
      daveKey = (await gw.services.keys.create({ name: 'dave', context: { type: 'user', email: dave.email } })).secret;
    });

    afterAll(async () => gw?.close());

    it("lists only that user's personal projects when the gateway secret matches", async () => {
      const body = bodyOf(await listProjects(gw, asIdentity(carol.id)));
      expect(slugsOf(body)).toEqual(['carol-one', 'carol-two']);
      expect(body.meta.count).toBe(2);
      expect(body.projects.every((p) => p.owner_type === 'user' && p.owner_id === carol.id)).toBe(true);
      expect(projectBySlug(body, 'carol-one').changelog_entries).toHaveLength(2);
    });

    it.each<[string, () => Headers]>([
      ['the header without X-Gateway-Secret', () => ({ 'x-identity-user-id': carol.id })],
      ['a wrong gateway secret', () => asIdentity(carol.id, 'y'.repeat(40))],
      ['a gateway secret that is a prefix of the real one', () => asIdentity(carol.id, gatewaySecret.slice(0, -1))],
      ['a malformed user id', () => asIdentity('carol')],
      ['a user id that is a uuid with extra text', () => asIdentity(`${carol.id}x`)],
      ['an unknown user id', () => asIdentity('00000000-0000-4000-8000-000000000000')],
    ])('answers 401 to %s', async (_label, headers) => {
      expectUnauthorized(await listProjects(gw, headers()));
    });

    it('lets an API key take precedence over the identity header', async () => {
      const viaBearer = bodyOf(await listProjects(gw, { ...asIdentity(carol.id), ...bearer(daveKey) }));
      expect(slugsOf(viaBearer)).toEqual(['dave-app']);
      const viaHeader = bodyOf(await listProjects(gw, { ...asIdentity(carol.id), ...apiKeyHeader(daveKey) }));
      expect(slugsOf(viaHeader)).toEqual(['dave-app']);
    });

    it('does not fall back to the identity header when the API key is invalid', async () => {
      expectUnauthorized(await listProjects(gw, { ...asIdentity(carol.id), ...bearer(generateKey()) }));
      expectUnauthorized(await listProjects(gw, { ...asIdentity(carol.id), authorization: 'Basic abc' }));
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Statement count
// ---------------------------------------------------------------------------------------------

describe('GET /v1/projects: statements per request', () => {
  let database: TestDatabase;
  let app: TestContext['app'];
  let services: Services;
  let counting = false;
  let statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({
      onQuery: (event) => {
        if (counting && event.level === 'query') statements.push(event.query.sql);
      },
    });
    const config = testConfig();
    services = createServices(database, config);
    app = await buildApp({ config, database, services });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  async function addProjects(email: string, from: number, to: number) {
    for (let i = from; i < to; i++) {
      const project = await buildProject(services, { type: 'user', email }, { slug: `counted-${String(i).padStart(2, '0')}` });
      await insertEntries(services, project.id, [...publishedRows(3), { status: 'draft', title: 'draft' }]);
    }
  }

  /** Statements of one request; each call uses its own entries_limit so no cached answer is reused. */
  async function countStatements(secret: string, entriesLimit: number, expectedProjects: number) {
    statements = [];
    counting = true;
    try {
      const res = await app.inject({ method: 'GET', url: `/v1/projects?entries_limit=${entriesLimit}`, headers: bearer(secret) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['x-cache']).not.toBe('hit');
      const body = res.json<ProjectsBody>();
      expect(body.meta).toEqual({ count: expectedProjects, entries_limit: entriesLimit });
      expect(body.projects.every((p) => p.changelog_entries.length === 3)).toBe(true);
      // Let any fire-and-forget write land inside the window, so it is counted if it happens.
      await sleep(100);
      return [...statements];
    } finally {
      counting = false;
    }
  }

  it('does not grow with the number of projects', async () => {
    const user = await buildUser(services);
    await addProjects(user.email, 0, 3);
    const { key, secret } = await services.keys.create({ name: 'counted', context: { type: 'user', email: user.email } });
    // A first request records last_used_at, so the measured ones find it fresh and write nothing.
    expect((await app.inject({ method: 'GET', url: '/v1/projects', headers: bearer(secret) })).statusCode).toBe(200);
    await eventually(() => lastUsedAt(services, key.id));

    const withThree = await countStatements(secret, 5, 3);
    await addProjects(user.email, 3, 30);
    // The 27 new projects' entries have never been serialized: one more statement reads them, all at once.
    const withThirty = await countStatements(secret, 6, 30);
    const withThirtyAgain = await countStatements(secret, 7, 30);

    expect(withThree.length, withThree.join('\n')).toBeLessThanOrEqual(3);
    expect(withThree.length).toBeGreaterThan(0);
    expect(withThirty.length, withThirty.join('\n')).toBe(withThree.length + 1);
    expect(withThirtyAgain.length, withThirtyAgain.join('\n')).toBe(withThree.length);
    // The key was used moments ago, so reading must not turn into a write.
    expect(withThirty.filter((statement) => !/^\s*(\/\* prepared \*\/\s*)?select\b/i.test(statement))).toEqual([]);
  });

  it('refuses a malformed key or a bad checksum without a statement', async () => {
    for (const headers of [bearer('clk_not-a-key'), bearer(withBadChecksum(generateKey())), apiKeyHeader('nope')]) {
      statements = [];
      counting = true;
      try {
        expectUnauthorized(await app.inject({ method: 'GET', url: '/v1/projects', headers }));
      } finally {
        counting = false;
      }
      expect(statements).toEqual([]);
    }
  });
});
