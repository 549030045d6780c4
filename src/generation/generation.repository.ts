import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { CommitRow, EntryStatus } from '../db/schema.js';
import type { GeneratedEntry } from './types.js';

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

/** The generated columns of an entry (what a regeneration writes). */
function generatedColumns(entry: GeneratedEntry, commitId: string | null) {
  return {
    entry_type: entry.entry_type,
    title: entry.title,
    content: entry.content,
    generated_json: JSON.stringify(entry.generated_json),
    version_label: entry.version_label,
    team_attribution: entry.team_attribution,
    component_tags: entry.component_tags,
    commit_id: commitId,
    commit_shas: entry.commit_shas,
    period_start: entry.period_start,
    period_end: entry.period_end,
    fingerprint: entry.fingerprint,
  };
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

  /** Serialises generation runs of one project (the job and the CLI may run at once). */
  async lockProject(db: Executor, projectId: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`generate:${projectId}`}))`.execute(db);
  },

  /** The commits on the tracked branches, oldest first. */
  async reachableCommits(db: Executor, projectId: string): Promise<CommitRow[]> {
    return db
      .selectFrom('commits')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('reachable', '=', true)
      .orderBy('committed_at')
      .orderBy('sha')
      .execute();
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

  async insertGenerated(
    db: Executor,
    projectId: string,
    rows: Array<{ entry: GeneratedEntry; commitId: string | null; status: EntryStatus }>,
  ): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('changelog_entries')
        .values(
          rows.slice(i, i + 500).map(({ entry, commitId, status }) => ({
            project_id: projectId,
            generation_key: entry.key,
            status,
            published_at: status === 'published' ? sql<Date>`now()` : null,
            ...generatedColumns(entry, commitId),
          })),
        )
        .execute();
    }
  },

  /** Rewrites an entry in place with what generation produced (same id, new updated_at). */
  async updateGenerated(db: Executor, id: string, entry: GeneratedEntry, commitId: string | null, restore?: EntryStatus): Promise<void> {
    await db
      .updateTable('changelog_entries')
      .set({
        ...generatedColumns(entry, commitId),
        edited_at: null,
        pending_regeneration: false,
        updated_at: sql<Date>`now()`,
        ...(restore ? { status: restore, published_at: restore === 'published' ? sql<Date>`now()` : null } : {}),
      })
      .where('id', '=', id)
      .execute();
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
