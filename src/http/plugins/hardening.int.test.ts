import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../app.js';
import { createServices, type Services } from '../../services.js';
import { createTestDatabase, usePostgres, type TestDatabase } from '../../../test/helpers/database.js';
import { buildProject, buildUser } from '../../../test/helpers/factories.js';
import { testConfig } from '../../../test/helpers/config.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

let database: TestDatabase;
let services: Services;
let app: FastifyInstance;
let slug: string;
let secret: string;
const extraApps: FastifyInstance[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  const user = await buildUser(services);
  slug = (await buildProject(services, { type: 'user', email: user.email })).slug;
  secret = (await services.keys.create({ name: 'k', context: { type: 'user', email: user.email } })).secret;
  app = await appWith({ METRICS_TOKEN });
});

afterAll(async () => {
  for (const extra of extraApps) await extra.close();
  await database?.close();
});

async function appWith(env: Record<string, string>, beforeReady?: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  // The test settings (load shedding off unless a test turns it on), with the rate limits on.
  const config = testConfig({ RATE_LIMIT_ENABLED: 'true', ...env });
  const built = await buildApp({ config, database, services: createServices(database, config) });
  beforeReady?.(built);
  await built.ready();
  extraApps.push(built);
  return built;
}

describe('security headers', () => {
  it('sends helmet headers on API responses', async () => {
    const res = await app.inject({ url: `/v1/changelog/${slug}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('keeps /docs working under its Content-Security-Policy: only same-origin scripts, every asset served', async () => {
    const page = await app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toContain('upgrade-insecure-requests');
    const html = page.body;
    // No inline script (CSP would block it): every <script> has a relative src and an empty body.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\.\//);
      expect(body!.trim()).toBe('');
    }
    const assets = [...html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(expect.arrayContaining(['static/swagger-initializer.js', 'static/swagger-ui.css']));
    for (const asset of assets) {
      const res = await app.inject({ url: `/docs/${asset}` });
      expect(res.statusCode, asset).toBe(200);
    }
    // The initializer fetches the document from this origin (allowed by default-src 'self').
    const init = await app.inject({ url: '/docs/static/swagger-initializer.js' });
    expect(init.body).toContain("url: resolveUrl('./json')");
    expect(init.body).toContain('validatorUrl: null');
  });
});

describe('CORS', () => {
  const origin = 'https://customer.example';

  it('lets any origin read the public routes', async () => {
    for (const url of [`/v1/changelog/${slug}`, '/health', '/openapi.json']) {
      const res = await app.inject({ url, headers: { origin } });
      expect(res.headers['access-control-allow-origin'], url).toBe('*');
    }
    const exposed = (await app.inject({ url: `/v1/changelog/${slug}`, headers: { origin } })).headers['access-control-expose-headers'];
    expect(String(exposed)).toContain('ETag');
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: `/v1/changelog/${slug}`,
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('GET');
  });

  it('sends no CORS header from authenticated or operator routes, and refuses their preflight', async () => {
    const res = await app.inject({ url: '/v1/projects', headers: { origin, authorization: `Bearer ${secret}` } });
    expect(res.statusCode).toBe(200);
    const corsHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((h) => h.startsWith('access-control-'));
    expect(corsHeaders(res.headers)).toEqual([]);
    for (const url of ['/ready', '/metrics']) {
      expect(corsHeaders((await app.inject({ url, headers: { origin } })).headers), url).toEqual([]);
    }
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/v1/projects',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(404);
    expect(corsHeaders(preflight.headers)).toEqual([]);
    // A write method is never allowed cross-origin, even on a public path.
    const write = await app.inject({
      method: 'OPTIONS',
      url: `/v1/changelog/${slug}`,
      headers: { origin, 'access-control-request-method': 'DELETE' },
    });
    expect(corsHeaders(write.headers)).toEqual([]);
  });
});

describe('request size', () => {
  it('answers a body over BODY_LIMIT_BYTES with 413 JSON', async () => {
    const small = await appWith({ BODY_LIMIT_BYTES: '1024' }, (a) => {
      // No contract route takes a body yet; this stand-in route exercises the server-wide limit.
      a.post('/echo-for-test', { schema: { hide: true } }, async (request) => ({ size: JSON.stringify(request.body).length }));
    });
    const ok = await small.inject({ method: 'POST', url: '/echo-for-test', payload: { text: 'x'.repeat(500) } });
    expect(ok.statusCode).toBe(200);
    const big = await small.inject({ method: 'POST', url: '/echo-for-test', payload: { text: 'x'.repeat(2000) } });
    expect(big.statusCode).toBe(413);
    expect(big.headers['content-type']).toMatch(/application\/json/);
    expect(big.json()).toMatchObject({ code: 'payload_too_large', error: expect.any(String) });
  });

});

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    const plain = await appWith({});
    expect((await plain.inject({ url: '/metrics' })).statusCode).toBe(404);
  });

  it('refuses a missing or wrong token', async () => {
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope-nope-nope-nope' } })).statusCode).toBe(401);
  });

  it('counts requests and latency per route pattern and status, and reports the pool', async () => {
    await app.inject({ url: `/v1/changelog/${slug}` });
    await app.inject({ url: '/v1/changelog/no-such-project' });
    await app.inject({ url: `/v1/changelog/${slug}?limit=0` });
    await app.inject({ url: '/nowhere/at/all' });
    const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/changelog\/:slug",status="200"\} [1-9]/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/changelog\/:slug",status="404"\} [1-9]/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/changelog\/:slug",status="400"\} [1-9]/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/v1\/changelog\/:slug",status="200"\} [1-9]/);
    expect(text).not.toContain('no-such-project');
    expect(text).toContain('process_cpu_user_seconds_total');
    if (usePostgres) expect(text).toMatch(/db_pool_connections\{state="total"\} [1-9]/);
    else expect(text).not.toMatch(/db_pool_connections\{/);
  });
});

describe('GET /ready', () => {
  it('is ready when the database answers and every migration is applied, and says which check fails otherwise', async () => {
    const ready = await app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: { status: 'ok' }, migrations: { status: 'ok' } } });

    const [latest] = await database.db.selectFrom('schema_migrations' as never).selectAll().orderBy('version' as never, 'desc').limit(1).execute() as Record<string, unknown>[];
    await database.db.deleteFrom('schema_migrations' as never).where('version' as never, '=', latest!.version as never).execute();
    try {
      const behind = await app.inject({ url: '/ready' });
      expect(behind.statusCode).toBe(503);
      expect(behind.headers['retry-after']).toBeDefined();
      expect(behind.json()).toEqual({
        status: 'not_ready',
        checks: { database: { status: 'ok' }, migrations: { status: 'failing', reason: `pending migrations: ${latest!.version}` } },
      });
    } finally {
      await database.db.insertInto('schema_migrations' as never).values(latest as never).execute();
    }
    expect((await app.inject({ url: '/ready' })).statusCode).toBe(200);
  });

  it('stays out of the contract document', async () => {
    const paths = Object.keys((await app.inject({ url: '/openapi.json' })).json().paths);
    expect(paths).toContain('/health');
    expect(paths).not.toContain('/ready');
    expect(paths).not.toContain('/metrics');
  });
});

// Last: the event-loop block below makes every app of this process shed load for a moment.
describe('load shedding', () => {
  it('sheds load with 503 and Retry-After while the event loop lags, keeping liveness up', async () => {
    const busy = await appWith({ UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '20', UNDER_PRESSURE_RETRY_AFTER_SECONDS: '7' });
    expect((await busy.inject({ url: `/v1/changelog/${slug}` })).statusCode).toBe(200);
    let shed: Awaited<ReturnType<FastifyInstance['inject']>> | undefined;
    for (let attempt = 0; attempt < 5 && shed === undefined; attempt++) {
      // Block the event loop for longer than a sampling interval, then give the sampler a turn.
      const until = Date.now() + 1_200;
      while (Date.now() < until) {
        /* busy */
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await busy.inject({ url: `/v1/changelog/${slug}` });
      if (res.statusCode === 503) shed = res;
    }
    expect(shed?.statusCode).toBe(503);
    expect(shed?.headers['retry-after']).toBe('7');
    expect(shed?.json()).toEqual({ error: 'The server is overloaded; retry later', code: 'unavailable' });
    expect((await busy.inject({ url: '/health' })).statusCode).toBe(200);
  });

  it('does not count start-up as load: a server that just started listening answers, and sheds again after', async () => {
    const fresh = await appWith({ UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '20' });
    // Start-up work on this thread (the embedded database, the job queue) blocks the loop before listening.
    const until = Date.now() + 1_200;
    while (Date.now() < until) {
      /* busy */
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    await fresh.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(fresh.server.address() as AddressInfo).port}/v1/changelog/${slug}`;
    expect((await fetch(url)).status).toBe(200);

    // Past the grace (two sampling intervals after listening), a lagging loop is shed as before.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    let shed: number | undefined;
    for (let attempt = 0; attempt < 5 && shed === undefined; attempt++) {
      const busyUntil = Date.now() + 1_200;
      while (Date.now() < busyUntil) {
        /* busy */
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
      const status = (await fetch(url)).status;
      if (status === 503) shed = status;
    }
    expect(shed).toBe(503);
  });
});
