// One tenant's webhook endpoints that never answer must not hold back another tenant's deliveries:
// a tenant's deliveries take WEBHOOK_CONCURRENCY_PER_TENANT of a worker's WEBHOOK_CONCURRENCY slots at
// most, and only QUEUED_PER_ENDPOINT of an endpoint's (QUEUED_PER_TENANT of a tenant's) deliveries wait
// in the job queue at once, the rest in the database in order. Before, one worker sent one delivery at a
// time in the order they were made: 60 deliveries to a stuck endpoint held every tenant's webhooks for
// 60 timeouts (a bulk publish of 5,000 entries to 20 such endpoints, for days).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser, insertEntries } from '../../test/helpers/factories.js';
import { waitFor } from '../../test/helpers/scm.js';
import { describePlan, planNodes, rowsExamined, type PlanNode } from '../../test/helpers/query-plans.js';
import { startWorker } from '../jobs/worker.js';
import { createServices, type Services } from '../services.js';
import { admissionQuery } from './webhooks.repository.js';
import { QUEUED_PER_ENDPOINT, QUEUED_PER_TENANT } from './webhooks.service.js';

let database: TestDatabase;
let services: Services;
let receiver: Server;
let receiverUrl: string;
const sockets = new Set<Socket>();
const arrivals: { path: string; at: number }[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    arrivals.push({ path: request.url ?? '/', at: Date.now() });
    if (request.url === '/stuck') return; // never answers
    request.resume();
    request.on('end', () => response.writeHead(200).end('ok'));
  });
  receiver.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  database = await createTestDatabase();
  const config = testConfig({
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_TIMEOUT_MS: '1000',
    // A failed attempt comes back only after the test.
    WEBHOOK_RETRY_DELAY_SECONDS: '3600',
    WEBHOOK_DISPATCH_INTERVAL_MS: '100',
    WEBHOOK_CONCURRENCY: '2',
    WEBHOOK_CONCURRENCY_PER_TENANT: '1',
  });
  services = createServices(database, config, { jobs: { pollingIntervalSeconds: 0.5 } });
  await startWorker(services);
}, 60_000);

afterAll(async () => {
  await services?.jobs.stop();
  await database?.close();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => receiver?.close(resolve));
});

const queuedJobs = async () =>
  Number(
    (await sql<{ n: string }>`SELECT count(*) AS n FROM pgboss.job WHERE name = 'webhook-deliver' AND state IN ('created', 'retry', 'active')`.execute(services.database.db))
      .rows[0]!.n,
  );

