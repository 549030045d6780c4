import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { ProjectRow, RepoLinkRow, RepoLinkStatus } from '../db/schema.js';
import { whereVisible, type Visibility } from '../projects/visibility.js';

/** What a new link states; the rest (id, status, ingest state, timestamps) the database fills in. */
export type NewRepoLink = Pick<
  RepoLinkRow,
  'project_id' | 'kind' | 'installation_id' | 'repo_owner' | 'repo_name' | 'source_url' | 'source_key' | 'tracked_branch' | 'default_branch'
> & { restricted?: boolean; release_branches?: string[] };

/** Repository links of every kind (a GitHub repository through an installation, a local path, a git URL) and their ingest state. */
export const linksRepository = {
  /** The project when `visibility` may see it (same rules as GET /v1/projects). */
  async findVisibleProject(db: Executor, projectId: string, visibility: Visibility): Promise<ProjectRow | undefined> {
    return whereVisible(db.selectFrom('projects as p').selectAll('p').where('p.id', '=', projectId), visibility).executeTakeFirst();
  },

  async findLink(db: Executor, id: string): Promise<RepoLinkRow | undefined> {
    return db.selectFrom('repo_links').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The tenant a link's ingests count against: its project's owner (`user:ID` or `org:ID`); null for no such link. */
  async tenantOfLink(db: Executor, id: string): Promise<string | null> {
    const row = await db
      .selectFrom('repo_links as l')
      .innerJoin('projects as p', 'p.id', 'l.project_id')
      .select(['p.owner_type', 'p.owner_user_id', 'p.owner_org_id'])
      .where('l.id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    return row.owner_type === 'org' ? `org:${row.owner_org_id}` : `user:${row.owner_user_id}`;
  },

  async findLinkByKey(db: Executor, projectId: string, sourceKey: string, branch: string): Promise<RepoLinkRow | undefined> {
    return db
      .selectFrom('repo_links')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('source_key', '=', sourceKey)
      .where('tracked_branch', '=', branch)
      .executeTakeFirst();
  },

  /** Inserts the link, or returns the existing one for the same project, repository and branch. */
  async insertLink(db: Executor, link: NewRepoLink): Promise<{ link: RepoLinkRow; created: boolean }> {
    const inserted = await db
      .insertInto('repo_links')
      .values(link)
      .onConflict((oc) => oc.columns(['project_id', 'source_key', 'tracked_branch']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { link: inserted, created: true };
    const existing = await linksRepository.findLinkByKey(db, link.project_id, link.source_key, link.tracked_branch);
    if (!existing) throw new Error('repo link vanished between insert and select');
    return { link: existing, created: false };
  },

  async listLinks(db: Executor, projectId: string): Promise<RepoLinkRow[]> {
    return db.selectFrom('repo_links').selectAll().where('project_id', '=', projectId).orderBy('created_at').execute();
  },

  /**
   * Links of one installation (our id) fed by a GitHub repository's branch, and those of the repository
   * with release-branch patterns (the service keeps the ones whose patterns match); owner and name
   * compare case-insensitively.
   */
  async findGithubLinks(db: Executor, installationId: string, owner: string, name: string, branch: string): Promise<RepoLinkRow[]> {
    return db
      .selectFrom('repo_links as l')
      .selectAll('l')
      .where('l.installation_id', '=', installationId)
      .where(sql<boolean>`lower(l.repo_owner) = lower(${owner}) AND lower(l.repo_name) = lower(${name})`)
      .where(sql<boolean>`(l.tracked_branch = ${branch} OR cardinality(l.release_branches) > 0)`)
      .execute();
  },

  async setLinkStatus(
    db: Executor,
    id: string,
    status: RepoLinkStatus,
    fields: {
      lastIngestedSha?: string;
      lastError?: string | null;
      codeowners?: string | null;
      tagsDigest?: string;
      /** A CHANGELOG.md read anew (or gone: nulls). */
      changelog?: { blob: string | null; calibration: object | null };
    } = {},
  ): Promise<void> {
    await db
      .updateTable('repo_links')
      .set({
        status,
        ...(fields.codeowners !== undefined ? { codeowners: fields.codeowners } : {}),
        ...(fields.lastIngestedSha !== undefined ? { last_ingested_sha: fields.lastIngestedSha, last_ingested_at: new Date() } : {}),
        ...(fields.lastError !== undefined ? { last_error: fields.lastError } : {}),
        ...(fields.tagsDigest !== undefined ? { tags_digest: fields.tagsDigest } : {}),
        ...(fields.changelog !== undefined
          ? { changelog_blob: fields.changelog.blob, changelog_calibration: fields.changelog.calibration ? JSON.stringify(fields.changelog.calibration) : null }
          : {}),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
  },

  /**
   * An ingest begins: the link shows it ingesting and its sync running from nothing done, in one
   * statement; the stored tags are no longer known to match a digest until it completes.
   */
  async startIngest(db: Executor, id: string): Promise<void> {
    await db
      .updateTable('repo_links')
      .set({ status: 'ingesting', sync_state: 'running', sync_done: 0, sync_total: 0, tags_digest: null, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  },

  /** Marks a link's sync queued (unless one is running: the queued job follows it). */
  async markQueued(db: Executor, id: string): Promise<void> {
    await db.updateTable('repo_links').set({ sync_state: 'queued' }).where('id', '=', id).where('sync_state', '=', 'idle').execute();
  },

  async setSyncState(
    db: Executor,
    id: string,
    fields: { state: 'idle' | 'queued' | 'running'; done?: number; total?: number; finished?: boolean; added?: number; lastError?: string | null },
  ): Promise<void> {
    await db
      .updateTable('repo_links')
      .set({
        sync_state: fields.state,
        ...(fields.done !== undefined ? { sync_done: fields.done } : {}),
        ...(fields.total !== undefined ? { sync_total: fields.total } : {}),
        ...(fields.finished ? { last_synced_at: new Date() } : {}),
        ...(fields.added !== undefined ? { last_sync_added: fields.added } : {}),
        ...(fields.lastError !== undefined ? { last_error: fields.lastError } : {}),
      })
      .where('id', '=', id)
      .execute();
  },

  async setProgress(db: Executor, id: string, done: number, total: number): Promise<void> {
    await db.updateTable('repo_links').set({ sync_done: done, sync_total: total }).where('id', '=', id).execute();
  },

  /**
   * Tracks another branch: the next ingest walks it from the last tip (a fast-forward when the new
   * branch contains it; otherwise commits not on it are marked unreachable). Undefined when the
   * project already has a link of the same repository on that branch.
   */
  async setTrackedBranch(db: Executor, id: string, branch: string): Promise<RepoLinkRow | undefined> {
    return db
      .updateTable('repo_links')
      .set({ tracked_branch: branch, status: 'pending', last_error: null, updated_at: new Date() })
      .where('id', '=', id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('repo_links as other')
              .select('other.id')
              .whereRef('other.project_id', '=', 'repo_links.project_id')
              .whereRef('other.source_key', '=', 'repo_links.source_key')
              .where('other.tracked_branch', '=', branch)
              .where('other.id', '!=', id),
          ),
        ),
      )
      .returningAll()
      .executeTakeFirst();
  },

  /** The link's release-branch patterns (validated by the service). */
  async setReleaseBranches(db: Executor, id: string, patterns: string[]): Promise<RepoLinkRow | undefined> {
    return db.updateTable('repo_links').set({ release_branches: patterns, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirst();
  },

  /** The release branches' tips an ingest read (the next one reads only what is new). */
  async setReleaseHeads(db: Executor, id: string, heads: Record<string, string>): Promise<void> {
    await db.updateTable('repo_links').set({ release_heads: JSON.stringify(heads) }).where('id', '=', id).execute();
  },

  async deleteLink(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('repo_links').where('id', '=', id).execute();
  },

  /** Links without push webhooks (local paths and plain git URLs) that are not suspended: the ones polling fetches. */
  async pollableLinks(db: Executor): Promise<RepoLinkRow[]> {
    return db.selectFrom('repo_links').selectAll().where('kind', '=', 'local').where('status', '!=', 'suspended').orderBy('created_at').execute();
  },

  async setLinksStatusForInstallation(db: Executor, installationId: string, status: RepoLinkStatus): Promise<RepoLinkRow[]> {
    return db
      .updateTable('repo_links')
      .set({ status, updated_at: new Date() })
      .where('installation_id', '=', installationId)
      .returningAll()
      .execute();
  },

  /**
   * Takes the link's ingest lease for `seconds` when nobody holds it or the holder's lapsed: `taken`,
   * `held` (by a running ingest), or `missing` (no such link). One statement, so two processes
   * cannot both take it; the database's clock decides what lapsed.
   */
  async takeIngestLease(db: Executor, id: string, token: string, seconds: number): Promise<'taken' | 'held' | 'missing'> {
    const taken = await sql<{ id: string }>`
      UPDATE repo_links SET ingest_lease = ${token}::uuid, ingest_lease_until = now() + make_interval(secs => ${seconds})
      WHERE id = ${id} AND (ingest_lease IS NULL OR ingest_lease_until < now())
      RETURNING id`.execute(db);
    if (taken.rows.length) return 'taken';
    return (await db.selectFrom('repo_links').select('id').where('id', '=', id).executeTakeFirst()) ? 'held' : 'missing';
  },

  /** Extends a lease this token holds; false when it is not held any more (it lapsed and another took it). */
  async renewIngestLease(db: Executor, id: string, token: string, seconds: number): Promise<boolean> {
    const renewed = await sql<{ id: string }>`
      UPDATE repo_links SET ingest_lease_until = now() + make_interval(secs => ${seconds})
      WHERE id = ${id} AND ingest_lease = ${token}::uuid
      RETURNING id`.execute(db);
    return renewed.rows.length > 0;
  },

  async releaseIngestLease(db: Executor, id: string, token: string): Promise<void> {
    await db.updateTable('repo_links').set({ ingest_lease: null, ingest_lease_until: null }).where('id', '=', id).where('ingest_lease', '=', token).execute();
  },

  /** Links whose last ingest did not finish (the process stopped) or never ran. */
  async unfinishedLinks(db: Executor): Promise<RepoLinkRow[]> {
    return db.selectFrom('repo_links').selectAll().where('status', 'in', ['pending', 'ingesting']).execute();
  },

  /** Per live link: its project, repository, branch and when it last ingested successfully (for /metrics). */
  async ingestTimes(db: Executor) {
    return db
      .selectFrom('repo_links as l')
      .innerJoin('projects as p', 'p.id', 'l.project_id')
      .select(['p.slug as project', 'l.kind', 'l.repo_owner', 'l.repo_name', 'l.source_url', 'l.tracked_branch', 'l.last_ingested_at', 'l.created_at'])
      .where('l.status', '!=', 'suspended')
      .execute();
  },

  /** The repositories linked through these installations, with their project's slug (the settings page). */
  async linksOfInstallations(db: Executor, installationIds: string[]) {
    if (installationIds.length === 0) return [];
    return db
      .selectFrom('repo_links as l')
      .innerJoin('projects as p', 'p.id', 'l.project_id')
      .select(['l.id', 'l.installation_id', 'l.repo_owner', 'l.repo_name', 'l.tracked_branch', 'l.status', 'p.slug as project_slug'])
      .where('l.installation_id', 'in', installationIds)
      .orderBy('l.created_at')
      .execute();
  },
};
