// The dashboard's webhook pages: add an endpoint (secret shown once), send a test event to a local
// receiver, read the delivery log, delete; SSRF refusals at registration name the problem.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { buildProject } from '../../test/helpers/factories.js';
import { waitFor } from '../../test/helpers/scm.js';
import { startWorker } from '../jobs/worker.js';
import { verifySignature } from './signature.js';

let ctx: TestContext;
let strict: TestContext;
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let browser: DashboardClient;
let project: { id: string; slug: string };

const page = () => `/dashboard/projects/${project.slug}/webhooks`;
const secretOn = (body: string) => /id="new-secret"[^>]*value="(whsec_[A-Za-z0-9_-]+)"/.exec(body)?.[1];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  ctx = await createTestContext({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', SIGNUP_OPEN: 'true', WEBHOOK_DISPATCH_INTERVAL_MS: '100' });
  await startWorker(ctx.services);
  browser = new DashboardClient(ctx.app);
  expect((await browser.setUp(ctx.services, { email: 'owner@example.com' })).status).toBe(303);
  project = await buildProject(ctx.services, { type: 'user', email: 'owner@example.com' });

  // No allow-list: the operator's defaults.
  strict = await createTestContext();
}, 60_000);

afterAll(async () => {
  await ctx?.close();
  await strict?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhook pages', () => {
  let endpointId: string;
  let secret: string;

  it('are linked from the project page and start empty', async () => {
    expect((await browser.get(`/dashboard/projects/${project.slug}`)).body).toContain(`href="${page()}"`);
    const res = await browser.get(page());
    expect(res.status).toBe(200);
    expect(res.body).toContain('No endpoints yet.');
  });

  it('refuses a form without the CSRF token and changes nothing', async () => {
    const res = await browser.post(page(), { _csrf: null, url: receiverUrl, event_types: 'entry.published' });
    expect(res.status).toBe(403);
    expect(await ctx.services.webhooks.list(project.id)).toEqual([]);
  });

  it('adds an endpoint and shows its signing secret once', async () => {
    await browser.get(page());
    const res = await browser.post(page(), { url: receiverUrl, event_types: ['entry.published', 'entry.updated'] });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toContain('no-store');
    secret = secretOn(res.body)!;
    expect(secret).toMatch(/^whsec_/);
    const [endpoint] = await ctx.services.webhooks.list(project.id);
    expect(endpoint).toMatchObject({ url: receiverUrl, eventTypes: ['entry.published', 'entry.updated'] });
    endpointId = endpoint!.id;

    const list = await browser.get(page());
    expect(list.body).toContain(receiverUrl);
    expect(list.body).not.toContain(secret);
    expect((await browser.get(`${page()}/${endpointId}`)).body).not.toContain(secret);
  });

  it('refuses a form without event types, naming the problem', async () => {
    await browser.get(page());
    const res = await browser.post(page(), { url: receiverUrl });
    expect(res.status).toBe(400);
    expect(res.body).toContain('choose at least one event type');
  });

  it('sends a signed test event and shows it in the delivery log', async () => {
    await browser.get(`${page()}/${endpointId}`);
    const res = await browser.post(`${page()}/${endpointId}/test`);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${page()}/${endpointId}?notice=webhook-test-sent`);
    const hit = await waitFor(async () => received[0], 15_000, 'the test event');
    expect(hit.headers['x-changelog-event']).toBe('webhook.test');
    expect(verifySignature(secret, hit.headers['x-changelog-signature'] as string, hit.body).ok).toBe(true);
    expect(JSON.parse(hit.body)).toMatchObject({ type: 'webhook.test', project: { id: project.id, slug: project.slug } });

    const log = await waitFor(async () => {
      const body = (await browser.get(`${page()}/${endpointId}`)).body;
      return body.includes('badge delivered') ? body : undefined;
    });
    expect(log).toContain('webhook.test');
    expect(log).toMatch(/<td>1<\/td><td>200<\/td><td>\d+ ms<\/td>/);
  });

  it('is 404 for someone outside the project, for every page and action', async () => {
    const stranger = new DashboardClient(ctx.app);
    expect((await stranger.signUp({ email: 'stranger@example.com' })).status).toBe(303);
    expect((await stranger.get(page())).status).toBe(404);
    expect((await stranger.get(`${page()}/${endpointId}`)).status).toBe(404);
    await stranger.get('/dashboard');
    expect((await stranger.post(`${page()}/${endpointId}/test`)).status).toBe(404);
    expect((await stranger.post(`${page()}/${endpointId}/delete`)).status).toBe(404);
    expect((await stranger.post(page(), { url: receiverUrl, event_types: 'entry.published' })).status).toBe(404);
    expect(await ctx.services.webhooks.list(project.id)).toHaveLength(1);
  });

  it('deletes an endpoint', async () => {
    await browser.get(page());
    const res = await browser.post(`${page()}/${endpointId}/delete`);
    expect(res.location).toBe(`${page()}?notice=webhook-deleted`);
    expect(await ctx.services.webhooks.list(project.id)).toEqual([]);
    expect((await browser.get(`${page()}/${endpointId}`)).status).toBe(404);
  });
});

describe('SSRF protection at registration (no allow-list)', () => {
  let owner: DashboardClient;
  let strictPage: string;

  beforeAll(async () => {
    owner = new DashboardClient(strict.app);
    expect((await owner.setUp(strict.services, { email: 'strict@example.com' })).status).toBe(303);
    const p = await buildProject(strict.services, { type: 'user', email: 'strict@example.com' });
    strictPage = `/dashboard/projects/${p.slug}/webhooks`;
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data', /private, loopback, link-local or reserved address \(169\.254\.169\.254\)/],
    ['https://localhost:8443/hook', /localhost does not resolve to a public address/],
    ['https://127.0.0.1/hook', /private, loopback, link-local or reserved address \(127\.0\.0\.1\)/],
    ['https://[::1]/hook', /reserved address \(::1\)/],
    ['http://127.0.0.1:9/hook', /private, loopback/],
    ['ftp://example.com/', /must use https/],
  ])('refuses %s with a 400 naming the problem', async (url, message) => {
    await owner.get(strictPage);
    const res = await owner.post(strictPage, { url: url as string, event_types: 'entry.published' });
    expect(res.status).toBe(400);
    expect(res.body).toMatch(message as RegExp);
    expect(res.body).toContain('aria-invalid="true"');
  });
});
