import { sql } from 'kysely';
import { PREPARED, type Executor } from '../db/database.js';
import type { OwnerType, ProjectRow } from '../db/schema.js';
import type { ResolvedContext } from '../context.js';
import { whereVisible, type Visibility } from './visibility.js';

export interface ProjectSummaryRow {
  id: string;
  name: string;
  slug: string;
  owner_type: OwnerType;
  owner_id: string;
  created_at: Date;
  updated_at: Date;
}


export const projectsRepository = {
  async insert(
    db: Executor,
    project: { name: string; slug: string; owner: ResolvedContext },
  ): Promise<ProjectRow> {
    return db
      .insertInto('projects')
      .values({
        name: project.name,
        slug: project.slug,
        owner_type: project.owner.type,
        owner_user_id: project.owner.type === 'user' ? project.owner.userId : null,
        owner_org_id: project.owner.type === 'org' ? project.owner.orgId : null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async findBySlug(db: Executor, slug: string): Promise<ProjectRow | undefined> {
    return db.selectFrom('projects').selectAll().where('slug', '=', slug).executeTakeFirst();
  },

  async count(db: Executor): Promise<number> {
    const row = await db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async listVisible(db: Executor, visibility: Visibility): Promise<ProjectSummaryRow[]> {
    const query = db
      .selectFrom('projects as p')
      .modifyFront(sql.raw(PREPARED))
      .select([
        'p.id',
        'p.name',
        'p.slug',
        'p.owner_type',
        sql<string>`coalesce(p.owner_user_id, p.owner_org_id)`.as('owner_id'),
        'p.created_at',
        'p.updated_at',
      ]);
    return whereVisible(query, visibility).orderBy('p.slug').execute();
  },

  /** The project of this slug if `visibility` may see it (the automation routes' one check of a slug). */
  async findVisibleBySlug(db: Executor, slug: string, visibility: Visibility): Promise<ProjectRow | undefined> {
    return whereVisible(db.selectFrom('projects as p').selectAll('p').where('p.slug', '=', slug), visibility).executeTakeFirst();
  },

  async findById(db: Executor, id: string): Promise<ProjectRow | undefined> {
    return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Every project of one personal or organization context, by name. */
  async listByOwner(db: Executor, owner: ResolvedContext): Promise<ProjectRow[]> {
    const query = db.selectFrom('projects').selectAll();
    return (owner.type === 'user' ? query.where('owner_user_id', '=', owner.userId) : query.where('owner_org_id', '=', owner.orgId))
      .orderBy('name')
      .orderBy('slug')
      .execute();
  },

  /**
   * Every project (or one context's) by slug, with its owner as the CLI names it (`user:EMAIL`,
   * `org:SLUG`): the operator's listing.
   */
  async listWithOwners(db: Executor, owner?: ResolvedContext): Promise<(ProjectRow & { owner: string })[]> {
    let query = db
      .selectFrom('projects as p')
      .leftJoin('users as u', 'u.id', 'p.owner_user_id')
      .leftJoin('organizations as o', 'o.id', 'p.owner_org_id')
      .selectAll('p')
      .select(sql<string>`CASE WHEN p.owner_type = 'user' THEN 'user:' || u.email ELSE 'org:' || o.slug END`.as('owner'));
    if (owner) query = owner.type === 'user' ? query.where('p.owner_user_id', '=', owner.userId) : query.where('p.owner_org_id', '=', owner.orgId);
    return query.orderBy('p.slug').execute();
  },

  /**
   * Sets one generation setting unless the project has it (a key set to null, cleared by a person, counts as
   * set), in one statement: a concurrent save of the settings form is not overwritten.
   */
  async defaultGenerationSetting(db: Executor, id: string, key: string, value: string): Promise<boolean> {
    const result = await sql`
      UPDATE projects SET generation_settings = generation_settings || jsonb_build_object(${key}::text, ${value}::text)
      WHERE id = ${id} AND NOT (generation_settings ? ${key})`.execute(db);
    return Number(result.numAffectedRows ?? 0) > 0;
  },

  async update(
    db: Executor,
    id: string,
    changes: {
      name?: string;
      slug?: string;
      theme_color?: string | null;
      logo_url?: string | null;
      public_view?: string | null;
      /** The generation settings as given (JSON text); their meaning is generation's (src/generation/settings.ts). */
      generation_settings?: string;
    },
  ): Promise<ProjectRow | undefined> {
    return db
      .updateTable('projects')
      .set({ ...changes, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },

  /** Deletes the project; its entries, commits and keys' references to it go with it (ON DELETE CASCADE). */
  async delete(db: Executor, id: string): Promise<boolean> {
    const result = await db.deleteFrom('projects').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
};
