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
 * An array parameter of a batched read, given to unnest through a scalar subquery. Given as a constant,
 * its length went into the row estimate, so the plan cache never found the generic plan as cheap as
 * the custom one and planned the statement again at every execution: more than half the cost of a
 * page read on the embedded database. Through a subquery no plan knows the length; after five
 * executions the statement keeps its generic plan, the same plan (every other value the statement
 * uses comes from these arrays, which no plan sees either).
 */
const batchParam = (values: readonly unknown[], type: string) => sql`(SELECT ${values}::${sql.raw(type)}[])`;

/** Every K-th key of a listing is kept (migrations/0030): K, inlined by the planner as a constant. */
const K = sql`listing_mark_interval()`;
/** Above every key, so a walk from the newest row starts below it (no row has both the instant infinity and the largest uuid). */
const TOP = [sql`'infinity'::timestamptz`, sql`'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid`] as const;

/**
 * A public listing and its marks (migrations/0030). `rows(alias)` and `marks(alias)` are FROM … WHERE …
 * of its rows (newest first by `key`, then id) and of its marks (keyed by `markKey`, numbered by `seq`
 * from the oldest row, every K-th row).
 */
interface MarkedListing {
  rows: (alias: string) => RawBuilder<unknown>;
  key: readonly [string, string];
  marks: (alias: string) => RawBuilder<unknown>;
  markKey: readonly [string, string];
  /** How many rows the listing has, as a kept count; absent: counted from its newest mark (fewer than K rows above it). */
  total?: RawBuilder<unknown>;
}

const keyOf = (alias: string, [at, id]: readonly [string, string]) => sql`(${sql.ref(`${alias}.${at}`)}, ${sql.ref(`${alias}.${id}`)})`;
const newestFirst = (alias: string, [at, id]: readonly [string, string]) =>
  sql`${sql.ref(`${alias}.${at}`)} DESC, ${sql.ref(`${alias}.${id}`)} DESC`;

/**
 * One page of a listing: `limit` rows (`columns` of alias `x`) after skipping `offset`, counted from
 * the newest row or after the cursor `after` (its key). Every offset costs about the same, whatever
 * the statistics: a walk of the listing's index that stops after the page, starting either at the
 * cursor or the newest row (an offset under K), or just below the mark above the page's first row
 * (fewer than K rows before it). That mark is found by number. Rows are numbered from the oldest (0),
 * so the page's first row is number `first` = (rows older than the start) - 1 - offset, where the rows
 * older than the start are the listing's total, or, after a cursor, the mark below the cursor's number
 * times K plus the fewer than K rows from that mark up to the cursor. An offset at or past the end
 * reads nothing (a condition on the start alone, tested once before the walk).
 */
