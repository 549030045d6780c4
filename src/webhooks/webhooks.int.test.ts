// Outbound webhooks end to end: entry changes from any writer → trigger-written events → queued
// deliveries → signed POSTs to a local receiver (loopback allow-listed by the operator), retried
// with exponential backoff through the job queue, every attempt in the delivery log.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser, insertEntries } from '../../test/helpers/factories.js';
import { waitFor } from '../../test/helpers/scm.js';
import { startWorker } from '../jobs/worker.js';
import { createServices, type Services } from '../services.js';
import { verifySignature } from './signature.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

const ENCRYPTION_KEY = 'test-webhook-encryption-key-0123456789';
/**
 * Retries after a failed attempt: two, so a delivery that never succeeds fails on its third attempt
 * after one retry that stays pending (backoff 1–2 s, then 2–4 s); a third retry only added 4–8 s.
 */
const RETRY_LIMIT = 2;
let database: TestDatabase;
let services: Services;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Paths whose next answers are these statuses (then 200). */
const scripted = new Map<string, number[]>();
let owner: { email: string };

const db = () => services.database.db;
const arrivalsAt = (path: string) => received.filter((r) => r.path === path);

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      if (path === '/slow') return; // never answers
      if (path.startsWith('/redirect')) {
        response.writeHead(302, { location: `${receiverUrl}/redirect-target` }).end();
        return;
      }
      const status = scripted.get(path)?.shift() ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'thanks' : `failure ${'x'.repeat(5000)}`);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  database = await createTestDatabase();
  const config = testConfig({
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_LIMIT: String(RETRY_LIMIT),
    WEBHOOK_RETRY_DELAY_SECONDS: '1',
    WEBHOOK_DISPATCH_INTERVAL_MS: '100',
    WEBHOOK_TIMEOUT_MS: '2000',
    // The receiver shares this process's event loop: one delivery at a time keeps its answers within
    // the 2 s timeout on a loaded machine (a late answer is a retry, and one event arrives twice).
    WEBHOOK_CONCURRENCY: '1',
    WEBHOOK_ENCRYPTION_KEY: ENCRYPTION_KEY,
  });
  services = createServices(database, config, { jobs: { pollingIntervalSeconds: 0.5 } });
  await startWorker(services);
  owner = await buildUser(services);
}, 60_000);

