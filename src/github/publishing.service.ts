import { repeatPass } from '../queue/repeat.js';
import { secondsUntil } from './link-target.js';
import type { PublishedRelease } from '../changelog/changelog.repository.js';
import type { ReleasesService } from '../changelog/releases.service.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { GitHubLinkPublishingRow, GitHubReleaseSyncRow, PrChecksMode, RepoLinkRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import { isBot, matchesAuthor } from '../generation/engine/people.js';
import type { GeneratedJson } from '../generation/engine/types.js';
import { resolveSettings, type SettingsInput } from '../generation/settings.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { JobQueue } from '../queue/queue.js';
import type { ReposService } from '../repos/repos.service.js';
import { GitHubWriteError, type GitHubRelease, type GitHubReleaseFields, type GitHubWrites } from './github.client.js';
import { githubRepository } from './github.repository.js';
import { publishingRepository } from './publishing.repository.js';
import { hasSection, releaseSection, withoutSection, withSection } from './release-body.js';

/** Tags one job brings up to date; more are left to the next job, queued at once. */
const TAGS_PER_JOB = 50;
/** Syncs the dispatcher queues per pass. */
const DISPATCH_BATCH = 500;

/** Said where the setting is, and in the error when GitHub refuses: what the App must be granted. */
export const RELEASES_PERMISSION_HINT =
  'Publishing to GitHub Releases needs the GitHub App\'s "Contents: Read and write" repository permission ' +
  '(GitHub → Settings → Developer settings → GitHub Apps → the app → Permissions), accepted on the installation.';

export const CHECKS_PERMISSION_HINT =
  'Pull-request checks need the GitHub App\'s "Checks: Read and write" and "Pull requests: Read-only" permissions and its ' +
  '"Pull request" webhook event, accepted on the installation.';

export const CHANGELOG_PR_PERMISSION_HINT =
  'The CHANGELOG.md pull request needs the GitHub App\'s "Contents: Read and write" and "Pull requests: Read and write" permissions.';

export const PR_CHECK_MODES: readonly PrChecksMode[] = ['off', 'report', 'blocking'];

export interface LinkPublishing {
  releases: boolean;
  changelogPr: { on: boolean; number: number | null; syncedAt: Date | null; error: string | null };
  prChecks: PrChecksMode;
  prChecksError: string | null;
  prChecksAt: Date | null;
  sync: { behind: number; lastSyncedAt: Date | null; lastError: { tag: string; error: string; at: Date | null } | null };
}

/** The repository of a GitHub link and the installation GitHub knows it by, or why there is none. */
type Target = { ok: true; installationId: number; owner: string; repo: string; repoUrl: string } | { ok: false; problem: string };

/**
 * Publishing to GitHub for GitHub links: the per-link settings, and the GitHub Releases of published
 * release notes. Which notes are wanted is decided in the database: a trigger on release_notes
 * (migrations/0040) marks a tag whenever what readers see of its note changes — every publish,
 * unpublish, edit, archive and `auto` regeneration goes through the entries service, the one writer
 * of publication, and so through that table. The worker's dispatcher queues a `github-release-sync`
 * job per link, which reads the *published* row (never a draft or a pending revision) and makes the
 * tag's release say it. Each step is idempotent, so a job that crashed anywhere is simply run again.
 */
