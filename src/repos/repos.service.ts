import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Db, Executor } from '../db/database.js';
import type { ProjectRow, RepoLinkRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { JobQueue } from '../jobs/queue.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { Visibility } from '../projects/visibility.js';
import { commitsRepository } from './commits.repository.js';
import { linksRepository } from './links.repository.js';
import { branchNameProblem } from './names.js';

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
}

/** `github:owner/name`, lower-cased: one link per repository and branch whatever the spelling. */
export const githubSourceKey = (owner: string, name: string) => `github:${owner}/${name}`.toLowerCase();

/**
 * Repository links of every kind and their ingest queue. The GitHub App (src/github/) decides which
 * GitHub repositories may be linked and when an installation's links stop or resume; it creates and
 * changes links through this service.
 */
export function createReposService(deps: { db: Db; jobs: JobQueue; projects: Pick<ProjectsService, 'findBySlug'> }) {
  const { db, jobs, projects } = deps;

  const enqueueIngest = (linkId: string) => jobs.send('repo-ingest', { linkId }, { key: linkId });

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
      const result = await linksRepository.insertLink(db, {
        project_id: input.projectId,
        kind: 'github',
        installation_id: input.installationId,
        repo_owner: input.repoOwner,
        repo_name: input.repoName,
        source_url: input.cloneUrl,
        source_key: input.sourceKey,
        tracked_branch: input.trackedBranch,
        default_branch: input.defaultBranch,
      });
      if (result.created) await enqueueIngest(result.link.id);
      return result;
    },

    /** Links a repository the server reaches directly (a local path or any git URL), for self-hosting. */
    async linkLocalRepo(input: { projectSlug: string; source: string; branch: string }): Promise<{ link: RepoLinkRow; created: boolean }> {
      const problem = branchNameProblem(input.branch);
      if (problem) throw new AppError('invalid_request', `Invalid branch: ${problem}`, [{ parameter: 'branch', message: problem }]);
      const project = await projects.findBySlug(input.projectSlug);
      if (!project) throw new AppError('not_found', `No project with slug ${input.projectSlug}`);
      let source = input.source.trim();
      const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[\w.-]+@[\w.-]+:/.test(source);
      if (!isUrl) {
        source = resolve(source);
        if (!existsSync(source) || !statSync(source).isDirectory()) {
          throw new AppError('invalid_request', `No directory at ${source}`, [{ parameter: 'path', message: 'must be a git repository directory or a git URL' }]);
        }
      }
      return linksRepository.insertLink(db, {
        project_id: project.id,
        kind: 'local',
        installation_id: null,
        repo_owner: null,
        repo_name: null,
        source_url: source,
        source_key: `local:${source}`,
        tracked_branch: input.branch,
        default_branch: null,
      });
    },

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
      const rows = await linksRepository.ingestTimes(db);
      return rows.map((row) => ({
        project: row.project,
        repo: row.kind === 'github' ? `${row.repo_owner}/${row.repo_name}` : row.source_key.replace(/^local:/, ''),
        branch: row.tracked_branch,
        seconds: Math.max(0, (now.getTime() - (row.last_ingested_at ?? row.created_at).getTime()) / 1000),
      }));
    },

    async linksOfInstallations(installationIds: string[]) {
      return linksRepository.linksOfInstallations(db, installationIds);
    },

    /** Queues the ingest of the live links of an installation (our id) that track this repository's branch; how many. */
    async queuePush(installationId: string, repoOwner: string, repoName: string, branch: string): Promise<number> {
      const links = await linksRepository.findGithubLinks(db, installationId, repoOwner, repoName, branch);
      const live = links.filter((link) => link.status !== 'suspended');
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
