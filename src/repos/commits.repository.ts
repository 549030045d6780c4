import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { CommitRow } from '../db/schema.js';
import { isoWithOffset, offsetMinutes, type CommitRecord } from '../git/commit-record.js';

export const commitsRepository = {
  /**
   * Stores a batch of commits in one statement: the batch travels as one JSON parameter that
   * `jsonb_to_recordset` turns into typed rows server-side. (Fifteen arrays, one per column, cost
   * twice the CPU here, in pg's array escaping, and more on the embedded database.) Commits already
   * stored for the link or the project are left alone, so a redelivery or a rerun after a crash
   * stores nothing twice. Returns how many were new.
   */
  async insertBatch(db: Executor, projectId: string, linkId: string, commits: CommitRecord[], onTrackedBranch = true): Promise<number> {
    if (commits.length === 0) return 0;
    const rows = commits.map((c) => ({
      sha: c.sha,
      parents: c.parents,
      an: c.author.name,
      ae: c.author.email,
      ad: c.author.date,
      atz: offsetMinutes(c.author.date),
      cn: c.committer.name,
      ce: c.committer.email,
      cd: c.committer.date,
      ctz: offsetMinutes(c.committer.date),
      message: c.message,
      changes: c.changes,
      co: c.coAuthors,
      pr: c.prNumber,
      tags: c.tags,
      deps: c.dependencies ? JSON.stringify(c.dependencies) : null,
      rc: c.releaseConfig ?? null,
      frag: c.fragments?.length ? JSON.stringify(c.fragments) : null,
    }));
    const result = await sql<{ sha: string }>`
      INSERT INTO commits (project_id, repo_link_id, sha, parent_shas, author_name, author_email, authored_at,
        author_tz_offset, committer_name, committer_email, committed_at, committer_tz_offset, message, changes,
        co_authors, pr_number, tags, on_tracked_branch, dependencies, release_config, fragments)
      SELECT ${projectId}::uuid, ${linkId}::uuid, t.sha, t.parents, t.an, t.ae, t.ad, t.atz, t.cn, t.ce, t.cd, t.ctz,
        t.message, t.changes, t.co, t.pr, t.tags, ${onTrackedBranch}::boolean, t.deps, t.rc, t.frag
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS t(sha text, parents text[], an text, ae text,
        ad timestamptz, atz smallint, cn text, ce text, cd timestamptz, ctz smallint, message text, changes text,
        co text, pr integer, tags text[], deps text, rc text, frag text)
      ON CONFLICT DO NOTHING
      RETURNING sha`.execute(db);
    return result.rows.length;
  },

  /** The link's commits of the tracked branch (not those only release branches reach) that are, or are not, reachable. */
  async reachableShas(db: Executor, linkId: string, reachable: boolean): Promise<string[]> {
    const rows = await db
      .selectFrom('commits')
      .select('sha')
      .where('repo_link_id', '=', linkId)
      .where('reachable', '=', reachable)
      .where('on_tracked_branch', '=', true)
      .execute();
    return rows.map((r) => r.sha);
  },

  /** The link's commits stored as reachable only from release branches (a few: the partial index). */
  async releaseOnlyShas(db: Executor, linkId: string): Promise<string[]> {
    const rows = await db.selectFrom('commits').select('sha').where('repo_link_id', '=', linkId).where('on_tracked_branch', '=', false).execute();
    return rows.map((r) => r.sha);
  },

  /** Commits the tracked branch now reaches (a release branch merged into it): its own again; how many. */
  async setOnTrackedBranch(db: Executor, linkId: string, shas: readonly string[]): Promise<number> {
    if (!shas.length) return 0;
    const result = await sql`
      UPDATE commits SET on_tracked_branch = true, reachable = true
      WHERE repo_link_id = ${linkId} AND NOT on_tracked_branch AND sha = ANY(${[...shas]}::text[])`.execute(db);
    return Number(result.numAffectedRows ?? 0n);
  },

  /**
   * Makes the link's release-only commits exactly `shas` (what its release branches reach and the
   * tracked branch does not): those are release-only and reachable, the other release-only ones no
   * longer reachable (a release branch deleted, force-pushed, or no longer matched). How many changed.
   */
  async syncReleaseOnly(db: Executor, linkId: string, shas: readonly string[]): Promise<number> {
    const list = [...shas];
    const marked = list.length
      ? await sql`
          UPDATE commits SET on_tracked_branch = false, reachable = true
          WHERE repo_link_id = ${linkId} AND sha = ANY(${list}::text[]) AND (on_tracked_branch OR NOT reachable)`.execute(db)
      : { numAffectedRows: 0n };
    const dropped = await sql`
      UPDATE commits SET reachable = false
      WHERE repo_link_id = ${linkId} AND NOT on_tracked_branch AND reachable AND NOT (sha = ANY(${list}::text[]))`.execute(db);
    return Number(marked.numAffectedRows ?? 0n) + Number(dropped.numAffectedRows ?? 0n);
  },

  async setReachable(db: Executor, linkId: string, shas: string[], reachable: boolean): Promise<void> {
    for (let i = 0; i < shas.length; i += 5000) {
      await db
        .updateTable('commits')
        .set({ reachable })
        .where('repo_link_id', '=', linkId)
        .where('sha', '=', sql<string>`ANY(${shas.slice(i, i + 5000)}::text[])`)
        .execute();
    }
  },

  /**
   * Marks the given commits of the link's tracked branch reachable again where a force-push had
   * dropped them (a stored commit is never stored twice, so a push that brings one back by a
   * fast-forward finds it stored and unreachable); how many. One probe of the link's key per SHA.
   */
  async revive(db: Executor, linkId: string, shas: readonly string[]): Promise<number> {
    if (!shas.length) return 0;
    const result = await sql<{ n: number }>`
      WITH revived AS (
        UPDATE commits SET reachable = true
        WHERE repo_link_id = ${linkId} AND sha = ANY(${[...shas]}::text[]) AND on_tracked_branch AND NOT reachable
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM revived`.execute(db);
    return result.rows[0]!.n;
  },

  /**
   * Makes the stored tags of a link's commits match `tags` (tags move, appear and disappear); how
   * many commits' tags changed.
   */
  async syncTags(db: Executor, linkId: string, tags: Map<string, string[]>): Promise<number> {
    const shas = [...tags.keys()];
    // One statement: the commits that lose every tag, and those whose tags differ. The two sets are
    // apart (a sha is listed or not), so no row is updated twice. Both cost what the tags number, not
    // the history, whatever the statistics: the tagged commits come from their index (migrations/0037)
    // and are matched to the listed ones by a hash (as `sha = ANY(list)`, each scanned the list); each
    // listed commit is looked up by its key, one at a time (LIMIT keeps the lookup from becoming a
    // join, which a planner without statistics made a hash of the link's every commit). At 300,000
    // commits and 3,000 tags: 220 ms before on PostgreSQL, about 30 ms now.
    const result = await sql<{ n: number }>`
      WITH listed AS MATERIALIZED (
        SELECT t.sha, ARRAY(SELECT jsonb_array_elements_text(t.tags)) AS tags
        FROM unnest(${shas}::text[], ${shas.map((s) => JSON.stringify(tags.get(s)))}::jsonb[]) AS t(sha, tags)
      ), cleared AS (
        UPDATE commits c SET tags = '{}'
        WHERE c.repo_link_id = ${linkId} AND cardinality(c.tags) > 0 AND NOT EXISTS (SELECT FROM listed l WHERE l.sha = c.sha)
        RETURNING 1
      ), retagged AS (
        UPDATE commits c SET tags = d.tags
        FROM (
          SELECT x.id, l.tags FROM listed l
          CROSS JOIN LATERAL (SELECT id, tags FROM commits WHERE repo_link_id = ${linkId} AND sha = l.sha LIMIT 1) x
          WHERE x.tags IS DISTINCT FROM l.tags
        ) d
        WHERE c.id = d.id
        RETURNING 1
      )
      SELECT ((SELECT count(*) FROM cleared) + (SELECT count(*) FROM retagged))::int AS n`.execute(db);
    return result.rows[0]!.n;
  },

  async countForProject(db: Executor, projectId: string): Promise<{ total: number; reachable: number }> {
    const row = await db
      .selectFrom('commits')
      .select([sql<string>`count(*)`.as('total'), sql<string>`count(*) FILTER (WHERE reachable)`.as('reachable')])
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), reachable: Number(row.reachable) };
  },

  /** Commits stored per link of the project (a removed link's commits count under null). */
  async countByLink(db: Executor, projectId: string): Promise<Map<string | null, number>> {
    const rows = await db
      .selectFrom('commits')
      .select(['repo_link_id', sql<string>`count(*)`.as('n')])
      .where('project_id', '=', projectId)
      .groupBy('repo_link_id')
      .execute();
    return new Map(rows.map((r) => [r.repo_link_id, Number(r.n)]));
  },

  /** Deletes a link's commits (unlink --purge); how many. */
  async deleteForLink(db: Executor, linkId: string): Promise<number> {
    const result = await db.deleteFrom('commits').where('repo_link_id', '=', linkId).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** Authors and co-authors of some of a project's commits (at most `limit` commits read). */
  async authorsOf(
    db: Executor,
    projectId: string,
    shas: readonly string[],
    limit: number,
  ): Promise<{ author_name: string; author_email: string; co_authors: string }[]> {
    if (!shas.length) return [];
    return db
      .selectFrom('commits')
      .select(['author_name', 'author_email', 'co_authors'])
      .where('project_id', '=', projectId)
      .where('sha', 'in', shas.slice(0, limit))
      .orderBy('authored_at')
      .execute();
  },

  async listForLink(db: Executor, linkId: string): Promise<CommitRow[]> {
    return db.selectFrom('commits').selectAll().where('repo_link_id', '=', linkId).orderBy('committed_at', 'desc').execute();
  },
};

/** A stored commit in the shape the changelog generator reads. */
export function toCommitRecord(row: CommitRow): CommitRecord & { reachable: boolean } {
  return {
    sha: row.sha,
    parents: row.parent_shas,
    author: { name: row.author_name, email: row.author_email, date: isoWithOffset(row.authored_at, row.author_tz_offset) },
    committer: {
      name: row.committer_name,
      email: row.committer_email,
      date: isoWithOffset(row.committed_at, row.committer_tz_offset),
    },
    message: row.message,
    changes: JSON.parse(row.changes) as CommitRecord['changes'],
    tags: row.tags,
    coAuthors: JSON.parse(row.co_authors) as CommitRecord['coAuthors'],
    prNumber: row.pr_number,
    ...(row.dependencies ? { dependencies: JSON.parse(row.dependencies) as NonNullable<CommitRecord['dependencies']> } : {}),
    ...(row.release_config !== null ? { releaseConfig: row.release_config } : {}),
    ...(row.fragments ? { fragments: JSON.parse(row.fragments) as NonNullable<CommitRecord['fragments']> } : {}),
    reachable: row.reachable,
  };
}
