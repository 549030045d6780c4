import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { generateKey, hashKey } from '../../keys/key-format.js';
import { createServices, type Services } from '../../services.js';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { buildProject, buildUser } from '../../../test/helpers/factories.js';
import { testConfig } from '../../../test/helpers/config.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

let database: TestDatabase;
let services: Services;
let slug: string;
let secretA: string;
let secretB: string;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  const user = await buildUser(services);
  slug = (await buildProject(services, { type: 'user', email: user.email })).slug;
  secretA = (await services.keys.create({ name: 'a', context: { type: 'user', email: user.email } })).secret;
  secretB = (await services.keys.create({ name: 'b', context: { type: 'user', email: user.email } })).secret;
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await database?.close();
});

async function appWith(env: Record<string, string>): Promise<FastifyInstance> {
  // Load shedding stays off (testConfig): on a busy machine it answered a guess 503 before the limiter saw it.
  const config = testConfig({ RATE_LIMIT_ENABLED: 'true', ...env });
  const app = await buildApp({ config, database, services: createServices(database, config) });
  await app.ready();
  apps.push(app);
  return app;
}

const get = (app: FastifyInstance, url: string, ip: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, remoteAddress: ip, headers });

// Every behaviour is checked on both stores; each Redis run has its own key prefix.
describe.each([
  { store: 'in-process', env: () => ({}) },
  { store: 'Redis', env: () => ({ REDIS_URL, RATE_LIMIT_REDIS_PREFIX: `test-rl-${randomBytes(6).toString('hex')}:` }) },
])('rate limits ($store store)', ({ env }) => {
  it('limits public routes per client address, with RateLimit-* headers on every response and Retry-After on 429', async () => {
    const app = await appWith({ ...env(), RATE_LIMIT_PUBLIC_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get(app, `/v1/changelog/${slug}`, '10.1.0.1');
      statuses.push(res.statusCode);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe(String(2 - i));
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await get(app, `/v1/changelog/${slug}`, '10.1.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toMatch(/application\/json/);
    expect(limited.json()).toMatchObject({ code: 'rate_limited', error: expect.stringMatching(/retry in \d+ second/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    // Another address has its own budget; liveness is limited the same way but separately counted per address.
    expect((await get(app, `/v1/changelog/${slug}`, '10.1.0.2')).statusCode).toBe(200);
  });

  it('limits authenticated routes per API key, not per address', async () => {
    const app = await appWith({ ...env(), RATE_LIMIT_AUTHENTICATED_MAX: '2', RATE_LIMIT_PUBLIC_MAX: '100' });
    const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
    expect((await get(app, '/v1/projects', '10.2.0.1', bearer(secretA))).statusCode).toBe(200);
    // The X-API-KEY header counts against the same key's bucket.
    expect((await get(app, '/v1/projects', '10.2.0.2', { 'x-api-key': secretA })).statusCode).toBe(200);
    const limited = await get(app, '/v1/projects', '10.2.0.3', bearer(secretA));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Same address, other key: unaffected.
    const other = await get(app, '/v1/projects', '10.2.0.1', bearer(secretB));
    expect(other.statusCode).toBe(200);
    expect(other.headers['ratelimit-limit']).toBe('2');
  });

  it('stops an address that keeps presenting bad keys, without slowing anyone else', async () => {
    const app = await appWith({ ...env(), RATE_LIMIT_AUTH_FAILURES_MAX: '5', RATE_LIMIT_PUBLIC_MAX: '1000' });
    const attacker = '10.3.0.66';
    const guesses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // Every guess is a fresh, well-formed key, so per-key buckets alone would never stop it.
      guesses.push((await get(app, '/v1/projects', attacker, { authorization: `Bearer ${generateKey()}` })).statusCode);
    }
    expect(guesses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(guesses.slice(5))).toEqual(new Set([429]));
    // Even a right key from that address is refused until the window passes: guessing cannot be confirmed.
    const blocked = await get(app, '/v1/projects', attacker, { authorization: `Bearer ${secretA}` });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.headers['ratelimit-limit']).toBeDefined();

    // Everyone else is served as before, on authenticated and public routes.
    const [victim, reader] = await Promise.all([
      get(app, '/v1/projects', '10.3.0.7', { authorization: `Bearer ${secretB}` }),
      get(app, `/v1/changelog/${slug}`, attacker),
    ]);
    expect(victim.statusCode).toBe(200);
    expect(victim.json().projects.map((p: { slug: string }) => p.slug)).toContain(slug);
    expect(reader.statusCode).toBe(200);
  });

  it('believes X-Forwarded-For only from proxies the operator named', async () => {
    const direct = await appWith({ ...env(), RATE_LIMIT_PUBLIC_MAX: '2' });
    const spoofed = [];
    for (const forwarded of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) {
      spoofed.push((await get(direct, '/health', '10.4.0.1', { 'x-forwarded-for': forwarded })).statusCode);
    }
    expect(spoofed).toEqual([200, 200, 429]);

    const proxied = await appWith({ ...env(), RATE_LIMIT_PUBLIC_MAX: '2', TRUSTED_PROXIES: '10.4.0.0/24' });
    const viaProxy = [];
    for (const forwarded of ['1.1.1.1', '2.2.2.2', '3.3.3.3', '3.3.3.3', '3.3.3.3']) {
      viaProxy.push((await get(proxied, '/health', '10.4.0.9', { 'x-forwarded-for': forwarded })).statusCode);
    }
    expect(viaProxy).toEqual([200, 200, 200, 200, 429]);
  });
});

describe('rate limits on Redis across processes', () => {
  it('shares counters between processes through Redis, and stores no key', async () => {
    const shared = { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: `test-rl-${randomBytes(6).toString('hex')}:` };
    const [one, two] = [await appWith({ ...shared, RATE_LIMIT_AUTHENTICATED_MAX: '3' }), await appWith({ ...shared, RATE_LIMIT_AUTHENTICATED_MAX: '3' })];
    const statuses = [];
    for (const app of [one, two, one, two]) {
      statuses.push((await get(app, '/v1/projects', '10.5.0.1', { authorization: `Bearer ${secretA}` })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${shared.RATE_LIMIT_REDIS_PREFIX}*`);
      expect(keys.some((k) => k.includes(hashKey(secretA)))).toBe(true);
      expect(keys.join('\n')).not.toContain(secretA);
      expect(keys.join('\n')).not.toContain(secretA.slice(4, 20));
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });
});

describe('rate limits when Redis is unreachable', () => {
  it('let requests through within a second or two when Redis stops answering on an open connection', async () => {
    // Answers the connection's handshake (CLIENT SETINFO, the INFO of the ready check), then nothing: a
    // blocked Redis, or a network that drops packets on an open connection.
    const stalled = createServer((socket) => {
      let pending = '';
      let ready = false;
      socket.on('data', (chunk) => {
        pending += chunk.toString();
        // Each command is a RESP array of bulk strings: *N, then N × ($len, value).
        for (;;) {
          const lines = pending.split('\r\n');
          const count = Number(lines[0]?.slice(1));
          if (!lines[0]?.startsWith('*') || lines.length < 1 + 2 * count + 1) return;
          const name = lines[2]!.toLowerCase();
          pending = lines.slice(1 + 2 * count).join('\r\n');
          if (ready) continue;
          if (name === 'info') {
            const info = '# Server\r\nredis_version:7.0.0\r\nloading:0\r\n';
            socket.write(`$${info.length}\r\n${info}\r\n`);
            ready = true;
          } else socket.write('+OK\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    try {
      const app = await appWith({ REDIS_URL: `redis://127.0.0.1:${(stalled.address() as AddressInfo).port}`, RATE_LIMIT_PUBLIC_MAX: '1' });
      for (let i = 0; i < 2; i++) {
        const started = performance.now();
        expect((await get(app, `/v1/changelog/${slug}`, '10.7.0.1')).statusCode).toBe(200);
        expect(performance.now() - started).toBeLessThan(5_000);
      }
    } finally {
      stalled.close();
    }
  }, 30_000);

  it('let requests through instead of taking the API down with the cache', async () => {
    // Nothing listens on port 1: every store call fails at once.
    const app = await appWith({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_PUBLIC_MAX: '1', RATE_LIMIT_AUTH_FAILURES_MAX: '1' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(app, `/v1/changelog/${slug}`, '10.6.0.1')).statusCode);
    statuses.push((await get(app, '/v1/projects', '10.6.0.1', { authorization: `Bearer ${secretA}` })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200]);
  });
});
