import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { generateKey } from '../keys/key-format.js';
import { createServices } from '../services.js';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase } from '../../test/helpers/database.js';
import { buildOrg, buildProject, buildUser, generatedJson, insertEntries } from '../../test/helpers/factories.js';

/**
 * The response cache and its fast path answer anyone who asks for a URL they answered before, before
 * any authentication: an authenticated answer must never get there. Over real HTTP with the cache
 * on, since the fast path sits in the HTTP server in front of the framework (`inject` never reaches it).
 */

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let close: () => Promise<void>;
let get: (path: string, headers?: Record<string, string>) => Promise<Answer>;
let orgKey: string;
let otherKey: string;
let revokedKey: string;
const ORG_SLUGS = ['acme-private', 'acme-public'];
const OTHER_SLUGS = ['bob-only'];

beforeAll(async () => {
  const database = await createTestDatabase();
  const config = testConfig({ RESPONSE_CACHE: 'true' });
  const services = createServices(database, config);
  const app = await buildApp({ config, database, services });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  get = async (path, headers = {}) => {
    const res = await fetch(base + path, { headers });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
  close = async () => {
    await app.close();
    await database.close();
  };

  const alice = await buildUser(services);
  const bob = await buildUser(services);
  const org = await buildOrg(services, alice.email);
  // A private project: nothing published, nothing public about it but what an org key lists.
  await buildProject(services, { type: 'org', slug: org.slug }, { slug: 'acme-private' });
  const published = await buildProject(services, { type: 'org', slug: org.slug }, { slug: 'acme-public' });
  await insertEntries(services, published.id, [
    { status: 'published', title: 'Shipped', generated_json: JSON.stringify(generatedJson('Shipped')), published_at: new Date().toISOString() },
  ]);
  await buildProject(services, { type: 'user', email: bob.email }, { slug: 'bob-only' });
  orgKey = (await services.keys.create({ name: 'org', context: { type: 'org', slug: org.slug } })).secret;
  otherKey = (await services.keys.create({ name: 'bob', context: { type: 'user', email: bob.email } })).secret;
  const revoked = await services.keys.create({ name: 'revoked', context: { type: 'org', slug: org.slug } });
  revokedKey = revoked.secret;
  await services.keys.revoke(revoked.key.id);
  // Let the inserts' change notifications arrive, so what follows would be cached.
  await new Promise((r) => setTimeout(r, 300));
});
afterAll(async () => close?.());

const slugsOf = (answer: Answer) => (JSON.parse(answer.body) as { projects: { slug: string }[] }).projects.map((p) => p.slug);

describe.each(['/v1/projects', '/v1/projects?entries_limit=1'])('%s after an authorized call', (path) => {
  beforeAll(async () => {
    // Twice, a moment apart: the first records the key's last use (a change that drops cached
    // answers); the second is the one a cache would keep and its fast path replay.
    expect((await get(path, { authorization: `Bearer ${orgKey}` })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const again = await get(path, { authorization: `Bearer ${orgKey}` });
    expect(again.status).toBe(200);
    expect(slugsOf(again)).toEqual(ORG_SLUGS);
  });

  it.each([
    ['no key', {}],
    ['a made-up key', { authorization: 'Bearer not-a-key' }],
    ['a well-formed key never issued', { authorization: `Bearer ${generateKey()}` }],
    ['a made-up X-API-KEY', { 'x-api-key': generateKey() }],
  ])('answers %s with a 401 of its own, never the org projects', async (_label, headers: Record<string, string>) => {
    const answer = await get(path, headers);
    expect(answer.status).toBe(401);
    expect(answer.headers['x-cache']).toBeUndefined();
    expect(answer.headers['cache-control']).toBe('private, no-store');
    for (const slug of ORG_SLUGS) expect(answer.body).not.toContain(slug);
  });

  it('answers a revoked key of the same org with 401', async () => {
    const answer = await get(path, { authorization: `Bearer ${revokedKey}` });
    expect(answer.status).toBe(401);
    expect(answer.body).not.toContain('acme-private');
  });

  it("answers another tenant's key with that tenant's projects", async () => {
    const answer = await get(path, { authorization: `Bearer ${otherKey}` });
    expect(answer.status).toBe(200);
    expect(slugsOf(answer)).toEqual(OTHER_SLUGS);
    expect(answer.headers['cache-control']).toBe('private, no-store');
  });

  it('still answers its own caller fresh, never from the cache, and with a 304 for its ETag', async () => {
    const answer = await get(path, { 'x-api-key': orgKey });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-cache']).toBeUndefined();
    expect(answer.headers['cache-control']).toBe('private, no-store');
    expect(slugsOf(answer)).toEqual(ORG_SLUGS);
    const conditional = await get(path, { 'x-api-key': orgKey, 'if-none-match': answer.headers.etag! });
    expect(conditional.status).toBe(304);
    // The ETag is no way in either: without the key it is a 401.
    expect((await get(path, { 'if-none-match': answer.headers.etag! })).status).toBe(401);
  });
});

describe('public routes', () => {
  it('are still cached and answered by the fast path', async () => {
    const path = '/v1/changelog/acme-public?limit=5';
    const answers = [await get(path), await get(path)];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.headers['x-cache'])).toEqual(['miss', 'hit']);
    expect(answers[1]!.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
  });
});
