import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '../db/database.js';
import type { DB, EntryRow, EntryStatus, EntryType, NewEntry, ReleaseNoteRow } from '../db/schema.js';
import { ENTRY_COLUMNS } from './entry.schemas.js';
import type { StoredGeneratedEntry, StoredGeneratedRelease } from './generated.js';
import type { ReleaseCursor, ReleaseFilter } from './release-filter.js';
import type { ReviewCursor, ReviewFilter } from './review-filter.js';

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

/** The generated columns of a release note and their types in a record (see engine-wire.ts releaseToStore). */
const RELEASE_TYPES = [
  'key text', 'tag text', 'package text', 'version text', 'prerelease boolean', 'previous_tag text', 'released_at timestamptz',
  'title text', 'content text', 'generated_json jsonb', 'team_attribution text', 'component_tags text[]', 'commit_shas text[]',
  'fingerprint text', 'introduction text',
].join(', ');
// `introduction` is an editor's (release-edits.ts): a generated record has none, an edited one carries it.
const RELEASE_COLUMNS = [
  'tag', 'package', 'version', 'prerelease', 'previous_tag', 'released_at', 'title', 'content', 'generated_json', 'team_attribution',
  'component_tags', 'commit_shas', 'fingerprint', 'introduction',
];

/** The generated columns of a release note row as a record (what a revision or release_note_edits.generated holds). */
export function releaseRecordOf(n: ReleaseNoteRow): Record<string, unknown> {
  return {
    key: n.key, tag: n.tag, package: n.package, version: n.version, prerelease: n.prerelease, previous_tag: n.previous_tag,
    released_at: n.released_at ? n.released_at.toISOString() : null, title: n.title, content: n.content, generated_json: n.generated_json,
    team_attribution: n.team_attribution, component_tags: n.component_tags, commit_shas: n.commit_shas, fingerprint: n.fingerprint,
  };
}

/** Whether release_note_edits `e`'s edits change what readers see: release-edits.ts changesAnything, in SQL. */
const EDITS_CHANGE_ANYTHING = sql.raw(
  "(e.edits ->> 'introduction') IS NOT NULL OR e.edits -> 'items' <> '{}'::jsonb OR jsonb_typeof(e.edits -> 'headlines') = 'array'" +
    " OR EXISTS (SELECT FROM jsonb_each(e.edits -> 'order') o WHERE jsonb_array_length(o.value) > 0)",
);

/** An editor's edits of a release note as stored (release_note_edits). */
export interface ReleaseEditsRow {
  release_id: string;
  edits: unknown;
  generated: Record<string, unknown>;
  edited_at: Date;
}

/** A generated entry a bulk regenerate rewrites. */
export interface RegenerableEntry {
  id: string;
  entry_type: EntryType;
  commit_shas: string[];
}

/** A pending revision's text beside the public revision's (the row's). */
export interface RevisionText {
  id: string;
  proposed_at: Date;
  /** Which content waits: the page that shows it sends it back with a publish (entryVersion). */
  fingerprint: string;
  public_title: string | null;
  public_content: string | null;
  title: string | null;
  content: string | null;
}

/** A row of the review queue: what the list shows and what decides which bulk actions apply. */
export interface ReviewRow {
  id: string;
  entry_type: EntryType;
  status: EntryStatus;
  title: string | null;
  version_label: string | null;
  occurred_at: Date;
  /** occurred_at in microseconds since the epoch, as text: the page cursor's exact date. */
  occurred_us: string;
  published_at: Date | null;
  updated_at: Date;
  edited_at: Date | null;
  pending_regeneration: boolean;
  generated: boolean;
  /** Published, with new content waiting for review as a pending revision. */
  revision: boolean;
  /** That revision's fingerprint (what the page shows: entryVersion), else null. */
  revision_fingerprint: string | null;
}

/** The entry (of a query on changelog_entries) has a pending revision waiting for review. */
const hasWaitingRevision = sql<boolean>`EXISTS (SELECT 1 FROM changelog_entry_revisions r WHERE r.entry_id = changelog_entries.id AND r.discarded_at IS NULL)`;

type EntriesQuery<O> = SelectQueryBuilder<DB, 'changelog_entries', O>;

/**
 * The filter as conditions on a project's entries. Status and type are left to the caller when
 * `facets` is set: the counts group by them instead. Every condition but the section's is served by
 * the (project_id[, status], occurred_at, id) indexes of migration 0023.
 */
function filtered<O>(query: EntriesQuery<O>, projectId: string, f: ReviewFilter, facets = false): EntriesQuery<O> {
  let q = query.where('project_id', '=', projectId);
  // What waits for review: drafts, and published entries whose new content waits as a pending revision.
  if (!facets && f.status === 'draft') q = q.where(sql<boolean>`(status = 'draft' OR (status = 'published' AND ${hasWaitingRevision}))`);
  else if (!facets && f.status) q = q.where('status', '=', f.status);
  if (!facets && f.type) q = q.where('entry_type', '=', f.type);
  if (f.since) q = q.where('occurred_at', '>=', f.since);
  if (f.until) q = q.where('occurred_at', '<', f.until);
  if (f.pending) q = q.where('pending_regeneration', '=', true);
  if (f.section) {
    const probe = JSON.stringify([{ section_type_key: f.section }]);
    q = q.where(sql<boolean>`generated_json -> 'sections' @> ${probe}::jsonb`);
  }
  return q;
}

/** `(occurred_at, id)` strictly older than the cursor, newest-first keyset order. */
const olderThan = (c: ReviewCursor) =>
  sql<boolean>`(occurred_at, id) < (timestamptz 'epoch' + ${c.atMicros.toString()}::bigint * interval '1 microsecond', ${c.id}::uuid)`;

/** How a status change stamps `published_at` (shared by single and bulk changes). */
const publishedAtFor = (status: EntryStatus) =>
  // Publishing stamps the time once; leaving `published` clears it, so a re-publish is new again.
  status === 'published' ? sql<Date>`coalesce(published_at, now())` : sql<null>`NULL`;

