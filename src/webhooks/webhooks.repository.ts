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

  async unqueuedDeliveries(db: Executor, limit: number): Promise<string[]> {
    const rows = await db
      .selectFrom('webhook_event_deliveries')
      .select('id')
      .where('queued_at', 'is', null)
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
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