describe('outbound webhooks of one tenant against those of another', () => {
  it("delivers another tenant's event at once while 60 deliveries to endpoints that never answer wait, and keeps the job queue small", async () => {
    const mallory = await buildUser(services);
    const victim = await buildUser(services);
    const stuck = await buildProject(services, { type: 'user', email: mallory.email });
    for (let i = 0; i < 3; i++) await services.webhooks.create(stuck.id, { url: `${receiverUrl}/stuck`, eventTypes: ['entry.published'] });
    const ids = await insertEntries(services, stuck.id, Array.from({ length: 20 }, (_, i) => ({ status: 'draft' as const, title: `Spam ${i}` })));
    await services.entries.bulkStatus(stuck.id, 'publish', { ids });
    expect(await services.database.db.selectFrom('webhook_event_deliveries').select('id').where('queued_at', 'is', null).execute()).toHaveLength(60);
    // The stuck endpoints are being tried.
    await waitFor(async () => (arrivals.some((a) => a.path === '/stuck') ? true : undefined), 10_000, 'a delivery to /stuck');

    const project = await buildProject(services, { type: 'user', email: victim.email });
    await services.webhooks.create(project.id, { url: `${receiverUrl}/ok`, eventTypes: ['entry.published'] });
    const [entry] = await insertEntries(services, project.id, [{ status: 'draft', title: 'Real news' }]);
    const published = Date.now();
    await services.entries.publish(entry!);
    const hit = await waitFor(async () => arrivals.find((a) => a.path === '/ok'), 10_000, "the other tenant's delivery");
    expect(hit.at - published).toBeLessThan(5_000);

    // Meanwhile the job queue held only what may run soon; the rest waits in the database.
    for (let i = 0; i < 10; i++) {
      expect(await queuedJobs()).toBeLessThanOrEqual(QUEUED_PER_TENANT + 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  it("finds the next deliveries by looking at a few rows per endpoint with deliveries waiting, not at a backlog, the history or idle endpoints", async () => {
    const hoarder = await buildUser(services);
    const project = await buildProject(services, { type: 'user', email: hoarder.email });
    const { endpoint } = await services.webhooks.create(project.id, { url: `${receiverUrl}/stuck`, eventTypes: ['entry.published'] });
    const db = services.database.db;
    // 5,000 delivered (history) and 20,000 waiting deliveries of one endpoint.
    await sql`
      WITH ev AS (
        INSERT INTO webhook_events (project_id, type) SELECT ${project.id}::uuid, 'webhook.test' FROM generate_series(1, 25000) RETURNING id
      ), numbered AS (SELECT id, row_number() OVER () AS n FROM ev)
      INSERT INTO webhook_event_deliveries (event_id, endpoint_id, status, queued_at, created_at)
      SELECT id, ${endpoint.id}::uuid, CASE WHEN n <= 5000 THEN 'delivered' ELSE 'pending' END,
             CASE WHEN n <= 5000 THEN now() - interval '1 hour' END, now() - interval '2 hours' + n * interval '1 ms'
      FROM numbered`.execute(db);
    // 100 endpoints with nothing waiting, 100 delivered deliveries each.
    const idle = await buildProject(services, { type: 'user', email: hoarder.email });
    await sql`
      WITH ep AS (
        INSERT INTO webhook_endpoints (project_id, url, event_types, secret)
        SELECT ${idle.id}::uuid, 'https://hooks.example.com/' || i, ARRAY['entry.published'], 'secret' FROM generate_series(1, 100) AS i RETURNING id
      ), ev AS (INSERT INTO webhook_events (project_id, type) VALUES (${idle.id}::uuid, 'webhook.test') RETURNING id)
      INSERT INTO webhook_event_deliveries (event_id, endpoint_id, status, queued_at)
      SELECT ev.id, ep.id, 'delivered', now() - interval '1 hour' FROM ep, ev, generate_series(1, 100)`.execute(db);

    const compiled = admissionQuery({ perEndpoint: QUEUED_PER_ENDPOINT, perTenant: QUEUED_PER_TENANT, limit: 100 }).compile(db);
    const { rows } = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]),
    );
    const plan = rows[0]!['QUERY PLAN'][0].Plan;
    const count = async (where: ReturnType<typeof sql>) =>
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM webhook_event_deliveries WHERE ${where}`.execute(db)).rows[0]!.n);
    const waitingEndpoints = Number(
      (await sql<{ n: string }>`SELECT count(DISTINCT endpoint_id) AS n FROM webhook_event_deliveries WHERE queued_at IS NULL`.execute(db)).rows[0]!.n,
    );
    const inFlight = await count(sql`queued_at IS NOT NULL AND status = 'pending'`);
    expect(await count(sql`true`)).toBeGreaterThan(35_000);
    // Per endpoint with deliveries waiting: one probe to find it, and its next few; then what is in flight.
    const examined = rowsExamined(plan, (n) => (n['Relation Name'] ?? n['Index Name'] ?? '').startsWith('webhook_event_deliveries'));
    expect(examined, describePlan(plan)).toBeLessThanOrEqual(waitingEndpoints * (2 + QUEUED_PER_ENDPOINT) + inFlight + 2);
    expect(planNodes(plan).filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'webhook_event_deliveries')).toEqual([]);
  }, 60_000);
});

