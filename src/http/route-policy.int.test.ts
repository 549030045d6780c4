import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { ResponseCache } from '../cache/response-cache.js';
import { dashboardPlugin } from '../dashboard/dashboard.plugin.js';
import { createServices, type Services } from '../services.js';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildUser } from '../../test/helpers/factories.js';
import { replyCached } from '../cache/cached-reply.js';
import { replyCachedText } from '../cache/cached-text.js';
import { principalOf } from './route-policy.js';

/**
 * What a route's declaration implies (http/route-policy.ts): only routes that declare publicCache,
 * never those needing credentials, reach the response cache; routes with a security requirement
 * authenticate before their body is read, and answer `private, no-store`.
 */

let database: TestDatabase;
let services: Services;
// No change feed: these applications come and go, some never started.
const config = testConfig({ RESPONSE_CACHE: 'false' });
const apps: FastifyInstance[] = [];
let key: string;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database, config);
  const user = await buildUser(services);
  key = (await services.keys.create({ name: 'policy', context: { type: 'user', email: user.email } })).secret;
});
afterEach(async () => {
  // An application that failed to start may never finish closing: do not wait for it for long.
  for (const app of apps.splice(0)) await Promise.race([app.close().catch(() => {}), new Promise((r) => setTimeout(r, 2_000))]);
});
afterAll(async () => database?.close());

async function app(): Promise<FastifyInstance> {
  const built = await buildApp({ config, database, services });
  apps.push(built);
  return built;
}

/** Many unknown keys: each one a validation error if the body were ever validated. */
const unknownKeys = (bytes: number) => {
  const members: string[] = [];
  // `"k00000000":1,` is 14 bytes.
  for (let i = 0; i * 14 < bytes; i++) members.push(`"k${String(i).padStart(8, '0')}":1`);
  return `{${members.join(',')}}`;
};

describe('start-up check', () => {
  /** The error that stops an application with this plugin from starting. */
  async function startUpError(instance: FastifyInstance, plugin: (scope: FastifyInstance) => Promise<void>): Promise<unknown> {
    try {
      await instance.register(plugin);
      await instance.ready();
    } catch (error) {
      return error;
    }
    return undefined;
  }

  it('refuses a route that declares both a security requirement and publicCache', async () => {
    const error = await startUpError(await app(), async (scope) => {
      scope.get('/v1/leaky', { schema: { security: [{ bearerAuth: [] }] }, config: { publicCache: true } }, async () => ({}));
    });
    expect(String(error)).toMatch(/GET \/v1\/leaky: a route with a security requirement cannot declare config.publicCache/);
  });

  it('refuses publicCache on anything but GET', async () => {
    const error = await startUpError(await app(), async (scope) => {
      scope.post('/v1/cached-post', { config: { publicCache: true } }, async () => ({}));
    });
    expect(String(error)).toMatch(/only GET routes/);
  });

  it('refuses publicCache on a dashboard route, whose pages depend on the session cookie', async () => {
    const instance = Fastify();
    apps.push(instance);
    const error = await startUpError(instance, async (scope) => {
      await dashboardPlugin(scope as never, { services, config });
      scope.get('/dashboard/cached', { config: { publicCache: true } }, async () => 'page');
    });
    expect(String(error)).toMatch(/GET \/dashboard\/cached: dashboard routes cannot declare config.publicCache/);
  });

  it('refuses a security requirement naming a key scope that does not exist', async () => {
    const error = await startUpError(await app(), async (scope) => {
      scope.get('/v1/typo', { schema: { security: [{ bearerAuth: ['pubilsh'] }] } }, async () => ({}));
    });
    expect(String(error)).toMatch(/\/v1\/typo: unknown key scope "pubilsh"/);
  });

  it('lets a public GET route declare it', async () => {
    const error = await startUpError(await app(), async (scope) => {
      scope.get('/v1/fine', { config: { publicCache: true } }, async () => ({}));
    });
    expect(error).toBeUndefined();
  });
});

describe('replyCached and replyCachedText', () => {
  it('throw on a route that did not declare publicCache, before producing anything, and serve one that did', async () => {
    const instance = await app();
    const cache = new ResponseCache({ enabled: true, maxBytes: 1024 * 1024, ttlMs: 60_000 });
    cache.setLive(true);
    const produced: string[] = [];
    const json = (path: string) => async (_request: unknown, reply: Parameters<typeof replyCached>[0]) =>
      replyCached(reply, cache, path, async () => {
        produced.push(path);
        return { payload: { path }, tags: [] };
      });
    const text = (path: string) => async (request: Parameters<typeof replyCachedText>[0], reply: Parameters<typeof replyCachedText>[1]) =>
      replyCachedText(request, reply, cache, path, 'text/plain', async () => {
        produced.push(path);
        return { body: path, tags: [], lastModified: null };
      });
    instance.get('/test/json', json('/test/json'));
    instance.get('/test/text', text('/test/text'));
    instance.get('/test/public-json', { config: { publicCache: true } }, json('/test/public-json'));
    instance.get('/test/public-text', { config: { publicCache: true } }, text('/test/public-text'));
    await instance.ready();

    for (const url of ['/test/json', '/test/text']) {
      const res = await instance.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(500);
      expect(res.json()).toEqual({ error: 'Internal server error', code: 'internal' });
    }
    expect(produced).toEqual([]);
    expect(cache.size).toBe(0);
    for (const url of ['/test/public-json', '/test/public-text']) {
      expect((await instance.inject({ method: 'GET', url })).headers['x-cache'], url).toBe('miss');
      expect((await instance.inject({ method: 'GET', url })).headers['x-cache'], url).toBe('hit');
    }
  });
});

