import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { EntryRow, EntryStatus, NewEntry } from '../db/schema.js';
import { ENTRY_COLUMNS } from './entry.schemas.js';

/** Rows per write statement of generated entries. */
const WRITE_BATCH = 1000;

/** The generated columns of an entry (what a regeneration writes) and their types in a record. */
const RECORD_TYPES = [
  'generation_key text', 'entry_type text', 'title text', 'content text', 'generated_json jsonb', 'version_label text',
  'team_attribution text', 'component_tags text[]', 'commit_id uuid', 'commit_shas text[]', 'period_start timestamptz',
  'period_end timestamptz', 'fingerprint text',
].join(', ');
const RECORD_COLUMNS = [
  'entry_type', 'title', 'content', 'generated_json', 'version_label', 'team_attribution', 'component_tags', 'commit_id',
  'commit_shas', 'period_start', 'period_end', 'fingerprint',
];

/**
 * Writes `rows` a batch per statement, joining the next batch while the database stores the
 * previous one (one connection runs one statement at a time; this keeps both sides busy).
 */
async function pipelined<T>(
  rows: readonly T[],
  toRecord: (row: T) => string,
  write: (json: string, count: number) => Promise<void>,
): Promise<void> {
  let previous: Promise<void> = Promise.resolve();
  try {
    for (let i = 0; i < rows.length; i += WRITE_BATCH) {
      const batch = rows.slice(i, i + WRITE_BATCH);
      const json = `[${batch.map(toRecord).join(',')}]`;
      await previous;
      previous = write(json, batch.length);
      // Surfaced by the next await; meanwhile not an unhandled rejection.
      previous.catch(() => {});
    }
  } finally {
    await previous;
  }
}

/**
 * A generated entry's record (a JSON object serialised in the generation thread,
 * src/generation/engine-wire.ts) with this row's own fields added: the entry's JSON is not parsed
 * again on this thread.
 */
function withFields(record: string, fields: Record<string, string | null>): string {
  return `${record.slice(0, -1)},${JSON.stringify(fields).slice(1)}`;
}

export const entriesRepository = {
  async findById(db: Executor, id: string): Promise<EntryRow | undefined> {
    return db.selectFrom('changelog_entries').select(ENTRY_COLUMNS).where('id', '=', id).executeTakeFirst();
  },

  /** Which of `commitIds` are commits of the project (an import's entries may point only at those). */
  async commitIdsOfProject(db: Executor, projectId: string, commitIds: string[]): Promise<Set<string>> {
    const found = await db.selectFrom('commits').select('id').where('project_id', '=', projectId).where('id', 'in', commitIds).execute();
    return new Set(found.map((c) => c.id));
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

  /**
   * Inserts generated entries: one statement per batch, the rows sent as a single JSON array that
   * PostgreSQL unpacks (`jsonb_to_recordset`), so a batch is one parameter however many rows.
   */
  async insertGenerated(
    db: Executor,
    projectId: string,
    rows: ReadonlyArray<{ record: string; commitId: string | null; status: EntryStatus; publishedAt?: Date | null }>,
    onBatch?: (written: number) => void,
  ): Promise<void> {
    const toRecord = ({ record, commitId, status, publishedAt }: (typeof rows)[number]) =>
      withFields(record, { commit_id: commitId, status, published_at: publishedAt ? publishedAt.toISOString() : null });
    await pipelined(rows, toRecord, async (json, n) => {
      // A backdated published_at (history) moves no Last-Modified backwards: the project's
      // published_changed_at only ever moves forward (migrations/0017), whatever the entries' dates.
      await sql`
        INSERT INTO changelog_entries (
          project_id, generation_key, status, published_at, ${sql.raw(RECORD_COLUMNS.join(', '))}
        )
        SELECT ${projectId}::uuid, r.generation_key, r.status, CASE WHEN r.status = 'published' THEN COALESCE(r.published_at, now()) END,
               ${sql.raw(RECORD_COLUMNS.map((c) => `r.${c}`).join(', '))}
        FROM jsonb_to_recordset(${json}::jsonb) AS r(${sql.raw(RECORD_TYPES)}, status text, published_at timestamptz)`.execute(db);
      onBatch?.(n);
    });
  },

  /**
   * Rewrites entries in place with what generation produced (same id, new updated_at), a batch per
   * statement; `restore` brings an entry archived by generation back under its type's policy.
   */
  async updateGenerated(
    db: Executor,
    rows: ReadonlyArray<{ id: string; record: string; commitId: string | null; restore?: EntryStatus; publishedAt?: Date | null }>,
    onBatch?: (written: number) => void,
  ): Promise<void> {
    await pipelined(
      rows,
      ({ id, record, commitId, restore, publishedAt }) =>
        withFields(record, { commit_id: commitId, id, restore: restore ?? null, restore_at: publishedAt ? publishedAt.toISOString() : null }),
      async (json, n) => {
        await sql`
          UPDATE changelog_entries e SET
            ${sql.raw(RECORD_COLUMNS.map((c) => `${c} = r.${c}`).join(', '))},
            edited_at = NULL,
            pending_regeneration = false,
            updated_at = now(),
            status = COALESCE(r.restore, e.status),
            published_at = CASE WHEN r.restore IS NULL THEN e.published_at WHEN r.restore = 'published' THEN COALESCE(r.restore_at, now()) END
          FROM jsonb_to_recordset(${json}::jsonb) AS r(${sql.raw(RECORD_TYPES)}, id uuid, restore text, restore_at timestamptz)
          WHERE e.id = r.id`.execute(db);
        onBatch?.(n);
      },
    );
  },

  /**
   * Archives entries generation no longer produces. The fingerprint is dropped so that, should the
   * entry come back (a force-push undone, a section shown again), it is told apart from an entry a
   * person archived and restored.
   */
  async archiveGenerated(db: Executor, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await db
      .updateTable('changelog_entries')
      .set({ status: 'archived', published_at: null, fingerprint: null, updated_at: sql<Date>`now()` })
      .where('id', 'in', ids)
      .execute();
  },

  /** Publishes the given drafts of a project; others (wrong project, not drafts) are left alone. */
  async publishDrafts(db: Executor, projectId: string, ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    const rows = await db
      .updateTable('changelog_entries')
      .set({ status: 'published', published_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
      .where('project_id', '=', projectId)
      .where('status', '=', 'draft')
      .where('id', 'in', ids)
      .returning('id')
      .execute();
    return rows.length;
  },
};
