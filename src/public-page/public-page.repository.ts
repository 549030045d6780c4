import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { EntryRow, EntryType } from '../db/schema.js';
import { ENTRY_COLUMNS } from '../entries/entries.repository.js';

export interface PublicProject {
  id: string;
  name: string;
  slug: string;
  theme_color: string | null;
  logo_url: string | null;
  published_entry_count: number;
  updated_at: Date;
}

export interface EntryFilter {
  type?: EntryType | undefined;
  component?: string | undefined;
}

/** Reads for the public page and feeds: published entries only, never drafts or archived ones. */
export const publicPageRepository = {
  async findProject(db: Executor, slug: string): Promise<PublicProject | undefined> {
    return db
      .selectFrom('projects')
      .select(['id', 'name', 'slug', 'theme_color', 'logo_url', 'published_entry_count', 'updated_at'])
      .where('slug', '=', slug)
      .executeTakeFirst();
  },

  /** Newest first (published_at, then id, descending: the API's order), optionally of one type and/or component. */
  async listPublished(db: Executor, projectId: string, filter: EntryFilter, page: { limit: number; offset: number }): Promise<EntryRow[]> {
    let query = db
      .selectFrom('changelog_entries')
      .select(ENTRY_COLUMNS)
      .where('project_id', '=', projectId)
      .where('status', '=', 'published');
    if (filter.type) query = query.where('entry_type', '=', filter.type);
    if (filter.component) query = query.where(sql<boolean>`component_tags @> ARRAY[${filter.component}]::text[]`);
    return query.orderBy('published_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  },

  /** The components named by published entries, for the filter menu. */
  async components(db: Executor, projectId: string, limit: number): Promise<string[]> {
    const result = await sql<{ component: string }>`
      SELECT DISTINCT c AS component
      FROM changelog_entries, unnest(component_tags) AS c
      WHERE project_id = ${projectId} AND status = 'published'
      ORDER BY 1 LIMIT ${limit}`.execute(db);
    return result.rows.map((row) => row.component);
  },

  /** Entry types that have published entries, for the filter menu. */
  async entryTypes(db: Executor, projectId: string): Promise<EntryType[]> {
    const rows = await db
      .selectFrom('changelog_entries')
      .select('entry_type')
      .distinct()
      .where('project_id', '=', projectId)
      .where('status', '=', 'published')
      .orderBy('entry_type')
      .execute();
    return rows.map((row) => row.entry_type);
  },

  async findPublished(db: Executor, projectId: string, id: string): Promise<EntryRow | undefined> {
    return db
      .selectFrom('changelog_entries')
      .select(ENTRY_COLUMNS)
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .where('status', '=', 'published')
      .executeTakeFirst();
  },
};
