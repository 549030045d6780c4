import { testConfig } from '../../test/helpers/config.js';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { applyTimeouts } from '../server.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';

let database: TestDatabase;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  database = await createTestDatabase();
  const config = testConfig({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' });
  app = await buildApp({ config, database });
  applyTimeouts(app, config);
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** Sends `text` and never more; resolves with what the server answered and when it closed. */
function trickle(text: string): Promise<{ answer: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('close', () => resolve({ answer, ms: performance.now() - started }));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept the connection open'));
    }, 10_000).unref();
  });
}

describe('slow clients', () => {
  it('are answered 408 and disconnected when their headers do not arrive within HEADERS_TIMEOUT_MS', async () => {
    const { answer, ms } = await trickle('GET /health HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThanOrEqual(900);
  });

  it('are answered 408 when the body does not arrive within REQUEST_TIMEOUT_MS', async () => {
    // Headers complete, body never finished (OPTIONS reaches CORS's catch-all route, which reads bodies).
    const { answer, ms } = await trickle(
      'OPTIONS /v1/changelog/demo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThanOrEqual(1_900);
  });

  it('does not disturb a normal request', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    expect(res.status).toBe(200);
  });
});
