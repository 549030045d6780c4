import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

/** A machine-written summary as stored (release_note_summaries.summary): verified text, sources, what was dropped. */
export interface StoredSummary {
  /** The introduction as Markdown, rendered by code from the kept sentences; null when none was kept. */
  introduction: string | null;
  sentences: Array<{ text: string; items: string[] }>;
  rewordings: Array<{ id: string; text: string }>;
  rejected: Array<{ kind: string; text: string; reason: string }>;
}

export type SummaryStatus = 'pending' | 'accepted' | 'dismissed' | 'failed';

export interface ReleaseSummaryRow {
  release_id: string;
  fingerprint: string;
  model: string;
  status: SummaryStatus;
  summary: StoredSummary;
  error: string | null;
  created_at: Date;
  decided_at: Date | null;
}

/** release_note_summaries: read only by the release editor and the summarizer, never by a public surface. */
export const releaseSummariesRepository = {
  async find(db: Executor, projectId: string, releaseId: string, lock = false): Promise<ReleaseSummaryRow | undefined> {
    let q = db
      .selectFrom('release_note_summaries')
      .select(['release_id', 'fingerprint', 'model', 'status', 'summary', 'error', 'created_at', 'decided_at'])
      .where('project_id', '=', projectId)
      .where('release_id', '=', releaseId);
    if (lock) q = q.forUpdate();
    return (await q.executeTakeFirst()) as ReleaseSummaryRow | undefined;
  },

  /** The fingerprints summaries were written for, of the notes among `ids`. */
  async fingerprints(db: Executor, projectId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await db
      .selectFrom('release_note_summaries')
      .select(['release_id', 'fingerprint'])
      .where('project_id', '=', projectId)
      .where('release_id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.release_id, r.fingerprint]));
  },

  /** A new summary (or failure) for a note, replacing the one before whatever its status. */
  async save(
    db: Executor,
    row: { releaseId: string; projectId: string; fingerprint: string; model: string; status: SummaryStatus; summary: StoredSummary; error: string | null },
  ): Promise<void> {
    const values = { fingerprint: row.fingerprint, model: row.model, status: row.status, summary: JSON.stringify(row.summary), error: row.error };
    await db
      .insertInto('release_note_summaries')
      .values({ release_id: row.releaseId, project_id: row.projectId, ...values })
      .onConflict((oc) => oc.column('release_id').doUpdateSet({ ...values, created_at: sql<Date>`now()`, decided_at: null, decided_by: null }))
      .execute();
  },

  async decide(db: Executor, releaseId: string, status: 'accepted' | 'dismissed', userId: string | null): Promise<void> {
    await db
      .updateTable('release_note_summaries')
      .set({ status, decided_at: sql<Date>`now()`, decided_by: userId })
      .where('release_id', '=', releaseId)
      .execute();
  },
};