describe('routes with a security requirement', () => {
  it('authenticate before reading the body: any such route, as declared', async () => {
    const instance = await app();
    const seen: string[] = [];
    instance.post(
      '/v1/test-authenticated',
      {
        schema: { security: [{ bearerAuth: [] }], body: Type.Object({ name: Type.String() }, { additionalProperties: false }) },
      },
      async (request, reply) => {
        seen.push(principalOf(request).kind);
        return reply.header('cache-control', 'public, max-age=60').send({ ok: true });
      },
    );
    await instance.ready();
    const post = (headers: Record<string, string>, payload: string) =>
      instance.inject({ method: 'POST', url: '/v1/test-authenticated', headers: { 'content-type': 'application/json', ...headers }, payload });

    const anonymous = await post({}, unknownKeys(900_000));
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('private, no-store');
    const malformed = await post({}, '{"name": ');
    expect(malformed.statusCode).toBe(401);

    const ok = await post({ authorization: `Bearer ${key}` }, '{"name":"x"}');
    expect(ok.statusCode).toBe(200);
    // Whatever the handler says: an answer made with a key is the caller's alone.
    expect(ok.headers['cache-control']).toBe('private, no-store');
    expect(seen).toEqual(['api_key']);
  });
});

describe('routes that name a key scope', () => {
  it('refuse a key without it with 403 before reading the body, and serve a key with it', async () => {
    const instance = await app();
    instance.post(
      '/v1/test-scoped',
      { schema: { security: [{ bearerAuth: ['publish'] }], body: Type.Object({ name: Type.String() }, { additionalProperties: false }) } },
      async () => ({ ok: true }),
    );
    await instance.ready();
    const post = (secret: string, payload: string) =>
      instance.inject({ method: 'POST', url: '/v1/test-scoped', headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` }, payload });
    // A megabyte of unknown keys would be a 400 (or a 413) if the body were read: the scope is checked first.
    const readOnly = await post(key, unknownKeys(900_000));
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json()).toMatchObject({ code: 'forbidden', error: expect.stringContaining('publish scope') });
    expect(readOnly.headers['cache-control']).toBe('private, no-store');
    const user = await buildUser(services);
    const publishing = (await services.keys.create({ name: 'scoped', context: { type: 'user', email: user.email }, publish: true })).secret;
    expect((await post(publishing, '{"name":"x"}')).statusCode).toBe(200);
  });
});

describe('POST /v1/projects/{projectId}/repos with a megabyte of unknown keys', () => {
  const url = '/v1/projects/00000000-0000-4000-8000-000000000000/repos';
  let instance: FastifyInstance;
  beforeAll(async () => {
    instance = await buildApp({ config, database, services });
    await instance.ready();
  });
  afterAll(async () => instance?.close());
  const post = (headers: Record<string, string>, payload: string) =>
    instance.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload });

  it.each([
    ['no key', () => ({})],
    ['a made-up key', () => ({ authorization: 'Bearer clk_made_up' })],
    ['a valid key in X-API-KEY, which this route does not take', () => ({ 'x-api-key': key })],
  ])('answers %s with a small 401, not a 400 listing every key', async (_label, headers: () => Record<string, string>) => {
    const res = await post(headers(), unknownKeys(1_000_000));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
    expect(res.rawPayload.length).toBeLessThan(300);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('answers a valid key with a 413: the route takes 16 KiB at most', async () => {
    const res = await post({ authorization: `Bearer ${key}` }, unknownKeys(1_000_000));
    expect(res.statusCode).toBe(413);
    expect(res.rawPayload.length).toBeLessThan(300);
  });

  it('answers a valid key with a 400 of at most 20 details and a count of the rest', async () => {
    const body = unknownKeys(15 * 1024);
    const unknown = Object.keys(JSON.parse(body) as object).length;
    const res = await post({ authorization: `Bearer ${key}` }, body);
    expect(res.statusCode).toBe(400);
    const { details, error } = res.json<{ error: string; details: { message: string; parameter?: string }[] }>();
    expect(details).toHaveLength(21);
    expect(details).toContainEqual({ in: 'body', parameter: 'k00000000', message: 'is not a known property' });
    // The three required fields are missing too.
    expect(details[20]).toEqual({ message: `…and ${unknown + 3 - 20} more problems` });
    expect(error.length).toBeLessThan(2_000);
  });

  it('checks the key before the query of the callback, too', async () => {
    const res = await instance.inject({ method: 'GET', url: '/v1/scm/callback?installation_id=not-a-number' });
    expect(res.statusCode).toBe(401);
  });
});
