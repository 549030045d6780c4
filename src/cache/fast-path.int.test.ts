import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createServices, type Services } from '../services.js';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser, generatedJson, insertEntries } from '../../test/helpers/factories.js';
import { eventually } from '../../test/helpers/eventually.js';

/**
 * Cache hits answered before the framework: the same bytes and headers as the framework's answer,
 * the same limits, and never a response the cache no longer holds. Over real HTTP, since the fast
 * path sits in the HTTP server, in front of the framework (`inject` never reaches it).
 */

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers that legitimately differ between two answers to the same request. */
const PER_REQUEST = ['date', 'x-request-id', 'x-cache', 'ratelimit-remaining', 'ratelimit-reset', 'keep-alive', 'connection'];
const comparable = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_REQUEST.includes(name)));

async function start(env: Record<string, string>) {
  const database = await createTestDatabase();
  const config = testConfig(env);
  const services = createServices(database, config);
  const app = await buildApp({ config, database, services });
  // Counts the requests the framework itself sees; the fast path's never reach this hook.
  const framework = { requests: 0 };
  app.addHook('onRequest', async () => {
    framework.requests++;
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const get = async (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> => {
    const res = await fetch(base + path, { headers, method });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
  return { database, services, app, framework, get };
}

async function seed(services: Services) {
  const user = await buildUser(services);
  const project = await buildProject(services, { type: 'user', email: user.email }, { slug: 'fast-app' });
  const published = await insertEntries(
    services,
    project.id,
    [1, 2, 3].map((n) => ({
      status: 'published' as const,
      title: `Release ${n}`,
      generated_json: JSON.stringify(generatedJson(`Release ${n}`)),
      published_at: new Date(Date.UTC(2026, 0, n)).toISOString(),
    })),
  );
  return { project, published };
}

describe('fast path for cache hits', () => {
  let ctx: Awaited<ReturnType<typeof start>>;
  let published: string[];

  beforeAll(async () => {
    ctx = await start({ RESPONSE_CACHE: 'true' });
    const seeded = await seed(ctx.services);
    published = seeded.published;
    // Let the inserts' change notifications arrive before anything is cached.
    await new Promise((r) => setTimeout(r, 300));
  });
  afterAll(async () => {
    await ctx.app.close();
    await ctx.database.close();
  });

  it('answers a repeated request without the framework, with the same bytes and headers', async () => {
    for (const path of ['/v1/changelog/fast-app?limit=2', `/v1/changelog/fast-app/entries/${published[0]}`]) {
      const before = ctx.framework.requests;
      const first = await ctx.get(path);
      const second = await ctx.get(path);
      const third = await ctx.get(path, { origin: 'https://customer.example' });
      expect(ctx.framework.requests - before, path).toBe(1);
      expect(first.status).toBe(200);
      expect([first.headers['x-cache'], second.headers['x-cache']]).toEqual(['miss', 'hit']);
      expect(second.body).toBe(first.body);
      expect(comparable(second.headers)).toEqual(comparable(first.headers));
      expect(comparable(third.headers)).toEqual(comparable(first.headers));
      // Security headers and CORS are among them, not lost on the way.
      expect(second.headers['access-control-allow-origin']).toBe('*');
      expect(second.headers['x-content-type-options']).toBe('nosniff');
      expect(second.headers['content-security-policy']).toBeDefined();
      expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    }
  });

  it('keeps a proxy-supplied request id, and replaces one that does not look like an id', async () => {
    const path = '/v1/changelog/fast-app?limit=1';
    await ctx.get(path);
    expect((await ctx.get(path, { 'x-request-id': 'edge-42.a:b' })).headers['x-request-id']).toBe('edge-42.a:b');
    expect((await ctx.get(path, { 'x-request-id': 'not an id; <script>' })).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers If-None-Match with the same 304 as the framework', async () => {
    const path = '/v1/changelog/fast-app?limit=3';
    const fromFramework = await ctx.get(`${path}&unknown=1`);
    const etag = fromFramework.headers.etag!;
    // The framework's 304 (a URL it has not answered before), then the fast path's.
    const slow = await ctx.get(`${path}&unknown=2`, { 'if-none-match': etag });
    await ctx.get(path);
    const before = ctx.framework.requests;
    const fast = await ctx.get(path, { 'if-none-match': etag });
    expect(ctx.framework.requests).toBe(before);
    expect([slow.status, fast.status]).toEqual([304, 304]);
    expect(fast.body).toBe('');
    expect(comparable(fast.headers)).toEqual(comparable(slow.headers));
    // A stale validator gets the full body.
    expect((await ctx.get(path, { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it('leaves other methods, bodies and unknown URLs to the framework', async () => {
    const path = `/v1/changelog/fast-app/entries/${published[1]}`;
    await ctx.get(path);
    const before = ctx.framework.requests;
    expect((await ctx.get(path, {}, 'HEAD')).status).toBe(200);
    expect((await ctx.get(path, {}, 'DELETE')).status).toBe(404);
    expect((await ctx.get('/v1/changelog/fast-app?limit=0')).status).toBe(400);
    expect(ctx.framework.requests - before).toBe(3);
  });

  it('stops answering from a response as soon as a change invalidates it, and never shows a draft', async () => {
    const path = `/v1/changelog/fast-app/entries/${published[2]}`;
    const list = '/v1/changelog/fast-app?limit=10';
    expect((await ctx.get(path)).status).toBe(200);
    expect((await ctx.get(list)).headers['x-cache']).toBeDefined();
    expect((await ctx.get(path)).headers['x-cache']).toBe('hit');

    await ctx.database.db.updateTable('changelog_entries').set({ status: 'draft', published_at: null }).where('id', '=', published[2]!).execute();
    const gone = await eventually(() => ctx.get(path), (r) => r.status === 404);
    expect(gone.status).toBe(404);
    const listed = await eventually(() => ctx.get(list), (r) => !r.body.includes(published[2]!));
    expect(listed.body).not.toContain(published[2]!);
    // And again from the cache: still the new state.
    expect((await ctx.get(path)).status).toBe(404);
    expect((await ctx.get(list)).body).toBe(listed.body);
  });
});

describe('fast path and rate limits', () => {
  let ctx: Awaited<ReturnType<typeof start>>;
  let path: string;

  beforeAll(async () => {
    ctx = await start({ RESPONSE_CACHE: 'true', RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PUBLIC_MAX: '4', RATE_LIMIT_WINDOW_MS: '60000' });
    const { published } = await seed(ctx.services);
    path = `/v1/changelog/fast-app/entries/${published[0]}`;
    await new Promise((r) => setTimeout(r, 300));
  });
  afterAll(async () => {
    await ctx.app.close();
    await ctx.database.close();
  });

  it('counts hits against the same per-address limit, and the framework answers the 429', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 5; i++) answers.push(await ctx.get(path));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429]);
    expect(answers.map((a) => a.headers['x-cache'])).toEqual(['miss', 'hit', 'hit', 'hit', undefined]);
    expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['3', '2', '1', '0', '0']);
    expect(answers.slice(0, 4).every((a) => a.headers['ratelimit-limit'] === '4')).toBe(true);
    const refused = answers[4]!;
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
