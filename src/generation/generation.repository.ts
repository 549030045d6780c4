import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { EntryStatus } from '../db/schema.js';
import { isoWithOffset } from '../git/commit-record.js';
import type { EngineCommit } from './engine-wire.js';
import type { GeneratedEntryType } from './types.js';

/** Rows mapped this many at a time, the event loop free in between. */
const SLICE = 2_000;

/**
 * `rows.map(fn)`, a slice at a time with a turn of the event loop between slices: a project's whole
 * history (tens of thousands of commits, each with dates to format) would otherwise hold the HTTP
 * server up for a good part of a second.
 */
async function mapInSlices<R, T>(rows: readonly R[], fn: (row: R) => T): Promise<T[]> {
  const out: T[] = new Array<T>(rows.length);
  for (let start = 0; start < rows.length; start += SLICE) {
    if (start) await new Promise((resolve) => setImmediate(resolve));
    const end = Math.min(rows.length, start + SLICE);
    for (let i = start; i < end; i++) out[i] = fn(rows[i]!);
  }
  return out;
}

/** A stored commit as generation reads it. */
export interface StoredCommit {
  id: string;
  /** When ingestion stored it (epoch ms). */
  storedAt: number;
  /** The link it came through (null once that link is removed). */
  linkId: string | null;
  /** Changes and co-authors as the stored JSON text: only the generation thread reads them. */
  record: EngineCommit & { changes: string; coAuthors: string };
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
  /** A commit entry's label depends on its components (a package's own tag series). */
  component_tags: string[];
  period_start: Date | null;
  period_end: Date | null;
}

/** What storage needs to know about a release note generation made before. */
export interface StoredRelease {
  id: string;
  key: string;
  status: EntryStatus;
  fingerprint: string | null;
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

  /**
   * When each of the project's links was made (epoch ms): the boundary between a link's history
   * (changes that reached its branch before) and new work.
   */
  async linkTimes(db: Executor, projectId: string): Promise<Map<string, number>> {
    const rows = await db
      .selectFrom('repo_links')
      .select(['id', sql<number>`(extract(epoch from created_at) * 1000)::float8`.as('created_ms')])
      .where('project_id', '=', projectId)
      .execute();
    return new Map(rows.map((r) => [r.id, r.created_ms]));
  },

  /** Serialises generation runs of one project (the job and the CLI may run at once). */
  async lockProject(db: Executor, projectId: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`generate:${projectId}`}))`.execute(db);
  },

  /**
   * The commits on the tracked branches, oldest first, as the engine takes them, with their row id
   * and when they were stored. Only the columns generation needs, instants as epoch milliseconds
   * (a number parses much faster than a timestamp): this read is a good part of a full run.
   * Co-authors and PR numbers are the ones ingest parsed and stored; generation parses neither.
   */
  async reachableCommits(db: Executor, projectId: string): Promise<StoredCommit[]> {
    const rows = await db
      .selectFrom('commits')
      .select([
        'id', 'repo_link_id', 'sha', 'author_name', 'author_email', 'author_tz_offset', 'committer_name', 'committer_email',
        'committer_tz_offset', 'message', 'pr_number', 'changes', 'co_authors',
        // Space-separated rather than as arrays: the driver's array parser cost more than a split,
        // and neither a SHA nor a tag name (git check-ref-format) holds a space.
        sql<string>`array_to_string(parent_shas, ' ')`.as('parents'),
        sql<string>`array_to_string(tags, ' ')`.as('tags'),
        sql<number>`(extract(epoch from authored_at) * 1000)::float8`.as('authored_ms'),
        sql<number>`(extract(epoch from committed_at) * 1000)::float8`.as('committed_ms'),
        sql<number>`(extract(epoch from created_at) * 1000)::float8`.as('stored_ms'),
      ])
      .where('project_id', '=', projectId)
      .where('reachable', '=', true)
      .orderBy('committed_at')
      .orderBy('sha')
      .execute();
    return mapInSlices(rows, (r) => ({
      id: r.id,
      storedAt: r.stored_ms,
      linkId: r.repo_link_id,
      record: {
        sha: r.sha,
        parents: r.parents ? r.parents.split(' ') : [],
        author: { name: r.author_name, email: r.author_email, date: isoWithOffset(new Date(r.authored_ms), r.author_tz_offset) },
        committer: { name: r.committer_name, email: r.committer_email, date: isoWithOffset(new Date(r.committed_ms), r.committer_tz_offset) },
        message: r.message,
        changes: r.changes,
        tags: r.tags ? r.tags.split(' ') : [],
        coAuthors: r.co_authors,
        prNumber: r.pr_number,
      },
    }));
  },

  async generatedEntries(db: Executor, projectId: string): Promise<StoredGenerated[]> {
    const rows = await db
      .selectFrom('changelog_entries')
      .select([
        'id', 'generation_key', 'entry_type', 'status', 'fingerprint', 'edited_at', 'pending_regeneration', 'version_label',
        'commit_shas', 'component_tags', 'period_start', 'period_end',
      ])
      .where('project_id', '=', projectId)
      .where('generation_key', 'is not', null)
      .execute();
    return rows as StoredGenerated[];
  },

  /** The project's stored release notes, as generation matches them by key. */
  async generatedReleases(db: Executor, projectId: string): Promise<StoredRelease[]> {
    return db.selectFrom('release_notes').select(['id', 'key', 'status', 'fingerprint']).where('project_id', '=', projectId).execute();
  },

  /** Edited entries whose commits changed: their text stays, the dashboard offers a regenerate. */
  async markPending(db: Executor, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await db.updateTable('changelog_entries').set({ pending_regeneration: true, updated_at: sql<Date>`now()` }).where('id', 'in', ids).execute();
  },

  /** Forgets a person's edit so that the next run writes generated text again. */
  async clearEdit(db: Executor, id: string): Promise<void> {
    await db.updateTable('changelog_entries').set({ edited_at: null, pending_regeneration: false, fingerprint: null }).where('id', '=', id).execute();
  },

  /** Forgets people's edits of the project's entries among `ids` (a bulk regenerate, inside its run). */
  async clearEdits(db: Executor, projectId: string, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    await db
      .updateTable('changelog_entries')
      .set({ edited_at: null, pending_regeneration: false, fingerprint: null })
      .where('project_id', '=', projectId)
      .where('id', 'in', [...ids])
      .execute();
  },

  /** Of `ids`, the project's generated entries that are not archived: what a bulk regenerate rewrites. */
  async regenerable(db: Executor, projectId: string, ids: readonly string[]) {
    if (!ids.length) return [];
    const rows = await db
      .selectFrom('changelog_entries')
      .select(['id', 'entry_type', 'commit_shas'])
      .where('project_id', '=', projectId)
      .where('id', 'in', [...ids])
      .where('generation_key', 'is not', null)
      .where('status', '<>', 'archived')
      .execute();
    return rows as Array<{ id: string; entry_type: GeneratedEntryType; commit_shas: string[] }>;
  },

  async findEntry(db: Executor, id: string) {
    return db
      .selectFrom('changelog_entries')
      .select(['id', 'project_id', 'entry_type', 'generation_key', 'commit_shas'])
      .where('id', '=', id)
      .executeTakeFirst();
  },
};
