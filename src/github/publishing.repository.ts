import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { GitHubLinkPublishingRow, GitHubReleaseSyncRow, PrChecksMode } from '../db/schema.js';

/** What a GitHub link publishes (github_link_publishing) and what each tag's release received (github_release_syncs). */
export const publishingRepository = {
  async settings(db: Executor, linkId: string): Promise<GitHubLinkPublishingRow | undefined> {
    return db.selectFrom('github_link_publishing').selectAll().where('link_id', '=', linkId).executeTakeFirst();
  },

  async settingsOfProject(db: Executor, projectId: string): Promise<GitHubLinkPublishingRow[]> {
    return db.selectFrom('github_link_publishing').selectAll().where('project_id', '=', projectId).execute();
  },

  /** Saves the settings; turning the CHANGELOG.md pull request on asks for one at once (wanted moves). */
  async saveSettings(
    db: Executor,
    row: { linkId: string; projectId: string; releases: boolean; prChecks: PrChecksMode; changelogPr: boolean },
  ): Promise<GitHubLinkPublishingRow> {
    return db
      .insertInto('github_link_publishing')
      .values({
        link_id: row.linkId,
        project_id: row.projectId,
        releases: row.releases,
        pr_checks: row.prChecks,
        changelog_pr: row.changelogPr,
        changelog_wanted: row.changelogPr ? 1 : 0,
      })
      .onConflict((oc) =>
        oc.column('link_id').doUpdateSet({
          releases: row.releases,
          pr_checks: row.prChecks,
          changelog_pr: row.changelogPr,
          changelog_wanted: row.changelogPr
            ? sql<number>`CASE WHEN github_link_publishing.changelog_pr THEN github_link_publishing.changelog_wanted ELSE github_link_publishing.changelog_wanted + 1 END`
            : sql<number>`github_link_publishing.changelog_wanted`,
          updated_at: new Date(),
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Links whose CHANGELOG.md pull request is wanted and not queued (the dispatcher's). */
  async changelogUnqueued(db: Executor, limit: number): Promise<{ link_id: string; changelog_wanted: number }[]> {
    return db
      .selectFrom('github_link_publishing')
      .select(['link_id', 'changelog_wanted'])
      .where('changelog_pr', '=', true)
      .whereRef('changelog_synced', '<', 'changelog_wanted')
      .whereRef('changelog_queued', '<', 'changelog_wanted')
      .limit(limit)
      .execute();
  },

  async markChangelogQueued(db: Executor, linkId: string, wanted: number): Promise<void> {
    await db
      .updateTable('github_link_publishing')
      .set({ changelog_queued: sql<number>`GREATEST(changelog_queued, ${wanted}::int)` })
      .where('link_id', '=', linkId)
      .execute();
  },

  async markChangelogSynced(db: Executor, linkId: string, wanted: number, prNumber: number | null): Promise<void> {
    await db
      .updateTable('github_link_publishing')
      .set({
        changelog_synced: sql<number>`GREATEST(changelog_synced, ${wanted}::int)`,
        changelog_pr_number: prNumber,
        changelog_synced_at: new Date(),
        changelog_error: null,
      })
      .where('link_id', '=', linkId)
      .execute();
  },

  async markChangelogFailed(db: Executor, linkId: string, error: string): Promise<void> {
    await db.updateTable('github_link_publishing').set({ changelog_error: error }).where('link_id', '=', linkId).execute();
  },

  async recordCheck(db: Executor, linkId: string, error: string | null): Promise<void> {
    await db.updateTable('github_link_publishing').set({ pr_checks_error: error, pr_checks_at: new Date() }).where('link_id', '=', linkId).execute();
  },

  /**
   * Tags whose sync is wanted and not yet queued, of links that still publish releases (the dispatcher's
   * batch), or of one link only (the dashboard's Retry).
   */
  async unqueued(db: Executor, limit: number, linkId?: string): Promise<{ link_id: string; tag: string; wanted: number }[]> {
    return db
      .selectFrom('github_release_syncs as s')
      .innerJoin('github_link_publishing as p', 'p.link_id', 's.link_id')
      .select(['s.link_id', 's.tag', 's.wanted'])
      .where('p.releases', '=', true)
      .$if(linkId !== undefined, (q) => q.where('s.link_id', '=', linkId!))
      .whereRef('s.synced', '<', 's.wanted')
      .whereRef('s.queued', '<', 's.wanted')
      .orderBy('s.link_id')
      .limit(limit)
      .execute();
  },

  /** Records that the job for these wanted versions was sent (never lowers what a later dispatch recorded). */
  async markQueued(db: Executor, rows: readonly { link_id: string; tag: string; wanted: number }[]): Promise<void> {
    if (!rows.length) return;
    await sql`
      UPDATE github_release_syncs s SET queued = GREATEST(s.queued, v.wanted)
      FROM unnest(${rows.map((r) => r.link_id)}::uuid[], ${rows.map((r) => r.tag)}::text[], ${rows.map((r) => r.wanted)}::int[]) AS v(link_id, tag, wanted)
      WHERE s.link_id = v.link_id AND s.tag = v.tag`.execute(db);
  },

  /** A link's tags that GitHub has not caught up with, oldest change first by tag. */
  async behind(db: Executor, linkId: string, limit: number): Promise<GitHubReleaseSyncRow[]> {
    return db
      .selectFrom('github_release_syncs')
      .selectAll()
      .where('link_id', '=', linkId)
      .whereRef('synced', '<', 'wanted')
      // Least recently tried first: tags that keep failing (one GitHub does not have) cannot hold the rest back.
      .orderBy(sql`last_attempt_at ASC NULLS FIRST`)
      .orderBy('tag')
      .limit(limit)
      .execute();
  },

  async find(db: Executor, linkId: string, tag: string): Promise<GitHubReleaseSyncRow | undefined> {
    return db.selectFrom('github_release_syncs').selectAll().where('link_id', '=', linkId).where('tag', '=', tag).executeTakeFirst();
  },

  /** A create is about to be sent: after a crash, the release found by tag is the service's own. */
  async markCreateSent(db: Executor, linkId: string, tag: string): Promise<void> {
    await db.updateTable('github_release_syncs').set({ create_sent_at: new Date() }).where('link_id', '=', linkId).where('tag', '=', tag).execute();
  },

  /** GitHub holds what version `wanted` asked for; later changes (a higher `wanted`) stay behind. */
  async markSynced(db: Executor, linkId: string, tag: string, wanted: number, release: { id: number | null; createdByService: boolean }): Promise<void> {
    const now = new Date();
    await db
      .updateTable('github_release_syncs')
      .set({
        synced: sql<number>`GREATEST(synced, ${wanted}::int)`,
        release_id: release.id,
        created_by_service: release.createdByService,
        create_sent_at: null,
        last_synced_at: now,
        last_attempt_at: now,
        last_error: null,
      })
      .where('link_id', '=', linkId)
      .where('tag', '=', tag)
      .execute();
  },

  async markFailed(db: Executor, linkId: string, tag: string, error: string): Promise<void> {
    await db
      .updateTable('github_release_syncs')
      .set({ last_error: error, last_attempt_at: new Date() })
      .where('link_id', '=', linkId)
      .where('tag', '=', tag)
      .execute();
  },

  /** Queues again every tag of the link that is behind (the dashboard's Retry, permissions granted). */
  async requeue(db: Executor, linkId: string): Promise<number> {
    const result = await db
      .updateTable('github_release_syncs')
      .set({ queued: sql<number>`synced` })
      .where('link_id', '=', linkId)
      .whereRef('synced', '<', 'wanted')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /**
   * Queues again what waits on every link of these (the installation's permissions changed): their
   * tags behind and their CHANGELOG.md pull request, which a refused permission left queued but unsynced.
   */
  async requeueLinks(db: Executor, linkIds: readonly string[]): Promise<{ releases: number; changelogs: number }> {
    if (!linkIds.length) return { releases: 0, changelogs: 0 };
    const result = await db
      .updateTable('github_release_syncs')
      .set({ queued: sql<number>`synced` })
      .where('link_id', 'in', linkIds)
      .whereRef('synced', '<', 'wanted')
      .executeTakeFirst();
    const changelogs = await db
      .updateTable('github_link_publishing')
      .set({ changelog_queued: sql<number>`changelog_synced` })
      .where('link_id', 'in', linkIds)
      .where('changelog_pr', '=', true)
      .whereRef('changelog_synced', '<', 'changelog_wanted')
      .executeTakeFirst();
    return { releases: Number(result.numUpdatedRows), changelogs: Number(changelogs.numUpdatedRows) };
  },

  /** The dashboard's line: tags behind, the last sync, the newest error. */
  async status(
    db: Executor,
    linkId: string,
  ): Promise<{ behind: number; lastSyncedAt: Date | null; lastError: { tag: string; error: string; at: Date | null } | null }> {
    const counts = await db
      .selectFrom('github_release_syncs')
      .select([sql<string>`count(*) FILTER (WHERE synced < wanted)`.as('behind'), sql<Date | null>`max(last_synced_at)`.as('last_synced_at')])
      .where('link_id', '=', linkId)
      .executeTakeFirstOrThrow();
    const failed = await db
      .selectFrom('github_release_syncs')
      .select(['tag', 'last_error', 'last_attempt_at'])
      .where('link_id', '=', linkId)
      .where('last_error', 'is not', null)
      .orderBy('last_attempt_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return {
      behind: Number(counts.behind),
      lastSyncedAt: counts.last_synced_at ? new Date(counts.last_synced_at) : null,
      lastError: failed?.last_error ? { tag: failed.tag, error: failed.last_error, at: failed.last_attempt_at } : null,
    };
  },
};