function markedPage(
  listing: MarkedListing,
  page: { columns: RawBuilder<unknown>; limit: RawBuilder<unknown>; offset: RawBuilder<unknown>; after?: readonly [RawBuilder<unknown>, RawBuilder<unknown>] | undefined },
) {
  const { key, markKey } = listing;
  const { offset, after } = page;
  const rank = after
    ? sql`(SELECT b.seq * ${K} + (
          SELECT count(*) FROM (
            SELECT FROM ${listing.rows('z')} AND ${keyOf('z', key)} >= ${keyOf('b', markKey)} AND ${keyOf('z', key)} < (${after[0]}, ${after[1]})
            ORDER BY ${newestFirst('z', key)} LIMIT ${K}) n)
        FROM ${listing.marks('b')} AND ${keyOf('b', markKey)} < (${after[0]}, ${after[1]})
        ORDER BY ${newestFirst('b', markKey)} LIMIT 1)`
    : (listing.total ??
      sql`(SELECT t.seq * ${K} + 1 + (
          SELECT count(*) FROM (SELECT FROM ${listing.rows('z')} AND ${keyOf('z', key)} > ${keyOf('t', markKey)} ORDER BY ${newestFirst('z', key)} LIMIT ${K}) n)
        FROM ${listing.marks('t')} ORDER BY t.seq DESC LIMIT 1)`);
  const [fromAt, fromId] = after ?? TOP;
  return sql`
    SELECT w.* FROM (
      SELECT ${offset} >= ${K} AS deep, CASE WHEN ${offset} >= ${K} THEN coalesce(${rank}, 0) - 1 - ${offset} END AS first
      -- Computed once: merged into the query around it, its subqueries ran once per use of \`first\`.
      OFFSET 0
    ) d
    LEFT JOIN LATERAL (
      -- The mark above the page's first row, by primary key. The marks' key index starts with the same
      -- columns, and without statistics an equality on seq looked as cheap through either: the key
      -- index was picked, and walked the listing's marks for the seq. Asked as the first mark from
      -- that seq on, in seq order, only the primary key needs no sort. A mark further up would still
      -- give the right page (the skip is counted from the mark found).
      SELECT m.seq, ${sql.ref(`m.${markKey[0]}`)} AS at, ${sql.ref(`m.${markKey[1]}`)} AS id FROM ${listing.marks('m')}
        AND m.seq >= d.first / ${K} + 1 AND d.first >= 0
      ORDER BY m.seq LIMIT 1
    ) mark ON true
    CROSS JOIN LATERAL (
      SELECT ${page.columns} FROM ${listing.rows('x')}
        AND ${keyOf('x', key)} < (CASE WHEN d.deep THEN mark.at ELSE ${fromAt} END, CASE WHEN d.deep THEN mark.id ELSE ${fromId} END)
        AND (NOT d.deep OR d.first >= 0)
      ORDER BY ${newestFirst('x', key)}
      LIMIT ${page.limit} OFFSET CASE WHEN d.deep THEN mark.seq * ${K} - 1 - d.first ELSE ${offset} END
    ) w`;
}

/** A project's published entries, of one type when `type` (text; NULL: every type) is given, as `markedPage` lists them. */
const entryListing = (projectId: RawBuilder<unknown>, type: RawBuilder<unknown> | undefined, total: RawBuilder<unknown>): MarkedListing => ({
  rows: (alias) => sql`changelog_entries ${sql.raw(alias)} WHERE ${sql.ref(`${alias}.project_id`)} = ${projectId}
    AND ${sql.ref(`${alias}.status`)} = 'published' ${type ? sql`AND ${sql.ref(`${alias}.entry_type`)} = ${type}` : sql``}`,
  key: ['published_at', 'id'],
  marks: (alias) => sql`published_entry_marks ${sql.raw(alias)} WHERE ${sql.ref(`${alias}.project_id`)} = ${projectId}
    AND ${sql.ref(`${alias}.component`)} = '' AND ${sql.ref(`${alias}.listing`)} = ${type ? sql`${type}` : sql`'all'`}`,
  markKey: ['published_at', 'entry_id'],
  total,
});

/** A component listing of 0029 (`listing`: 'all' or a type), as `markedPage` lists it; its total is counted from its marks. */
const componentListing = (projectId: RawBuilder<unknown>, component: RawBuilder<unknown>, listing: RawBuilder<unknown>): MarkedListing => ({
  rows: (alias) => sql`published_entry_components ${sql.raw(alias)} WHERE ${sql.ref(`${alias}.project_id`)} = ${projectId}
    AND ${sql.ref(`${alias}.component`)} = ${component} AND ${sql.ref(`${alias}.listing`)} = ${listing}`,
  key: ['published_at', 'entry_id'],
  marks: (alias) => sql`published_entry_marks ${sql.raw(alias)} WHERE ${sql.ref(`${alias}.project_id`)} = ${projectId}
    AND ${sql.ref(`${alias}.component`)} = ${component} AND ${sql.ref(`${alias}.listing`)} = ${listing}`,
  markKey: ['published_at', 'entry_id'],
});

