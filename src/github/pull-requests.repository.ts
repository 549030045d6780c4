import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { GitHubPrSyncRow } from '../db/schema.js';
import type { PullRequestInfo } from '../generation/engine/pull-requests.js';
import type { MergedPullRequest } from './github.client.js';

/** What a link's fetch records of where it stands (see migrations/0042). */
export interface PrSyncFields {
  watermark?: Date | null;
  walkCursor?: string | null;
  walkTop?: Date | null;
  generatePending?: boolean;
  rewalk?: boolean;
  retryAt?: Date | null;
  lastError?: string | null;
  lastSyncedAt?: Date | null;
}

/** The merged pull requests of GitHub links (github_pull_requests) and where each link's fetch stands (github_pr_syncs). */
/** How much of a cached description generation reads. */
const BODY_READ_CHARS = 16 * 1024;
/** Commits naming one pull request that join it (a revert, a backport and the squash: a handful). */
const MAX_CITING_COMMITS = 50;

export const pullRequestsRepository = {
  async syncState(db: Executor, linkId: string): Promise<GitHubPrSyncRow | undefined> {
    return db.selectFrom('github_pr_syncs').selectAll().where('link_id', '=', linkId).executeTakeFirst();
  },

  /** Creates the link's row or sets the given fields of it. */
  async saveSyncState(db: Executor, linkId: string, fields: PrSyncFields): Promise<void> {
    const set = {
      ...(fields.watermark !== undefined ? { watermark: fields.watermark } : {}),
      ...(fields.walkCursor !== undefined ? { walk_cursor: fields.walkCursor } : {}),
      ...(fields.walkTop !== undefined ? { walk_top: fields.walkTop } : {}),
      ...(fields.generatePending !== undefined ? { generate_pending: fields.generatePending } : {}),
      ...(fields.rewalk !== undefined ? { rewalk: fields.rewalk } : {}),
      ...(fields.retryAt !== undefined ? { retry_at: fields.retryAt } : {}),
      ...(fields.lastError !== undefined ? { last_error: fields.lastError } : {}),
      ...(fields.lastSyncedAt !== undefined ? { last_synced_at: fields.lastSyncedAt } : {}),
      updated_at: new Date(),
    };
    await db
      .insertInto('github_pr_syncs')
      .values({ link_id: linkId, ...set })
      .onConflict((oc) => oc.column('link_id').doUpdateSet(set))
      .execute();
  },

  /**
   * Stores pull requests of a link, replacing what it held of the same numbers; the numbers of those
   * new or changed (an unchanged one is not written: a walk that reads it again changes nothing).
   */
  async upsert(db: Executor, linkId: string, prs: readonly MergedPullRequest[]): Promise<number[]> {
    if (!prs.length) return [];
    const rows = prs.map((pr) => ({
      link_id: linkId,
      number: pr.number,
      title: pr.title,
      body: pr.body,
      labels: pr.labels,
      author_login: pr.author?.login ?? null,
      author_is_bot: pr.author?.isBot ?? false,
      merged_at: pr.mergedAt,
      updated_at: pr.updatedAt,
      merge_sha: pr.mergeCommitSha,
      commit_shas: pr.commitShas,
    }));
    const changed = await db
      .insertInto('github_pull_requests')
      .values(rows)
      .onConflict((oc) =>
        oc
          .columns(['link_id', 'number'])
          .doUpdateSet((eb) => ({
            title: eb.ref('excluded.title'),
            body: eb.ref('excluded.body'),
            labels: eb.ref('excluded.labels'),
            author_login: eb.ref('excluded.author_login'),
            author_is_bot: eb.ref('excluded.author_is_bot'),
            merged_at: eb.ref('excluded.merged_at'),
            updated_at: eb.ref('excluded.updated_at'),
            merge_sha: eb.ref('excluded.merge_sha'),
            commit_shas: eb.ref('excluded.commit_shas'),
            fetched_at: new Date(),
          }))
          .where(
            sql<boolean>`(github_pull_requests.title, github_pull_requests.body, github_pull_requests.labels, github_pull_requests.author_login,
              github_pull_requests.author_is_bot, github_pull_requests.merged_at, github_pull_requests.merge_sha, github_pull_requests.commit_shas)
              IS DISTINCT FROM (excluded.title, excluded.body, excluded.labels, excluded.author_login, excluded.author_is_bot,
              excluded.merged_at, excluded.merge_sha, excluded.commit_shas)`,
          ),
      )
      .returning('number')
      .execute();
    return changed.map((r) => r.number);
  },

  /** Whether any of these commits was stored for the project before `before` (then an incremental run would not read it again). */
  async anyStoredBefore(db: Executor, projectId: string, shas: readonly string[], before: Date): Promise<boolean> {
    if (!shas.length) return false;
    const row = await db
      .selectFrom('commits')
      .select('id')
      .where('project_id', '=', projectId)
      .where('sha', 'in', [...new Set(shas)])
      .where('created_at', '<', before)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /**
   * The cached pull requests of the project's own links that its reachable history holds: by merge
   * commit, or by a number a commit of the same repository names (`(#123)`, a merge of pull request
   * #123). Only the project's links are read, so another project, of this tenant or another, linking
   * the same repository never reads this one's copy. One per repository and number.
   */
  async forProject(db: Executor, projectId: string): Promise<PullRequestInfo[]> {
    const rows = await db
      .selectFrom('github_pull_requests as p')
      .innerJoin('repo_links as l', 'l.id', 'p.link_id')
      .select([
        'l.source_key',
        'p.number',
        'p.title',
        // What the engine reads of a description (its release-notes section, a trailer) is near its top; a
        // history of thousands of 64 KiB descriptions would otherwise all be held for every run.
        sql<string>`left(p.body, ${BODY_READ_CHARS})`.as('body'),
        'p.labels',
        'p.author_login',
        'p.author_is_bot',
        'p.merge_sha',
        'p.commit_shas',
        'p.merged_at',
      ])
      .where('l.project_id', '=', projectId)
      // Both as uncorrelated IN lists, which PostgreSQL hashes once (an EXISTS under OR is run per row).
      .where(
        sql<boolean>`(p.merge_sha IN (SELECT c.sha FROM commits c WHERE c.project_id = ${projectId} AND c.reachable)
          OR (l.source_key, p.number) IN (
            SELECT cl.source_key, c.pr_number FROM commits c JOIN repo_links cl ON cl.id = c.repo_link_id
            WHERE c.project_id = ${projectId} AND c.reachable AND c.pr_number IS NOT NULL))`,
      )
      .orderBy('l.source_key')
      .orderBy('p.number')
      .orderBy('p.fetched_at', 'desc')
      .execute();
    // Which commits name which pull request, per repository: a commit joins a pull request of its own
    // repository only (two links of one project may both have a #12).
    // Only commits naming a cached pull request of their own repository come back, not every commit with a number.
    const cited = await sql<{ sha: string; key: string }>`
      SELECT c.sha, cl.source_key || '#' || c.pr_number AS key FROM commits c JOIN repo_links cl ON cl.id = c.repo_link_id
      WHERE c.project_id = ${projectId} AND c.reachable AND c.pr_number IS NOT NULL
        AND (cl.source_key, c.pr_number) IN (
          SELECT l.source_key, p.number FROM github_pull_requests p JOIN repo_links l ON l.id = p.link_id WHERE l.project_id = ${projectId})`.execute(db);
    const citedBy = new Map<string, string[]>();
    for (const { sha, key } of cited.rows) {
      const list = citedBy.get(key) ?? [];
      if (list.length < MAX_CITING_COMMITS) list.push(sha);
      citedBy.set(key, list);
    }
    const seen = new Set<string>();
    const result: PullRequestInfo[] = [];
    for (const row of rows) {
      const key = `${row.source_key}#${row.number}`;
      if (seen.has(key)) continue;
      seen.add(key);
      result.push({
        number: row.number,
        title: row.title,
        body: row.body,
        labels: row.labels,
        author: row.author_login === null ? null : { login: row.author_login, isBot: row.author_is_bot },
        mergedAt: new Date(row.merged_at).toISOString(),
        mergeCommitSha: row.merge_sha,
        commitShas: row.commit_shas,
        citedBy: citedBy.get(key) ?? [],
      });
    }
    return result;
  },
};
