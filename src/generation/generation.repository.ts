import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { EntryStatus } from '../db/schema.js';
import { isoWithOffset } from '../git/commit-record.js';
import type { EngineCommit } from './engine-wire.js';

/** A stored commit as generation reads it. */
export interface StoredCommit {
  id: string;
  /** When ingestion stored it (epoch ms). */
  storedAt: number;
  /** Changes as the stored JSON text: only the generation thread reads them. */
  record: EngineCommit & { changes: string };
}

/** What storage needs to know about an entry generation made before. */
export interface StoredGenerated {
  id: string;
  generation_key: string;
  entry_type: string;
  status: EntryStatus;
  fingerprint: string | null;
  edited_at: Date | null;
  pending_regeneration: boolean;
  version_label: string | null;
  commit_shas: string[];
  period_start: Date | null;
  period_end: Date | null;
}

/** Rows per write statement. */
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
 * A generated entry's record (a JSON object serialised in the generation thread, engine-wire.ts)
 * with this row's own fields added: the entry's JSON is not parsed again on this thread.
 */
function withFields(record: string, fields: Record<string, string | null>): string {
  return `${record.slice(0, -1)},${JSON.stringify(fields).slice(1)}`;
}

export const generationRepository = {
  async settingsOf(db: Executor, projectId: string): Promise<Record<string, unknown>> {
    const row = await db.selectFrom('projects').select('generation_settings').where('id', '=', projectId).executeTakeFirst();
    return row?.generation_settings ?? {};
  },

  async saveSettings(db: Executor, projectId: string, input: Record<string, unknown>): Promise<void> {
    await db
      .updateTable('projects')
      .set({ generation_settings: JSON.stringify(input), updated_at: sql<Date>`now()` })
      .where('id', '=', projectId)
      .execute();
  },

  /** The CODEOWNERS of the project's repositories (the first linked one that has the file), if any. */
  async codeownersOf(db: Executor, projectId: string): Promise<string | null> {
    const row = await db
      .selectFrom('repo_links')
      .select('codeowners')
      .where('project_id', '=', projectId)
      .where('codeowners', 'is not', null)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
    return row?.codeowners ?? null;
  },

  /** The branches the project's linked repositories track (arrival reads merges of them). */
  async trackedBranches(db: Executor, projectId: string): Promise<string[]> {
    const rows = await db.selectFrom('repo_links').select('tracked_branch').distinct().where('project_id', '=', projectId).execute();
    return rows.map((r) => r.tracked_branch).sort();
  },

  /** Serialises generation runs of one project (the job and the CLI may run at once). */
  async lockProject(db: Executor, projectId: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`generate:${projectId}`}))`.execute(db);
  },

  /**
   * The commits on the tracked branches, oldest first, as the engine takes them, with their row id
   * and when they were stored. Only the columns generation needs, instants as epoch milliseconds
   * (a number parses much faster than a timestamp): this read is a good part of a full run.
   */
  async reachableCommits(db: Executor, projectId: string): Promise<StoredCommit[]> {
    const rows = await db
      .selectFrom('commits')
      .select([
        'id', 'sha', 'parent_shas', 'author_name', 'author_email', 'author_tz_offset', 'committer_name', 'committer_email',
        'committer_tz_offset', 'message', 'tags',
        sql<string>`changes::text`.as('changes'),
        sql<number>`(extract(epoch from authored_at) * 1000)::float8`.as('authored_ms'),
        sql<number>`(extract(epoch from committed_at) * 1000)::float8`.as('committed_ms'),
        sql<number>`(extract(epoch from created_at) * 1000)::float8`.as('stored_ms'),
      ])
      .where('project_id', '=', projectId)
      .where('reachable', '=', true)
      .orderBy('committed_at')
      .orderBy('sha')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      storedAt: r.stored_ms,
      record: {
        sha: r.sha,
        parents: r.parent_shas,
        author: { name: r.author_name, email: r.author_email, date: isoWithOffset(new Date(r.authored_ms), r.author_tz_offset) },
        committer: { name: r.committer_name, email: r.committer_email, date: isoWithOffset(new Date(r.committed_ms), r.committer_tz_offset) },
        message: r.message,
        changes: r.changes,
        tags: r.tags,
      },
    }));
  },

  async generatedEntries(db: Executor, projectId: string): Promise<StoredGenerated[]> {
    const rows = await db
      .selectFrom('changelog_entries')
      .select([
        'id', 'generation_key', 'entry_type', 'status', 'fingerprint', 'edited_at', 'pending_regeneration', 'version_label',
        'commit_shas', 'period_start', 'period_end',
      ])
      .where('project_id', '=', projectId)
      .where('generation_key', 'is not', null)
      .execute();
    return rows as StoredGenerated[];
  },

  /**
   * Inserts generated entries: one statement per batch, the rows sent as a single JSON array that
   * PostgreSQL unpacks (`jsonb_to_recordset`), so a batch is one parameter however many rows.
   */
  async insertGenerated(
    db: Executor,
    projectId: string,
    rows: ReadonlyArray<{ record: string; commitId: string | null; status: EntryStatus }>,
    onBatch?: (written: number) => void,
  ): Promise<void> {
    await pipelined(rows, ({ record, commitId, status }) => withFields(record, { commit_id: commitId, status }), async (json, n) => {
      await sql`
        INSERT INTO changelog_entries (
          project_id, generation_key, status, published_at, ${sql.raw(RECORD_COLUMNS.join(', '))}
        )
        SELECT ${projectId}::uuid, r.generation_key, r.status, CASE WHEN r.status = 'published' THEN now() END,
               ${sql.raw(RECORD_COLUMNS.map((c) => `r.${c}`).join(', '))}
        FROM jsonb_to_recordset(${json}::jsonb) AS r(${sql.raw(RECORD_TYPES)}, status text)`.execute(db);
      onBatch?.(n);
    });
  },

  /**
   * Rewrites entries in place with what generation produced (same id, new updated_at), a batch per
   * statement; `restore` brings an entry archived by generation back under its type's policy.
   */
  async updateGenerated(
    db: Executor,
    rows: ReadonlyArray<{ id: string; record: string; commitId: string | null; restore?: EntryStatus }>,
    onBatch?: (written: number) => void,
  ): Promise<void> {
    await pipelined(
      rows,
      ({ id, record, commitId, restore }) => withFields(record, { commit_id: commitId, id, restore: restore ?? null }),
      async (json, n) => {
        await sql`
          UPDATE changelog_entries e SET
            ${sql.raw(RECORD_COLUMNS.map((c) => `${c} = r.${c}`).join(', '))},
            edited_at = NULL,
            pending_regeneration = false,
            updated_at = now(),
            status = COALESCE(r.restore, e.status),
            published_at = CASE WHEN r.restore IS NULL THEN e.published_at WHEN r.restore = 'published' THEN now() END
          FROM jsonb_to_recordset(${json}::jsonb) AS r(${sql.raw(RECORD_TYPES)}, id uuid, restore text)
          WHERE e.id = r.id`.execute(db);
        onBatch?.(n);
      },
    );
  },

  /** Edited entries whose commits changed: their text stays, the dashboard offers a regenerate. */
  async markPending(db: Executor, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await db.updateTable('changelog_entries').set({ pending_regeneration: true, updated_at: sql<Date>`now()` }).where('id', 'in', ids).execute();
  },

  /**
   * Archives entries generation no longer produces. The fingerprint is dropped so that, should the
   * entry come back (a force-push undone, a section shown again), it is told apart from an entry a
   * person archived and restored.
   */
  async archive(db: Executor, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await db
      .updateTable('changelog_entries')
      .set({ status: 'archived', published_at: null, fingerprint: null, updated_at: sql<Date>`now()` })
      .where('id', 'in', ids)
      .execute();
  },

  /** Forgets a person's edit so that the next run writes generated text again. */
  async clearEdit(db: Executor, id: string): Promise<void> {
    await db.updateTable('changelog_entries').set({ edited_at: null, pending_regeneration: false, fingerprint: null }).where('id', '=', id).execute();
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

  /** The review queue: drafts, and edited entries whose commits changed since. */
  async reviewQueue(db: Executor, projectId: string, limit: number) {
    return db
      .selectFrom('changelog_entries')
      .select(['id', 'entry_type', 'status', 'title', 'period_start', 'created_at', 'updated_at', 'pending_regeneration', 'edited_at'])
      .where('project_id', '=', projectId)
      .where((eb) => eb.or([eb('status', '=', 'draft'), eb('pending_regeneration', '=', true)]))
      // Entries waiting for a decision on newer commits first.
      .orderBy('pending_regeneration', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  async findEntry(db: Executor, id: string) {
    return db
      .selectFrom('changelog_entries')
      .select(['id', 'project_id', 'entry_type', 'generation_key', 'commit_shas'])
      .where('id', '=', id)
      .executeTakeFirst();
  },
};
