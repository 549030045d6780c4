import { sql } from 'kysely';
import type { Db, Executor } from '../db/database.js';
import type { WebhookDeliveryAttemptsTable, WebhookDeliveryStatus } from '../db/schema.js';
import type { Selectable } from 'kysely';

export interface EndpointRow {
  id: string;
  project_id: string;
  url: string;
  event_types: string[];
  secret: string;
  created_at: Date;
}

export interface DeliveryLogRow {
  id: string;
  event_id: string;
  event_type: string;
  entry_id: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  created_at: Date;
  last_attempt_at: Date | null;
}

export type AttemptRow = Omit<Selectable<WebhookDeliveryAttemptsTable>, 'id'>;

/** What one delivery attempt needs: the delivery, its event, endpoint and project. */
export interface DeliveryWork {
  id: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  event_id: string;
  event_type: string;
  event_created_at: Date;
  entry: Record<string, unknown> | null;
  url: string;
  secret: string;
  project_id: string;
  project_slug: string;
  project_name: string;
}

export interface AdmissionCaps {
  perEndpoint: number;
  perTenant: number;
  limit: number;
}

/**
 * The statement of `admissibleDeliveries`. It visits the endpoints that have deliveries waiting (found
 * by skipping through the index of waiting deliveries, one probe each) and the deliveries queued and
 * unfinished (a few per tenant), never a backlog or the history: its cost is tested in
 * src/webhooks/fair-deliveries.int.test.ts.
 */
export const admissionQuery = (caps: AdmissionCaps) => sql<{ id: string; tenant: string }>`
  WITH RECURSIVE waiting AS (
    (SELECT endpoint_id FROM webhook_event_deliveries WHERE queued_at IS NULL ORDER BY endpoint_id LIMIT 1)
    UNION ALL
    SELECT (SELECT d.endpoint_id FROM webhook_event_deliveries d WHERE d.queued_at IS NULL AND d.endpoint_id > w.endpoint_id ORDER BY d.endpoint_id LIMIT 1)
    FROM waiting w WHERE w.endpoint_id IS NOT NULL
  ), flying AS (
    SELECT endpoint_id, count(*) AS n FROM webhook_event_deliveries
    WHERE queued_at IS NOT NULL AND status = 'pending' AND queued_at > now() - interval '1 day'
    GROUP BY endpoint_id
  ), ep AS (
    SELECT w.id,
           CASE WHEN p.owner_type = 'org' THEN 'org:' || p.owner_org_id::text ELSE 'user:' || p.owner_user_id::text END AS tenant,
           COALESCE(f.n, 0) AS flying,
           w.id IN (SELECT endpoint_id FROM waiting) AS has_waiting
    FROM webhook_endpoints w
    JOIN projects p ON p.id = w.project_id
    LEFT JOIN flying f ON f.endpoint_id = w.id
    WHERE w.id IN (SELECT endpoint_id FROM waiting) OR w.id IN (SELECT endpoint_id FROM flying)
  ), load AS (
    SELECT tenant, sum(flying) AS flying FROM ep GROUP BY tenant
  ), candidates AS (
    SELECT c.id, c.created_at, ep.tenant
    FROM ep CROSS JOIN LATERAL (
      SELECT d.id, d.created_at FROM webhook_event_deliveries d
      WHERE d.endpoint_id = ep.id AND d.queued_at IS NULL
      ORDER BY d.created_at, d.id
      LIMIT GREATEST(${caps.perEndpoint}::int - ep.flying, 0)
    ) c
    WHERE ep.has_waiting
  ), ranked AS (
    SELECT c.id, c.tenant, c.created_at, l.flying + row_number() OVER (PARTITION BY c.tenant ORDER BY c.created_at, c.id) AS nth
    FROM candidates c JOIN load l ON l.tenant = c.tenant
  )
  SELECT id, tenant FROM ranked WHERE nth <= ${caps.perTenant}::int ORDER BY created_at, id LIMIT ${caps.limit}::int`;

const ENDPOINT_COLUMNS = ['id', 'project_id', 'url', 'event_types', 'secret', 'created_at'] as const;

