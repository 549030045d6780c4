/**
 * Attacker test: a failed sign-in costs the server one scrypt (N = 2^17: 128 MiB and about half a
 * second of a core), on libuv's thread pool. Before the password gate, parallel failed sign-ins from a
 * few addresses (each within its sign-in limits) ran as many scrypts at once as the pool had threads,
 * keeping both cores and the pool busy. Now at most PASSWORD_HASH_CONCURRENCY run at once, the rest wait
 * their turn or are answered 503 with Retry-After, uncounted; the event loop stays free. scrypt itself
 * is watched (every call, its cost, how many run at once), not the gate's own figures.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';

const scryptCalls = { inFlight: 0, peak: 0, costs: [] as number[] };

// Test files share a worker's modules (isolate: false), so vi.mock cannot swap node:crypto under an
// app already imported; the builtin itself is wrapped instead and its ESM bindings re-synced, which
// reaches `import { scrypt } from 'node:crypto'` wherever it was imported.
const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
const realScrypt = crypto.scrypt;
function watchScrypt(): void {
  const watched = (password: string, salt: Buffer, keylen: number, options: { N: number }, callback: (error: Error | null, key: Buffer) => void) => {
    scryptCalls.inFlight++;
    scryptCalls.peak = Math.max(scryptCalls.peak, scryptCalls.inFlight);
    scryptCalls.costs.push(options.N);
    realScrypt(password, salt, keylen, options, (error, key) => {
      scryptCalls.inFlight--;
      callback(error, key);
    });
  };
  (crypto as { scrypt: unknown }).scrypt = watched;
  syncBuiltinESMExports();
}
function unwatchScrypt(): void {
  crypto.scrypt = realScrypt;
  syncBuiltinESMExports();
}

const LOG_N = 15;
const MAX_WAIT_MS = 1500;
let ctx: TestContext;

beforeAll(async () => {
  watchScrypt();
  // 2^15: a hash long enough (tens of milliseconds or more) for parallel sign-ins to overlap.
  ctx = await createTestContext({ PASSWORD_SCRYPT_LOG_N: String(LOG_N), PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_MAX_WAIT_MS: String(MAX_WAIT_MS) });
  const owner = new DashboardClient(ctx.app);
  expect((await owner.setUp(ctx.services, { name: 'Ada', email: 'ada@example.com' })).status).toBe(303);
});
afterAll(async () => {
  unwatchScrypt();
  await ctx?.close();
});

describe('what a failed sign-in costs', () => {
  it('is one scrypt of the same cost whether or not the account exists (the first unknown e-mail included)', async () => {
    const calls = () => scryptCalls.costs.length;
    const before = calls();
    const unknown = await new DashboardClient(ctx.app, '192.0.2.1').signIn('nobody-here@example.com', 'wrong-password-1');
    expect(unknown.status).toBe(401);
    expect(scryptCalls.costs.slice(before)).toEqual([2 ** LOG_N]);
    const middle = calls();
    const known = await new DashboardClient(ctx.app, '192.0.2.2').signIn('ada@example.com', 'wrong-password-2');
    expect(known.status).toBe(401);
    expect(scryptCalls.costs.slice(middle)).toEqual([2 ** LOG_N]);
    // Refused by the sign-in limits: no scrypt at all.
    const limited = new DashboardClient(ctx.app, '192.0.2.3');
    for (let i = 0; i < 5; i++) expect((await limited.signIn('ada@example.com', `wrong-${i}-password`)).status).toBe(401);
    const locked = calls();
    expect((await limited.signIn('ada@example.com', 'wrong-password-6')).status).toBe(429);
    expect(calls()).toBe(locked);
  });

  it('runs at most PASSWORD_HASH_CONCURRENCY scrypts at once under parallel failed sign-ins from a few addresses, the rest 503 uncounted, /health answering meanwhile', async () => {
    await ctx.services.database.db.deleteFrom('sign_in_limits').execute();
    scryptCalls.peak = 0;
    const addresses = ['198.51.100.21', '198.51.100.22', '198.51.100.23', '2001:db8:5::1'];
    const clients = addresses.map((address) => new DashboardClient(ctx.app, address));
    for (const client of clients) await client.get('/login');

    let probing = true;
    const health: number[] = [];
    const prober = (async () => {
      while (probing) {
        const started = performance.now();
        expect((await ctx.app.inject({ url: '/health' })).statusCode).toBe(200);
        health.push(performance.now() - started);
        await sleep(20);
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: 32 }, async (_, i) => {
        const started = performance.now();
        const res = await clients[i % clients.length]!.post('/login', { email: `guess-${i}@example.com`, password: `Summer2024!${i}` });
        return { res, ms: performance.now() - started, address: addresses[i % clients.length]! };
      }),
    );
    probing = false;
    await prober;

    expect(scryptCalls.peak).toBe(1);
    const statuses = answers.map((a) => a.res.status);
    expect(statuses.filter((s) => s !== 401 && s !== 503)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(0);
    const refused = answers.filter((a) => a.res.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const { res, ms } of refused) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.body).toContain('Too many sign-ins are being checked right now');
      // Answered within the wait limit (and the slack of a busy machine), not after queueing for ever.
      expect(ms).toBeLessThan(MAX_WAIT_MS + 2000);
    }
    // A refused attempt was never checked, so it does not count against the address's sign-in limit.
    const counters = await ctx.services.database.db.selectFrom('sign_in_limits').select(['key', 'failures']).where('key', 'like', 'address:%').execute();
    for (const address of addresses.slice(0, 3)) {
      const checked = answers.filter((a) => a.address === address && a.res.status === 401).length;
      expect(counters.find((c) => c.key === `address:${address}`)?.failures ?? 0, address).toBe(checked);
    }
    expect(health.length).toBeGreaterThan(3);
    // Usually a millisecond; the bound leaves room for a machine shared with other test files.
    expect(Math.max(...health)).toBeLessThan(500);
    // The gate's own figures agree, and are exported.
    expect(ctx.services.accounts.passwordHashingStats()).toMatchObject({ running: 0, waiting: 0, peakRunning: 1 });
  });
});
