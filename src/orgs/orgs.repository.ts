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
};
