import { sql } from 'kysely';
import { PREPARED, type Executor } from '../db/database.js';
import type { EntryVersion } from '../entries/entry-json.js';

export interface PublicProject {
  id: string;
  name: string;
  slug: string;
  published_entry_count: number;
}

/** A published entry as a page lists it, with its exact sort position. */
export interface ListedEntry extends EntryVersion {
  /** published_at to the microsecond, for the next cursor. */
  sort_key: string;
}

interface ProjectAndEntryRow {
  project_id: string;
  name: string;
  slug: string;
  published_entry_count: number;
  id: string | null;
  version: string | null;
  sort_key: string | null;
}

function split(rows: ProjectAndEntryRow[]): { project: PublicProject; entries: ListedEntry[] } | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const project = { id: first.project_id, name: first.name, slug: first.slug, published_entry_count: Number(first.published_entry_count) };
  const entries = rows.flatMap((r) => (r.id !== null ? [{ id: r.id, version: r.version!, sort_key: r.sort_key ?? '' }] : []));
  return { project, entries };
}

/**
 * The public read side's SQL: one statement per request names the project and the versions of the
 * entries to show; the entries' serialized JSON is then reused by version (see entry-json.ts).
 */
export const changelogRepository = {
  /**
   * The project by slug and one page of its published entries, newest first, ties by id
   * descending; after `cursor` when given. The page's ids come from the published index alone (an
   * index-only walk, so a deep offset does not read the rows it skips) before the page's own rows
   * are read. No row: no such project.
   */
  async page(
    db: Executor,
    slug: string,
    page: { limit: number; offset: number; after?: { publishedAt: string; id: string } },
  ): Promise<{ project: PublicProject; entries: ListedEntry[] } | undefined> {
    const after = page.after
      ? sql`AND (c.published_at, c.id) < (${page.after.publishedAt}::timestamptz, ${page.after.id}::uuid)`
      : sql``;
    const result = await sql<ProjectAndEntryRow>`${sql.raw(PREPARED)}
      WITH p AS (SELECT id, name, slug, published_entry_count FROM projects WHERE slug = ${slug}),
      page AS (
        SELECT c.id, c.published_at FROM changelog_entries c
        WHERE c.project_id = (SELECT id FROM p) AND c.status = 'published' ${after}
        ORDER BY c.published_at DESC, c.id DESC
        LIMIT ${page.limit} OFFSET ${page.offset}
      )
      SELECT p.id AS project_id, p.name, p.slug, p.published_entry_count, e.id, e.row_version::text AS version,
        to_char(e.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key
      FROM p LEFT JOIN (page JOIN changelog_entries e ON e.id = page.id) ON true
      ORDER BY page.published_at DESC, page.id DESC`.execute(db);
    return split(result.rows);
  },

  /** The project by slug and, if it is a published entry of that project, the entry's version. */
  async entry(db: Executor, slug: string, id: string): Promise<{ project: PublicProject; entries: ListedEntry[] } | undefined> {
    const result = await sql<ProjectAndEntryRow>`${sql.raw(PREPARED)}
      SELECT p.id AS project_id, p.name, p.slug, p.published_entry_count, e.id, e.row_version::text AS version, NULL AS sort_key
      FROM projects p
      LEFT JOIN changelog_entries e ON e.project_id = p.id AND e.id = ${id} AND e.status = 'published'
      WHERE p.slug = ${slug}`.execute(db);
    return split(result.rows);
  },
};
