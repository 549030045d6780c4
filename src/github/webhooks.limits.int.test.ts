import { createHmac, randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { buildUser } from '../../test/helpers/factories.js';
import { createScmTestContext, WEBHOOK_SECRET, type ScmTestContext } from '../../test/helpers/scm.js';
import { buildApp } from '../app.js';
import { createServices } from '../services.js';
import { WEBHOOK_IN_FLIGHT_LIMIT } from './webhooks.routes.js';

let ctx: ScmTestContext;
let port: number;
let unconfigured: FastifyInstance;
let unconfiguredPort: number;
const LARGE = 20 * 1024 * 1024;

const sign = (body: string | Buffer) => `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;

/**
 * One HTTP request on its own socket: headers (and as much of the body as given) are sent, the rest
 * of the declared body never is. Resolves with the status once the server answers.
 */
function rawPost(toPort: number, headers: Record<string, string>, body: Buffer = Buffer.alloc(0)) {
  const socket: Socket = connect(toPort, '127.0.0.1');
  const head = ['POST /webhooks/github HTTP/1.1', 'host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
  socket.write(head);
  if (body.length) socket.write(body);
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      if (end >= 0 && length !== undefined && text.length >= end + 4 + Number(length)) {
        resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)![1]), text: text.slice(end + 4) });
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('closed without an answer')));
  });
  response.catch(() => undefined);
  return { socket, response };
}

const headersFor = (length: number, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  'content-length': String(length),
  'x-github-event': 'push',
  'x-github-delivery': randomUUID(),
  'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
  ...extra,
});

const deliver = (event: string, body: string, delivery = randomUUID()) =>
  ctx.app.inject({
    method: 'POST',
    url: '/webhooks/github',
    headers: { 'content-type': 'application/json', 'x-github-event': event, 'x-github-delivery': delivery, 'x-hub-signature-256': sign(body) },
    payload: body,
  });

beforeAll(async () => {
  ctx = await createScmTestContext({ GITHUB_TRUSTED_ACCOUNTS: 'acme' });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
  const config = testConfig({ ...ctx.env, GITHUB_WEBHOOK_SECRET: '' });
  unconfigured = await buildApp({ config, database: ctx.database, services: createServices(ctx.database, config) });
  await unconfigured.listen({ port: 0, host: '127.0.0.1' });
  unconfiguredPort = (unconfigured.server.address() as AddressInfo).port;

  ctx.github.addInstallation({ id: 101, account: { login: 'acme', type: 'Organization' }, repos: [] });
  const user = await buildUser(ctx.services);
  const key = await ctx.services.keys.create({ name: 'k', context: { type: 'user', email: user.email } });
  const res = await ctx.app.inject({ method: 'GET', url: '/v1/scm/callback?installation_id=101', headers: { authorization: `Bearer ${key.secret}` } });
  expect(res.statusCode).toBe(200);
});

afterAll(async () => {
  await unconfigured?.close();
  await ctx?.close();
});

describe('POST /webhooks/github refuses before reading the body', () => {
  it('answers 503 when webhooks are not configured, without waiting for the 20 MB it announces', async () => {
    const { socket, response } = rawPost(unconfiguredPort, headersFor(LARGE));
    try {
      const res = await response;
      expect(res.status).toBe(503);
      expect(JSON.parse(res.text).error).toMatch(/GITHUB_WEBHOOK_SECRET/);
    } finally {
      socket.destroy();
    }
  });

  it('answers 401 at once without a signature, and 413 at once for a declared body over 25 MB', async () => {
    const headers: Record<string, string> = headersFor(LARGE);
    delete headers['x-hub-signature-256'];
    const unsigned = rawPost(port, headers);
    const huge = rawPost(port, headersFor(26 * 1024 * 1024));
    try {
      expect((await unsigned.response).status).toBe(401);
      expect((await huge.response).status).toBe(413);
    } finally {
      unsigned.socket.destroy();
      huge.socket.destroy();
    }
  });

  it('reads a large body with a bad signature to its end and answers 401 (the HMAC runs as it streams)', async () => {
    const body = Buffer.alloc(5 * 1024 * 1024, 'x');
    const { socket, response } = rawPost(port, headersFor(body.length), body);
    try {
      expect((await response).status).toBe(401);
    } finally {
      socket.destroy();
    }
  });

  it('answers 503 once the bytes received fill the in-flight budget, and takes deliveries again once they are gone', async () => {
    const SENT = 12 * 1024 * 1024;
    const fits = Math.floor(WEBHOOK_IN_FLIGHT_LIMIT / SENT);
    const open: Socket[] = [];
    try {
      let refused: { status: number; text: string } | undefined;
      // The first `fits` send 12 MB of their 20 MB and stall; the next one's bytes pass the budget.
      for (let i = 0; i < fits + 3 && !refused; i++) {
        const { socket, response } = rawPost(port, headersFor(LARGE), Buffer.alloc(SENT, 0x20));
        open.push(socket);
        if (i < fits) {
          await new Promise<void>((r) => socket.write('', () => r()));
          continue;
        }
        refused = await Promise.race([response, new Promise<undefined>((r) => setTimeout(() => r(undefined), 5_000))]);
      }
      expect(refused?.status).toBe(503);
      expect(JSON.parse(refused!.text).error).toMatch(/retry later/);
    } finally {
      for (const socket of open) socket.destroy();
    }
    // What they held is released when the connections close.
    let ok = 0;
    for (let i = 0; i < 50 && ok !== 200; i++) {
      ok = (await deliver('ping', JSON.stringify({ zen: `again ${i}` }))).statusCode;
      if (ok !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(ok).toBe(200);
  });

  it('lets idle connections announcing the whole budget hold nothing: a genuine delivery still gets through', async () => {
    // Announced lengths that add up to the whole budget (25 + 25 + 14 MB), then silence.
    const open = [25, 25, 14].map((mb) => rawPost(port, headersFor(mb * 1024 * 1024)));
    try {
      // Their headers are in before the genuine delivery's (the server has had time to take them).
      await Promise.all(open.map(({ socket }) => new Promise<void>((r) => socket.write('', () => r()))));
      await new Promise((r) => setTimeout(r, 300));
      const body = JSON.stringify({ zen: 'through the crowd' });
      const res = await fetch(`http://127.0.0.1:${port}/webhooks/github`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': sign(body) },
        body,
      });
      expect(res.status).toBe(200);
    } finally {
      for (const { socket } of open) socket.destroy();
    }
  });
});

