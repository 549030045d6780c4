import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { OrgRole } from '../db/schema.js';

export interface InviteView {
  id: string;
  organization_id: string;
  org_slug: string;
  org_name: string;
  role: OrgRole;
  expires_at: Date;
  used_at: Date | null;
}

export const invitesRepository = {
  async insert(db: Executor, invite: { orgId: string; tokenHash: string; role: OrgRole; createdBy: string; expiresAt: Date }) {
    return db
      .insertInto('organization_invites')
      .values({
        organization_id: invite.orgId,
        token_hash: invite.tokenHash,
        role: invite.role,
        created_by: invite.createdBy,
        expires_at: invite.expiresAt,
      })
      .returning(['id', 'role', 'expires_at'])
      .executeTakeFirstOrThrow();
  },

  /** An unused, unexpired invite and its organization. */
  async findUsable(db: Executor, tokenHash: string): Promise<InviteView | undefined> {
    return db
      .selectFrom('organization_invites as i')
      .innerJoin('organizations as o', 'o.id', 'i.organization_id')
      .select(['i.id', 'i.organization_id', 'o.slug as org_slug', 'o.name as org_name', 'i.role', 'i.expires_at', 'i.used_at'])
      .where('i.token_hash', '=', tokenHash)
      .where('i.used_at', 'is', null)
      .where('i.expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
  },

  /** Marks the invite used if it still is usable; false when another request got there first. */
  async consume(db: Executor, id: string, userId: string): Promise<boolean> {
    const result = await db
      .updateTable('organization_invites')
      .set({ used_at: sql<Date>`now()`, used_by: userId })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async listPending(db: Executor, orgId: string) {
    return db
      .selectFrom('organization_invites')
      .select(['id', 'role', 'created_at', 'expires_at'])
      .where('organization_id', '=', orgId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .orderBy('created_at', 'desc')
      .execute();
  },

  async delete(db: Executor, orgId: string, id: string): Promise<boolean> {
    const result = await db
      .deleteFrom('organization_invites')
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
};