afterAll(async () => {
  await services?.jobs.stop();
  await database?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function projectWithEndpoint(path: string, eventTypes = ['entry.published', 'entry.unpublished', 'entry.updated']) {
  const project = await buildProject(services, { type: 'user', email: owner.email });
  const { endpoint, secret } = await services.webhooks.create(project.id, { url: `${receiverUrl}${path}`, eventTypes });
  return { project, endpoint, secret };
}

const deliveredTo = (path: string, count: number, timeoutMs = 15_000) =>
  waitFor(async () => (arrivalsAt(path).length >= count ? arrivalsAt(path) : undefined), timeoutMs, `${count} deliveries to ${path}`);

describe('events and signed deliveries', () => {
  it('POSTs entry.published, signed and timestamped, with the entry in the API shape', async () => {
    const { project, endpoint, secret } = await projectWithEndpoint('/published');
    const [id] = await insertEntries(services, project.id, [{ status: 'draft', title: 'Dark mode', content: 'Now **dark**.', component_tags: ['ui'] }]);
    expect(await db().selectFrom('webhook_events').select('id').where('project_id', '=', project.id).execute()).toHaveLength(0);

    await services.entries.publish(id!);
    const [hit] = await deliveredTo('/published', 1);

    expect(hit!.headers['content-type']).toBe('application/json');
    expect(hit!.headers['x-changelog-event']).toBe('entry.published');
    const check = verifySignature(secret, hit!.headers['x-changelog-signature'] as string, hit!.body);
    expect(check).toEqual({ ok: true, timestamp: expect.any(Number) });
    if (check.ok) expect(Math.abs(check.timestamp - Date.now() / 1000)).toBeLessThan(30);
    expect(verifySignature('whsec_wrong', hit!.headers['x-changelog-signature'] as string, hit!.body).ok).toBe(false);

    const payload = JSON.parse(hit!.body);
    expect(payload).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'entry.published',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      project: { id: project.id, slug: project.slug, name: project.name },
      data: { entry: expect.objectContaining({ id, project_id: project.id, status: 'published', title: 'Dark mode', content: 'Now **dark**.', component_tags: ['ui'] }) },
    });
    expect(payload.data.entry.published_at).toMatch(/Z$/);
    expect(Object.keys(payload.data.entry)).not.toContain('fingerprint');
    expect(hit!.headers['x-changelog-delivery']).toMatch(/^[0-9a-f-]{36}$/);

    // The receiver has answered; the worker records the attempt a moment later.
    const log = await waitFor(async () => {
      const [d] = await services.webhooks.deliveries(project.id, endpoint.id);
      return d?.status === 'pending' ? undefined : d;
    });
    expect(log).toMatchObject({ eventType: 'entry.published', status: 'delivered' });
    expect(log!.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null, response_excerpt: 'thanks' })]);

    // The secret is stored encrypted, not as given.
    const stored = await db().selectFrom('webhook_endpoints').select('secret').where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(stored.secret).toMatch(/^enc:v1:/);
    expect(stored.secret).not.toContain(secret.slice(6));
  });

  it('updated while published → entry.updated; unpublished, archived or deleted → entry.unpublished; drafts → nothing', async () => {
    const { project } = await projectWithEndpoint('/lifecycle');
    const [a, b, c] = await insertEntries(services, project.id, [
      { status: 'published', title: 'A', published_at: new Date() },
      { status: 'published', title: 'B', published_at: new Date() },
      { status: 'draft', title: 'C' },
    ]);
    await deliveredTo('/lifecycle', 2);
    await services.entries.editText(a!, { title: 'A, edited', content: 'More' });
    await services.entries.editText(c!, { title: 'C, edited draft', content: '' });
    await services.entries.unpublish(a!);
    await services.entries.archive(b!);
    await services.entries.publish(c!);
    // A plain SQL writer counts too: deleting a published entry.
    await sql`DELETE FROM changelog_entries WHERE id = ${c!}`.execute(db());
    // No visible change: no event.
    await sql`UPDATE changelog_entries SET updated_at = now() WHERE project_id = ${project.id}`.execute(db());

    const hits = await deliveredTo('/lifecycle', 7);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const events = arrivalsAt('/lifecycle').map((h) => JSON.parse(h.body) as { type: string; data: { entry: { id: string; title: string } } });
    expect(events.map((e) => `${e.type} ${e.data.entry.title}`).sort()).toEqual(
      [
        'entry.published A',
        'entry.published B',
        'entry.updated A, edited',
        'entry.unpublished A, edited',
        'entry.unpublished B',
        'entry.published C, edited draft',
        'entry.unpublished C, edited draft',
      ].sort(),
    );
    expect(hits.length).toBe(7);
  });

  it('sends only the event types an endpoint subscribed to, and nothing for a rolled-back change', async () => {
    const { project } = await projectWithEndpoint('/only-unpublished', ['entry.unpublished']);
    const [id] = await insertEntries(services, project.id, [{ status: 'published', title: 'X', published_at: new Date() }]);
    await expect(
      db()
        .transaction()
        .execute(async (tx) => {
          await tx.updateTable('changelog_entries').set({ status: 'draft', published_at: null }).where('id', '=', id!).execute();
          throw new Error('rolled back');
        }),
    ).rejects.toThrow('rolled back');
    expect(await db().selectFrom('webhook_events').select('type').where('project_id', '=', project.id).execute()).toEqual([]);
    await services.entries.unpublish(id!);
    const [hit] = await deliveredTo('/only-unpublished', 1);
    expect(JSON.parse(hit!.body).type).toBe('entry.unpublished');
  });

  it('a project with endpoints and published entries can still be deleted', async () => {
    const { project } = await projectWithEndpoint('/deleted-project');
    await insertEntries(services, project.id, [{ status: 'published', title: 'Gone', published_at: new Date() }]);
    await sql`DELETE FROM projects WHERE id = ${project.id}`.execute(db());
    expect(await db().selectFrom('webhook_endpoints').select('id').where('project_id', '=', project.id).execute()).toEqual([]);
  });
});