describe('replayed or mislabelled deliveries', () => {
  const status = async () =>
    (await ctx.services.database.db.selectFrom('scm_installations').select('status').where('scm_installation_id', '=', '101').executeTakeFirstOrThrow()).status;

  it('refuses a signed body delivered again under a new X-GitHub-Delivery (a replayed suspend), while a genuine redelivery is a duplicate', async () => {
    const suspend = JSON.stringify({ action: 'suspend', installation: { id: 101, account: { login: 'acme' } }, sender: { login: 'acme-admin' } });
    ctx.github.installation(101)!.suspended = true;
    const delivery = randomUUID();
    expect((await deliver('installation', suspend, delivery)).json().outcome).toBe('installation suspended: ingest stopped');
    expect((await deliver('installation', suspend, delivery)).json()).toMatchObject({ duplicate: true });
    ctx.github.installation(101)!.suspended = false;
    expect((await deliver('installation', JSON.stringify({ action: 'unsuspend', installation: { id: 101 } }))).statusCode).toBe(200);
    expect(await status()).toBe('active');

    const replay = await deliver('installation', suspend);
    expect(replay.statusCode).toBe(409);
    expect(replay.json()).toMatchObject({ code: 'conflict', error: expect.stringMatching(/already delivered/) });
    expect(await status()).toBe('active');
  });

  it('ignores a replay older than the digests kept when GitHub does not confirm it', async () => {
    const suspend = JSON.stringify({ action: 'suspend', installation: { id: 101 }, note: 'old' });
    await deliver('installation', suspend);
    await sql`DELETE FROM webhook_payload_digests`.execute(ctx.services.database.db);
    const replay = await deliver('installation', suspend);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().outcome).toBe('ignored: GitHub does not confirm installation suspend');
    expect(await status()).toBe('active');
  });

  it('answers 400 when the payload is not the event the header names', async () => {
    const installationPayload = JSON.stringify({ action: 'deleted', installation: { id: 101 } });
    const asPush = await deliver('push', installationPayload);
    expect(asPush.statusCode).toBe(400);
    expect(asPush.json().error).toMatch(/does not match X-GitHub-Event "push"/);
    const pushPayload = JSON.stringify({ ref: 'refs/heads/main', repository: { name: 'r', owner: { login: 'acme' } }, installation: { id: 101 } });
    expect((await deliver('installation', pushPayload)).statusCode).toBe(400);
    expect((await deliver('installation', JSON.stringify({ action: 'added', installation: { id: 101 } }))).statusCode).toBe(400);
    expect(await status()).toBe('active');
  });
});
