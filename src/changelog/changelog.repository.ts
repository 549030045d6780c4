import { sql, type RawBuilder } from 'kysely';
import { PREPARED, type Executor } from '../db/database.js';
import type { EntryRow, EntryType, ReleaseNoteRow } from '../db/schema.js';
import { ENTRY_COLUMNS } from '../entries/entry.schemas.js';
import { releaseKey, UNRELEASED_TAG } from '../entries/release-key.js';
import type { PublishedTypeCounts } from '../projects/public-view.js';
import type { Cursor, ReleaseCursor } from './cursor.js';

/**
 * A project as the public reads show it. The API's statements read only the columns it serializes
 * (`ListedProject`); the page and feeds read the theme and the listing's date too.
 */
export interface PublicProject extends PublishedTypeCounts {
  id: string;
  name: string;
  slug: string;
  theme_color: string | null;
  logo_url: string | null;
  published_entry_count: number;
  /** When anything the public listing shows last changed; a later whole second at every change (migrations/0017). */
  published_changed_at: Date;
  /** The view the page shows by default; null: the page picks (src/projects/public-view.ts). */
  public_view: string | null;
  /** How many published release notes the project has (migrations/0029). */
  published_release_count: number;
}

/** What the API's listing statements read of a project. */
export type ListedProject = Pick<PublicProject, 'id' | 'name' | 'slug' | 'published_entry_count'>;

/** A published entry as a listing names it: which row, and which stored version of it. */
export interface EntryVersion {
  id: string;
  version: string;
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
  /** Published entries of what the statement lists: the project's, or one type's. */
  total: number;
  id: string | null;
  version: string | null;
  sort_key: string | null;
}

/**
 * A page to read: `limit` entries after skipping `offset`, counted from the start or after a cursor;
 * of one entry type when `type` is given.
 */
export interface PageRequest {
  slug: string;
  limit: number;
  offset: number;
  after?: Cursor;
  type?: EntryType | undefined;
}

export interface Listed {
  project: ListedProject;
  /** How many published entries the listing has in all (of its type, when it has one). */
  total: number;
  entries: ListedEntry[];
}

function split(rows: ProjectAndEntryRow[]): Listed | undefined {
  const first = rows[0];
  if (!first || first.project_id === null) return undefined;
  const project = { id: first.project_id, name: first.name, slug: first.slug, published_entry_count: Number(first.published_entry_count) };
  const entries = rows.flatMap((r) => (r.id !== null ? [{ id: r.id, version: r.version!, sort_key: r.sort_key ?? '' }] : []));
  return { project, total: Number(first.total), entries };
}

/** Rows of a batched statement, one group per request (`n`, from 1, in the order asked), split apart. */
function splitBatch(rows: (ProjectAndEntryRow & { n: string })[], count: number): (Listed | undefined)[] {
  const groups: ProjectAndEntryRow[][] = Array.from({ length: count }, () => []);
  for (const row of rows) groups[Number(row.n) - 1]!.push(row);
  return groups.map(split);
}

export interface EntryFilter {
  type?: EntryType | undefined;
  component?: string | undefined;
}

const PROJECT_AND_ENTRY_COLUMNS = sql`p.id AS project_id, p.name, p.slug, p.published_entry_count, e.id, e.row_version::text AS version`;
/** The total of a listing of `type` (text; NULL: every type), from the counts the triggers keep (migrations/0024). */
const totalOf = (type: RawBuilder<unknown>) => sql`CASE ${type}
  WHEN 'commit' THEN p.published_commit_count WHEN 'daily' THEN p.published_daily_count
  WHEN 'weekly' THEN p.published_weekly_count WHEN 'monthly' THEN p.published_monthly_count
  ELSE p.published_entry_count END`;
