import { sql, type RawBuilder } from 'kysely';
import { PREPARED, type Executor } from '../db/database.js';
import type { EntryVersion } from '../entries/entry-json.js';
import type { Cursor } from './cursor.js';

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
  project_id: string | null;
  name: string;
  slug: string;
  published_entry_count: number;
  id: string | null;
  version: string | null;
  sort_key: string | null;
}

/** A page to read: `limit` entries after skipping `offset`, counted from the start or after a cursor. */
export interface PageRequest {
  slug: string;
  limit: number;
  offset: number;
  after?: Cursor;
}

export interface Listed {
  project: PublicProject;
  entries: ListedEntry[];
}

function split(rows: ProjectAndEntryRow[]): Listed | undefined {
  const first = rows[0];
  if (!first || first.project_id === null) return undefined;
  const project = { id: first.project_id, name: first.name, slug: first.slug, published_entry_count: Number(first.published_entry_count) };
  const entries = rows.flatMap((r) => (r.id !== null ? [{ id: r.id, version: r.version!, sort_key: r.sort_key ?? '' }] : []));
  return { project, entries };
}

/** Rows of a batched statement, one group per request (`n`, from 1, in the order asked), split apart. */
function splitBatch(rows: (ProjectAndEntryRow & { n: string })[], count: number): (Listed | undefined)[] {
  const groups: ProjectAndEntryRow[][] = Array.from({ length: count }, () => []);
  for (const row of rows) groups[Number(row.n) - 1]!.push(row);
  return groups.map(split);
}

const PROJECT_AND_ENTRY_COLUMNS = sql`p.id AS project_id, p.name, p.slug, p.published_entry_count, e.id, e.row_version::text AS version`;
const SORT_KEY = sql`to_char(e.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One page of a project's published entries, newest first, ties by id descending: id, published_at
 * and row_version, all three from the published index (an index-only walk, so a deep offset does
 * not read the rows it skips).
 */
const publishedPage = (projectId: RawBuilder<unknown>, limit: RawBuilder<unknown>, offset: RawBuilder<unknown>, after = sql``) => sql`
  SELECT c.id, c.published_at, c.row_version FROM changelog_entries c
  WHERE c.project_id = ${projectId} AND c.status = 'published' ${after}
  ORDER BY c.published_at DESC, c.id DESC
  LIMIT ${limit} OFFSET ${offset}`;

/**
 * The public read side's SQL: one statement per request names the project and the versions of the
 * entries to show; the entries' serialized JSON is then reused by version (see entry-json.ts).
 */
export const changelogRepository = {
  /** The project by slug and one page of its published entries (`publishedPage`), after `cursor` when given. No row: no such project. */
  async page(db: Executor, page: PageRequest): Promise<Listed | undefined> {
    const after = page.after
      ? sql`AND (c.published_at, c.id) < (${page.after.publishedAt}::timestamptz, ${page.after.id}::uuid)`
      : sql``;
    const result = await sql<ProjectAndEntryRow>`${sql.raw(PREPARED)}
      SELECT ${PROJECT_AND_ENTRY_COLUMNS}, ${SORT_KEY} AS sort_key
      FROM projects p
      LEFT JOIN LATERAL (${publishedPage(sql`p.id`, sql`${page.limit}`, sql`${page.offset}`, after)}) e ON true
      WHERE p.slug = ${page.slug}
      ORDER BY e.published_at DESC, e.id DESC`.execute(db);
    return split(result.rows);
  },

  /** The project by slug and, if it is a published entry of that project, the entry's version. */
  async entry(db: Executor, slug: string, id: string): Promise<Listed | undefined> {
    const result = await sql<ProjectAndEntryRow>`${sql.raw(PREPARED)}
      SELECT ${PROJECT_AND_ENTRY_COLUMNS}, NULL AS sort_key
      FROM projects p
      LEFT JOIN changelog_entries e ON e.project_id = p.id AND e.id = ${id} AND e.status = 'published'
      WHERE p.slug = ${slug}`.execute(db);
    return split(result.rows);
  },

  /**
   * `page` for many requests in one statement: one group of rows per request, in the order given,
   * undefined where no project has the slug. Each request is its own lateral walk of the published
   * index, from the start or, for requests with `after` (all or none), from that cursor on.
   */
  async pages(db: Executor, requests: readonly PageRequest[]): Promise<(Listed | undefined)[]> {
    const withCursor = requests.filter((r) => r.after).length;
    if (withCursor !== 0 && withCursor !== requests.length) throw new Error('pages: a cursor for every request or for none');
    const after = withCursor ? sql`AND (c.published_at, c.id) < (q.after_at, q.after_id)` : sql``;
    const result = await sql<ProjectAndEntryRow & { n: string }>`${sql.raw(PREPARED)}
      SELECT q.n, ${PROJECT_AND_ENTRY_COLUMNS}, ${SORT_KEY} AS sort_key
      FROM unnest(
        ${requests.map((r) => r.slug)}::text[], ${requests.map((r) => r.limit)}::int[], ${requests.map((r) => r.offset)}::int[],
        ${requests.map((r) => r.after?.publishedAt ?? null)}::timestamptz[], ${requests.map((r) => r.after?.id ?? null)}::uuid[]
      ) WITH ORDINALITY AS q(slug, lim, off, after_at, after_id, n)
      LEFT JOIN projects p ON p.slug = q.slug
      LEFT JOIN LATERAL (${publishedPage(sql`p.id`, sql`q.lim`, sql`q.off`, after)}) e ON true
      ORDER BY q.n, e.published_at DESC, e.id DESC`.execute(db);
    return splitBatch(result.rows, requests.length);
  },

  /** `entry` for many requests in one statement: one group per request, in the order given. */
  async entries(db: Executor, requests: readonly { slug: string; id: string }[]): Promise<(Listed | undefined)[]> {
    const result = await sql<ProjectAndEntryRow & { n: string }>`${sql.raw(PREPARED)}
      SELECT q.n, ${PROJECT_AND_ENTRY_COLUMNS}, NULL AS sort_key
      FROM unnest(${requests.map((r) => r.slug)}::text[], ${requests.map((r) => r.id)}::uuid[]) WITH ORDINALITY AS q(slug, id, n)
      LEFT JOIN projects p ON p.slug = q.slug
      LEFT JOIN changelog_entries e ON e.project_id = p.id AND e.id = q.id AND e.status = 'published'`.execute(db);
    return splitBatch(result.rows, requests.length);
  },
};
