import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Db, Executor } from '../db/database.js';
import type { ProjectRow, RepoLinkRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { JobQueue } from '../queue/queue.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { Visibility } from '../projects/visibility.js';
import type { InstallationTokens } from './installation-tokens.js';
import { commitsRepository } from './commits.repository.js';
import { linksRepository } from './links.repository.js';
import { branchNameProblem } from './names.js';
import { looksLikeUrl, checkRestrictedSource, STORED_LINK, type CheckedSource, type SourceGrant, type SourcePolicy } from './source-policy.js';
import { GitError } from '../git/git.js';
import { describeSource, redactSourcesIn, redactSourceUrl } from '../git/source-name.js';
import { remoteBranches, type GitSource, type RemoteBranches } from '../git/mirror.js';
import { isUuid } from '../ids.js';
import { checkReleasePatterns, matchesReleasePattern } from '../git/release-branches.js';

/**
 * A link's release-branch patterns checked (release-branches.ts); every problem at once as a 400
 * naming `releaseBranches`. Undefined stays undefined (not given: leave the link's as they are).
 */
export function checkReleaseBranches(patterns: readonly unknown[] | undefined): string[] | undefined {
  if (patterns === undefined) return undefined;
  const checked = checkReleasePatterns(patterns);
  if (checked.problems.length) {
    throw new AppError(
      'invalid_request',
      `Invalid releaseBranches: ${checked.problems[0]}${checked.problems.length > 1 ? ` (and ${checked.problems.length - 1} more)` : ''}`,
      checked.problems.map((message) => ({ parameter: 'releaseBranches', message })),
    );
  }
  return checked.patterns;
}

const samePatterns = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p, i) => p === b[i]);

/** Branches named in an error, at most. */
const BRANCHES_LISTED = 20;

const listBranches = (remote: RemoteBranches) =>
  remote.branches.slice(0, BRANCHES_LISTED).join(', ') + (remote.total > BRANCHES_LISTED ? ` (and ${remote.total - BRANCHES_LISTED} more)` : '');

function checkBranchName(branch: string): void {
  const problem = branchNameProblem(branch);
  if (problem) throw new AppError('invalid_request', `Invalid branch: ${problem}`, [{ parameter: 'branch', message: problem }]);
}

/** The branch must exist in the remote: otherwise a 422 naming it and the branches there are. */
function requireBranch(remote: RemoteBranches, branch: string, shown: string): void {
  if (remote.branches.includes(branch)) return;
  const message = remote.branches.length
    ? `Branch ${branch} does not exist in ${shown}; its branches: ${listBranches(remote)}`
    : `Branch ${branch} does not exist in ${shown}: the repository has no branches yet`;
  throw new AppError('unprocessable', message, [{ parameter: 'branch', message: `no branch ${branch}` }]);
}

/** Asks the remote for its branches; git failing (not a repository, unreachable) is a 422 with git's (redacted) words. */
async function readRemote(source: GitSource, shown: string, branch?: string): Promise<RemoteBranches> {
  try {
    return await remoteBranches(source, branch !== undefined ? { branch } : {});
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    const reason = error.timedOut
      ? error.message
      : (error.stderr
          .split('\n')
          .find((line) => line.startsWith('fatal:'))
          ?.replace(/^fatal:\s*/, '') ?? error.message);
    throw new AppError('unprocessable', `Cannot read the repository at ${shown}: ${redactSourcesIn(reason).slice(0, 300)}`);
  }
}

/** A GitHub repository's link, once the GitHub App checked the installation reaches it (src/github/). */
export interface NewGitHubLink {
  projectId: string;
  installationId: string;
  repoOwner: string;
  repoName: string;
  cloneUrl: string;
  sourceKey: string;
  trackedBranch: string;
  defaultBranch: string;
  /** Release-branch patterns, checked with `checkReleaseBranches`; undefined: none for a new link, unchanged for an existing one. */
  releaseBranches?: string[] | undefined;
}

/** `github:owner/name`, lower-cased: one link per repository and branch whatever the spelling. */
export const githubSourceKey = (owner: string, name: string) => `github:${owner}/${name}`.toLowerCase();

/**
 * Repository links of every kind and their ingest queue. The GitHub App (src/github/) decides which
 * GitHub repositories may be linked and when an installation's links stop or resume; it creates and
 * changes links through this service.
 */