export function createPublishingService(deps: {
  db: Db;
  config: Config;
  github: GitHubWrites | null;
  repos: Pick<ReposService, 'link' | 'commitAuthors' | 'linkOfProject' | 'linksOfInstallations'>;
  /** Published notes read from the primary: a replica could lag behind the publish that queued the sync. */
  releases: Pick<ReleasesService, 'publishedNote'>;
  projects: Pick<ProjectsService, 'byId'>;
  jobs: JobQueue;
}) {
  const { db, config, repos, releases, jobs } = deps;

  async function targetOf(link: RepoLinkRow): Promise<Target> {
    if (link.kind !== 'github' || !link.installation_id || !link.repo_owner || !link.repo_name) return { ok: false, problem: 'not a GitHub link' };
    if (!deps.github) return { ok: false, problem: 'GitHub is not configured on this server (GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY)' };
    const installation = await githubRepository.findInstallation(db, link.installation_id);
    if (!installation || installation.status !== 'active') {
      return { ok: false, problem: `the GitHub installation of ${link.repo_owner}/${link.repo_name} is ${installation?.status ?? 'gone'}` };
    }
    return {
      ok: true,
      installationId: Number(installation.scm_installation_id),
      owner: link.repo_owner,
      repo: link.repo_name,
      repoUrl: `${config.github.webUrl}/${link.repo_owner}/${link.repo_name}`,
    };
  }

  /** What the service's section of the tag's release says now. */
  async function sectionOf(link: RepoLinkRow, target: Extract<Target, { ok: true }>, note: PublishedRelease): Promise<string> {
    const project = await deps.projects.byId(link.project_id);
    // The people the note would name: no bots, none the project's settings exclude (as generation leaves them out).
    const { excludeAuthors } = resolveSettings((project?.generation_settings ?? {}) as SettingsInput);
    const contributors = (await repos.commitAuthors(link.project_id, note.commit_shas)).filter((c) => !isBot(c) && !matchesAuthor(c, excludeAuthors));
    return releaseSection({
      repoUrl: target.repoUrl,
      tag: note.tag!,
      previousTag: note.previous_tag,
      introduction: note.introduction,
      generatedJson: note.generated_json as GeneratedJson,
      contributors,
      noteUrl: `${config.publicUrl}/c/${project?.slug ?? ''}/releases/${encodeURIComponent(note.tag!)}`,
    });
  }

  /** A release is the service's when it created it, or (after a crash mid-create) when it holds nothing but the service's text. */
  const isOurs = (sync: GitHubReleaseSyncRow, release: GitHubRelease) =>
    sync.created_by_service || (sync.create_sent_at !== null && hasSection(release.body) && withoutSection(release.body) === '');

  /** Makes the GitHub Release of one tag say what its published note says (or withdraws the service's text). */
  async function syncTag(link: RepoLinkRow, target: Extract<Target, { ok: true }>, sync: GitHubReleaseSyncRow): Promise<void> {
    const github = deps.github!;
    const { installationId, owner, repo } = target;
    const note = await releases.publishedNote(link.project_id, sync.tag);
    let release = sync.release_id !== null ? await github.getRelease(installationId, owner, repo, Number(sync.release_id)) : null;
    // A release found by tag is published (GitHub's by-tag read skips drafts); one the service made draft is found by id above.
    release ??= await github.getReleaseByTag(installationId, owner, repo, sync.tag);

    if (note && note.tag !== null) {
      const section = await sectionOf(link, target, note);
      if (!release) {
        if (!(await github.hasTag(installationId, owner, repo, sync.tag))) {
          throw new GitHubWriteError(
            'not_found',
            `Tag ${sync.tag} is not on GitHub (${owner}/${repo}): no release was created (GitHub would make the tag at the default branch)`,
          );
        }
        await publishingRepository.markCreateSent(db, link.id, sync.tag);
        const created = await github.createRelease(installationId, owner, repo, sync.tag, {
          name: note.title,
          body: section,
          prerelease: note.prerelease,
          draft: false,
        });
        await publishingRepository.markSynced(db, link.id, sync.tag, sync.wanted, { id: created.id, createdByService: true });
        return;
      }
      const ours = isOurs(sync, release);
      const fields: GitHubReleaseFields = {};
      const body = ours ? section : withSection(release.body, section);
      if (body !== (release.body ?? '')) fields.body = body;
      if (ours) {
        if (release.name !== note.title) fields.name = note.title;
        if (release.prerelease !== note.prerelease) fields.prerelease = note.prerelease;
        if (release.draft) fields.draft = false;
      } else {
        // The owners' release: their name stays unless they left none; a pre-release version is said so.
        if (!release.name?.trim()) fields.name = note.title;
        if (note.prerelease && !release.prerelease) fields.prerelease = true;
      }
      if (Object.keys(fields).length) release = await github.updateRelease(installationId, owner, repo, release.id, fields);
      await publishingRepository.markSynced(db, link.id, sync.tag, sync.wanted, { id: release.id, createdByService: ours });
      return;
    }

    // Unpublished, archived or gone: the service's text leaves the release. A release the service
    // created is marked draft (hidden, reversible, its assets kept); anyone else's stays as it is.
    if (release) {
      const ours = isOurs(sync, release);
      const fields: GitHubReleaseFields = {};
      const body = withoutSection(release.body);
      if (hasSection(release.body) || (ours && body !== (release.body ?? ''))) fields.body = body;
      if (ours && !release.draft) fields.draft = true;
      if (Object.keys(fields).length) release = await github.updateRelease(installationId, owner, repo, release.id, fields);
      await publishingRepository.markSynced(db, link.id, sync.tag, sync.wanted, { id: release.id, createdByService: ours });
      return;
    }
    await publishingRepository.markSynced(db, link.id, sync.tag, sync.wanted, { id: null, createdByService: false });
  }

  const service = {
    /** The link's publishing settings and the state of its releases' sync (the project page). */
    async linkPublishing(linkId: string): Promise<LinkPublishing> {
      const row = await publishingRepository.settings(db, linkId);
      return {
        releases: row?.releases ?? false,
        changelogPr: {
          on: row?.changelog_pr ?? false,
          number: row?.changelog_pr_number ?? null,
          syncedAt: row?.changelog_synced_at ?? null,
          error: row?.changelog_error ?? null,
        },
        prChecks: row?.pr_checks ?? 'off',
        prChecksError: row?.pr_checks_error ?? null,
        prChecksAt: row?.pr_checks_at ?? null,
        sync: await publishingRepository.status(db, linkId),
      };
    },

    /**
     * Sets what a GitHub link of the project publishes. Turning releases on syncs nothing already
     * published (a whole history would flood the repository's releases): the next publish, edit or
     * unpublish of a note does. The caller has checked the user may manage the project.
     */
    async configure(
      projectId: string,
      linkId: string,
      input: { releases: boolean; prChecks: string; changelogPr?: boolean },
    ): Promise<GitHubLinkPublishingRow> {
      const link = await repos.linkOfProject(projectId, linkId);
      if (link.kind !== 'github') throw new AppError('unprocessable', 'Only GitHub links publish to GitHub');
      if (!(PR_CHECK_MODES as readonly string[]).includes(input.prChecks)) {
        throw new AppError('invalid_request', `prChecks must be one of ${PR_CHECK_MODES.join(', ')}`, [
          { in: 'body', parameter: 'prChecks', message: 'unknown mode' },
        ]);
      }
      return publishingRepository.saveSettings(db, {
        linkId: link.id,
        projectId,
        releases: input.releases,
        prChecks: input.prChecks as PrChecksMode,
        changelogPr: input.changelogPr ?? false,
      });
    },

    /** The dashboard's Retry: queues every tag of the link that GitHub has not caught up with. */
    async retryReleases(projectId: string, linkId: string): Promise<number> {
      const link = await repos.linkOfProject(projectId, linkId);
      const n = await publishingRepository.requeue(db, link.id);
      // This link's job only: a request of one tenant does not run the dispatcher's pass over all of them.
      await service.dispatchPending(link.id);
      return n;
    },

    /**
     * An installation accepted new permissions (GitHub's `installation` `new_permissions_accepted`):
     * what a missing permission stopped is queued again: how many release notes and CHANGELOG.md pull requests.
     */
    async permissionsChanged(installationId: string): Promise<{ releases: number; changelogs: number }> {
      const links = await repos.linksOfInstallations([installationId]);
      return publishingRepository.requeueLinks(
        db,
        links.map((l) => l.id),
      );
    },

    /** Queues a `github-release-sync` job per link with tags behind (of `linkId` only, when given), then records them queued. */
    async dispatchPending(linkId?: string): Promise<number> {
      const rows = await publishingRepository.unqueued(db, DISPATCH_BATCH, linkId);
      const links = [...new Set(rows.map((r) => r.link_id))];
      // Sent before recorded: a crash in between sends a link's job twice, which syncs nothing twice.
      for (const linkId of links) await jobs.send('github-release-sync', { linkId }, { key: linkId });
      await publishingRepository.markQueued(db, rows);
      return links.length;
    },

    /** Runs dispatchPending every `intervalMs` until the returned stop is called (the worker runs it). */
    startDispatcher(intervalMs: number, onError: (error: unknown) => void = () => {}): () => Promise<void> {
      return repeatPass(() => service.dispatchPending(), intervalMs, onError);
    },

    /**
     * One run of a link's `github-release-sync` job. A rate limit sends the job again for when the
     * limit resets (the attempt is not counted as a failure); a refusal (a missing permission, a tag
     * GitHub lacks) is recorded and waits for the next change or Retry; anything else is recorded and
     * thrown, so that the queue retries with back-off.
     */
    async syncLink(linkId: string): Promise<{ synced: number; problem: string | null }> {
      const link = await repos.link(linkId);
      const settings = link ? await publishingRepository.settings(db, link.id) : undefined;
      if (!link || !settings?.releases) return { synced: 0, problem: null };
      const target = await targetOf(link);
      const behind = await publishingRepository.behind(db, link.id, TAGS_PER_JOB);
      if (!target.ok) {
        for (const sync of behind) await publishingRepository.markFailed(db, link.id, sync.tag, `Not synced: ${target.problem}`);
        return { synced: 0, problem: target.problem };
      }
      let synced = 0;
      for (const sync of behind) {
        try {
          await syncTag(link, target, sync);
          synced++;
        } catch (error) {
          if (!(error instanceof GitHubWriteError)) {
            await publishingRepository.markFailed(db, link.id, sync.tag, 'The sync failed inside the service; it is retried');
            throw error;
          }
          if (error.kind === 'rate_limited' && error.retryAt) {
            await publishingRepository.markFailed(db, link.id, sync.tag, error.message);
            await jobs.send('github-release-sync', { linkId }, { key: linkId, startAfterSeconds: secondsUntil(error.retryAt) });
            return { synced, problem: error.message };
          }
          if (error.kind === 'forbidden') {
            const message = `${error.message}. ${RELEASES_PERMISSION_HINT}`;
            await publishingRepository.markFailed(db, link.id, sync.tag, message);
            // The next tags would be refused alike: they wait for the permission (Retry, or the next change).
            return { synced, problem: message };
          }
          if (error.kind === 'not_found') {
            await publishingRepository.markFailed(db, link.id, sync.tag, error.message);
            continue;
          }
          await publishingRepository.markFailed(db, link.id, sync.tag, error.message);
          throw error;
        }
      }
      // More than one job's worth: the rest at once, as a job of its own (not when none went through,
      // which would only read the same refused tags again).
      if (behind.length === TAGS_PER_JOB && synced > 0) await jobs.send('github-release-sync', { linkId }, { key: linkId });
      return { synced, problem: null };
    },
  };
  return service;
}

export type PublishingService = ReturnType<typeof createPublishingService>;
