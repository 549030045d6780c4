import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, seedDataDir, usePostgres, type TestDatabase } from '../../test/helpers/database.js';
import { startServerProcess } from '../../test/helpers/process.js';

let database: TestDatabase | undefined;
let dataDir: string | undefined;
/** A seeded embedded data directory that no server has opened: each server gets a copy (copying is quicker than seeding). */
let pristine: string | undefined;

/** Where the spawned server keeps its data: this run's PostgreSQL scratch database, or a fresh embedded one. */
async function databaseEnv(): Promise<Record<string, string>> {
  // Shutdown is under test, not load shedding: on a busy machine the event loop's delay after start-up
  // (migrations, the demo's generation) could make the server answer the in-flight request 503 at once.
  const quiet = { DEMO_SEED: 'false', UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' };
  if (database?.url) return { ...quiet, DATABASE_URL: database.url };
  const fresh = join(dataDir!, String(Math.random()).slice(2));
  // Without a template (outside the pglite project) seeding left nothing: the server initializes the directory.
  if (existsSync(pristine!)) cpSync(pristine!, fresh, { recursive: true });
  return { ...quiet, DATA_DIR: fresh };
}

beforeAll(async () => {
  if (usePostgres) database = await createTestDatabase();
  else {
    dataDir = mkdtempSync(join(tmpdir(), 'changelog-shutdown-'));
    pristine = join(dataDir, 'pristine');
    await seedDataDir(pristine);
  }
});

afterAll(async () => {
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A request whose body is still arriving: the server holds it in flight until the client sends the
 * rest. (OPTIONS is the one method every route table here accepts a body for: CORS's catch-all.)
 * `Expect: 100-continue` makes the server say when it has read the headers, so the request is known
 * to be in flight, not just a connection a busy server has not read yet (and may close as idle).
 */
async function requestInFlight(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  let onData = () => {};
  socket.on('data', (chunk) => {
    received += String(chunk);
    onData();
  });
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''))));
  socket.on('error', () => {});
  const body = JSON.stringify({ padding: 'x'.repeat(64) });
  const continued = new Promise<void>((resolve) => (onData = () => received.includes('100 Continue') && resolve()));
  socket.write(
    `OPTIONS /v1/changelog/demo HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
  );
  await continued;
  socket.write(body.slice(0, 10));
  return { finish: () => socket.write(body.slice(10)), closed };
}

describe('graceful shutdown (a real process)', () => {
  it('on SIGTERM stops accepting, finishes the request in flight, and exits 0', async () => {
    const server = await startServerProcess({ ...(await databaseEnv()), SHUTDOWN_TIMEOUT_MS: '20000' });
    const inFlight = await requestInFlight(server.url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 700));
    // Still up: a request is in flight.
    expect(server.child.exitCode).toBeNull();
    // New connections are no longer accepted.
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();

    inFlight.finish();
    const response = await inFlight.closed;
    // Answered in full (the catch-all route answers a non-CORS OPTIONS with 404 JSON), not reset.
    expect(response).toMatch(/^HTTP\/1\.1 404 /);
    expect(response).toContain('"code":"not_found"');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.output()).not.toMatch(/killed by timeout|"level":50/);
  });

  it('exits within SHUTDOWN_TIMEOUT_MS when a client never finishes', async () => {
    const server = await startServerProcess({ ...(await databaseEnv()), SHUTDOWN_TIMEOUT_MS: '1000' });
    const stuck = await requestInFlight(server.url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    // Non-zero: the operator should know a request was cut short.
    expect(exit.code).toBe(1);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(server.output()).toContain('killed by timeout (1000ms)');
    expect(await stuck.closed).not.toMatch(/^HTTP/);
  });
});
