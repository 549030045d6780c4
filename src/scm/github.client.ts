import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import type { GitHubConfig } from '../config.js';
import { AppError } from '../http/errors.js';

const AppOctokit = Octokit.plugin(paginateRest);
type AppOctokitInstance = InstanceType<typeof AppOctokit>;

export interface GitHubInstallation {
  id: number;
  accountLogin: string;
  accountType: string;
}

export interface GitHubRepository {
  owner: string;
  name: string;
  fullName: string;
  cloneUrl: string;
  defaultBranch: string;
}

/** The GitHub App's view of GitHub, through Octokit (app JWT and installation tokens). */
export interface GitHubClient {
  /** The installation, or null when GitHub does not know it. */
  getInstallation(installationId: number): Promise<GitHubInstallation | null>;
  /** The repository as the installation sees it, or null when the installation cannot reach it. */
  getRepository(installationId: number, owner: string, name: string): Promise<GitHubRepository | null>;
  /** Every repository the installation can reach (all pages). */
  listRepositories(installationId: number): Promise<GitHubRepository[]>;
  installationToken(installationId: number): Promise<string>;
}

const statusOf = (error: unknown): number | undefined => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
};

/** GitHub failing or unreachable: a 502 for our caller, without GitHub's internals. */
function upstream(error: unknown, what: string): AppError {
  const status = statusOf(error);
  return new AppError('bad_gateway', `GitHub did not answer ${what}${status ? ` (status ${status})` : ''}`);
}

interface RepoPayload {
  name: string;
  full_name: string;
  owner: { login: string };
  clone_url: string;
  default_branch: string;
}

const toRepository = (data: RepoPayload): GitHubRepository => ({
  owner: data.owner.login,
  name: data.name,
  fullName: data.full_name,
  cloneUrl: data.clone_url,
  defaultBranch: data.default_branch,
});

/** What is missing for the GitHub App, or an empty list when it is configured. */
export function missingGitHubConfig(config: GitHubConfig): string[] {
  const missing: string[] = [];
  if (config.appId === null) missing.push('GITHUB_APP_ID');
  if (config.privateKey === null) missing.push('GITHUB_APP_PRIVATE_KEY');
  return missing;
}

export function createGitHubClient(config: GitHubConfig): GitHubClient | null {
  if (missingGitHubConfig(config).length > 0) return null;
  const auth = { appId: config.appId!, privateKey: config.privateKey! };
  const app = new AppOctokit({ authStrategy: createAppAuth, auth, baseUrl: config.apiUrl });
  // One client per installation: auth-app caches its token and renews it before it expires.
  const installations = new Map<number, AppOctokitInstance>();
  const forInstallation = (installationId: number) => {
    let client = installations.get(installationId);
    if (!client) {
      client = new AppOctokit({ authStrategy: createAppAuth, auth: { ...auth, installationId }, baseUrl: config.apiUrl });
      installations.set(installationId, client);
    }
    return client;
  };

  return {
    async getInstallation(installationId) {
      try {
        const { data } = await app.request('GET /app/installations/{installation_id}', { installation_id: installationId });
        const account = data.account as { login?: string; slug?: string; type?: string } | null;
        return {
          id: data.id,
          accountLogin: account?.login ?? account?.slug ?? '',
          accountType: account?.type ?? (data.target_type as string),
        };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw upstream(error, 'about the installation');
      }
    },

    async getRepository(installationId, owner, name) {
      try {
        const { data } = await forInstallation(installationId).request('GET /repos/{owner}/{repo}', { owner, repo: name });
        return toRepository(data as RepoPayload);
      } catch (error) {
        // 404: no such repository, or not one the installation was granted; 403: access revoked.
        if (statusOf(error) === 404 || statusOf(error) === 403) return null;
        throw upstream(error, 'about the repository');
      }
    },

    async listRepositories(installationId) {
      try {
        const repos = await forInstallation(installationId).paginate('GET /installation/repositories', { per_page: 100 });
        return (repos as unknown as RepoPayload[]).map(toRepository);
      } catch (error) {
        throw upstream(error, 'with the installation\'s repositories');
      }
    },

    async installationToken(installationId) {
      try {
        const result = (await forInstallation(installationId).auth({ type: 'installation' })) as { token: string };
        return result.token;
      } catch (error) {
        throw upstream(error, 'with an installation token');
      }
    },
  };
}
