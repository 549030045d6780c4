import { testConfig } from '../../test/helpers/config.js';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createServices } from '../services.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';

let database: TestDatabase;
let app: Awaited<ReturnType<typeof buildApp>>;
let lines: string[];
let secret: string;
let revokedSecret: string;

beforeAll(async () => {
  database = await createTestDatabase();
  lines = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const config = testConfig({ LOG_LEVEL: 'trace' });
  const services = createServices(database, config);
  app = await buildApp({ config, database, services, logStream });
  const user = await buildUser(services);
  await buildProject(services, { type: 'user', email: user.email });
  secret = (await services.keys.create({ name: 'k', context: { type: 'user', email: user.email } })).secret;
  const revoked = await services.keys.create({ name: 'r', context: { type: 'user', email: user.email } });
  revokedSecret = revoked.secret;
  await services.keys.revoke(revoked.key.id);
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('logs', () => {
  it('log requests with an id, and never a key or its hash', async () => {
    const responses = await Promise.all([
      app.inject({ url: '/v1/projects', headers: { authorization: `Bearer ${secret}` } }),
      app.inject({ url: '/v1/projects', headers: { 'x-api-key': secret } }),
      app.inject({ url: '/v1/projects', headers: { authorization: `Bearer ${revokedSecret}` } }),
      app.inject({ url: `/v1/projects?entries_limit=${secret}`, headers: { 'x-api-key': secret } }),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 401, 400]);
    const { hashKey } = await import('../keys/key-format.js');
    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(4);
    expect(text).toContain('"reqId"');
    for (const value of [secret, revokedSecret, hashKey(secret), hashKey(revokedSecret)]) {
      expect(text).not.toContain(value);
      expect(text).not.toContain(value.slice(4, 24));
    }
  });

  it('writes one line per request, with its method, URL, status and time', async () => {
    const res = await app.inject({ url: '/health', headers: { 'x-request-id': 'one-line-check' } });
    expect(res.statusCode).toBe(200);
    const mine = lines.map((line) => JSON.parse(line)).filter((entry) => entry.reqId === 'one-line-check');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/health' }, res: { statusCode: 200 } });
    expect(mine[0].responseTime).toEqual(expect.any(Number));
  });

  it('keeps a sane incoming X-Request-Id and replaces anything else', async () => {
    const kept = await app.inject({ url: '/health', headers: { 'x-request-id': 'edge-123.abc' } });
    expect(kept.headers['x-request-id']).toBe('edge-123.abc');
    const replaced = await app.inject({ url: '/health', headers: { 'x-request-id': 'bad id\u0000<script>' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
