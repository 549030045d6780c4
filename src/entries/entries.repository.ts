import { sql } from 'kysely';
import { PREPARED, type Executor } from '../db/database.js';
import type { EntryRow, EntryStatus, NewEntry } from '../db/schema.js';

/** The columns that make up a ChangelogEntry, in contract order. */
export const ENTRY_COLUMNS = [
  'id',
  'project_id',
  'entry_type',
  'status',
  'title',
  'content',
  'generated_json',
  'version_label',
  'team_attribution',
  'component_tags',
  'commit_id',
  'commit_shas',
  'period_start',
  'period_end',
  'published_at',
  'created_at',
  'updated_at',
] as const;

const PUBLISHED_ORDER = sql`published_at DESC, id DESC`;

export const entriesRepository = {
  /** Published entries by id, whole, with their current row version. */
  async publishedRowsByIds(db: Executor, ids: string[]): Promise<(EntryRow & { version: string })[]> {
    const columns = sql.join(ENTRY_COLUMNS.map((c) => sql.ref(c)));
    const result = await sql<EntryRow & { version: string }>`${sql.raw(PREPARED)}
      SELECT ${columns}, row_version::text AS version FROM changelog_entries
      WHERE id = ANY(${ids}::uuid[]) AND status = 'published'`.execute(db);
    return result.rows;
  },

  async findById(db: Executor, id: string): Promise<EntryRow | undefined> {
    return db.selectFrom('changelog_entries').select(ENTRY_COLUMNS).where('id', '=', id).executeTakeFirst();
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

  async insertMany(db: Executor, entries: NewEntry[]): Promise<string[]> {
    if (entries.length === 0) return [];
    const rows = await db.insertInto('changelog_entries').values(entries).returning('id').execute();
    return rows.map((row) => row.id);
  },

  async setStatus(db: Executor, id: string, status: EntryStatus): Promise<EntryRow | undefined> {
    return db
      .updateTable('changelog_entries')
      .set({
        status,
        // Publishing stamps the time once; leaving `published` clears it, so a re-publish is new again.
        published_at: status === 'published' ? sql<Date>`coalesce(published_at, now())` : null,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', id)
      .returning(ENTRY_COLUMNS)
      .executeTakeFirst();
  },

  /** A project's entries in every status, newest first (for review). */
  async listForProject(db: Executor, projectId: string, limit: number): Promise<EntryRow[]> {
    return db
      .selectFrom('changelog_entries')
      .select(ENTRY_COLUMNS)
      .where('project_id', '=', projectId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  async updateText(db: Executor, id: string, text: { title: string | null; content: string | null }): Promise<EntryRow | undefined> {
    return db
      .updateTable('changelog_entries')
      // A person's text: generation keeps it from now on (see src/generation/generation.service.ts).
      .set({ title: text.title, content: text.content, edited_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returning(ENTRY_COLUMNS)
      .executeTakeFirst();
  },
};
