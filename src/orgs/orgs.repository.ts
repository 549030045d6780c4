import type { Executor } from '../db/database.js';
import type { OrganizationRow, OrgRole } from '../db/schema.js';

export const orgsRepository = {
  async insert(db: Executor, org: { slug: string; name: string }): Promise<OrganizationRow> {
    return db.insertInto('organizations').values(org).returningAll().executeTakeFirstOrThrow();
  },

  async addMember(db: Executor, organizationId: string, userId: string, role: OrgRole): Promise<void> {
    await db.insertInto('organization_members').values({ organization_id: organizationId, user_id: userId, role }).execute();
  },

  async findBySlug(db: Executor, slug: string): Promise<OrganizationRow | undefined> {
    return db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst();
  },

  async findById(db: Executor, id: string): Promise<OrganizationRow | undefined> {
    return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The organizations a user belongs to, with their role, by name. */
  async listForUser(db: Executor, userId: string): Promise<(OrganizationRow & { role: OrgRole })[]> {
    return db
      .selectFrom('organizations as o')
      .innerJoin('organization_members as m', 'm.organization_id', 'o.id')
      .selectAll('o')
      .select('m.role')
      .where('m.user_id', '=', userId)
      .orderBy('o.name')
      .orderBy('o.slug')
      .execute();
  },

  async role(db: Executor, organizationId: string, userId: string): Promise<OrgRole | undefined> {
    const row = await db
      .selectFrom('organization_members')
      .select('role')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role;
  },

  async members(db: Executor, organizationId: string) {
    return db
      .selectFrom('organization_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id', 'u.email', 'u.name', 'm.role', 'm.created_at'])
      .where('m.organization_id', '=', organizationId)
      .orderBy('u.name')
      .orderBy('u.email')
      .execute();
  },

  /** Locks the owners' membership rows until the transaction ends and returns their user ids. */
  async lockOwners(db: Executor, organizationId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('organization_members')
      .select('user_id')
      .where('organization_id', '=', organizationId)
      .where('role', '=', 'owner')
      .forUpdate()
      .execute();
    return rows.map((r) => r.user_id);
  },

  async setRole(db: Executor, organizationId: string, userId: string, role: OrgRole): Promise<boolean> {
    const result = await db
      .updateTable('organization_members')
      .set({ role })
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async removeMember(db: Executor, organizationId: string, userId: string): Promise<boolean> {
    const result = await db
      .deleteFrom('organization_members')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
};
