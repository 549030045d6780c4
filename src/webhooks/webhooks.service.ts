import { repeatPass } from '../queue/repeat.js';
import type { WebhooksConfig } from '../config.js';
import { ENTRY_COLUMNS } from '../entries/entry.schemas.js';
import type { Db } from '../db/database.js';
import type { WebhookDeliveryStatus } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { JobQueue } from '../queue/queue.js';
import { sendWebhook } from './sender.js';
import { newSigningSecret, openSecret, sealSecret, SIGNATURE_HEADER, signPayload } from './signature.js';
import { AllowList, checkWebhookUrl, type Resolver } from './ssrf.js';
import { webhooksRepository as repo, type AttemptRow, type DeliveryWork } from './webhooks.repository.js';
import { isUuid } from '../ids.js';

/** Events a project's endpoints can subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['entry.published', 'entry.unpublished', 'entry.updated'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The dashboard's "send test event": delivered to one endpoint whatever it subscribes to. */
export const TEST_EVENT_TYPE = 'webhook.test';
export const MAX_ENDPOINTS_PER_PROJECT = 20;
/**
 * Deliveries of one endpoint, and of one tenant (a project's owner), in the job queue at once
 * (waiting, running or between retries); the rest wait in the database in order. So the queue holds a
 * few deliveries per tenant whatever one tenant's backlog, and the fair fetch (WEBHOOK_CONCURRENCY_PER_TENANT)
 * reaches every tenant's next delivery at once.
 */
export const QUEUED_PER_ENDPOINT = 4;
export const QUEUED_PER_TENANT = 10;
const DISPATCH_BATCH = 100;
/** Events and their delivery log are kept this long (retries end within hours). */
export const RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 3_600_000;
const USER_AGENT = 'changelog-service-webhooks/1';

export interface EndpointView {
  id: string;
  projectId: string;
  url: string;
  eventTypes: string[];
  createdAt: Date;
  lastStatus: WebhookDeliveryStatus | null;
  lastAt: Date | null;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  entryId: string | null;
  status: WebhookDeliveryStatus;
  attempts: AttemptRow[];
  createdAt: Date;
  lastAttemptAt: Date | null;
}

const DATE_FIELDS = new Set(['period_start', 'period_end', 'published_at', 'created_at', 'updated_at']);

/** The entry snapshot of an event in the API's ChangelogEntry shape, field by field. */
export function presentEntry(snapshot: Record<string, unknown>): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  for (const field of ENTRY_COLUMNS) {
    const value = snapshot[field] ?? null;
    entry[field] = DATE_FIELDS.has(field) && typeof value === 'string' ? new Date(value).toISOString() : value;
  }
  return entry;
}

/** The JSON body of a delivery; the same bytes on every attempt of it. */
export function eventPayload(work: Pick<DeliveryWork, 'event_id' | 'event_type' | 'event_created_at' | 'entry' | 'project_id' | 'project_slug' | 'project_name'>): string {
  return JSON.stringify({
    id: work.event_id,
    type: work.event_type,
    created_at: work.event_created_at.toISOString(),
    project: { id: work.project_id, slug: work.project_slug, name: work.project_name },
    data: work.entry ? { entry: presentEntry(work.entry) } : { message: 'A test event sent from the dashboard.' },
  });
}

const present = (row: Awaited<ReturnType<typeof repo.listEndpoints>>[number]): EndpointView => ({
  id: row.id,
  projectId: row.project_id,
  url: row.url,
  eventTypes: row.event_types,
  createdAt: row.created_at,
  lastStatus: row.last_status,
  lastAt: row.last_at,
});


export interface WebhooksServiceOptions {
  db: Db;
  config: WebhooksConfig;
  jobs: JobQueue;
  /** DNS resolution of endpoint hosts (ssrf.ts: DNS within a budget, the system for allow-listed names; a test gives its own). */
  resolve?: Resolver;
}

/**
 * Outbound webhooks: endpoints of a project, the deliveries of the events entry changes produce
 * (written by database triggers, see migrations/0009), signed, sent and retried through the job queue.
 */