/** A project's published release notes, as `markedPage` lists them. */
const releaseListing = (projectId: RawBuilder<unknown>): MarkedListing => ({
  rows: (alias) => sql`release_notes ${sql.raw(alias)} WHERE ${sql.ref(`${alias}.project_id`)} = ${projectId} AND ${sql.ref(`${alias}.status`)} = 'published'`,
  key: ['sort_at', 'id'],
  marks: (alias) => sql`published_release_marks ${sql.raw(alias)} WHERE ${sql.ref(`${alias}.project_id`)} = ${projectId}`,
  markKey: ['sort_at', 'release_id'],
  total: sql`(SELECT p.published_release_count FROM projects p WHERE p.id = ${projectId})`,
});

/**
 * One page of a project's published entries, newest first, ties by id descending: id, published_at
 * and row_version, all three from the published index (an index-only walk); of one type (`type`), from
 * the published index of types (migrations/0024). A deep offset starts at a mark (`markedPage`).
 */
const publishedPage = (
  projectId: RawBuilder<unknown>,
  limit: RawBuilder<unknown>,
  offset: RawBuilder<unknown>,
  total: RawBuilder<unknown>,
  after: readonly [RawBuilder<unknown>, RawBuilder<unknown>] | undefined,
  type: RawBuilder<unknown> | undefined,
) =>
  markedPage(entryListing(projectId, type, total), {
    columns: sql`x.id, x.published_at, x.row_version`,
    limit,
    offset,
    after,
  });

const PUBLISHED_ORDER = sql`published_at DESC, id DESC`;

/** A published release note as the public reads serve it, with its exact place in the listing. */
export type PublishedRelease = Pick<
  ReleaseNoteRow,
  | 'id' | 'project_id' | 'key' | 'tag' | 'package' | 'version' | 'prerelease' | 'previous_tag' | 'released_at' | 'title' | 'content'
  | 'generated_json' | 'team_attribution' | 'component_tags' | 'commit_shas' | 'published_at' | 'updated_at' | 'introduction'
> & {
  published_at: Date;
  /** The release instant to the microsecond, or `infinity` (Unreleased): the next cursor. */
  sort_key: string;
};