// Concurrent: each test waits seconds on the queue's backoff or the timeout, and each has an endpoint of
// its own; the one delivery slot still sends one at a time, which only lengthens the measured gaps.
describe.concurrent('retries', () => {
  it('retries a failing endpoint with growing delays until it answers 2xx, logging every attempt', async ({ expect }) => {
    scripted.set('/flaky', [500, 503]);
    const { project, endpoint, secret } = await projectWithEndpoint('/flaky');
    await insertEntries(services, project.id, [{ status: 'published', title: 'Retry me', published_at: new Date() }]);
    const hits = await deliveredTo('/flaky', 3, 30_000);

    // Same event, same body on every attempt; each freshly signed.
    expect(new Set(hits.map((h) => h.body)).size).toBe(1);
    for (const hit of hits) expect(verifySignature(secret, hit.headers['x-changelog-signature'] as string, hit.body).ok).toBe(true);
    expect(new Set(hits.map((h) => h.headers['x-changelog-delivery'])).size).toBe(1);
    // Backoff from WEBHOOK_RETRY_DELAY_SECONDS=1: the first retry waits 1–2 s, the second 2–4 s.
    const gaps = [hits[1]!.at - hits[0]!.at, hits[2]!.at - hits[1]!.at];
    expect(gaps[0]).toBeGreaterThanOrEqual(900);
    expect(gaps[1]).toBeGreaterThanOrEqual(1900);

    const [log] = await waitFor(async () => {
      const list = await services.webhooks.deliveries(project.id, endpoint.id);
      return list[0]?.status === 'delivered' ? list : undefined;
    });
    expect(log!.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    expect(log!.attempts[0]!.error).toBe('answered 500');
    // The response body is kept, capped.
    expect(log!.attempts[0]!.response_excerpt!.length).toBeLessThanOrEqual(1024);
    expect(log!.attempts[0]!.response_excerpt).toMatch(/^failure x+/);
  }, 40_000);

  it('does not follow redirects: a 3xx is a failed attempt', async ({ expect }) => {
    const { project, endpoint } = await projectWithEndpoint('/redirect');
    await insertEntries(services, project.id, [{ status: 'published', title: 'Redirected', published_at: new Date() }]);
    await deliveredTo('/redirect', 1);
    const log = await waitFor(async () => {
      const [d] = await services.webhooks.deliveries(project.id, endpoint.id);
      return d?.attempts.length ? d : undefined;
    });
    expect(log.attempts[0]).toMatchObject({ status_code: 302, error: 'answered 302' });
    expect(log.status).toBe('pending');
    expect(arrivalsAt('/redirect-target')).toEqual([]);
  });

  it('cuts an endpoint that does not answer after WEBHOOK_TIMEOUT_MS', async ({ expect }) => {
    const { project, endpoint } = await projectWithEndpoint('/slow');
    await services.webhooks.sendTest(project.id, endpoint.id);
    const log = await waitFor(async () => {
      const [d] = await services.webhooks.deliveries(project.id, endpoint.id);
      return d?.attempts.length ? d : undefined;
    });
    expect(log.attempts[0]).toMatchObject({ status_code: null, error: 'no answer within 2000 ms' });
    expect(log.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(1900);
    expect(log.attempts[0]!.duration_ms).toBeLessThan(5000);
    // Its retries would hold the one delivery slot 2 s each while the other tests here wait on it.
    await services.webhooks.remove(project.id, endpoint.id);
  });

  it('gives up after the last allowed attempt and marks the delivery failed', async ({ expect }) => {
    // Through the queue and its backoff, as in production: 1 + WEBHOOK_RETRY_LIMIT attempts.
    scripted.set('/down', [500, 500, 500, 500, 500]);
    const { project, endpoint } = await projectWithEndpoint('/down');
    const deliveryId = await services.webhooks.sendTest(project.id, endpoint.id);
    await waitFor(async () => {
      const [d] = await services.webhooks.deliveries(project.id, endpoint.id);
      return d && d.status === 'failed' ? d : undefined;
    }, 30_000, 'the delivery to fail');
    const attempts = await db().selectFrom('webhook_delivery_attempts').select('attempt').where('delivery_id', '=', deliveryId).execute();
    expect(attempts.map((a) => a.attempt).sort()).toEqual(Array.from({ length: 1 + RETRY_LIMIT }, (_, i) => i + 1));
    expect(await services.webhooks.deliver(deliveryId)).toBeNull();
  }, 40_000);

  it('checks the address again at delivery time: a stored private URL is refused without a connection', async ({ expect }) => {
    const project = await buildProject(services, { type: 'user', email: owner.email });
    // Written past the registration check, as an older row or a direct database edit could be.
    const endpoint = await db()
      .insertInto('webhook_endpoints')
      .values({ project_id: project.id, url: 'http://169.254.169.254/latest/meta-data', event_types: ['entry.published'], secret: 'plain:whsec_x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const deliveryId = await services.webhooks.sendTest(project.id, endpoint.id);
    const log = await waitFor(async () => {
      const [d] = await services.webhooks.deliveries(project.id, endpoint.id);
      return d?.attempts.length ? d : undefined;
    });
    expect(log.id).toBe(deliveryId);
    expect(log.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/must use https|169\.254\.169\.254/) });
  });
});

describe('endpoint cap', () => {
  it('holds under parallel creation: exactly 20 endpoints, the rest refused with 409', async () => {
    const project = await buildProject(services, { type: 'user', email: owner.email });
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => services.webhooks.create(project.id, { url: `${receiverUrl}/cap-${i}`, eventTypes: ['entry.published'] })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as { code?: string }).code).toBe('conflict');
    const count = await db().selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<string>().as('n')).where('project_id', '=', project.id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(20);
  });
});

describe('retention', () => {
  it('drops events older than 30 days with their deliveries and attempts, and keeps newer ones', async () => {
    const { project, endpoint } = await projectWithEndpoint('/retention');
    const old = await services.webhooks.sendTest(project.id, endpoint.id);
    const recent = await services.webhooks.sendTest(project.id, endpoint.id);
    await deliveredTo('/retention', 2);
    await waitFor(async () => ((await services.webhooks.deliveries(project.id, endpoint.id)).every((d) => d.status === 'delivered') ? true : undefined));
    await sql`UPDATE webhook_events SET created_at = now() - interval '31 days'
              WHERE id = (SELECT event_id FROM webhook_event_deliveries WHERE id = ${old})`.execute(db());
    expect(await services.webhooks.prune()).toBe(1);
    expect((await services.webhooks.deliveries(project.id, endpoint.id)).map((d) => d.id)).toEqual([recent]);
    expect(await db().selectFrom('webhook_delivery_attempts').select('id').where('delivery_id', '=', old).execute()).toEqual([]);
  });
});
