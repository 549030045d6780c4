import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { createServices } from '../services.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { startTcpProxy, type TcpProxy } from '../../test/helpers/tcp-proxy.js';

// PostgreSQL only: the app reaches its (real) database through a proxy this test cuts and restores.
const TIMEOUT_MS = 800;

let direct: TestDatabase;
let proxy: TcpProxy;
let proxied: Database;
let app: FastifyInstance;
let slug: string;

beforeAll(async () => {
  direct = await createTestDatabase();
  const user = await buildUser(createServices(direct));
  slug = (await buildProject(createServices(direct), { type: 'user', email: user.email })).slug;
  const url = new URL(direct.url!);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  proxied = await openDatabase({ kind: 'postgres', url: url.toString(), readUrl: null, poolMax: 4 }, { timeoutMs: TIMEOUT_MS });
  // No response cache: it would (rightly) keep answering public pages it holds while the database is away.
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_TIMEOUT_MS: String(TIMEOUT_MS), RATE_LIMIT_ENABLED: 'false', RESPONSE_CACHE: 'false' });
  app = await buildApp({ config, database: proxied, services: createServices(proxied, config) });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await proxied?.close();
  await proxy?.close();
  await direct?.close();
});

async function timed(url: string) {
  const started = performance.now();
  const res = await app.inject({ url });
  return { res, ms: performance.now() - started };
}

async function eventually200(url: string): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < 100; i++) {
    const { res } = await timed(url);
    seen.push(res.statusCode);
    if (res.statusCode === 200) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return seen;
}

describe.each(['refuse', 'stall'] as const)('database %s', (mode) => {
  it('answers 503 JSON within the configured timeout, keeps serving liveness, and recovers by itself', async () => {
    expect((await timed(`/v1/changelog/${slug}`)).res.statusCode).toBe(200);
    expect((await timed('/ready')).res.statusCode).toBe(200);

    proxy.setMode(mode);
    try {
      for (const url of [`/v1/changelog/${slug}`, `/v1/changelog/${slug}/entries/00000000-0000-4000-8000-000000000000`]) {
        const { res, ms } = await timed(url);
        expect(res.statusCode, url).toBe(503);
        expect(res.json()).toEqual({ error: 'Service temporarily unavailable', code: 'unavailable' });
        expect(res.headers['retry-after']).toBe('5');
        // No hang: the configured timeout (plus the pool's own connect attempt) bounds the wait.
        expect(ms).toBeLessThan(TIMEOUT_MS * 3 + 500);
      }
      const { res: ready, ms } = await timed('/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.database).toEqual({ status: 'failing', reason: 'database unreachable' });
      expect(ms).toBeLessThan(TIMEOUT_MS * 3 + 500);
      expect((await timed('/health')).res.statusCode).toBe(200);
    } finally {
      proxy.setMode('open');
    }

    const seen = await eventually200(`/v1/changelog/${slug}`);
    expect(seen.at(-1)).toBe(200);
    expect(seen.every((status) => status === 200 || status === 503)).toBe(true);
    expect((await timed('/ready')).res.statusCode).toBe(200);
  });
});

describe('backends terminated by the server (pg_terminate_backend)', () => {
  it('never answers 500 and is back to 200 without a restart', async () => {
    expect((await timed(`/v1/changelog/${slug}`)).res.statusCode).toBe(200);
    const admin = new pg.Client({ connectionString: direct.url });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'changelog-service' AND pid <> pg_backend_pid()) t`,
      );
      expect(rows[0].n).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await timed(`/v1/changelog/${slug}`)).res.statusCode);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(statuses.at(-1)).toBe(200);
  });
});
