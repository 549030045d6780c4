import { activeGitHubTarget, secondsUntil } from './link-target.js';
import type { ReleasesService } from '../changelog/releases.service.js';
import { CHANGELOG_MD_RELEASES } from '../changelog/releases.service.js';
import type { Db } from '../db/database.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { JobQueue } from '../queue/queue.js';
import type { ReposService } from '../repos/repos.service.js';
import { GitHubWriteError, type GitHubWrites } from './github.client.js';
import { publishingRepository } from './publishing.repository.js';
import { CHANGELOG_PR_PERMISSION_HINT } from './publishing.service.js';

export const CHANGELOG_PATH = 'CHANGELOG.md';
/** The service's own branch (no slash: a ref parameter would encode it). */
export const CHANGELOG_BRANCH = 'changelog-service-update';

/**
 * Keeps a GitHub link's CHANGELOG.md current the way release-please does: the published notes as Keep a
 * Changelog (the document of GET /v1/changelog/{slug}/changelog.md) written to the service's own branch,
 * with one pull request into the tracked branch, opened once and updated after. It never writes to the
 * tracked branch, protected or not: merging is the owners' act. Each step compares before it writes, so a
 * run after a crash finishes the work without a second branch or pull request.
 */
export function createChangelogPrService(deps: {
  db: Db;
  github: GitHubWrites | null;
  repos: Pick<ReposService, 'link'>;
  projects: Pick<ProjectsService, 'byId'>;
  /** Read from the primary, as the releases' sync. */
  releases: Pick<ReleasesService, 'document'>;
  jobs: JobQueue;
}) {
  const { db, repos, jobs } = deps;

  const service = {
    /** Queues a `github-changelog-pr` job per link whose pull request is behind. */
    async dispatchPending(): Promise<number> {
      const rows = await publishingRepository.changelogUnqueued(db, 500);
      for (const row of rows) {
        await jobs.send('github-changelog-pr', { linkId: row.link_id }, { key: row.link_id });
        await publishingRepository.markChangelogQueued(db, row.link_id, row.changelog_wanted);
      }
      return rows.length;
    },

    /** One run of the job; a rate limit sends it again for the reset, a refusal is recorded, other failures thrown (retried). */
    async sync(linkId: string): Promise<{ pr: number | null; problem: string | null }> {
      const link = await repos.link(linkId);
      const settings = link ? await publishingRepository.settings(db, link.id) : undefined;
      const target = settings?.changelog_pr && deps.github ? await activeGitHubTarget(db, link) : null;
      const project = target ? await deps.projects.byId(target.link.project_id) : undefined;
      if (!link || !target || !project || !settings || !deps.github) return { pr: null, problem: null };
      const github = deps.github;
      const { scmId: id, owner, name: repo } = target;
      const base = target.link.tracked_branch;
      const wanted = settings.changelog_wanted;
      try {
        const { body } = await deps.releases.document(project.slug, 'keep-a-changelog', { limit: CHANGELOG_MD_RELEASES });
        const onBase = await github.getFile(id, owner, repo, CHANGELOG_PATH, base);
        let pr = await github.openPullRequest(id, owner, repo, CHANGELOG_BRANCH, base);
        if (onBase?.text === body && pr === null) {
          await publishingRepository.markChangelogSynced(db, link.id, wanted, null);
          return { pr: null, problem: null };
        }
        if (pr === null) {
          // A fresh start from the tracked branch: what a merged or closed pull request left is not built on.
          const head = await github.branchSha(id, owner, repo, base);
          if (!head) throw new GitHubWriteError('not_found', `Branch ${base} is not on GitHub (${owner}/${repo})`);
          const existing = await github.branchSha(id, owner, repo, CHANGELOG_BRANCH);
          if (existing !== head) await github.setBranch(id, owner, repo, CHANGELOG_BRANCH, head, existing !== null);
        }
        const onBranch = await github.getFile(id, owner, repo, CHANGELOG_PATH, CHANGELOG_BRANCH);
        if (onBranch?.text !== body) {
          // Only ever the service's branch: the tracked branch is the owners' to merge into.
          if (CHANGELOG_BRANCH === base) throw new GitHubWriteError('forbidden', "The tracked branch is the service's own branch name: nothing is written");
          await github.putFile(id, owner, repo, CHANGELOG_PATH, {
            branch: CHANGELOG_BRANCH,
            message: 'docs: update CHANGELOG.md from the published release notes',
            text: body,
            sha: onBranch?.sha ?? null,
          });
        }
        pr ??= await github.createPullRequest(id, owner, repo, {
          title: 'docs: update CHANGELOG.md',
          head: CHANGELOG_BRANCH,
          base,
          body: 'The published release notes of this project, as Keep a Changelog. The changelog service updates this pull request whenever a note is published, edited or unpublished; merge it when you like.',
        });
        await publishingRepository.markChangelogSynced(db, link.id, wanted, pr);
        return { pr, problem: null };
      } catch (error) {
        if (!(error instanceof GitHubWriteError)) throw error;
        if (error.kind === 'rate_limited' && error.retryAt) {
          await publishingRepository.markChangelogFailed(db, link.id, error.message);
          await jobs.send(
            'github-changelog-pr',
            { linkId },
            { key: linkId, startAfterSeconds: secondsUntil(error.retryAt) },
          );
          return { pr: null, problem: error.message };
        }
        if (error.kind === 'forbidden' || error.kind === 'not_found') {
          const message = `${error.message}. ${CHANGELOG_PR_PERMISSION_HINT}`;
          await publishingRepository.markChangelogFailed(db, link.id, message);
          return { pr: null, problem: message };
        }
        await publishingRepository.markChangelogFailed(db, link.id, error.message);
        throw error;
      }
    },
  };
  return service;
}

export type ChangelogPrService = ReturnType<typeof createChangelogPrService>;