export function createReposService(deps: {
  db: Db;
  jobs: JobQueue;
  projects: Pick<ProjectsService, 'findBySlug'>;
  /** What the dashboard may link (REPO_PATHS_ALLOWED, public addresses). */
  policy?: SourcePolicy;
  /** A GitHub link's fetch token (to check a new branch). */
  installationTokens?: InstallationTokens;
}) {
  const { db, jobs, projects } = deps;

  const policy: SourcePolicy = deps.policy ?? { pathsAllowed: [] };

  const enqueueIngest = async (linkId: string) => {
    // One ingest per link at a time, and the tenant's share of the worker's slots (INGEST_CONCURRENCY_PER_TENANT).
    const tenant = await linksRepository.tenantOfLink(db, linkId);
    await jobs.send('repo-ingest', { linkId }, { key: linkId, ...(tenant ? { group: tenant } : {}) });
    await linksRepository.markQueued(db, linkId);
  };

  /** Where git reaches a stored link (re-checked when it was made from the dashboard; with a token for GitHub). */
  async function sourceOf(link: RepoLinkRow): Promise<GitSource> {
    if (link.kind === 'local') return link.restricted ? (await checkRestrictedSource(link.source_url, policy, STORED_LINK)).git : { url: link.source_url };
    const token = link.installation_id && deps.installationTokens ? await deps.installationTokens.installationToken(link.installation_id) : null;
    if (!token) throw new AppError('unprocessable', 'The GitHub installation of this link is not active');
    return { url: link.source_url, token };
  }

  /** Sets a link's release-branch patterns (already checked) and queues its ingest when they changed. */
  async function applyReleaseBranches(link: RepoLinkRow, patterns: string[] | undefined): Promise<RepoLinkRow> {
    if (patterns === undefined || samePatterns(link.release_branches, patterns)) return link;
    const updated = await linksRepository.setReleaseBranches(db, link.id, patterns);
    if (!updated) throw new AppError('not_found', 'Repository link not found');
    await enqueueIngest(updated.id);
    return (await linksRepository.findLink(db, updated.id)) ?? updated;
  }

  /** A new link, or the same one (same repository and branch) with the patterns given applied. */
  async function insertLink(link: Parameters<typeof linksRepository.insertLink>[1], releaseBranches: string[] | undefined) {
    const result = await linksRepository.insertLink(db, { ...link, ...(releaseBranches ? { release_branches: releaseBranches } : {}) });
    if (result.created) {
      await enqueueIngest(result.link.id);
      return result;
    }
    return { link: await applyReleaseBranches(result.link, releaseBranches), created: false };
  }

  /** Links the checked source on `branch` (the remote's default branch when none is given), once git confirms the branch exists. */
  async function insertChecked(projectId: string, checked: CheckedSource, branch: string | undefined, restricted: boolean, releaseBranches?: string[]) {
    if (branch !== undefined) checkBranchName(branch);
    const shown = redactSourceUrl(checked.stored);
    const remote = await readRemote(checked.git, shown, branch);
    const tracked = branch ?? remote.defaultBranch;
    if (tracked === null) {
      throw new AppError(
        'unprocessable',
        `${shown} has no default branch${remote.branches.length ? `; name one of its branches: ${listBranches(remote)}` : ' (it has no branches yet)'}`,
        [{ parameter: 'branch', message: 'required: the repository has no default branch' }],
      );
    }
    requireBranch(remote, tracked, shown);
    return insertLink(
      {
        project_id: projectId,
        kind: 'local',
        installation_id: null,
        repo_owner: null,
        repo_name: null,
        source_url: checked.stored,
        source_key: `local:${checked.stored}`,
        tracked_branch: tracked,
        default_branch: remote.defaultBranch,
        restricted,
      },
      releaseBranches,
    );
  }

  return {
    enqueueIngest,

    /** The project when `visibility` may see it; otherwise 404, revealing nothing. */
    async visibleProject(projectId: string, visibility: Visibility): Promise<ProjectRow> {
      const project = await linksRepository.findVisibleProject(db, projectId, visibility);
      if (!project) throw new AppError('not_found', 'Project not found');
      return project;
    },

    async findLink(projectId: string, sourceKey: string, trackedBranch: string): Promise<RepoLinkRow | undefined> {
      return linksRepository.findLinkByKey(db, projectId, sourceKey, trackedBranch);
    },

    /** Links a GitHub repository and queues its backfill; the same repository and branch again returns the same link. */
    async linkGitHubRepo(input: NewGitHubLink): Promise<{ link: RepoLinkRow; created: boolean }> {
      return insertLink(
        {
          project_id: input.projectId,
          kind: 'github',
          installation_id: input.installationId,
          repo_owner: input.repoOwner,
          repo_name: input.repoName,
          source_url: input.cloneUrl,
          source_key: input.sourceKey,
          tracked_branch: input.trackedBranch,
          default_branch: input.defaultBranch,
        },
        input.releaseBranches,
      );
    },

    /** An existing link with these release-branch patterns (checked here); queues its ingest when they changed. */
    async setReleaseBranches(linkId: string, patterns: readonly unknown[]): Promise<RepoLinkRow> {
      const checked = checkReleaseBranches(patterns)!;
      const link = await linksRepository.findLink(db, linkId);
      if (!link) throw new AppError('not_found', `No repository link ${linkId}`);
      return applyReleaseBranches(link, checked);
    },

    applyReleaseBranches,

    /**
     * Links a repository the server reaches directly (a local path or any git URL): the CLI, run by
     * the operator, may link anything the server can read.
     */
    async linkLocalRepo(input: {
      projectSlug: string;
      source: string;
      branch?: string;
      releaseBranches?: readonly unknown[];
    }): Promise<{ link: RepoLinkRow; created: boolean }> {
      const releaseBranches = checkReleaseBranches(input.releaseBranches);
      const project = await projects.findBySlug(input.projectSlug);
      if (!project) throw new AppError('not_found', `No project with slug ${input.projectSlug}`);
      let source = input.source.trim();
      if (!looksLikeUrl(source)) {
        source = resolve(source);
        if (!existsSync(source) || !statSync(source).isDirectory()) {
          throw new AppError('invalid_request', `No directory at ${source}`, [
            { parameter: 'path', message: 'must be a git repository directory or a git URL' },
          ]);
        }
      } else if (source.startsWith('-')) {
        throw new AppError('invalid_request', 'The URL must not start with "-"', [{ parameter: 'path', message: 'must not start with "-"' }]);
      }
      return insertChecked(project.id, { stored: source, git: { url: source } }, input.branch, false, releaseBranches);
    },

    /**
     * Links a local path or a git URL given in the dashboard: a path only under REPO_PATHS_ALLOWED and
     * when `grant` allows paths, or an https URL to public addresses (source-policy.ts); every later
     * fetch checks again.
     */
    async linkFromDashboard(
      projectId: string,
      input: { source: string; branch?: string; releaseBranches?: readonly unknown[] },
      grant: SourceGrant,
    ): Promise<{ link: RepoLinkRow; created: boolean }> {
      if (input.branch !== undefined) checkBranchName(input.branch);
      const releaseBranches = checkReleaseBranches(input.releaseBranches);
      const checked = await checkRestrictedSource(input.source, policy, grant);
      return insertChecked(projectId, checked, input.branch, true, releaseBranches);
    },

    /** A link by id, or undefined (the caller already knows it may see it: a job, a webhook's installation). */
    async link(linkId: string): Promise<RepoLinkRow | undefined> {
      return isUuid(linkId) ? linksRepository.findLink(db, linkId) : undefined;
    },

    /**
     * The people behind some of a project's commits (authors, then co-authors, once each by e-mail, in
     * commit order): a release's contributors. At most `limit` commits are read.
     */
    async commitAuthors(projectId: string, shas: readonly string[], limit = 2_000): Promise<{ name: string; email: string }[]> {
      const rows = await commitsRepository.authorsOf(db, projectId, shas, limit);
      const seen = new Map<string, { name: string; email: string }>();
      const add = (name: string, email: string) => {
        const key = email.toLowerCase();
        if (!seen.has(key)) seen.set(key, { name, email });
      };
      for (const row of rows) add(row.author_name, row.author_email);
      for (const row of rows) {
        let coAuthors: unknown;
        try {
          coAuthors = JSON.parse(row.co_authors);
        } catch {
          coAuthors = [];
        }
        if (Array.isArray(coAuthors)) for (const c of coAuthors as { name?: unknown; email?: unknown }[]) if (typeof c.email === 'string') add(String(c.name ?? ''), c.email);
      }
      return [...seen.values()];
    },

    /** A link of this project, or 404 (a link of another project does not exist here). */
    async linkOfProject(projectId: string, linkId: string): Promise<RepoLinkRow> {
      const link = isUuid(linkId) ? await linksRepository.findLink(db, linkId) : undefined;
      if (!link || link.project_id !== projectId) throw new AppError('not_found', 'Repository link not found');
      return link;
    },

    /**
     * Removes a link. Its commits stay with the project (and so do the entries made from them) unless
     * `purge`: then they are deleted and the project's entries regenerated, which archives the
     * entries nothing produces any more.
     */
    async unlink(linkId: string, options: { purge?: boolean } = {}): Promise<{ link: RepoLinkRow; purgedCommits: number }> {
      const link = await linksRepository.findLink(db, linkId);
      if (!link) throw new AppError('not_found', `No repository link ${linkId}`);
      const purgedCommits = await db.transaction().execute(async (tx) => {
        const purged = options.purge ? await commitsRepository.deleteForLink(tx, link.id) : 0;
        await linksRepository.deleteLink(tx, link.id);
        return purged;
      });
      if (purgedCommits > 0) await jobs.send('generate', { projectId: link.project_id, full: true }, { key: link.project_id });
      return { link, purgedCommits };
    },

    /** Tracks another branch (checked like a new link's) and queues the re-ingest. */
    async setBranch(linkId: string, branch: string): Promise<RepoLinkRow> {
      checkBranchName(branch);
      const link = await linksRepository.findLink(db, linkId);
      if (!link) throw new AppError('not_found', `No repository link ${linkId}`);
      if (link.tracked_branch === branch) return link;
      const source = await sourceOf(link);
      const remote = await readRemote(source, describeSource(link), branch);
      requireBranch(remote, branch, describeSource(link));
      const updated = await linksRepository.setTrackedBranch(db, link.id, branch);
      if (!updated) throw new AppError('conflict', `This repository is already linked to the project on branch ${branch}`);
      await enqueueIngest(updated.id);
      return (await linksRepository.findLink(db, updated.id)) ?? updated;
    },

    /** "Sync now": queues the link's ingest (one waits at most, whatever the clicks). */
    async syncNow(linkId: string): Promise<void> {
      const link = await linksRepository.findLink(db, linkId);
      if (!link) throw new AppError('not_found', `No repository link ${linkId}`);
      if (link.status === 'suspended') throw new AppError('unprocessable', 'The link is suspended (its GitHub installation is suspended or removed)');
      await enqueueIngest(link.id);
    },

    /** Queues the ingest of every link without push webhooks (the worker's poll); how many. */
    async pollLinks(): Promise<number> {
      const links = await linksRepository.pollableLinks(db);
      for (const link of links) await enqueueIngest(link.id);
      return links.length;
    },

    async listLinksOfProject(projectId: string) {
      return linksRepository.listLinks(db, projectId);
    },

    async commitCountsByLink(projectId: string) {
      return commitsRepository.countByLink(db, projectId);
    },

    /** Whether the entries of the project's stored commits are still to be generated (a `generate` job waits or runs). */
    generationPending: (projectId: string) => jobs.pending('generate', projectId),

    async listLinks(projectSlug: string) {
      const project = await projects.findBySlug(projectSlug);
      if (!project) throw new AppError('not_found', `No project with slug ${projectSlug}`);
      return { project, links: await linksRepository.listLinks(db, project.id) };
    },

    async commitCounts(projectId: string) {
      return commitsRepository.countForProject(db, projectId);
    },

    /** Re-queues links whose ingest never finished (the process stopped half-way). */
    async resumeUnfinished(): Promise<number> {
      const links = await linksRepository.unfinishedLinks(db);
      for (const link of links) await enqueueIngest(link.id);
      return links.length;
    },

    /**
     * Seconds since each live link last ingested successfully (since it was linked, when it never has):
     * how far behind its repository the stored history may be.
     */
    async ingestLag(now = new Date()): Promise<{ project: string; repo: string; branch: string; seconds: number }[]> {
      // One series per project, repository (named without credentials) and branch: as many as there
      // are links, which only project admins and the operator create. Two links that differ only by
      // the credential in their URL share a series, which reports the one further behind.
      const series = new Map<string, { project: string; repo: string; branch: string; seconds: number }>();
      for (const row of await linksRepository.ingestTimes(db)) {
        const lag = {
          project: row.project,
          repo: describeSource(row),
          branch: row.tracked_branch,
          seconds: Math.max(0, (now.getTime() - (row.last_ingested_at ?? row.created_at).getTime()) / 1000),
        };
        const key = JSON.stringify([lag.project, lag.repo, lag.branch]);
        if ((series.get(key)?.seconds ?? -1) < lag.seconds) series.set(key, lag);
      }
      return [...series.values()];
    },

    async linksOfInstallations(installationIds: string[]) {
      return linksRepository.linksOfInstallations(db, installationIds);
    },

    /** Queues the ingest of the live links of an installation (our id) that track this repository's branch; how many. */
    async queuePush(installationId: string, repoOwner: string, repoName: string, branch: string): Promise<number> {
      const links = await linksRepository.findGithubLinks(db, installationId, repoOwner, repoName, branch);
      // A push to a release branch (`5.x` under `*.x`) brings its tags' notes up to date too.
      const fed = (link: RepoLinkRow) => link.tracked_branch === branch || link.release_branches.some((p) => matchesReleasePattern(branch, p));
      const live = links.filter((link) => link.status !== 'suspended' && fed(link));
      for (const link of live) await enqueueIngest(link.id);
      return live.length;
    },

    /** Suspends an installation's links, in the caller's transaction when given one. */
    async suspendInstallationLinks(installationId: string, tx: Executor = db): Promise<void> {
      await linksRepository.setLinksStatusForInstallation(tx, installationId, 'suspended');
    },

    /** Sets an installation's links pending again and queues their ingest. */
    async resumeInstallationLinks(installationId: string): Promise<void> {
      const links = await linksRepository.setLinksStatusForInstallation(db, installationId, 'pending');
      for (const link of links) await enqueueIngest(link.id);
    },
  };
}

export type ReposService = ReturnType<typeof createReposService>;
