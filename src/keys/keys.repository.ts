import { sql } from 'kysely';
import { PREPARED, type Executor } from '../db/database.js';
import type { ApiKeyRow, ContextType, KeyScope } from '../db/schema.js';
import { contextColumns, type ResolvedContext } from '../context.js';

/** Columns safe to show: everything but the hashes. */
export const KEY_PUBLIC_COLUMNS = [
  'id',
  'name',
  'context_type',
  'user_id',
  'org_id',
  'scope',
  'display_prefix',
  'created_by',
  'created_at',
  'updated_at',
  'last_used_at',
  'expires_at',
  'revoked_at',
  'previous_expires_at',
  'can_publish',
] as const;

export type ApiKeyRecord = Pick<ApiKeyRow, (typeof KEY_PUBLIC_COLUMNS)[number]>;

export interface ActiveKey {
  id: string;
  context_type: ContextType;
  user_id: string | null;
  org_id: string | null;
  scope: KeyScope;
  can_publish: boolean;
  last_used_at: Date | null;
}

export const keysRepository = {
  async insert(
    db: Executor,
    key: {
      name: string;
      context: ResolvedContext;
      scope: KeyScope;
      keyHash: string;
      displayPrefix: string;
      createdBy: string | null;
      expiresAt: Date | null;
      canPublish: boolean;
    },
  ): Promise<ApiKeyRecord> {
    return db
      .insertInto('api_keys')
      .values({
        name: key.name,
        ...contextColumns(key.context),
        scope: key.scope,
        key_hash: key.keyHash,
        display_prefix: key.displayPrefix,
        created_by: key.createdBy,
        expires_at: key.expiresAt,
        can_publish: key.canPublish,
      })
      .returning(KEY_PUBLIC_COLUMNS)
      .executeTakeFirstOrThrow();
  },

  async setProjects(db: Executor, keyId: string, projectIds: string[]): Promise<void> {
    await db.deleteFrom('api_key_projects').where('api_key_id', '=', keyId).execute();
    if (projectIds.length === 0) return;
    await db
      .insertInto('api_key_projects')
      .values(projectIds.map((projectId) => ({ api_key_id: keyId, project_id: projectId })))
      .execute();
  },

  async projectSlugs(db: Executor, keyIds: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>();
    if (keyIds.length === 0) return map;
    const rows = await db
      .selectFrom('api_key_projects as akp')
      .innerJoin('projects as p', 'p.id', 'akp.project_id')
      .select(['akp.api_key_id', 'p.slug'])
      .where('akp.api_key_id', 'in', keyIds)
      .orderBy('p.slug')
      .execute();
    for (const row of rows) map.set(row.api_key_id, [...(map.get(row.api_key_id) ?? []), row.slug]);
    return map;
  },

  /**
   * The key whose current secret, or previous secret still inside its grace period, hashes to
   * `hash`, if it is neither revoked nor expired. Deleted keys no longer exist.
   */
  async findActiveByHash(db: Executor, hash: string): Promise<ActiveKey | undefined> {
    return db
      .selectFrom('api_keys')
      .modifyFront(sql.raw(PREPARED))
      .select(['id', 'context_type', 'user_id', 'org_id', 'scope', 'can_publish', 'last_used_at'])
      .where((eb) =>
        eb.or([
          eb('key_hash', '=', hash),
          eb.and([eb('previous_key_hash', '=', hash), eb('previous_expires_at', '>', sql<Date>`now()`)]),
        ]),
      )
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
      .executeTakeFirst();
  },

  /** The key's current secret hash, its row locked until the transaction ends (a rotation reads then replaces it). */
  async lockKeyHash(db: Executor, id: string): Promise<string | undefined> {
    const row = await db.selectFrom('api_keys').select('key_hash').where('id', '=', id).forUpdate().executeTakeFirst();
    return row?.key_hash;
  },

  async findById(db: Executor, id: string): Promise<ApiKeyRecord | undefined> {
    return db.selectFrom('api_keys').select(KEY_PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst();
  },

  async list(
    db: Executor,
    context?: ResolvedContext,
  ): Promise<ApiKeyRecord[]> {
    let query = db.selectFrom('api_keys').select(KEY_PUBLIC_COLUMNS);
    if (context?.type === 'user') query = query.where('user_id', '=', context.userId);
    if (context?.type === 'org') query = query.where('org_id', '=', context.orgId);
    return query.orderBy('created_at').orderBy('id').execute();
  },

  async update(
    db: Executor,
    id: string,
    changes: {
      name?: string;
      keyHash?: string;
      displayPrefix?: string;
      previousKeyHash?: string | null;
      previousExpiresAt?: Date | null;
      revoke?: boolean;
    },
  ): Promise<ApiKeyRecord | undefined> {
    return db
      .updateTable('api_keys')
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.keyHash !== undefined ? { key_hash: changes.keyHash } : {}),
        ...(changes.displayPrefix !== undefined ? { display_prefix: changes.displayPrefix } : {}),
        ...(changes.previousKeyHash !== undefined ? { previous_key_hash: changes.previousKeyHash } : {}),
        ...(changes.previousExpiresAt !== undefined ? { previous_expires_at: changes.previousExpiresAt } : {}),
        ...(changes.revoke ? { revoked_at: sql<Date>`coalesce(revoked_at, now())` } : {}),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', id)
      .returning(KEY_PUBLIC_COLUMNS)
      .executeTakeFirst();
  },

  async delete(db: Executor, id: string): Promise<boolean> {
    const result = await db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** Records use at most once per `throttleSeconds`, in SQL, so concurrent processes agree. */
  async touchLastUsed(db: Executor, id: string, throttleSeconds: number): Promise<void> {
    await db
      .updateTable('api_keys')
      .set({ last_used_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('last_used_at', 'is', null),
          eb('last_used_at', '<', sql<Date>`now() - make_interval(secs => ${throttleSeconds})`),
        ]),
      )
      .execute();
  },
};
