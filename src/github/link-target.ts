import type { Executor } from '../db/database.js';
import type { RepoLinkRow } from '../db/schema.js';
import { githubRepository } from './github.repository.js';

/** Where the App acts for a link: its installation (ours and GitHub's id) and repository. */
export interface GitHubTarget {
  link: RepoLinkRow;
  installationId: string;
  scmId: number;
  owner: string;
  name: string;
}

/**
 * The GitHub coordinates of a link the App may act on now, or null: not a GitHub link, suspended, or its
 * installation gone or inactive. One reading for the jobs that write to or read from GitHub.
 */
export async function activeGitHubTarget(db: Executor, link: RepoLinkRow | undefined): Promise<GitHubTarget | null> {
  if (!link || link.kind !== 'github' || !link.installation_id || !link.repo_owner || !link.repo_name || link.status === 'suspended') return null;
  const installation = await githubRepository.findInstallation(db, link.installation_id);
  if (installation?.status !== 'active') return null;
  return { link, installationId: installation.id, scmId: Number(installation.scm_installation_id), owner: link.repo_owner, name: link.repo_name };
}

/** Whole seconds until `at` (at least 1): when a job GitHub's rate limit stopped is sent again. */
export const secondsUntil = (at: Date): number => Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000));