/**
 * How a person's status change stamps `unpublished_at` (migrations/0033): sending a published row
 * back to draft marks it as the editor's, so a policy that becomes `auto` leaves it alone; a publish
 * clears the mark.
 */
const unpublishedAtFor = (status: EntryStatus) =>
  status === 'published'
    ? sql<null>`NULL`
    : status === 'draft'
      ? sql<Date | null>`CASE WHEN status = 'published' THEN now() ELSE unpublished_at END`
      : sql<Date | null>`unpublished_at`;

/** A release note as the dashboard and the command line list it. */
export interface ReleaseListRow
  extends Pick<
    ReleaseNoteRow,
    'id' | 'key' | 'tag' | 'package' | 'version' | 'prerelease' | 'previous_tag' | 'released_at' | 'title' | 'status' | 'published_at' | 'updated_at' | 'history_at'
  > {
  /** Items of its sections, and the commits it lists. */
  items: number;
  commits: number;
  /** New content waits for review (release_note_revisions). */
  revision: boolean;
  /** When the note's revision row (waiting or not) was last proposed: part of its releaseVersion. */
  revision_at: Date | null;
  /** An editor changed what it shows (release_note_edits that change anything: release-edits.ts changesAnything). */
  edited: boolean;
  /** sort_at in microseconds since the epoch as text, or 'inf' (the Unreleased note): the page cursor. */
  sort_us: string;
}

type ReleasesQuery<O> = SelectQueryBuilder<DB, 'release_notes', O>;

/** A release filter as conditions on a project's notes (`facets`: leave status to a GROUP BY). */
function releasesFiltered<O>(query: ReleasesQuery<O>, projectId: string, f: ReleaseFilter & { sinceAt?: Date | null }, facets = false): ReleasesQuery<O> {
  let q = query.where('project_id', '=', projectId);
  if (!facets && f.status) q = q.where('status', '=', f.status);
  if (f.package === null) q = q.where('package', 'is', null);
  else if (f.package !== undefined) q = q.where('package', '=', f.package);
  if (f.prerelease !== undefined) q = q.where('prerelease', '=', f.prerelease);
  if (f.since) q = q.where('sort_at', '>=', f.since);
  // After a tag: strictly newer than its release (the Unreleased note, never released, is newest).
  if (f.sinceAt) q = q.where('sort_at', '>', f.sinceAt);
  if (f.tagged) q = q.where('tag', 'is not', null);
  if (f.awaiting) {
    q = q.where(
      sql<boolean>`(status = 'draft' OR (status = 'published' AND EXISTS (SELECT FROM release_note_revisions v WHERE v.release_id = release_notes.id AND v.discarded_at IS NULL)))`,
    );
  }
  return q;
}

const releaseOlderThan = (c: ReleaseCursor) =>
  c.atMicros === null
    ? sql<boolean>`(sort_at, id) < ('infinity'::timestamptz, ${c.id}::uuid)`
    : sql<boolean>`(sort_at, id) < (timestamptz 'epoch' + ${c.atMicros.toString()}::bigint * interval '1 microsecond', ${c.id}::uuid)`;

