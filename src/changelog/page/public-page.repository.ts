import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { EntryRow, EntryType } from '../../db/schema.js';
import { ENTRY_COLUMNS } from '../../entries/entries.repository.js';

export interface PublicProject {
  id: string;
  name: string;
  slug: string;
  theme_color: string | null;
  logo_url: string | null;
  published_entry_count: number;
  /** When anything the public listing shows last changed; a later whole second at every change (migrations/0017). */
  published_changed_at: Date;
}

export interface EntryFilter {
  type?: EntryType | undefined;
  component?: string | undefined;
}

/** Reads for the public page and feeds: published entries only, never drafts or archived ones. */
export const publicPageRepository = {
  /**
   * Read before the entries (as every caller does): a change committed in between then leaves the
   * date older than the entries shown, so a revalidation gets them again, never a 304 for stale ones.
   */
  async findProject(db: Executor, slug: string): Promise<PublicProject | undefined> {
    return db
      .selectFrom('projects')
      .select(['id', 'name', 'slug', 'theme_color', 'logo_url', 'published_entry_count', 'published_changed_at'])
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
    // The expression of the per-project component index (migration 0019), so a filter never walks the project.
    if (filter.component) {
      query = query.where(sql<boolean>`published_components(project_id, component_tags) @> ARRAY[${`${projectId}/${filter.component}`}]::text[]`);
    }
    return query.orderBy('published_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  },

  /**
   * What the filter menus offer: the entry types and components of the newest `window` published
   * entries (one walk of the published index, so a project with a million entries costs the same as
   * one with a thousand), components capped at `maxComponents`.
   */
  async filterOptions(db: Executor, projectId: string, window: number, maxComponents: number): Promise<{ types: EntryType[]; components: string[] }> {
    const result = await sql<{ kind: 'type' | 'component'; value: string }>`
      WITH recent AS (
        SELECT entry_type, component_tags FROM changelog_entries
        WHERE project_id = ${projectId} AND status = 'published'
        ORDER BY published_at DESC, id DESC
        LIMIT ${window}
      )
      (SELECT DISTINCT 'type' AS kind, entry_type::text AS value FROM recent)
      UNION ALL
      (SELECT DISTINCT 'component' AS kind, c AS value FROM recent, unnest(component_tags) AS c ORDER BY 2 LIMIT ${maxComponents})`.execute(db);
    const types = result.rows.filter((r) => r.kind === 'type').map((r) => r.value as EntryType);
    const components = result.rows.filter((r) => r.kind === 'component').map((r) => r.value);
    return { types: types.sort(), components: components.sort() };
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