export function createWebhooksService({ db, config, jobs, resolve }: WebhooksServiceOptions) {
  const allow = new AllowList(config.allowedHosts);

  async function endpointOf(projectId: string, id: string) {
    const endpoint = isUuid(id) ? await repo.findEndpoint(db, projectId, id) : undefined;
    if (!endpoint) throw new AppError('not_found', 'Webhook endpoint not found');
    return endpoint;
  }

  /**
   * Queues a job per delivery (in its tenant's share of the worker), then marks them queued (a crash
   * in between queues again: at least once; the queue keeps one job per delivery).
   */
  async function queue(rows: { id: string; tenant: string }[]): Promise<void> {
    for (const { id, tenant } of rows) await jobs.send('webhook-deliver', { deliveryId: id }, { key: id, group: tenant });
    await repo.markQueued(db, rows.map((r) => r.id));
  }

  /** Queues every delivery that may join the queue now (see QUEUED_PER_TENANT); how many. */
  async function admit(): Promise<number> {
    let total = 0;
    for (;;) {
      const rows = await repo.admissibleDeliveries(db, { perEndpoint: QUEUED_PER_ENDPOINT, perTenant: QUEUED_PER_TENANT, limit: DISPATCH_BATCH });
      await queue(rows);
      total += rows.length;
      if (rows.length < DISPATCH_BATCH) return total;
    }
  }

  // One admission at a time in this process (the caps count what the last one queued); a call during
  // one is answered by one more run after it.
  let admitting: Promise<number> | null = null;
  let again = false;
  function dispatch(): Promise<number> {
    if (admitting) {
      again = true;
      return admitting;
    }
    admitting = (async () => {
      let total = 0;
      do {
        again = false;
        total += await admit();
      } while (again);
      return total;
    })().finally(() => {
      admitting = null;
    });
    return admitting;
  }

  return {
    eventTypes: WEBHOOK_EVENT_TYPES,

    async list(projectId: string): Promise<EndpointView[]> {
      return (await repo.listEndpoints(db, projectId)).map(present);
    },

    async get(projectId: string, id: string): Promise<EndpointView> {
      const endpoint = await endpointOf(projectId, id);
      return { id: endpoint.id, projectId, url: endpoint.url, eventTypes: endpoint.event_types, createdAt: endpoint.created_at, lastStatus: null, lastAt: null };
    },

    /** Registers an endpoint; the signing secret is returned this once. */
    async create(projectId: string, input: { url: string; eventTypes: string[] }): Promise<{ endpoint: EndpointView; secret: string }> {
      const url = input.url.trim();
      if (url.length === 0 || url.length > 2048) {
        throw new AppError('invalid_request', 'URL must be 1 to 2048 characters', [{ in: 'body', parameter: 'url', message: 'must be 1 to 2048 characters' }]);
      }
      const eventTypes = [...new Set(input.eventTypes)];
      const unknown = eventTypes.filter((t) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
      if (eventTypes.length === 0 || unknown.length > 0) {
        const message = unknown.length ? `unknown event type ${unknown.join(', ')}` : 'choose at least one event type';
        throw new AppError('invalid_request', `Event types: ${message}`, [{ in: 'body', parameter: 'event_types', message }]);
      }
      const target = await checkWebhookUrl(url, allow, resolve);
      const secret = newSigningSecret();
      // Count and insert under one per-project lock: parallel requests must not all see room for one more.
      const row = await db.transaction().execute(async (tx) => {
        await repo.lockEndpoints(tx, projectId);
        if ((await repo.countEndpoints(tx, projectId)) >= MAX_ENDPOINTS_PER_PROJECT) {
          throw new AppError('conflict', `A project may have at most ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints`);
        }
        return repo.insertEndpoint(tx, {
          projectId,
          url: target.url.toString(),
          eventTypes: WEBHOOK_EVENT_TYPES.filter((t) => eventTypes.includes(t)),
          secret: sealSecret(secret, config.encryptionKey),
        });
      });
      return { endpoint: present({ ...row, last_status: null, last_at: null }), secret };
    },

    async remove(projectId: string, id: string): Promise<void> {
      if (!isUuid(id) || !(await repo.deleteEndpoint(db, projectId, id))) throw new AppError('not_found', 'Webhook endpoint not found');
    },

    /** Sends a `webhook.test` event to one endpoint now (through the queue, like any delivery, and after the endpoint's earlier ones). */
    async sendTest(projectId: string, id: string): Promise<string> {
      const endpoint = await endpointOf(projectId, id);
      const deliveryId = await repo.insertSingleDelivery(db, { projectId, endpointId: endpoint.id, type: TEST_EVENT_TYPE });
      await dispatch();
      return deliveryId;
    },

    /** The newest deliveries of an endpoint with every attempt. */
    async deliveries(projectId: string, id: string, limit = 50): Promise<DeliveryView[]> {
      const endpoint = await endpointOf(projectId, id);
      const rows = await repo.deliveryLog(db, endpoint.id, limit);
      const attempts = await repo.attemptsOf(db, rows.map((r) => r.id));
      return rows.map((r) => ({
        id: r.id,
        eventId: r.event_id,
        eventType: r.event_type,
        entryId: r.entry_id,
        status: r.status,
        attempts: attempts.filter((a) => a.delivery_id === r.id),
        createdAt: r.created_at,
        lastAttemptAt: r.last_attempt_at,
      }));
    },

    /** Queues the waiting deliveries (those the triggers wrote) that may join the queue now; returns how many. */
    dispatchPending: (): Promise<number> => dispatch(),

    /**
     * One attempt of a delivery (the job handler). Succeeds on a 2xx; otherwise records the attempt
     * and throws so the queue retries with backoff, until the last allowed attempt marks it failed.
     */
    async deliver(deliveryId: string): Promise<{ status: WebhookDeliveryStatus } | null> {
      const work = await repo.deliveryWork(db, deliveryId);
      // The endpoint or project was deleted meanwhile, or an earlier run finished it.
      if (!work || work.status !== 'pending') return null;
      const attempt = await repo.startAttempt(db, deliveryId);
      const body = eventPayload(work);
      const started = performance.now();
      let outcome: { statusCode: number | null; durationMs: number; error: string | null; responseExcerpt: string | null };
      try {
        const target = await checkWebhookUrl(work.url, allow, resolve);
        const timestamp = Math.floor(Date.now() / 1000);
        outcome = await sendWebhook(
          target,
          body,
          {
            'user-agent': USER_AGENT,
            'x-changelog-event': work.event_type,
            'x-changelog-delivery': work.id,
            [SIGNATURE_HEADER]: signPayload(openSecret(work.secret, config.encryptionKey), body, timestamp),
          },
          config.timeoutMs,
        );
      } catch (error) {
        outcome = { statusCode: null, durationMs: Math.round(performance.now() - started), error: (error as Error).message, responseExcerpt: null };
      }
      const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
      const status: WebhookDeliveryStatus = delivered ? 'delivered' : attempt > config.retryLimit ? 'failed' : 'pending';
      await repo.recordAttempt(
        db,
        {
          delivery_id: deliveryId,
          attempt,
          status_code: outcome.statusCode,
          duration_ms: outcome.durationMs,
          error: outcome.error ?? (delivered ? null : `answered ${outcome.statusCode}`),
          response_excerpt: outcome.responseExcerpt,
        },
        status,
      );
      if (status === 'pending') throw new Error(`webhook delivery ${deliveryId} attempt ${attempt} failed: ${outcome.error ?? `HTTP ${outcome.statusCode}`}`);
      // Its place in the queue is free: the endpoint's next delivery need not wait for the dispatcher's tick.
      // Ignored: the dispatcher's next tick admits it anyway, and this delivery is done.
      await dispatch().catch(() => {});
      return { status };
    },

    /** Drops events and delivery logs older than RETENTION_DAYS; returns how many events went. */
    async prune(now = new Date()): Promise<number> {
      return repo.pruneEvents(db, new Date(now.getTime() - RETENTION_DAYS * 86_400_000));
    },

    /**
     * Queues new deliveries every `dispatchIntervalMs` (and prunes old events hourly) until the
     * returned stop is called (the worker runs this beside the job handlers).
     */
    startDispatcher(onError: (error: unknown) => void = () => {}): () => Promise<void> {
      let prunedAt = 0;
      const pass = () => {
        const prune = Date.now() - prunedAt >= PRUNE_EVERY_MS;
        if (prune) prunedAt = Date.now();
        return this.dispatchPending().then(() => (prune ? this.prune() : 0));
      };
      return repeatPass(pass, config.dispatchIntervalMs, onError);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
