import type { ProjectsService } from '../projects/projects.service.js';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { ProjectRow, RepoLinkRow, ScmInstallationRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { Principal } from '../context.js';
import { visibilityOf } from '../projects/projects.service.js';
import { branchNameProblem } from '../repos/names.js';
import { checkReleaseBranches, githubSourceKey, type ReposService } from '../repos/repos.service.js';
import { missingGitHubConfig, missingOAuthConfig, type GitHubClient, type GitHubInstallation } from './github.client.js';
import { githubRepository, type ContextOwner } from './github.repository.js';
import { createDeliveryHandling } from './deliveries.js';
import type { PrCheckService } from './pr-check.service.js';
import type { PublishingService } from './publishing.service.js';

export const SETUP_ACTIONS = ['install', 'update', 'request'] as const;
export type SetupAction = (typeof SETUP_ACTIONS)[number];

export interface CallbackResult {
  recorded: boolean;
  installation: ScmInstallationRow | null;
  scmInstallationId: number;
  setupAction: SetupAction;
  redirectUrl: string;
}

/** How long a "Connect GitHub" round trip may take. */
export const INSTALL_STATE_TTL_MS = 30 * 60 * 1000;

// The same words whether or not the installation exists or is claimed: nothing to learn from them.
const unproven = (_installationId: number) =>
  new AppError(
    'forbidden',
    `Cannot verify that you may act for this GitHub installation. Prove it with the \`code\` GitHub adds to ` +
      'the callback when the app requests user authorization during installation (its user must have access to the ' +
      'installation), or verify your GitHub account once in the dashboard (Settings → GitHub), or have the operator ' +
      'list the installation\'s account in GITHUB_TRUSTED_ACCOUNTS',
  );

/** The context a principal acts for. */
export function ownerOf(principal: Principal): ContextOwner {
  if (principal.kind === 'identity') return { type: 'user', userId: principal.userId };
  return principal.context;
}

const sameOwner = (installation: ScmInstallationRow, owner: ContextOwner) =>
  owner.type === 'user' ? installation.user_id === owner.userId : installation.org_id === owner.orgId;

/**
 * The GitHub App: installations and the proof that a context may claim one, verified GitHub
 * identities, and webhook deliveries (deliveries.ts). Repository links themselves belong to the repos service,
 * which this one asks to create, stop and resume them.
 */
export function createGitHubService(deps: {
  db: Db;
  config: Config;
  github: GitHubClient | null;
  repos: ReposService;
  prChecks?: Pick<PrCheckService, 'queueFromWebhook'>;
  publishing?: Pick<PublishingService, 'permissionsChanged'>;
  projects?: Pick<ProjectsService, 'defaultPullRequestUrl'>;
}) {
  const { db, config, repos } = deps;

  function requireGitHub(): GitHubClient {
    const missing = missingGitHubConfig(config.github);
    if (!deps.github || missing.length > 0) {
      throw new AppError('unavailable', `GitHub integration is not configured on this server: set ${missing.join(' and ')}`);
    }
    return deps.github;
  }

  // The state key is derived from the app's private key: secret, and present whenever GitHub is configured.
  const signState = (nonce: string) =>
    createHmac('sha256', createHash('sha256').update(`install-state:${config.github.privateKey ?? ''}`).digest())
      .update(nonce)
      .digest('base64url');
  const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

  async function consumeState(owner: ContextOwner, state: string): Promise<void> {
    const [nonce, signature] = state.split('.');
    const signed = nonce !== undefined && signature !== undefined && sameText(signature, signState(nonce));
    if (!signed || !(await githubRepository.consumeInstallState(db, nonce, owner))) {
      throw new AppError('invalid_request', 'The GitHub connection link expired or was already used; start again from "Connect GitHub"');
    }
  }

  const dashboardUrl = (installationId: string | null) =>
    `${config.publicUrl}/dashboard/settings/github${installationId ? `?installation=${installationId}` : ''}`;

  /** A GitHub user owns an installation when it is their own account, or an organization they administer. */
  async function ownedBy(
    github: GitHubClient,
    installationId: number,
    remote: GitHubInstallation,
    user: { githubUserId: number; githubLogin: string },
  ): Promise<boolean> {
    if (remote.accountType === 'User') return remote.accountId === user.githubUserId;
    return remote.accountType === 'Organization' && github.isOrgAdmin(installationId, remote.accountLogin, user.githubUserId, user.githubLogin);
  }

  const service = {
    /**
     * Records the installation GitHub sent the user back with. Account login and type come from
     * GitHub (asked with the app's JWT), never from the request.
     */
    async callback(principal: Principal, input: { installationId: number; setupAction: SetupAction; code?: string }): Promise<CallbackResult> {
      // The installation becomes the whole context's: a key limited to some projects may not do that.
      if (principal.kind !== 'api_key' || principal.scope !== 'all') {
        throw new AppError('forbidden', 'Connecting a GitHub installation acts for the whole context: use a key that is not limited to selected projects');
      }
      return service.recordInstallation(ownerOf(principal), input);
    },

    /**
     * The installation, once the caller proved it may claim it for `owner`: GitHub knows anyone's
     * installation ids, and the Setup URL can be forged, so the id alone proves nothing. Proof is a
     * user authorization code whose user GitHub lists the installation for (GET /user/installations)
     * and who owns it (their own account, or an organization they administer: a collaborator who can
     * read one repository is listed too), or the context's verified GitHub user owning it, or an
     * account the operator trusts. Otherwise 403, the same for an id that does not exist.
     */
    async provenInstallation(github: GitHubClient, owner: ContextOwner, installationId: number, code: string | undefined): Promise<GitHubInstallation> {
      if (code !== undefined) {
        const missing = missingOAuthConfig(config.github);
        if (missing.length > 0) throw new AppError('unavailable', `GitHub user authorization is not configured on this server: set ${missing.join(' and ')}`);
        const proof = await github.proveUser(code, installationId);
        if (!proof) throw new AppError('forbidden', 'GitHub did not accept the authorization code (expired, already used, or not issued to this app): authorize again');
        // The caller proved who they are on GitHub: later callbacks for this user's installations need no code.
        await githubRepository.saveIdentity(db, owner, { githubUserId: proof.userId, githubLogin: proof.login });
        if (!proof.canAccessInstallation) throw unproven(installationId);
        // GET /user/installations also lists installations the user merely reads a repository of (an
        // outside collaborator): being listed is not owning. The same rule as a verified identity.
        const remote = await github.getInstallation(installationId);
        if (!remote || !(await ownedBy(github, installationId, remote, { githubUserId: proof.userId, githubLogin: proof.login }))) {
          throw unproven(installationId);
        }
        return remote;
      }
      const remote = await github.getInstallation(installationId);
      if (remote) {
        if (config.github.trustedAccounts.includes(remote.accountLogin.toLowerCase())) return remote;
        const identity = await githubRepository.findIdentity(db, owner);
        if (identity && (await ownedBy(github, installationId, remote, identity))) return remote;
      }
      throw unproven(installationId);
    },

    async recordInstallation(owner: ContextOwner, input: { installationId: number; setupAction: SetupAction; code?: string }): Promise<CallbackResult> {
      const github = requireGitHub();
      if (input.setupAction === 'request') {
        // An organization owner has yet to approve the installation: there is nothing to record.
        return { recorded: false, installation: null, scmInstallationId: input.installationId, setupAction: 'request', redirectUrl: dashboardUrl(null) };
      }
      const remote = await service.provenInstallation(github, owner, input.installationId, input.code);

      const installation = await db.transaction().execute(async (tx) => {
        const fields = { accountLogin: remote.accountLogin, accountType: remote.accountType, setupAction: input.setupAction };
        const inserted = await githubRepository.insertInstallation(tx, { scmInstallationId: input.installationId, owner, ...fields });
        if (inserted) return inserted;
        const existing = await githubRepository.findInstallationByScmId(tx, input.installationId);
        if (!existing || !sameOwner(existing, owner)) {
          throw new AppError('conflict', `Installation ${input.installationId} is already connected to another account`);
        }
        return githubRepository.updateInstallation(tx, existing.id, { ...fields, status: 'active' });
      });
      return {
        recorded: true,
        installation,
        scmInstallationId: input.installationId,
        setupAction: input.setupAction,
        redirectUrl: dashboardUrl(installation.id),
      };
    },

    /** The GitHub user a context proved to be, if any (the dashboard's settings page). */
    async identity(owner: ContextOwner) {
      return githubRepository.findIdentity(db, owner);
    },

    /** What the server lacks to offer "Verify GitHub account", or null when it can. */
    identityProblem(): string | null {
      const missing = [...missingGitHubConfig(config.github), ...missingOAuthConfig(config.github)];
      return missing.length > 0 || !deps.github ? `set ${missing.join(' and ')} to verify GitHub accounts` : null;
    },

    /**
     * Where "Verify GitHub account" sends the user: GitHub's authorization page for the app, with a
     * signed, single-use `state` bound to the context; GitHub returns to the Setup URL with a code.
     */
    async authorizeUrl(owner: ContextOwner): Promise<string> {
      const problem = service.identityProblem();
      if (problem) throw new AppError('unavailable', `GitHub user authorization is not configured on this server: ${problem}`);
      const nonce = randomBytes(24).toString('base64url');
      await githubRepository.insertInstallState(db, nonce, owner, new Date(Date.now() + INSTALL_STATE_TTL_MS));
      const url = new URL(`${config.github.webUrl}/login/oauth/authorize`);
      url.searchParams.set('client_id', config.github.clientId!);
      url.searchParams.set('redirect_uri', `${config.publicUrl}/dashboard/settings/github/setup`);
      url.searchParams.set('state', `${nonce}.${signState(nonce)}`);
      return url.toString();
    },

    /** The dashboard's return from GitHub's authorization page: uses the state up and records who the user is on GitHub. */
    async verifyIdentity(owner: ContextOwner, input: { state: string; code: string }): Promise<{ githubLogin: string }> {
      const github = requireGitHub();
      const missing = missingOAuthConfig(config.github);
      if (missing.length > 0) throw new AppError('unavailable', `GitHub user authorization is not configured on this server: set ${missing.join(' and ')}`);
      await consumeState(owner, input.state);
      const proof = await github.proveUser(input.code, null);
      if (!proof) throw new AppError('forbidden', 'GitHub did not accept the authorization code (expired, already used, or not issued to this app): authorize again');
      await githubRepository.saveIdentity(db, owner, { githubUserId: proof.userId, githubLogin: proof.login });
      return { githubLogin: proof.login };
    },

    /** Installations of a context (the dashboard's settings page). */
    async listInstallations(owner: ContextOwner): Promise<ScmInstallationRow[]> {
      return githubRepository.listInstallations(db, owner);
    },

    /**
     * Where the dashboard's "Connect GitHub" button sends the user: the app's install page with a
     * signed, single-use `state` bound to the context (GitHub hands it back to the Setup URL).
     */
    async installUrl(owner: ContextOwner): Promise<string> {
      requireGitHub();
      if (!config.github.installUrl) throw new AppError('unavailable', 'Set GITHUB_APP_INSTALL_URL to offer "Connect GitHub"');
      const nonce = randomBytes(24).toString('base64url');
      await githubRepository.insertInstallState(db, nonce, owner, new Date(Date.now() + INSTALL_STATE_TTL_MS));
      const url = new URL(config.github.installUrl);
      url.searchParams.set('state', `${nonce}.${signState(nonce)}`);
      return url.toString();
    },

    /** What the server lacks to offer "Connect GitHub", or null when it can. */
    connectProblem(): string | null {
      const missing = missingGitHubConfig(config.github);
      if (!deps.github || missing.length > 0) return `GitHub integration is not configured on this server: set ${missing.join(' and ') || 'GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY'}`;
      if (!config.github.installUrl) return 'Set GITHUB_APP_INSTALL_URL (your GitHub App\'s public page + /installations/new) to offer "Connect GitHub"';
      return null;
    },

    /**
     * The context a signed, unused, unexpired `state` was issued for; the caller still checks the
     * user may act for it, and `completeInstall` uses the state up.
     */
    async installStateOwner(state: string): Promise<ContextOwner> {
      const [nonce, signature] = state.split('.');
      const signed = nonce !== undefined && signature !== undefined && sameText(signature, signState(nonce));
      const owner = signed ? await githubRepository.findPendingInstallState(db, nonce) : undefined;
      if (!owner) throw new AppError('invalid_request', 'The GitHub connection link expired or was already used; start again from "Connect GitHub"');
      return owner;
    },

    /**
     * The dashboard's Setup URL handler: checks the `state` (signature, not expired, not used, same
     * context), uses it up, then records the installation like the API callback.
     */
    async completeInstall(
      owner: ContextOwner,
      input: { installationId: number; setupAction: SetupAction; state: string; code?: string },
    ): Promise<CallbackResult> {
      requireGitHub();
      // The state only ties the round trip to the context (no CSRF); it proves nothing about the
      // installation, which recordInstallation verifies like the API callback.
      await consumeState(owner, input.state);
      return service.recordInstallation(owner, input);
    },

    /**
     * Links a GitHub repository the installation can reach to a project the key may see, and
     * queues its backfill. Linking the same repository and branch again returns the same link.
     * `admit` (the caller's per-tenant limit) runs once the key may see the project, before GitHub is asked.
     */
    async linkGitHubRepo(
      principal: Principal,
      projectId: string,
      input: { scmInstallationId: string; repoOwner: string; repoName: string; trackedBranch: string; releaseBranches?: string[] | undefined },
      admit: (project: ProjectRow) => Promise<void> = async () => {},
    ): Promise<{ link: RepoLinkRow; created: boolean }> {
      const github = requireGitHub();
      const problem = branchNameProblem(input.trackedBranch);
      if (problem) {
        throw new AppError('invalid_request', `Invalid trackedBranch: ${problem}`, [{ in: 'body', parameter: 'trackedBranch', message: problem }]);
      }
      const releaseBranches = checkReleaseBranches(input.releaseBranches);
      const project = await repos.visibleProject(projectId, visibilityOf(principal));
      await admit(project);
      const installation = await githubRepository.findInstallation(db, input.scmInstallationId);
      if (!installation || !sameOwner(installation, ownerOf(principal)) || installation.status === 'deleted') {
        throw new AppError('not_found', 'Installation not found');
      }
      if (installation.status !== 'active') {
        throw new AppError('unprocessable', `The GitHub installation for ${installation.account_login} is suspended`);
      }
      const sourceKey = githubSourceKey(input.repoOwner, input.repoName);
      const existing = await repos.findLink(project.id, sourceKey, input.trackedBranch);
      if (existing) return { link: await repos.applyReleaseBranches(existing, releaseBranches), created: false };

      const repo = await github.getRepository(Number(installation.scm_installation_id), input.repoOwner, input.repoName);
      if (!repo) {
        throw new AppError(
          'unprocessable',
          `The GitHub installation for ${installation.account_login} cannot reach ${input.repoOwner}/${input.repoName}: ` +
            'check the name and that the app was granted access to this repository',
        );
      }
      // The contract's default branch is `main`; a repository without it says which one it has.
      if (input.trackedBranch !== repo.defaultBranch && !(await github.hasBranch(Number(installation.scm_installation_id), repo.owner, repo.name, input.trackedBranch))) {
        throw new AppError(
          'unprocessable',
          `Branch ${input.trackedBranch} does not exist in ${repo.owner}/${repo.name}; its default branch is ${repo.defaultBranch} (send trackedBranch)`,
          [{ in: 'body', parameter: 'trackedBranch', message: `no branch ${input.trackedBranch}; the default branch is ${repo.defaultBranch}` }],
        );
      }
      // Its pull requests are linked wherever a note cites them (`(#12)`), unless the project says otherwise.
      await deps.projects?.defaultPullRequestUrl(project.id, `${config.github.webUrl}/${repo.owner}/${repo.name}/pull/{number}`);
      return repos.linkGitHubRepo({
        projectId: project.id,
        installationId: installation.id,
        repoOwner: repo.owner,
        repoName: repo.name,
        cloneUrl: repo.cloneUrl,
        sourceKey,
        trackedBranch: input.trackedBranch,
        defaultBranch: repo.defaultBranch,
        releaseBranches,
      });
    },

    /**
     * A token to fetch a GitHub link's repository with, or null when its installation is gone or not
     * active (the ingest then suspends the link).
     */
    async installationToken(installationId: string): Promise<string | null> {
      const installation = await githubRepository.findInstallation(db, installationId);
      if (!installation || installation.status !== 'active') return null;
      if (!deps.github) throw new AppError('unavailable', 'GitHub is not configured on this server');
      return deps.github.installationToken(Number(installation.scm_installation_id));
    },

  };
  return { ...service, ...createDeliveryHandling({ db, config, repos, requireGitHub, ...(deps.prChecks ? { prChecks: deps.prChecks } : {}), ...(deps.publishing ? { publishing: deps.publishing } : {}) }) };
}

export type GitHubService = ReturnType<typeof createGitHubService>;