export const webhooksRepository = {
  async insertEndpoint(db: Executor, values: { projectId: string; url: string; eventTypes: string[]; secret: string }): Promise<EndpointRow> {
    return db
      .insertInto('webhook_endpoints')
      .values({ project_id: values.projectId, url: values.url, event_types: values.eventTypes, secret: values.secret })
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirstOrThrow();
  },

  /** Serialises endpoint creation per project until the transaction ends, so the cap holds under concurrency. */
  async lockEndpoints(db: Executor, projectId: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${projectId}`}))`.execute(db);
  },

  async countEndpoints(db: Executor, projectId: string): Promise<number> {
    const row = await db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async listEndpoints(db: Executor, projectId: string): Promise<(EndpointRow & { last_status: WebhookDeliveryStatus | null; last_at: Date | null })[]> {
    return db
      .selectFrom('webhook_endpoints as w')
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('webhook_event_deliveries as d')
            .select(['d.status', 'd.created_at'])
            .whereRef('d.endpoint_id', '=', 'w.id')
            .orderBy('d.created_at', 'desc')
            .limit(1)
            .as('last'),
        (join) => join.onTrue(),
      )
      .select(['w.id', 'w.project_id', 'w.url', 'w.event_types', 'w.secret', 'w.created_at', 'last.status as last_status', 'last.created_at as last_at'])
      .where('w.project_id', '=', projectId)
      .orderBy('w.created_at')
      .orderBy('w.id')
      .execute();
  },

  async findEndpoint(db: Executor, projectId: string, id: string): Promise<EndpointRow | undefined> {
    return db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  },

  async deleteEndpoint(db: Executor, projectId: string, id: string): Promise<boolean> {
    const result = await db.deleteFrom('webhook_endpoints').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  },

  /** An event for one endpoint only (the dashboard's test event); its delivery waits to be queued. */
  async insertSingleDelivery(db: Executor, values: { projectId: string; endpointId: string; type: string }): Promise<string> {
    const event = await db
      .insertInto('webhook_events')
      .values({ project_id: values.projectId, type: values.type, entry_id: null, entry: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const delivery = await db
      .insertInto('webhook_event_deliveries')
      .values({ event_id: event.id, endpoint_id: values.endpointId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return delivery.id;
  },

  /**
   * The oldest waiting deliveries that may join the job queue now, each with its tenant ('user:ID' or
   * 'org:ID'): an endpoint's while it has fewer than `perEndpoint` queued and unfinished, a tenant's
   * while it has fewer than `perTenant`. A delivery queued more than a day ago and still pending no
   * longer counts (its job was lost), so a lost job cannot block its endpoint for good. A few index
   * probes per endpoint with waiting deliveries (migrations/0031), whatever a backlog holds.
   */
  async admissibleDeliveries(db: Executor, caps: AdmissionCaps): Promise<{ id: string; tenant: string }[]> {
    return (await admissionQuery(caps).execute(db)).rows;
  },

  async markQueued(db: Executor, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await db.updateTable('webhook_event_deliveries').set({ queued_at: new Date() }).where('id', 'in', ids).where('queued_at', 'is', null).execute();
  },

  async deliveryWork(db: Executor, id: string): Promise<DeliveryWork | undefined> {
    return db
      .selectFrom('webhook_event_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .innerJoin('projects as p', 'p.id', 'w.project_id')
      .select([
        'd.id',
        'd.status',
        'd.attempts',
        'e.id as event_id',
        'e.type as event_type',
        'e.created_at as event_created_at',
        'e.entry',
        'w.url',
        'w.secret',
        'p.id as project_id',
        'p.slug as project_slug',
        'p.name as project_name',
      ])
      .where('d.id', '=', id)
      .executeTakeFirst();
  },

  /** Counts the attempt before it is made, so a crash mid-request still counts it. */
  async startAttempt(db: Executor, id: string): Promise<number> {
    const row = await db
      .updateTable('webhook_event_deliveries')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), last_attempt_at: new Date() }))
      .where('id', '=', id)
      .returning('attempts')
      .executeTakeFirstOrThrow();
    return row.attempts;
  },

  async recordAttempt(
    db: Db,
    values: Omit<AttemptRow, 'attempted_at'>,
    status: WebhookDeliveryStatus,
  ): Promise<void> {
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('webhook_delivery_attempts').values(values).execute();
      await tx.updateTable('webhook_event_deliveries').set({ status }).where('id', '=', values.delivery_id).execute();
    });
  },

  async deliveryLog(db: Executor, endpointId: string, limit: number): Promise<DeliveryLogRow[]> {
    return db
      .selectFrom('webhook_event_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select(['d.id', 'd.event_id', 'e.type as event_type', 'e.entry_id', 'd.status', 'd.attempts', 'd.created_at', 'd.last_attempt_at'])
      .where('d.endpoint_id', '=', endpointId)
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(limit)
      .execute();
  },

  async attemptsOf(db: Executor, deliveryIds: string[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return db
      .selectFrom('webhook_delivery_attempts')
      .select(['delivery_id', 'attempt', 'status_code', 'duration_ms', 'error', 'response_excerpt', 'attempted_at'])
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('delivery_id')
      .orderBy('attempt')
      .execute();
  },

  /** Drops events (with their deliveries and attempts) older than `before`. */
  async pruneEvents(db: Executor, before: Date): Promise<number> {
    const result = await db.deleteFrom('webhook_events').where('created_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