const SORT_KEY = sql`to_char(e.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The entry with id `id`, whatever its project and status, as a subquery: the caller tests those
 * outside it. Inside, the primary key is the only index that applies. With `status = 'published'`
 * beside the id, the published indexes (partial on that condition) apply too, and a planner without
 * statistics (PGlite never analyzes; PostgreSQL right after a bulk write) takes the condition to
 * match 0.5 % of rows, the partial indexes for nearly empty, and walked a whole one, every project's
 * published entries, to find a few ids. LIMIT keeps the subquery from being merged into the query
 * around it (the outer conditions stay outside).
 */
const entryById = (id: RawBuilder<unknown>, columns: RawBuilder<unknown> = sql`*`) =>
  sql`(SELECT ${columns} FROM changelog_entries WHERE id = ${id} LIMIT 1)`;

/**
 * One page of a project's published entries, newest first, ties by id descending: id, published_at
 * and row_version, all three from the published index (an index-only walk, so a deep offset does
 * not read the rows it skips); of one type (`ofType`), from the published index of types (migrations/0024).
 * `total` is the listing's count as the project row keeps it: an offset at or past it reads nothing
 * (a condition on the outer row only, which PostgreSQL tests once before walking the index).
 */
const publishedPage = (
  projectId: RawBuilder<unknown>,
  limit: RawBuilder<unknown>,
  offset: RawBuilder<unknown>,
  total: RawBuilder<unknown>,
  after = sql``,
  ofType = sql``,
) => sql`
  SELECT c.id, c.published_at, c.row_version FROM changelog_entries c
  WHERE c.project_id = ${projectId} AND c.status = 'published' ${ofType} ${after} AND ${offset} < ${total}
  ORDER BY c.published_at DESC, c.id DESC
  LIMIT ${limit} OFFSET ${offset}`;

const PUBLISHED_ORDER = sql`published_at DESC, id DESC`;

/** A published release note as the public reads serve it, with its exact place in the listing. */
export type PublishedRelease = Pick<
  ReleaseNoteRow,
  | 'id' | 'project_id' | 'key' | 'tag' | 'package' | 'version' | 'prerelease' | 'previous_tag' | 'released_at' | 'title' | 'content'
  | 'generated_json' | 'team_attribution' | 'component_tags' | 'commit_shas' | 'published_at' | 'updated_at'
> & {
  published_at: Date;
  /** The release instant to the microsecond, or `infinity` (Unreleased): the next cursor. */
  sort_key: string;
};

const RELEASE_COLUMNS = [
  'id', 'project_id', 'key', 'tag', 'package', 'version', 'prerelease', 'previous_tag', 'released_at', 'title', 'content', 'generated_json',
  'team_attribution', 'component_tags', 'commit_shas', 'published_at', 'updated_at',
] as const;
const RELEASE_SORT_KEY = sql<string>`CASE WHEN released_at IS NULL THEN 'infinity' ELSE to_char(sort_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END`;

/**
 * The one repository of published content, the only SQL that reads it: the API (one statement per
 * request names the project and the versions of the entries to show; the entries' serialized JSON is
 * then reused by version, see entry-json.ts), the project listing's newest entries, and the public
 * page and feeds (whole rows). Published entries only, never drafts or archived ones.
 */
export const changelogRepository = {
  /**
   * The project by slug and one page of its published entries (`publishedPage`), after `cursor` when
   * given, of one type when given. No row: no such project.
   */
  async page(db: Executor, page: PageRequest): Promise<Listed | undefined> {
    const after = page.after
      ? sql`AND (c.published_at, c.id) < (${page.after.publishedAt}::timestamptz, ${page.after.id}::uuid)`
      : sql``;
    const type = page.type ?? null;
    const ofType = type ? sql`AND c.entry_type = ${type}` : sql``;
    const result = await sql<ProjectAndEntryRow>`${sql.raw(PREPARED)}
      SELECT ${PROJECT_AND_ENTRY_COLUMNS}, ${totalOf(sql`${type}::text`)} AS total, ${SORT_KEY} AS sort_key
      FROM projects p
      LEFT JOIN LATERAL (${publishedPage(sql`p.id`, sql`${page.limit}`, sql`${page.offset}::int`, totalOf(sql`${type}::text`), after, ofType)}) e ON true
      WHERE p.slug = ${page.slug}
      ORDER BY e.published_at DESC, e.id DESC`.execute(db);
    return split(result.rows);
  },

  /** The project by slug and, if it is a published entry of that project, the entry's version. */
  async entry(db: Executor, slug: string, id: string): Promise<Listed | undefined> {
    const result = await sql<ProjectAndEntryRow>`${sql.raw(PREPARED)}
      SELECT ${PROJECT_AND_ENTRY_COLUMNS}, p.published_entry_count AS total, NULL AS sort_key
      FROM projects p
      LEFT JOIN ${entryById(sql`${id}::uuid`, sql`id, project_id, status, row_version`)} e ON e.project_id = p.id AND e.status = 'published'
      WHERE p.slug = ${slug}`.execute(db);
    return split(result.rows);
  },

  /**
   * `page` for many requests in one statement: one group of rows per request, in the order given,
   * undefined where no project has the slug. Each request is its own lateral walk of the published
   * index, from the start or, for requests with `after` (all or none), from that cursor on; of the
   * published index of types for requests with a `type` (all or none: a condition that may or may
   * not apply would be planned without that index).
   */
  async pages(db: Executor, requests: readonly PageRequest[]): Promise<(Listed | undefined)[]> {
    const withCursor = requests.filter((r) => r.after).length;
    if (withCursor !== 0 && withCursor !== requests.length) throw new Error('pages: a cursor for every request or for none');
    const withType = requests.filter((r) => r.type).length;
    if (withType !== 0 && withType !== requests.length) throw new Error('pages: a type for every request or for none');
    const after = withCursor ? sql`AND (c.published_at, c.id) < (q.after_at, q.after_id)` : sql``;
    const ofType = withType ? sql`AND c.entry_type = q.type` : sql``;
    const result = await sql<ProjectAndEntryRow & { n: string }>`${sql.raw(PREPARED)}
      SELECT q.n, ${PROJECT_AND_ENTRY_COLUMNS}, ${totalOf(sql`q.type`)} AS total, ${SORT_KEY} AS sort_key
      FROM unnest(
        ${requests.map((r) => r.slug)}::text[], ${requests.map((r) => r.limit)}::int[], ${requests.map((r) => r.offset)}::int[],
        ${requests.map((r) => r.after?.publishedAt ?? null)}::timestamptz[], ${requests.map((r) => r.after?.id ?? null)}::uuid[],
        ${requests.map((r) => r.type ?? null)}::text[]
      ) WITH ORDINALITY AS q(slug, lim, off, after_at, after_id, type, n)
      LEFT JOIN projects p ON p.slug = q.slug
      LEFT JOIN LATERAL (${publishedPage(sql`p.id`, sql`q.lim`, sql`q.off`, totalOf(sql`q.type`), after, ofType)}) e ON true
      ORDER BY q.n, e.published_at DESC, e.id DESC`.execute(db);
    return splitBatch(result.rows, requests.length);
  },

  /**
   * `entry` for many requests in one statement: one group per request, in the order given. Each
   * entry is looked up by its primary key alone (`entryById`), one request at a time: as a plain
   * join, a planner without statistics walked the project's published entries to match the ids.
   */
  async entries(db: Executor, requests: readonly { slug: string; id: string }[]): Promise<(Listed | undefined)[]> {
    const result = await sql<ProjectAndEntryRow & { n: string }>`${sql.raw(PREPARED)}
      SELECT q.n, ${PROJECT_AND_ENTRY_COLUMNS}, p.published_entry_count AS total, NULL AS sort_key
      FROM unnest(${requests.map((r) => r.slug)}::text[], ${requests.map((r) => r.id)}::uuid[]) WITH ORDINALITY AS q(slug, id, n)
      LEFT JOIN projects p ON p.slug = q.slug
      LEFT JOIN LATERAL ${entryById(sql`q.id`, sql`id, project_id, status, row_version`)} e ON e.project_id = p.id AND e.status = 'published'`.execute(db);
    return splitBatch(result.rows, requests.length);
  },

  /**
   * Published entries by id, whole, with their current row version: each by primary key
   * (`entryById`), one id at a time. As `id = ANY(ids)`, a planner that counted a few hundred
   * random lookups against a sequential read of a table of a few thousand pages read the table.
   */
  async publishedRowsByIds(db: Executor, ids: string[]): Promise<(EntryRow & { version: string })[]> {
    const columns = sql.join(ENTRY_COLUMNS.map((c) => sql.ref(`e.${c}`)));
    const result = await sql<EntryRow & { version: string }>`${sql.raw(PREPARED)}
      SELECT ${columns}, e.row_version::text AS version
      FROM unnest(${ids}::uuid[]) AS q(id) CROSS JOIN LATERAL ${entryById(sql`q.id`)} e
      WHERE e.status = 'published'`.execute(db);
    return result.rows;
  },

  /**
   * The newest `limit` published entries of each project, by id and row version, in one statement
   * whatever the number of projects (a lateral join walks each project's published index once).
   */
  async latestPublishedVersionsPerProject(
    db: Executor,
    projectIds: string[],
    limit: number,
  ): Promise<{ project_id: string; id: string; version: string }[]> {
    if (projectIds.length === 0) return [];
    const result = await sql<{ project_id: string; id: string; version: string }>`${sql.raw(PREPARED)}
      SELECT p.id AS project_id, e.id, e.row_version::text AS version
      FROM unnest(${projectIds}::uuid[]) WITH ORDINALITY AS p(id, ord)
      CROSS JOIN LATERAL (
        SELECT id, published_at, row_version FROM changelog_entries
        WHERE project_id = p.id AND status = 'published'
        ORDER BY ${PUBLISHED_ORDER}
        LIMIT ${limit}
      ) AS e
      ORDER BY p.ord, e.published_at DESC, e.id DESC`.execute(db);
    return result.rows;
  },

  /**
   * Read before the entries (as every caller does): a change committed in between then leaves the
   * date older than the entries shown, so a revalidation gets them again, never a 304 for stale ones.
   */
  async findProject(db: Executor, slug: string): Promise<PublicProject | undefined> {
    return db
      .selectFrom('projects')
      .select([
        'id', 'name', 'slug', 'theme_color', 'logo_url', 'published_entry_count', 'published_changed_at', 'public_view',
        'published_commit_count', 'published_daily_count', 'published_weekly_count', 'published_monthly_count',
        'published_release_count',
      ])
      .where('slug', '=', slug)
      .executeTakeFirst();
  },

  /**
   * Newest first (published_at, then id, descending: the API's order), optionally of one type and/or
   * component, whole rows. Which entries is decided from an index alone: the published index, the
   * published index of types (migrations/0024) or, with a component, its listing (migrations/0029),
   * each an equality on the key's first columns followed by an ordered range, so the walk stops after
   * the page whatever the statistics say; an offset skips index entries (the page stops at page 500).
   * Then each entry's row by primary key (`entryById`).
   */
  async listPublished(db: Executor, projectId: string, filter: EntryFilter, page: { limit: number; offset: number }): Promise<EntryRow[]> {
    const type = filter.type ?? null;
    const keys = filter.component
      ? sql`SELECT entry_id AS id, published_at FROM published_entry_components
          WHERE project_id = ${projectId} AND component = ${filter.component} AND listing = ${type ?? 'all'}
          ORDER BY published_at DESC, entry_id DESC LIMIT ${page.limit} OFFSET ${page.offset}`
      : sql`SELECT id, published_at FROM changelog_entries
          WHERE project_id = ${projectId} AND status = 'published' ${type ? sql`AND entry_type = ${type}` : sql``}
          ORDER BY published_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`;
    const columns = sql.join(ENTRY_COLUMNS.map((c) => sql.ref(`e.${c}`)));
    const result = await sql<EntryRow>`
      SELECT ${columns} FROM (${keys}) k
      CROSS JOIN LATERAL ${entryById(sql`k.id`)} e
      WHERE e.status = 'published'
      ORDER BY k.published_at DESC, k.id DESC`.execute(db);
    return result.rows;
  },

  /**
   * What the component menu offers: the components of the project's published entries, by name, at
   * most `maxComponents`. A skip through the component listing's key (migrations/0029): one index
   * seek per component named, however many entries carry each.
   */
  async componentOptions(db: Executor, projectId: string, maxComponents: number): Promise<string[]> {
    const result = await sql<{ value: string }>`
      WITH RECURSIVE menu(value, n) AS (
        (SELECT component, 1 FROM published_entry_components WHERE project_id = ${projectId} ORDER BY component LIMIT 1)
        UNION ALL
        SELECT (
          SELECT c.component FROM published_entry_components c
          WHERE c.project_id = ${projectId} AND c.component > m.value ORDER BY c.component LIMIT 1
        ), m.n + 1
        FROM menu m WHERE m.value IS NOT NULL AND m.n < ${maxComponents}
      )
      SELECT value FROM menu WHERE value IS NOT NULL`.execute(db);
    return result.rows.map((r) => r.value);
  },

  /** The project's published entry by id, by primary key (`entryById`). */
  async findPublished(db: Executor, projectId: string, id: string): Promise<EntryRow | undefined> {
    const columns = sql.join(ENTRY_COLUMNS.map((c) => sql.ref(`e.${c}`)));
    const result = await sql<EntryRow>`
      SELECT ${columns} FROM ${entryById(sql`${id}::uuid`)} e
      WHERE e.project_id = ${projectId} AND e.status = 'published'`.execute(db);
    return result.rows[0];
  },
  /**
   * A page of a project's published release notes, newest release first (Unreleased on top), ties by
   * id descending: a walk of the published index (migrations/0020), after `after` when given.
   */
  async publishedReleases(
    db: Executor,
    projectId: string,
    page: { limit: number; offset: number; after?: ReleaseCursor | undefined; releasedOnly?: boolean },
  ): Promise<PublishedRelease[]> {
    let query = db
      .selectFrom('release_notes')
      .select([...RELEASE_COLUMNS, RELEASE_SORT_KEY.as('sort_key')])
      .where('project_id', '=', projectId)
      .where('status', '=', 'published');
    if (page.after) query = query.where(sql<boolean>`(sort_at, id) < (${page.after.sortAt}::timestamptz, ${page.after.id}::uuid)`);
    // Tagged releases only (feeds): Unreleased is on top of the index, so this skips at most one row.
    if (page.releasedOnly) query = query.where('released_at', 'is not', null);
    const rows = await query.orderBy('sort_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
    return rows as PublishedRelease[];
  },

  /** A project's published release note by tag (`unreleased`: the Unreleased note). */
  async findPublishedRelease(db: Executor, projectId: string, tag: string): Promise<PublishedRelease | undefined> {
    // By key and by tag (the Unreleased note has none), so that either index a planner picks, the
    // key's or the published tags', is an equality on both its columns: by key alone, a planner
    // without statistics walked the published tags' index and tested every note's key.
    const row = await db
      .selectFrom('release_notes')
      .select([...RELEASE_COLUMNS, RELEASE_SORT_KEY.as('sort_key')])
      .where('project_id', '=', projectId)
      .where('key', '=', releaseKey(tag))
      .where('tag', tag === UNRELEASED_TAG ? 'is' : '=', tag === UNRELEASED_TAG ? null : tag)
      .where('status', '=', 'published')
      .executeTakeFirst();
    return row as PublishedRelease | undefined;
  },
};