const RELEASE_COLUMNS = [
  'id', 'project_id', 'key', 'tag', 'package', 'version', 'prerelease', 'previous_tag', 'released_at', 'title', 'content', 'generated_json',
  'team_attribution', 'component_tags', 'commit_shas', 'published_at', 'updated_at', 'introduction',
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
    const after = page.after ? ([sql`${page.after.publishedAt}::timestamptz`, sql`${page.after.id}::uuid`] as const) : undefined;
    const type = page.type ?? null;
    const ofType = type ? sql`${type}::text` : undefined;
    const result = await sql<ProjectAndEntryRow>`${sql.raw(PREPARED)}
      SELECT ${PROJECT_AND_ENTRY_COLUMNS}, ${totalOf(sql`${type}::text`)} AS total, ${SORT_KEY} AS sort_key
      FROM projects p
      LEFT JOIN LATERAL (${publishedPage(sql`p.id`, sql`${page.limit}::int`, sql`${page.offset}::int`, totalOf(sql`${type}::text`), after, ofType)}) e ON true
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
    const after = withCursor ? ([sql`q.after_at`, sql`q.after_id`] as const) : undefined;
    const ofType = withType ? sql`q.type` : undefined;
    const result = await sql<ProjectAndEntryRow & { n: string }>`${sql.raw(PREPARED)}
      SELECT q.n, ${PROJECT_AND_ENTRY_COLUMNS}, ${totalOf(sql`q.type`)} AS total, ${SORT_KEY} AS sort_key
      FROM unnest(
        ${batchParam(requests.map((r) => r.slug), 'text')}, ${batchParam(requests.map((r) => r.limit), 'int')},
        ${batchParam(requests.map((r) => r.offset), 'int')}, ${batchParam(requests.map((r) => r.after?.publishedAt ?? null), 'timestamptz')},
        ${batchParam(requests.map((r) => r.after?.id ?? null), 'uuid')}, ${batchParam(requests.map((r) => r.type ?? null), 'text')}
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
      FROM unnest(${batchParam(requests.map((r) => r.slug), 'text')}, ${batchParam(requests.map((r) => r.id), 'uuid')}) WITH ORDINALITY AS q(slug, id, n)
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
      FROM unnest(${batchParam(ids, 'uuid')}) AS q(id) CROSS JOIN LATERAL ${entryById(sql`q.id`)} e
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
   * the page whatever the statistics say; a deep page starts at a mark (`markedPage`). Then each
   * entry's row by primary key (`entryById`).
   */
  async listPublished(db: Executor, projectId: string, filter: EntryFilter, page: { limit: number; offset: number }): Promise<EntryRow[]> {
    const type = filter.type ?? null;
    const project = sql`${projectId}::uuid`;
    const listing = filter.component
      ? componentListing(project, sql`${filter.component}::text`, sql`${type ?? 'all'}::text`)
      : entryListing(project, type ? sql`${type}::text` : undefined, sql`(SELECT ${totalOf(sql`${type}::text`)} FROM projects p WHERE p.id = ${project})`);
    const keys = markedPage(listing, {
      columns: sql`${sql.ref(`x.${listing.key[1]}`)} AS id, x.published_at`,
      limit: sql`${page.limit}::int`,
      offset: sql`${page.offset}::int`,
    });
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
   * id descending: a walk of the published index (migrations/0020), after `after` when given; a deep
   * offset starts at a mark (`markedPage`).
   */
  async publishedReleases(
    db: Executor,
    projectId: string,
    page: { limit: number; offset: number; after?: ReleaseCursor | undefined },
  ): Promise<PublishedRelease[]> {
    const columns = sql.join([...RELEASE_COLUMNS.map((c) => sql.ref(`x.${c}`)), sql`x.sort_at`, sql`${RELEASE_SORT_KEY} AS sort_key`]);
    const after = page.after ? ([sql`${page.after.sortAt}::timestamptz`, sql`${page.after.id}::uuid`] as const) : undefined;
    const listed = markedPage(releaseListing(sql`${projectId}::uuid`), { columns, limit: sql`${page.limit}::int`, offset: sql`${page.offset}::int`, after });
    const result = await sql<PublishedRelease>`
      SELECT ${sql.join(RELEASE_COLUMNS.map((c) => sql.ref(`r.${c}`)))}, r.sort_key FROM (${listed}) r
      ORDER BY r.sort_at DESC, r.id DESC`.execute(db);
    return result.rows;
  },

  /**
   * Whether the project has published the note of a tagged release: what makes the public page open
   * on releases. An Unreleased note alone (every project with unreleased commits has one) does not
   * count. Two published notes always include a tagged one; with one, the index says which it is.
   */
  async hasTaggedRelease(db: Executor, project: Pick<PublicProject, 'id' | 'published_release_count'>): Promise<boolean> {
    if (project.published_release_count === 0) return false;
    if (project.published_release_count > 1) return true;
    const row = await db
      .selectFrom('release_notes')
      .select('id')
      .where('project_id', '=', project.id)
      .where('status', '=', 'published')
      .where('released_at', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** The newest published notes of tagged releases (Unreleased, on top of the index, skipped: at most one row), for feeds. */
  async latestReleased(db: Executor, projectId: string, limit: number): Promise<PublishedRelease[]> {
    const rows = await db
      .selectFrom('release_notes')
      .select([...RELEASE_COLUMNS, RELEASE_SORT_KEY.as('sort_key')])
      .where('project_id', '=', projectId)
      .where('status', '=', 'published')
      .where('released_at', 'is not', null)
      .orderBy('sort_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows as PublishedRelease[];
  },

  /** The project's pull-request URL setting (generation settings), from which changelog.md links GitHub's compare view. */
  async pullRequestUrl(db: Executor, projectId: string): Promise<string | null> {
    const row = await db
      .selectFrom('projects')
      .select(sql<string | null>`generation_settings->>'pullRequestUrl'`.as('url'))
      .where('id', '=', projectId)
      .executeTakeFirst();
    return row?.url ?? null;
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
