import { rmSync } from 'node:fs';
import type { RepoLinkRow } from '../../src/db/schema.js';
import type { ContextOwner } from '../../src/github/github.repository.js';
import { githubSourceKey } from '../../src/repos/repos.service.js';
import { createTestContext, type TestContext } from './context.js';
import { appKeyPair, startFakeGitHub, type FakeGitHub } from './fake-github.js';
import { tempDir } from './git-fixtures.js';

export const APP_ID = 4242;
export const WEBHOOK_SECRET = 'test-webhook-secret-0123456789';
export const PUBLIC_URL = 'https://changelog.example.com';
export const CLIENT_ID = 'Iv1.testclient';
export const CLIENT_SECRET = 'test-client-secret-abcdef';

export interface ScmTestContext extends TestContext {
  github: FakeGitHub;
  env: Record<string, string>;
  reposDir: string;
}

/** A fresh database, a fake GitHub on a loopback port, and the app configured as that GitHub's App. */
export async function createScmTestContext(extraEnv: Record<string, string> = {}): Promise<ScmTestContext> {
  const { privateKey, publicKey } = appKeyPair();
  const github = await startFakeGitHub({ appId: APP_ID, publicKey, perPage: 2, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  const reposDir = tempDir('mirrors');
  const env = {
    GITHUB_APP_ID: String(APP_ID),
    GITHUB_APP_PRIVATE_KEY: privateKey,
    GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
    GITHUB_API_URL: github.url,
    GITHUB_WEB_URL: github.url,
    GITHUB_CLIENT_ID: CLIENT_ID,
    GITHUB_CLIENT_SECRET: CLIENT_SECRET,
    REPOS_DIR: reposDir,
    PUBLIC_URL,
    GITHUB_APP_INSTALL_URL: 'https://github.com/apps/changelog-test/installations/new',
    ...extraEnv,
  };
  const ctx = await createTestContext(env);
  return {
    ...ctx,
    github,
    env,
    reposDir,
    async close() {
      await ctx.close();
      await github.close();
      rmSync(reposDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it returns a value that is not undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Records the fake GitHub's installation 101 for `owner` and links its repository acme/app (tracked and
 * default branch `main`) to the project: the GitHub link the publishing suites start from.
 */
export async function linkAcmeApp(ctx: ScmTestContext, owner: ContextOwner, projectId: string): Promise<{ link: RepoLinkRow }> {
  const { installation } = await ctx.services.github.recordInstallation(owner, { installationId: 101, setupAction: 'install' });
  const { link } = await ctx.services.repos.linkGitHubRepo({
    projectId,
    installationId: installation!.id,
    repoOwner: 'acme',
    repoName: 'app',
    cloneUrl: 'https://github.com/acme/app.git',
    sourceKey: githubSourceKey('acme', 'app'),
    trackedBranch: 'main',
    defaultBranch: 'main',
  });
  return { link };
}