/** Moves the project's entries or notes among `ids` whose status is one of `from` to `status`, in one statement; the ids changed. */
async function setStatusIn(
  db: Executor,
  table: 'changelog_entries' | 'release_notes',
  projectId: string,
  ids: readonly string[],
  status: EntryStatus,
  from: readonly EntryStatus[],
): Promise<string[]> {
  if (!ids.length || !from.length) return [];
  // Both tables have these columns; the builder is typed on one of them.
  const rows = await db
    .updateTable(table as 'changelog_entries')
    .set({ status, published_at: publishedAtFor(status), unpublished_at: unpublishedAtFor(status), updated_at: sql<Date>`now()` })
    .where('project_id', '=', projectId)
    .where('status', 'in', [...from])
    .where('id', 'in', [...ids])
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The two kinds of pending revision: an entry's and a release note's, alike but for their tables. */
const REVISIONS = {
  entry: { table: 'changelog_entry_revisions', key: 'entry_id' },
  release: { table: 'release_note_revisions', key: 'release_id' },
} as const;
type RevisionTable = (typeof REVISIONS)[keyof typeof REVISIONS];

/** Generated content as pending revisions: a waiting or discarded revision is replaced, and waits again. */
async function revise(db: Executor, { table, key }: RevisionTable, projectId: string, rows: ReadonlyArray<{ id: string; record: string; fingerprint: string }>): Promise<void> {
  await pipelined(rows, ({ id, record, fingerprint }) => JSON.stringify({ id, fingerprint, record }), async (json) => {
    await sql`
      INSERT INTO ${sql.table(table)} (${sql.ref(key)}, project_id, record, fingerprint)
      SELECT r.id, ${projectId}::uuid, r.record::jsonb, r.fingerprint FROM jsonb_to_recordset(${json}::jsonb) AS r(id uuid, fingerprint text, record text)
      ON CONFLICT (${sql.ref(key)}) DO UPDATE SET record = excluded.record, fingerprint = excluded.fingerprint, proposed_at = now(), discarded_at = NULL`.execute(db);
  });
}

async function dropRevisions(db: Executor, { table, key }: RevisionTable, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(key)} = ANY(${[...ids]}::uuid[])`.execute(db);
}

/** Marks the waiting revision of the project's entry or note discarded; false when none waits. */
async function discardRevision(db: Executor, { table, key }: RevisionTable, projectId: string, id: string): Promise<boolean> {
  const rows = await sql`
    UPDATE ${sql.table(table)} SET discarded_at = now()
    WHERE ${sql.ref(key)} = ${id}::uuid AND project_id = ${projectId}::uuid AND discarded_at IS NULL
    RETURNING 1`.execute(db);
  return rows.rows.length > 0;
}

export const entriesRepository = {
  /**
   * The project's content lock, held to the end of `db`'s transaction: generation runs hold it while
   * they read and rewrite the project's entries and notes, and an editor's change of a release note
   * takes it too, so neither builds on what the other is rewriting. `waitMs`: give up (lock_not_available) after that long.
   */
  async lockContent(db: Executor, projectId: string, waitMs?: number): Promise<void> {
    if (waitMs !== undefined) await sql`SELECT set_config('lock_timeout', ${`${Math.max(1, Math.round(waitMs))}ms`}, true)`.execute(db);
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`generate:${projectId}`}))`.execute(db);
    if (waitMs !== undefined) await sql`SELECT set_config('lock_timeout', '0', true)`.execute(db);
  },

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
        published_at: publishedAtFor(status),
        unpublished_at: unpublishedAtFor(status),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', id)
      .returning(ENTRY_COLUMNS)
      .executeTakeFirst();
  },

  /**
   * A project's entries in every status, newest first by their own date (a sync stores years of
   * history at one instant, so the time of storing orders nothing); served by changelog_entries_review_idx.
   */
  async listForProject(db: Executor, projectId: string, limit: number, offset = 0): Promise<(EntryRow & { occurred_at: Date })[]> {
    return db
      .selectFrom('changelog_entries')
      .select([...ENTRY_COLUMNS, 'occurred_at'])
      .where('project_id', '=', projectId)
      .orderBy('occurred_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  },

  async updateText(db: Executor, id: string, text: { title: string | null; content: string | null }): Promise<EntryRow | undefined> {
    return db
      .updateTable('changelog_entries')
      // A person's text: generation keeps it from now on (see generated.ts decideEntry).
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
    rows: ReadonlyArray<{ record: string; commitId: string | null; status: EntryStatus; publishedAt?: Date | null; historyAt?: Date | null }>,
    onBatch?: (written: number) => void,
  ): Promise<void> {
    const toRecord = ({ record, commitId, status, publishedAt, historyAt }: (typeof rows)[number]) =>
      withFields(record, { commit_id: commitId, status, published_at: publishedAt ? publishedAt.toISOString() : null, history_at: historyAt ? historyAt.toISOString() : null });
    await pipelined(rows, toRecord, async (json, n) => {
      // A backdated published_at (history) moves no Last-Modified backwards: the project's
      // published_changed_at only ever moves forward (migrations/0017), whatever the entries' dates.
      // occurred_at by migration 0023's rule, here rather than by its per-row trigger (migrations/0025).
      await sql`
        INSERT INTO changelog_entries (
          project_id, generation_key, status, published_at, history_at, occurred_at, ${sql.raw(RECORD_COLUMNS.join(', '))}
        )
        SELECT ${projectId}::uuid, r.generation_key, r.status, CASE WHEN r.status = 'published' THEN COALESCE(r.published_at, now()) END, r.history_at,
               COALESCE(r.period_start, (SELECT c.committed_at FROM commits c WHERE c.id = r.commit_id), now()),
               ${sql.raw(RECORD_COLUMNS.map((c) => `r.${c}`).join(', '))}
        FROM jsonb_to_recordset(${json}::jsonb) AS r(${sql.raw(RECORD_TYPES)}, status text, published_at timestamptz, history_at timestamptz)`.execute(db);
      onBatch?.(n);
    });
  },

  /**
   * Rewrites entries in place with what generation produced (same id, new updated_at), a batch per
   * statement; `restore` brings an entry archived by generation back under its type's policy.
   * `seen`: the status the rules decided on. An entry published since (an editor's publish racing the
   * run) is left as published: a later run proposes its new content as a revision.
   */
  async updateGenerated(
    db: Executor,
    rows: ReadonlyArray<{ id: string; record: string; commitId: string | null; seen: EntryStatus; restore?: EntryStatus; publishedAt?: Date | null }>,
    onBatch?: (written: number) => void,
  ): Promise<void> {
    await pipelined(
      rows,
      ({ id, record, commitId, seen, restore, publishedAt }) =>
        withFields(record, { commit_id: commitId, id, seen, restore: restore ?? null, restore_at: publishedAt ? publishedAt.toISOString() : null }),
      async (json, n) => {
        // Rewritten in place (a draft, or published under `auto`): no revision waits any more.
        await sql`
          WITH updated AS (
          UPDATE changelog_entries e SET
            ${sql.raw(RECORD_COLUMNS.map((c) => `${c} = r.${c}`).join(', '))},
            edited_at = NULL,
            pending_regeneration = false,
            updated_at = now(),
            status = COALESCE(r.restore, e.status),
            published_at = CASE WHEN r.restore IS NULL THEN e.published_at WHEN r.restore = 'published' THEN COALESCE(r.restore_at, now()) END
          FROM jsonb_to_recordset(${json}::jsonb) AS r(${sql.raw(RECORD_TYPES)}, id uuid, seen text, restore text, restore_at timestamptz)
          WHERE e.id = r.id AND (e.status <> 'published' OR r.seen = 'published')
          RETURNING e.id)
          DELETE FROM changelog_entry_revisions WHERE entry_id IN (SELECT id FROM updated)`.execute(db);
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
    await db.deleteFrom('changelog_entry_revisions').where('entry_id', 'in', ids).execute();
  },

  /**
   * A project's generated entries, as a generation run reconciles them with what it produces: where a
   * revision is kept (pending or discarded), its fingerprint and labels are what generation last
   * proposed, so that a second run proposes nothing; `live_fingerprint` is the row's own.
   */
  async storedGenerated(db: Executor, projectId: string): Promise<StoredGeneratedEntry[]> {
    const rows = await db
      .selectFrom('changelog_entries as e')
      .leftJoin('changelog_entry_revisions as r', 'r.entry_id', 'e.id')
      .select([
        'e.id', 'e.generation_key as key', 'e.entry_type', 'e.status', 'e.fingerprint as live_fingerprint', 'e.edited_at', 'e.pending_regeneration',
        'e.version_label', 'e.commit_shas', 'e.component_tags', 'e.period_start', 'e.period_end',
        'r.record as revision_record', 'r.fingerprint as revision_fingerprint', 'r.discarded_at',
      ])
      .where('e.project_id', '=', projectId)
      .where('e.generation_key', 'is not', null)
      .execute();
    return rows.map(({ revision_record: record, revision_fingerprint, discarded_at, ...row }) => {
      if (!record || !revision_fingerprint) return { ...row, fingerprint: row.live_fingerprint, revision: null } as StoredGeneratedEntry;
      const date = (v: unknown) => (typeof v === 'string' ? new Date(v) : null);
      return {
        ...row,
        fingerprint: revision_fingerprint,
        revision: discarded_at ? 'discarded' : 'pending',
        version_label: (record.version_label as string | null) ?? null,
        commit_shas: (record.commit_shas as string[] | null) ?? [],
        component_tags: (record.component_tags as string[] | null) ?? [],
        period_start: date(record.period_start),
        period_end: date(record.period_end),
      } as StoredGeneratedEntry;
    });
  },

  /** A project's release notes, as a generation run reconciles them by key (revisions as for entries). */
  async storedReleases(db: Executor, projectId: string): Promise<StoredGeneratedRelease[]> {
    const rows = await db
      .selectFrom('release_notes as n')
      .leftJoin('release_note_revisions as r', 'r.release_id', 'n.id')
      .leftJoin('release_note_edits as e', 'e.release_id', 'n.id')
      .select(['n.id', 'n.key', 'n.status', 'n.fingerprint as live_fingerprint', 'r.fingerprint as revision_fingerprint', 'r.discarded_at'])
      .select(sql<boolean>`e.release_id IS NOT NULL`.as('edited'))
      .where('n.project_id', '=', projectId)
      .execute();
    return rows.map(({ revision_fingerprint, discarded_at, ...row }) => ({
      ...row,
      fingerprint: revision_fingerprint ?? row.live_fingerprint,
      revision: revision_fingerprint ? (discarded_at ? 'discarded' : 'pending') : null,
    }));
  },

  /**
   * Edited entries whose generated content changed: their text stays, the dashboard offers a
   * regenerate. updated_at stays too: readers see it, and a flag for the editor changes nothing of theirs.
   */
  async markPending(db: Executor, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await db.updateTable('changelog_entries').set({ pending_regeneration: true }).where('id', 'in', ids).execute();
  },

  /** Forgets people's edits of the project's entries among `ids`, so that the next run writes generated text again. */
  async dropEdits(db: Executor, projectId: string, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    await db
      .updateTable('changelog_entries')
      // Only an edited entry's fingerprint goes (its text is not what the fingerprint says): an
      // untouched one already holds the generated content, and a published one would otherwise get a
      // pending revision identical to what readers see.
      .set({ edited_at: null, pending_regeneration: false, fingerprint: sql<string | null>`CASE WHEN edited_at IS NULL THEN fingerprint END` })
      .where('project_id', '=', projectId)
      .where('id', 'in', [...ids])
      .execute();
  },

  /** Of `ids`, the project's generated entries that are not archived. */
  async regenerable(db: Executor, projectId: string, ids: readonly string[]): Promise<RegenerableEntry[]> {
    if (!ids.length) return [];
    return db
      .selectFrom('changelog_entries')
      .select(['id', 'entry_type', 'commit_shas'])
      .where('project_id', '=', projectId)
      .where('id', 'in', [...ids])
      .where('generation_key', 'is not', null)
      .where('status', '<>', 'archived')
      .execute();
  },

  /** An entry with what a regenerate needs: its project, type, key (null: not generated) and commits. */
  async findGenerated(db: Executor, id: string) {
    return db
      .selectFrom('changelog_entries')
      .select(['id', 'project_id', 'entry_type', 'generation_key', 'commit_shas'])
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /**
   * Inserts generated release notes, each `draft` or `published` as placed (generated.ts): new work
   * published is stamped now, history with the date its tag reached the branch.
   */
  async insertGeneratedReleases(
    db: Executor,
    projectId: string,
    rows: ReadonlyArray<{ record: string; status: EntryStatus; publishedAt?: Date | null; historyAt?: Date | null }>,
  ): Promise<void> {
    const toRecord = ({ record, status, publishedAt, historyAt }: (typeof rows)[number]) =>
      withFields(record, { status, published_at: publishedAt ? publishedAt.toISOString() : null, history_at: historyAt ? historyAt.toISOString() : null });
    await pipelined(rows, toRecord, async (json) => {
      await sql`
        INSERT INTO release_notes (project_id, key, status, published_at, history_at, ${sql.raw(RELEASE_COLUMNS.join(', '))})
        SELECT ${projectId}::uuid, r.key, r.status, CASE WHEN r.status = 'published' THEN COALESCE(r.published_at, now()) END, r.history_at,
               ${sql.raw(RELEASE_COLUMNS.map((c) => `r.${c}`).join(', '))}
        FROM jsonb_to_recordset(${json}::jsonb) AS r(${sql.raw(RELEASE_TYPES)}, status text, published_at timestamptz, history_at timestamptz)`.execute(db);
    });
  },

  /**
   * Rewrites release notes in place (status kept); `restore` brings one archived by generation back
   * with that status; one published since the rules decided (`seen`) is left alone (as updateGenerated).
   */
  async updateGeneratedReleases(db: Executor, rows: ReadonlyArray<{ id: string; record: string; seen: EntryStatus; restore?: EntryStatus }>): Promise<void> {
    await pipelined(rows, ({ id, record, seen, restore }) => withFields(record, { id, seen, restore: restore ?? null }), async (json) => {
      await sql`
        WITH updated AS (
        UPDATE release_notes n SET
          ${sql.raw(RELEASE_COLUMNS.map((c) => `${c} = r.${c}`).join(', '))},
          updated_at = now(),
          status = COALESCE(r.restore, n.status),
          published_at = CASE WHEN r.restore IS NULL THEN n.published_at WHEN r.restore = 'published' THEN now() END
        FROM jsonb_to_recordset(${json}::jsonb) AS r(${sql.raw(RELEASE_TYPES)}, id uuid, seen text, restore text)
        WHERE n.id = r.id AND (n.status <> 'published' OR r.seen = 'published')
        RETURNING n.id)
        DELETE FROM release_note_revisions WHERE release_id IN (SELECT id FROM updated)`.execute(db);
    });
  },

  /** Archives release notes generation no longer produces; the fingerprint is dropped as for entries (archiveGenerated). */
  async archiveGeneratedReleases(db: Executor, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await db
      .updateTable('release_notes')
      .set({ status: 'archived', published_at: null, fingerprint: null, updated_at: sql<Date>`now()` })
      .where('id', 'in', ids)
      .execute();
    await db.deleteFrom('release_note_revisions').where('release_id', 'in', ids).execute();
  },

  /** A project's release notes in every status, newest release first (Unreleased on top). */
  async listReleases(db: Executor, projectId: string, limit: number): Promise<ReleaseNoteRow[]> {
    return db
      .selectFrom('release_notes')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('sort_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  /** Sets a project's release note's status by key; published_at as setStatus does for entries. */
  async setReleaseStatus(db: Executor, projectId: string, key: string, status: EntryStatus): Promise<ReleaseNoteRow | undefined> {
    return db
      .updateTable('release_notes')
      .set({ status, published_at: publishedAtFor(status), unpublished_at: unpublishedAtFor(status), updated_at: sql<Date>`now()` })
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .returningAll()
      .executeTakeFirst();
  },

  /**
   * Stores generated content as the pending revisions of published entries (their rows, what readers
   * see, are not written): a waiting or discarded revision is replaced, and waits again.
   */
  reviseEntries: (db: Executor, projectId: string, rows: ReadonlyArray<{ id: string; record: string; fingerprint: string }>) => revise(db, REVISIONS.entry, projectId, rows),

  /** Drops the entry's waiting revision (a person's edit replaces it); true when one waited. */
  async dropWaitingRevision(db: Executor, id: string): Promise<boolean> {
    const rows = await db.deleteFrom('changelog_entry_revisions').where('entry_id', '=', id).where('discarded_at', 'is', null).returning('entry_id').execute();
    return rows.length > 0;
  },

  async findReleaseById(db: Executor, id: string): Promise<ReleaseNoteRow | undefined> {
    return db.selectFrom('release_notes').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async findRelease(db: Executor, projectId: string, key: string): Promise<ReleaseNoteRow | undefined> {
    return db.selectFrom('release_notes').selectAll().where('project_id', '=', projectId).where('key', '=', key).executeTakeFirst();
  },

  dropEntryRevisions: (db: Executor, ids: readonly string[]) => dropRevisions(db, REVISIONS.entry, ids),

  /**
   * Writes the waiting revisions of the project's entries among `ids` into their rows and drops
   * them; returns the ids written. The one way a revision reaches an entry's row: callers move a
   * status first (publishing: the revision is published by this write, which fires the publish
   * path's triggers; leaving `published`: the row is no longer public when it is written).
   */
  async applyEntryRevisions(db: Executor, projectId: string, ids: readonly string[], onlySeen?: ReadonlyMap<string, string | null>): Promise<string[]> {
    if (!ids.length) return [];
    // Ids in `onlySeen` take only the revision a page showed (its fingerprint; null: none).
    const seenJson = onlySeen ? JSON.stringify(Object.fromEntries(onlySeen)) : null;
    const applied = await sql<{ id: string }>`
      UPDATE changelog_entries e SET
        ${sql.raw(RECORD_COLUMNS.map((c) => `${c} = x.${c}`).join(', '))},
        edited_at = NULL,
        pending_regeneration = false,
        updated_at = now()
      FROM changelog_entry_revisions r CROSS JOIN LATERAL jsonb_to_record(r.record) AS x(${sql.raw(RECORD_TYPES)})
      WHERE r.entry_id = e.id AND r.discarded_at IS NULL AND e.project_id = ${projectId}::uuid
        AND r.project_id = ${projectId}::uuid AND e.id = ANY(${[...ids]}::uuid[])
        AND (${seenJson}::jsonb -> e.id::text IS NULL OR r.fingerprint = ${seenJson}::jsonb ->> e.id::text)
      RETURNING e.id`.execute(db);
    const done = applied.rows.map((r) => r.id);
    if (done.length) await db.deleteFrom('changelog_entry_revisions').where('entry_id', 'in', done).execute();
    return done;
  },

  /**
   * Locks entries and their waiting revisions for a publish, and says when each entry last changed
   * and which revision waits (its fingerprint): a generation run that would rewrite either waits
   * for the publish to commit.
   */
  async lockForPublish(db: Executor, ids: readonly string[]): Promise<Map<string, { updatedAt: Date; revision: string | null }>> {
    const out = new Map<string, { updatedAt: Date; revision: string | null }>();
    if (!ids.length) return out;
    const rows = await db.selectFrom('changelog_entries').select(['id', 'updated_at']).where('id', 'in', [...ids]).orderBy('id').forUpdate().execute();
    const revisions = await db
      .selectFrom('changelog_entry_revisions')
      .select(['entry_id', 'fingerprint'])
      .where('entry_id', 'in', [...ids])
      .where('discarded_at', 'is', null)
      .orderBy('entry_id')
      .forUpdate()
      .execute();
    const fingerprints = new Map(revisions.map((r) => [r.entry_id, r.fingerprint]));
    for (const r of rows) out.set(r.id, { updatedAt: r.updated_at, revision: fingerprints.get(r.id) ?? null });
    return out;
  },

  /** The project's published entries of these types with a revision waiting. */
  async waitingRevisionIds(db: Executor, projectId: string, types: readonly EntryType[]): Promise<string[]> {
    const rows = await db
      .selectFrom('changelog_entry_revisions as r')
      .innerJoin('changelog_entries as e', 'e.id', 'r.entry_id')
      .select('e.id')
      .where('r.project_id', '=', projectId)
      .where('r.discarded_at', 'is', null)
      .where('e.entry_type', 'in', [...types])
      .execute();
    return rows.map((r) => r.id);
  },

  /**
   * The project's release notes with a revision waiting that a policy may publish: not those an editor
   * edited (their revision may hold edits the editor has not published: it waits for them).
   */
  async waitingReleaseRevisionIds(db: Executor, projectId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('release_note_revisions as r')
      .select('r.release_id')
      .where('r.project_id', '=', projectId)
      .where('r.discarded_at', 'is', null)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('release_note_edits as e').select('e.release_id').whereRef('e.release_id', '=', 'r.release_id'))))
      .execute();
    return rows.map((r) => r.release_id);
  },

  /** The edits of the project's release notes among `ids` (locked with them in `db`'s transaction when `lock`). */
  async releaseEdits(db: Executor, projectId: string, ids: readonly string[], lock = false): Promise<ReleaseEditsRow[]> {
    if (!ids.length) return [];
    let q = db
      .selectFrom('release_note_edits')
      .select(['release_id', 'edits', 'generated', 'edited_at'])
      .where('project_id', '=', projectId)
      .where('release_id', 'in', [...ids]);
    if (lock) q = q.forUpdate();
    return (await q.execute()) as ReleaseEditsRow[];
  },

  /**
   * The edits of the project's `limit` most recently edited release notes, with the generated sections each
   * applies to; notes whose stored edits or generated record take more than `maxBytes` (compressed, as
   * stored) are left out, so that what is parsed stays small whatever a project's notes hold.
   */
  async recentReleaseEdits(db: Executor, projectId: string, limit: number, maxBytes: number): Promise<Array<{ edits: unknown; sections: unknown }>> {
    const result = await sql<{ edits: unknown; sections: unknown }>`
      SELECT edits, generated -> 'generated_json' -> 'sections' AS sections
      FROM release_note_edits
      WHERE project_id = ${projectId} AND pg_column_size(generated) <= ${maxBytes} AND pg_column_size(edits) <= ${maxBytes}
      ORDER BY edited_at DESC
      LIMIT ${limit}`.execute(db);
    return result.rows;
  },

  /** Stores a note's edits and the generated record they apply to. */
  async saveReleaseEdits(db: Executor, row: { releaseId: string; projectId: string; edits: unknown; generated: Record<string, unknown>; userId: string | null }): Promise<void> {
    await db
      .insertInto('release_note_edits')
      .values({ release_id: row.releaseId, project_id: row.projectId, edits: JSON.stringify(row.edits), generated: JSON.stringify(row.generated), edited_by: row.userId })
      .onConflict((oc) =>
        oc.column('release_id').doUpdateSet({ edits: JSON.stringify(row.edits), generated: JSON.stringify(row.generated), edited_at: sql<Date>`now()`, edited_by: row.userId }),
      )
      .execute();
  },

  /** A generation run's new content for edited notes: the generated record their edits now apply to. */
  async setEditsGenerated(db: Executor, rows: ReadonlyArray<{ id: string; record: string }>): Promise<void> {
    await pipelined(rows, ({ id, record }) => JSON.stringify({ id, record }), async (json) => {
      await sql`
        UPDATE release_note_edits e SET generated = r.record::jsonb
        FROM jsonb_to_recordset(${json}::jsonb) AS r(id uuid, record text) WHERE e.release_id = r.id`.execute(db);
    });
  },

  async deleteReleaseEdits(db: Executor, projectId: string, id: string): Promise<void> {
    await db.deleteFrom('release_note_edits').where('project_id', '=', projectId).where('release_id', '=', id).execute();
  },

  /** Writes an edited record into a note's row (a draft's: nothing public changes). */
  async writeReleaseRecord(db: Executor, id: string, record: Record<string, unknown>): Promise<void> {
    await sql`
      UPDATE release_notes n SET ${sql.raw(RELEASE_COLUMNS.map((c) => `${c} = x.${c}`).join(', '))}, updated_at = now()
      FROM jsonb_to_record(${JSON.stringify(record)}::jsonb) AS x(${sql.raw(RELEASE_TYPES)})
      WHERE n.id = ${id}::uuid`.execute(db);
  },

  /**
   * Drops the pending revisions among `ids` that hold what the row already shows readers (an editor
   * undid their change; generation came back to what is public; generation changed only an item the
   * editor hid): nothing waits then. The fingerprint and commit list are not compared: readers see
   * neither change, and the next publish of a real change brings them along.
   */
  async dropIdleReleaseRevisions(db: Executor, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    await sql`
      DELETE FROM release_note_revisions r USING release_notes n
      WHERE r.release_id = n.id AND n.id = ANY(${[...ids]}::uuid[])
        AND r.record ->> 'title' = n.title AND r.record ->> 'content' = n.content AND r.record -> 'generated_json' = n.generated_json
        AND (r.record ->> 'introduction') IS NOT DISTINCT FROM n.introduction
        AND (r.record ->> 'team_attribution') IS NOT DISTINCT FROM n.team_attribution
        AND r.record -> 'component_tags' = to_jsonb(n.component_tags)`.execute(db);
  },

  /** A note's pending revision (waiting or discarded), with whether it was discarded. */
  async releaseRevisionRecord(db: Executor, projectId: string, id: string): Promise<{ record: Record<string, unknown>; discarded: boolean; proposedAt: Date } | undefined> {
    const row = await db
      .selectFrom('release_note_revisions')
      .select(['record', 'discarded_at', 'proposed_at'])
      .where('project_id', '=', projectId)
      .where('release_id', '=', id)
      .executeTakeFirst();
    return row ? { record: row.record as Record<string, unknown>, discarded: row.discarded_at !== null, proposedAt: row.proposed_at } : undefined;
  },

  /** When a note's pending revision (waiting or discarded) was last written, if it has one. */
  async releaseRevisionProposedAt(db: Executor, id: string): Promise<Date | undefined> {
    const row = await db.selectFrom('release_note_revisions').select('proposed_at').where('release_id', '=', id).executeTakeFirst();
    return row?.proposed_at;
  },

  /** A project's release note by key, locked in `db`'s transaction. */
  async lockRelease(db: Executor, projectId: string, key: string): Promise<ReleaseNoteRow | undefined> {
    return db.selectFrom('release_notes').selectAll().where('project_id', '=', projectId).where('key', '=', key).forUpdate().executeTakeFirst();
  },

  /** Marks the waiting revision of the project's entry discarded; false when none waits. */
  discardEntryRevision: (db: Executor, projectId: string, id: string) => discardRevision(db, REVISIONS.entry, projectId, id),

  /** The waiting revisions of the project's entries among `ids`: the row's title and content beside the revision's. */
  async entryRevisions(db: Executor, projectId: string, ids: readonly string[]): Promise<RevisionText[]> {
    if (!ids.length) return [];
    return db
      .selectFrom('changelog_entry_revisions as r')
      .innerJoin('changelog_entries as e', 'e.id', 'r.entry_id')
      .select([
        'r.entry_id as id', 'r.proposed_at', 'r.fingerprint', 'e.title as public_title', 'e.content as public_content',
        sql<string | null>`r.record ->> 'title'`.as('title'), sql<string | null>`r.record ->> 'content'`.as('content'),
      ])
      .where('r.project_id', '=', projectId)
      .where('e.project_id', '=', projectId)
      .where('r.discarded_at', 'is', null)
      .where('r.entry_id', 'in', [...ids])
      .execute();
  },

  /** As reviseEntries, for published release notes. */
  reviseReleases: (db: Executor, projectId: string, rows: ReadonlyArray<{ id: string; record: string; fingerprint: string }>) => revise(db, REVISIONS.release, projectId, rows),

  dropReleaseRevisions: (db: Executor, ids: readonly string[]) => dropRevisions(db, REVISIONS.release, ids),

  /** As applyEntryRevisions, for the project's release notes among `ids`. */
  async applyReleaseRevisions(db: Executor, projectId: string, ids: readonly string[]): Promise<string[]> {
    if (!ids.length) return [];
    const applied = await sql<{ id: string }>`
      UPDATE release_notes n SET
        ${sql.raw(RELEASE_COLUMNS.map((c) => `${c} = x.${c}`).join(', '))},
        updated_at = now()
      FROM release_note_revisions r CROSS JOIN LATERAL jsonb_to_record(r.record) AS x(${sql.raw(RELEASE_TYPES)})
      WHERE r.release_id = n.id AND r.discarded_at IS NULL AND n.project_id = ${projectId}::uuid
        AND r.project_id = ${projectId}::uuid AND n.id = ANY(${[...ids]}::uuid[])
      RETURNING n.id`.execute(db);
    const done = applied.rows.map((r) => r.id);
    if (done.length) await db.deleteFrom('release_note_revisions').where('release_id', 'in', done).execute();
    return done;
  },

  /** Marks the waiting revision of the project's release note discarded; false when none waits. */
  discardReleaseRevision: (db: Executor, projectId: string, id: string) => discardRevision(db, REVISIONS.release, projectId, id),

  /** The project's release notes among `ids` that have a waiting revision. */
  async releasesWithRevision(db: Executor, projectId: string, ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await db
      .selectFrom('release_note_revisions')
      .select('release_id')
      .where('project_id', '=', projectId)
      .where('discarded_at', 'is', null)
      .where('release_id', 'in', [...ids])
      .execute();
    return new Set(rows.map((r) => r.release_id));
  },

  /** The waiting revision of one of the project's release notes: the note's title and content beside it. */
  async releaseRevision(db: Executor, projectId: string, id: string): Promise<RevisionText | undefined> {
    return db
      .selectFrom('release_note_revisions as r')
      .innerJoin('release_notes as n', 'n.id', 'r.release_id')
      .select([
        'r.release_id as id', 'r.proposed_at', 'r.fingerprint', 'n.title as public_title', 'n.content as public_content',
        sql<string | null>`r.record ->> 'title'`.as('title'), sql<string | null>`r.record ->> 'content'`.as('content'),
      ])
      .where('r.project_id', '=', projectId)
      .where('n.project_id', '=', projectId)
      .where('r.discarded_at', 'is', null)
      .where('r.release_id', '=', id)
      .executeTakeFirst();
  },

  /** One page of the review queue, newest first by the entry's own date, then id (a stable keyset). */
  async reviewPage(db: Executor, projectId: string, filter: ReviewFilter, page: { after?: ReviewCursor; limit: number }): Promise<ReviewRow[]> {
    let q = filtered(db.selectFrom('changelog_entries'), projectId, filter).select([
      'id', 'entry_type', 'status', 'title', 'version_label', 'occurred_at', 'published_at', 'updated_at', 'edited_at', 'pending_regeneration',
      sql<string>`(extract(epoch from occurred_at) * 1000000)::bigint::text`.as('occurred_us'),
      sql<boolean>`generation_key IS NOT NULL`.as('generated'),
      hasWaitingRevision.as('revision'),
      sql<string | null>`(SELECT r.fingerprint FROM changelog_entry_revisions r WHERE r.entry_id = changelog_entries.id AND r.discarded_at IS NULL)`.as('revision_fingerprint'),
    ]);
    if (page.after) q = q.where(olderThan(page.after));
    return q.orderBy('occurred_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
  },

  /** Entries matching the filter but for status and type, counted per (status, type). */
  async reviewFacets(
    db: Executor,
    projectId: string,
    filter: ReviewFilter,
  ): Promise<Array<{ status: EntryStatus; entry_type: EntryType; n: number; revisions: number }>> {
    return filtered(db.selectFrom('changelog_entries'), projectId, filter, true)
      .select(['status', 'entry_type', sql<number>`count(*)::int`.as('n'), sql<number>`(count(*) FILTER (WHERE ${hasWaitingRevision}))::int`.as('revisions')])
      .groupBy(['status', 'entry_type'])
      .execute();
  },

  /** Ids of the entries matching the filter, newest first, at most `limit`, locked (a bulk change follows). */
  async matchingIds(db: Executor, projectId: string, filter: ReviewFilter, limit: number): Promise<string[]> {
    const rows = await filtered(db.selectFrom('changelog_entries'), projectId, filter)
      .select('id')
      .orderBy('occurred_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .forUpdate()
      .execute();
    return rows.map((r) => r.id);
  },

  /** Which of `ids` are entries of the project (locked until the transaction ends: a bulk change follows). */
  async ownedIds(db: Executor, projectId: string, ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await db.selectFrom('changelog_entries').select('id').where('project_id', '=', projectId).where('id', 'in', ids).forUpdate().execute();
    return new Set(rows.map((r) => r.id));
  },

  /** Moves the project's entries among `ids` whose status is one of `from` to `status`; returns the ids changed. */
  setStatusMany: (db: Executor, projectId: string, ids: readonly string[], status: EntryStatus, from: readonly EntryStatus[]) =>
    setStatusIn(db, 'changelog_entries', projectId, ids, status, from),

  /** One page of a project's release notes, newest release first (Unreleased on top), then id: a stable keyset. */
  async releasePage(
    db: Executor,
    projectId: string,
    filter: ReleaseFilter & { sinceAt?: Date | null },
    page: { after?: ReleaseCursor; limit: number },
  ): Promise<ReleaseListRow[]> {
    let q = releasesFiltered(db.selectFrom('release_notes'), projectId, filter).select([
      'id', 'key', 'tag', 'package', 'version', 'prerelease', 'previous_tag', 'released_at', 'title', 'status', 'published_at', 'updated_at', 'history_at',
      sql<number>`(SELECT coalesce(sum(jsonb_array_length(s -> 'items')), 0) FROM jsonb_array_elements(generated_json -> 'sections') s)::int`.as('items'),
      sql<number>`cardinality(commit_shas)`.as('commits'),
      sql<boolean>`EXISTS (SELECT FROM release_note_revisions v WHERE v.release_id = release_notes.id AND v.discarded_at IS NULL)`.as('revision'),
      sql<Date | null>`(SELECT v.proposed_at FROM release_note_revisions v WHERE v.release_id = release_notes.id)`.as('revision_at'),
      sql<boolean>`EXISTS (SELECT FROM release_note_edits e WHERE e.release_id = release_notes.id AND (${EDITS_CHANGE_ANYTHING}))`.as('edited'),
      sql<string>`CASE WHEN sort_at = 'infinity' THEN 'inf' ELSE (extract(epoch from sort_at) * 1000000)::bigint::text END`.as('sort_us'),
    ]);
    if (page.after) q = q.where(releaseOlderThan(page.after));
    return q.orderBy('sort_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
  },

  /** A project's release notes matching the filter but for status, counted per status. */
  async releaseFacets(db: Executor, projectId: string, filter: ReleaseFilter & { sinceAt?: Date | null }): Promise<Array<{ status: EntryStatus; n: number }>> {
    return releasesFiltered(db.selectFrom('release_notes'), projectId, filter, true)
      .select(['status', sql<number>`count(*)::int`.as('n')])
      .groupBy('status')
      .execute();
  },

  /** The package series of a project's release notes (null: the root package's), for the filter. */
  async releasePackages(db: Executor, projectId: string): Promise<Array<string | null>> {
    const rows = await db.selectFrom('release_notes').select('package').distinct().where('project_id', '=', projectId).orderBy('package').execute();
    return rows.map((r) => r.package);
  },

  /** A project's note by key (any status). */
  /** Ids of the notes matching the filter, newest first, at most `limit`, locked (a bulk change follows). */
  async matchingReleaseIds(db: Executor, projectId: string, filter: ReleaseFilter & { sinceAt?: Date | null }, limit: number): Promise<string[]> {
    const rows = await releasesFiltered(db.selectFrom('release_notes'), projectId, filter)
      .select('id')
      .orderBy('sort_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .forUpdate()
      .execute();
    return rows.map((r) => r.id);
  },

  /** Of `ids`, the project's notes (locked until the transaction ends: a bulk change follows). */
  async ownedReleaseIds(db: Executor, projectId: string, ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await db.selectFrom('release_notes').select('id').where('project_id', '=', projectId).where('id', 'in', [...ids]).forUpdate().execute();
    return new Set(rows.map((r) => r.id));
  },

  /** The project's notes of these keys, by key (locked: a bulk change follows). */
  async releaseIdsByKey(db: Executor, projectId: string, keys: readonly string[]): Promise<Map<string, string>> {
    if (!keys.length) return new Map();
    const rows = await db.selectFrom('release_notes').select(['id', 'key']).where('project_id', '=', projectId).where('key', 'in', [...keys]).forUpdate().execute();
    return new Map(rows.map((r) => [r.key, r.id]));
  },

  /** Moves the project's notes among `ids` whose status is one of `from` to `status`, in one statement; the ids changed. */
  setReleaseStatusMany: (db: Executor, projectId: string, ids: readonly string[], status: EntryStatus, from: readonly EntryStatus[]) =>
    setStatusIn(db, 'release_notes', projectId, ids, status, from),

  /**
   * Publishes what a publishing policy held back, once that policy is `auto`: the project's drafts
   * of these types that generation made as new work, that no person edited or unpublished
   * (migrations/0033). History drafts follow the history policy and stay.
   */
  async publishPolicyDrafts(db: Executor, projectId: string, types: readonly EntryType[], releases: boolean): Promise<{ entries: number; releases: number }> {
    let entries = 0;
    if (types.length) {
      const rows = await db
        .updateTable('changelog_entries')
        .set({ status: 'published', published_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
        .where('project_id', '=', projectId)
        .where('status', '=', 'draft')
        .where('entry_type', 'in', [...types])
        .where('generation_key', 'is not', null)
        .where('history_at', 'is', null)
        .where('unpublished_at', 'is', null)
        .where('edited_at', 'is', null)
        .returning('id')
        .execute();
      entries = rows.length;
    }
    let notes = 0;
    if (releases) {
      const rows = await db
        .updateTable('release_notes')
        .set({ status: 'published', published_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
        .where('project_id', '=', projectId)
        .where('status', '=', 'draft')
        .where('history_at', 'is', null)
        .where('unpublished_at', 'is', null)
        .returning('id')
        .execute();
      notes = rows.length;
    }
    return { entries, releases: notes };
  },
};
