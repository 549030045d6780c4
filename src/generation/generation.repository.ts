import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { isoWithOffset } from '../git/commit-record.js';
import type { EngineCommit } from './engine-wire.js';

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
  /** False when only the link's release branches reach it: release notes read it, entries do not. */
  onTrackedBranch: boolean;
  /** Changes, co-authors and dependency changes as the stored JSON text: only the generation thread reads them. */
  record: EngineCommit & { changes: string; coAuthors: string; dependencies?: string; fragments?: string };
}

/**
 * What generation reads: a project's stored commits and what its links say (tracked branches,
 * CODEOWNERS, when each was made). It writes nothing: entries, their statuses and edit flags are the
 * entries service's; the settings are kept on the project row by the projects service.
 */
export const generationRepository = {
  /**
   * The messages and pull-request numbers of the project's commits among `shas` (a release note's):
   * the sources a release summary's items are checked against (generation/summaries).
   */
  async commitMessages(db: Executor, projectId: string, shas: readonly string[]): Promise<Array<{ sha: string; message: string; prNumber: number | null }>> {
    if (!shas.length) return [];
    const rows = await db
      .selectFrom('commits')
      .select(['sha', 'message', 'pr_number'])
      .where('project_id', '=', projectId)
      .where(sql<boolean>`sha = ANY(${[...shas]}::text[])`)
      .execute();
    return rows.map((r) => ({ sha: r.sha, message: r.message, prNumber: r.pr_number }));
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

  /** What the CHANGELOG.md of the project's first linked repository that has one says (calibration.ts), as stored at ingest. */
  async changelogCalibrationOf(db: Executor, projectId: string): Promise<Record<string, unknown> | null> {
    const row = await db
      .selectFrom('repo_links')
      .select('changelog_calibration')
      .where('project_id', '=', projectId)
      .where('changelog_calibration', 'is not', null)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
    return row?.changelog_calibration ?? null;
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

  /**
   * The commits on the tracked branches (and, flagged, those only release branches reach), oldest first, as the engine takes them, with their row id
   * and when they were stored. Only the columns generation needs, instants as epoch milliseconds
   * (a number parses much faster than a timestamp): this read is a good part of a full run.
   * Co-authors and PR numbers are the ones ingest parsed and stored; generation parses neither.
   */
  async reachableCommits(db: Executor, projectId: string): Promise<StoredCommit[]> {
    const rows = await db
      .selectFrom('commits')
      .select([
        'id',
        'repo_link_id',
        'sha',
        'author_name',
        'author_email',
        'author_tz_offset',
        'committer_name',
        'committer_email',
        'committer_tz_offset',
        'message',
        'pr_number',
        'changes',
        'co_authors',
        'on_tracked_branch',
        'dependencies',
        'release_config',
        'fragments',
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
      onTrackedBranch: r.on_tracked_branch,
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
        // Left as the stored JSON text, parsed in the generation thread like `changes`.
        ...(r.dependencies !== null ? { dependencies: r.dependencies } : {}),
        // What the maintainers' release files said (migrations/0041), parsed in the thread too.
        ...(r.release_config !== null ? { releaseConfig: r.release_config } : {}),
        ...(r.fragments !== null ? { fragments: r.fragments } : {}),
      },
    }));
  },
};
