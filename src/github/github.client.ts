import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/core';
import { exchangeWebFlowCode } from '@octokit/oauth-methods';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import type { GitHubConfig } from '../config.js';
import { AppError } from '../errors.js';
import type { PullRequestInfo } from '../generation/engine/pull-requests.js';

const AppOctokit = Octokit.plugin(paginateRest);
type AppOctokitInstance = InstanceType<typeof AppOctokit>;

/** The largest answer read from GitHub: a page of 100 repositories is about 600 KB. */
export const GITHUB_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Pages followed in one listing: 10,000 repositories of an installation, 1,000 installations of a user. */
export const GITHUB_MAX_PAGES = { repositories: 100, userInstallations: 10 } as const;

/**
 * The largest GraphQL answer read: a page of 50 merged pull requests whose bodies are at GitHub's
 * 65,536-character limit, every character escaped, is about 20 MB (a typical page is tens of KB).
 */
export const GITHUB_MAX_GRAPHQL_BYTES = 32 * 1024 * 1024;
/** What is kept of a pull request's description (bytes of UTF-8), of its labels and of its commits. */
export const PULL_REQUEST_LIMITS = { bodyBytes: 64 * 1024, labels: 50, commits: 250, pageSize: 50 } as const;
/** GraphQL's largest page of a connection: a pull request's commits past it take a query of their own. */
const GRAPHQL_PAGE = 100;

/** A request to GitHub that went over its budget: no answer in time, or too large an answer. */
class GitHubBudgetError extends Error {}

/**
 * `fetch` for Octokit under a budget: the request and its whole answer within `timeoutMs`, at most
 * `maxBytes` read. The answer is read here, so a stall or an overflow fails the request: Octokit
 * itself would take a body that fails mid-read for an empty one. GitHub (or an Enterprise Server)
 * that hangs or streams without end then costs a caller, a dashboard request or an ingest, this much.
 */
export function budgetedFetch(timeoutMs: number, maxBytes = GITHUB_MAX_RESPONSE_BYTES): typeof fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    // Aborted on an overflow too: the connection is closed, not kept for the next request.
    const overflow = new AbortController();
    const signal = AbortSignal.any([deadline, overflow.signal, ...(init?.signal ? [init.signal] : [])]);
    const overBudget = (error: unknown) =>
      deadline.aborted ? new GitHubBudgetError(`no complete answer within ${timeoutMs} ms (GITHUB_TIMEOUT_MS)`) : error;
    let response: Response;
    try {
      response = await fetch(input, { ...init, signal });
    } catch (error) {
      throw overBudget(error);
    }
    const tooLarge = () => {
      overflow.abort();
      return new GitHubBudgetError(`an answer over ${maxBytes} bytes`);
    };
    if (Number(response.headers.get('content-length')) > maxBytes) throw tooLarge();
    const chunks: Uint8Array[] = [];
    if (response.body) {
      let total = 0;
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          total += value.byteLength;
          if (total > maxBytes) throw tooLarge();
          chunks.push(value);
        }
      } catch (error) {
        throw error instanceof GitHubBudgetError ? error : overBudget(error);
      }
    }
    const nullBody = [101, 204, 205, 304].includes(response.status);
    const read = new Response(nullBody ? null : Buffer.concat(chunks), { status: response.status, statusText: response.statusText, headers: response.headers });
    // Octokit reports the answer's URL; a constructed Response has none.
    Object.defineProperty(read, 'url', { value: response.url });
    return read;
  };
}

export interface GitHubInstallation {
  id: number;
  /** GitHub's id of the account (user or organization) the app is installed on. */
  accountId: number;
  accountLogin: string;
  accountType: string;
  /** Set while the installation is suspended. */
  suspendedAt: string | null;
}

/** A GitHub user proved through OAuth (user authorization), and whether they can access one installation. */
export interface GitHubUserProof {
  userId: number;
  login: string;
  canAccessInstallation: boolean;
}

export interface GitHubRepository {
  owner: string;
  name: string;
  fullName: string;
  cloneUrl: string;
  defaultBranch: string;
}

/** A GitHub Release as the service reads it (assets are never read nor written). */
export interface GitHubRelease {
  id: number;
  tagName: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  prerelease: boolean;
}

/** What the service may set on a release: never its assets, tag or target. */
export interface GitHubReleaseFields {
  name?: string;
  body?: string;
  prerelease?: boolean;
  draft?: boolean;
}

/** A completed check run (POST /repos/{owner}/{repo}/check-runs). */
export interface GitHubCheckRun {
  name: string;
  headSha: string;
  conclusion: 'success' | 'neutral' | 'failure';
  title: string;
  summary: string;
  text?: string;
  externalId?: string;
}

/**
 * Why a write to GitHub failed, for the caller to decide what comes next: `rate_limited` (wait until
 * `retryAt`, the installation's limit or a secondary limit), `forbidden` (the installation lacks a
 * permission, or lost the repository: retrying will not help), `not_found`, `failed` (GitHub failing,
 * unreachable or over budget: retry with back-off). The message never carries a token.
 */
export class GitHubWriteError extends Error {
  constructor(
    readonly kind: 'rate_limited' | 'forbidden' | 'not_found' | 'failed',
    message: string,
    readonly retryAt: Date | null = null,
  ) {
    super(message);
    this.name = 'GitHubWriteError';
  }
}

/** The App's writes to a repository (releases, check runs); see GitHubWriteError for failures. */
export interface GitHubWrites {
  /** The published (non-draft) release of a tag, or null (GET /repos/{o}/{r}/releases/tags/{tag}). */
  getReleaseByTag(installationId: number, owner: string, repo: string, tag: string): Promise<GitHubRelease | null>;
  /** A release by id, drafts included, or null when it is gone. */
  getRelease(installationId: number, owner: string, repo: string, releaseId: number): Promise<GitHubRelease | null>;
  createRelease(installationId: number, owner: string, repo: string, tag: string, fields: GitHubReleaseFields): Promise<GitHubRelease>;
  updateRelease(installationId: number, owner: string, repo: string, releaseId: number, fields: GitHubReleaseFields): Promise<GitHubRelease>;
  /** Whether the tag exists on GitHub: creating a release of a missing tag would make one at the default branch. */
  hasTag(installationId: number, owner: string, repo: string, tag: string): Promise<boolean>;
  createCheckRun(installationId: number, owner: string, repo: string, run: GitHubCheckRun): Promise<void>;
  /** A pull request and the first 100 paths it changes, or null when GitHub does not know it. */
  getPullRequest(installationId: number, owner: string, repo: string, number: number): Promise<GitHubPullRequest | null>;
  /** A file's text and blob sha on a branch (GET contents), or null when it is not there. */
  getFile(installationId: number, owner: string, repo: string, path: string, branch: string): Promise<{ sha: string; text: string } | null>;
  /** Writes a file on a branch (PUT contents): `sha` of the blob it replaces, none for a new file. */
  putFile(installationId: number, owner: string, repo: string, path: string, input: { branch: string; message: string; text: string; sha: string | null }): Promise<void>;
  /** The commit a branch points at, or null. */
  branchSha(installationId: number, owner: string, repo: string, branch: string): Promise<string | null>;
  /** Makes `branch` point at `sha`: created, or moved (forced) when it exists. */
  setBranch(installationId: number, owner: string, repo: string, branch: string, sha: string, exists: boolean): Promise<void>;
  /** The number of the open pull request from `head` (a branch of the repository) into `base`, or null. */
  openPullRequest(installationId: number, owner: string, repo: string, head: string, base: string): Promise<number | null>;
  createPullRequest(installationId: number, owner: string, repo: string, input: { title: string; head: string; base: string; body: string }): Promise<number>;
}

export interface GitHubPullRequest {
  number: number;
  title: string;
  body: string;
  author: string;
  headSha: string;
  baseRef: string;
  state: string;
  files: string[];
}

/** A merged pull request as one page lists it: what the engine reads, and when GitHub last changed it. */
export interface MergedPullRequest extends PullRequestInfo {
  /** ISO 8601 UTC: labels, title or body edited after the merge move it up the list. */
  updatedAt: string;
}

/** One page of a repository's merged pull requests, newest updated first, with the installation's GraphQL budget after it. */
export interface MergedPullRequestPage {
  pullRequests: MergedPullRequest[];
  /** Where the next page starts (`after`), or null on the last page. */
  endCursor: string | null;
  hasNextPage: boolean;
  rateLimit: { remaining: number; resetAt: Date; cost: number };
}

/** Reads of a repository's pull requests through the App (GraphQL); failures are GitHubWriteErrors, as for writes. */
export interface GitHubPullRequestReads {
  /**
   * A page of a repository's merged pull requests, newest updated first (POST /graphql with the
   * installation's token): `after` the previous page's endCursor, `first` at most 100. A rate limit,
   * primary (RATE_LIMITED, or 403/429 with x-ratelimit-remaining: 0) or secondary (retry-after), is a
   * `rate_limited` error with its retryAt; a missing `pull_requests: read` is `forbidden`; a
   * repository the installation cannot reach is `not_found`; anything else, a stall past
   * GITHUB_TIMEOUT_MS included, is `failed`.
   */
  mergedPullRequests(installationId: number, owner: string, repo: string, page: { after: string | null; first: number }): Promise<MergedPullRequestPage>;
}

/** The GitHub App's view of GitHub, through Octokit (app JWT and installation tokens). */
export interface GitHubClient extends GitHubWrites, GitHubPullRequestReads {
  /** The installation, or null when GitHub does not know it. */
  getInstallation(installationId: number): Promise<GitHubInstallation | null>;
  /** The repository as the installation sees it, or null when the installation cannot reach it. */
  getRepository(installationId: number, owner: string, name: string): Promise<GitHubRepository | null>;
  /** Whether the repository has this branch (GET /repos/{owner}/{repo}/branches/{branch}). */
  hasBranch(installationId: number, owner: string, name: string, branch: string): Promise<boolean>;
  /** Every repository the installation can reach (all pages). */
  listRepositories(installationId: number): Promise<GitHubRepository[]>;
  installationToken(installationId: number): Promise<string>;
  /**
   * Exchanges a user authorization `code` for a user-to-server token (at GITHUB_WEB_URL), asks who the
   * user is and whether GET /user/installations lists `installationId`; the token is then dropped.
   * Null when GitHub refuses the code (bad, expired or used).
   */
  proveUser(code: string, installationId: number | null): Promise<GitHubUserProof | null>;
  /** Whether GitHub user `userId` (`login`) is an active admin of organization `org`, asked with the installation's token. */
  isOrgAdmin(installationId: number, org: string, userId: number, login: string): Promise<boolean>;
}

const statusOf = (error: unknown): number | undefined => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
};

/** GitHub failing, unreachable or over its budget: a 502 for our caller, without GitHub's internals. */
function upstream(error: unknown, what: string): AppError {
  // Octokit wraps what its fetch threw as the cause of a RequestError (status 500, which GitHub did not send).
  const cause = (error as { cause?: unknown } | null)?.cause;
  const budget = error instanceof GitHubBudgetError ? error : cause instanceof GitHubBudgetError ? cause : null;
  if (budget) return new AppError('bad_gateway', `GitHub did not answer ${what}: ${budget.message}`);
  const status = statusOf(error);
  return new AppError('bad_gateway', `GitHub did not answer ${what}${status ? ` (status ${status})` : ''}`);
}

/** Seconds of a header, or null. */
const headerNumber = (headers: Record<string, unknown>, name: string): number | null => {
  const value = headers[name];
  const n = typeof value === 'string' || typeof value === 'number' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

/** The longest wait a rate limit's headers may ask for: a bogus header does not stop a link for days. */
const MAX_RATE_LIMIT_WAIT_MS = 60 * 60 * 1000;

/**
 * A failed write, classified as GitHub documents its answers: 429, or 403 with `retry-after` (a
 * secondary limit) or `x-ratelimit-remaining: 0` (the installation's hourly limit, until
 * `x-ratelimit-reset`), is a rate limit; any other 403 a missing permission.
 */
export function writeError(error: unknown, what: string, now = Date.now()): GitHubWriteError {
  if (error instanceof GitHubWriteError) return error;
  const status = statusOf(error);
  const response = (error as { response?: { headers?: Record<string, unknown>; data?: unknown } } | null)?.response;
  const headers = response?.headers ?? {};
  const retryAfter = headerNumber(headers, 'retry-after');
  const remaining = headerNumber(headers, 'x-ratelimit-remaining');
  const reset = headerNumber(headers, 'x-ratelimit-reset');
  if (status === 429 || (status === 403 && (retryAfter !== null || remaining === 0))) {
    const waitMs = retryAfter !== null ? retryAfter * 1000 : reset !== null ? reset * 1000 - now : 60_000;
    const retryAt = new Date(now + Math.min(Math.max(waitMs, 1000), MAX_RATE_LIMIT_WAIT_MS));
    return new GitHubWriteError('rate_limited', `GitHub's rate limit for this installation was reached ${what}: retrying after ${retryAt.toISOString()}`, retryAt);
  }
  const said = (response?.data as { message?: unknown } | undefined)?.message;
  // GitHub's own words, capped: they name the missing permission ("Resource not accessible by integration").
  const quoted = typeof said === 'string' ? ` (GitHub said: ${said.slice(0, 200)})` : '';
  if (status === 403) return new GitHubWriteError('forbidden', `GitHub refused ${what}${quoted}`);
  if (status === 404) return new GitHubWriteError('not_found', `GitHub found nothing ${what}${quoted}`);
  return new GitHubWriteError('failed', upstream(error, what).message);
}

/**
 * Merged pull requests, newest updated first (so a sync stops at the first one it has seen), with
 * what the engine reads of each and the installation's GraphQL budget. 50 labels and the first 100
 * commits a pull request (GraphQL's connection limit; a longer branch's next ones, to 250, take a
 * PULL_REQUEST_COMMITS_QUERY each): the query's node count stays far below GitHub's 500,000.
 */
export const MERGED_PULL_REQUESTS_QUERY = `query MergedPullRequests($owner: String!, $name: String!, $first: Int!, $after: String) {
  rateLimit { remaining resetAt cost }
  repository(owner: $owner, name: $name) {
    pullRequests(states: MERGED, first: $first, after: $after, orderBy: { field: UPDATED_AT, direction: DESC }) {
      pageInfo { hasNextPage endCursor }
      nodes {
        number
        title
        body
        updatedAt
        mergedAt
        author { __typename login }
        labels(first: ${PULL_REQUEST_LIMITS.labels}) { nodes { name } }
        mergeCommit { oid }
        commits(first: ${GRAPHQL_PAGE}) { pageInfo { hasNextPage endCursor } nodes { commit { oid } } }
      }
    }
  }
}`;

/** The commits of one pull request past its first page (up to PULL_REQUEST_LIMITS.commits in all). */
export const PULL_REQUEST_COMMITS_QUERY = `query PullRequestCommits($owner: String!, $name: String!, $number: Int!, $first: Int!, $after: String!) {
  rateLimit { remaining resetAt cost }
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      commits(first: $first, after: $after) { pageInfo { hasNextPage endCursor } nodes { commit { oid } } }
    }
  }
}`;

interface GraphqlCommits {
  pageInfo?: { hasNextPage?: unknown; endCursor?: unknown } | null;
  nodes?: ({ commit?: { oid?: unknown } | null } | null)[] | null;
}

interface GraphqlPullRequestNode {
  number?: unknown;
  title?: unknown;
  body?: unknown;
  updatedAt?: unknown;
  mergedAt?: unknown;
  author?: { __typename?: unknown; login?: unknown } | null;
  labels?: { nodes?: ({ name?: unknown } | null)[] | null } | null;
  mergeCommit?: { oid?: unknown } | null;
  commits?: GraphqlCommits | null;
}

interface GraphqlAnswer {
  data?: {
    rateLimit?: { remaining?: unknown; resetAt?: unknown; cost?: unknown } | null;
    repository?: {
      pullRequests?: { pageInfo?: { hasNextPage?: unknown; endCursor?: unknown }; nodes?: (GraphqlPullRequestNode | null)[] } | null;
      pullRequest?: { commits?: GraphqlCommits | null } | null;
    } | null;
  } | null;
  errors?: { type?: unknown; message?: unknown }[];
}

/** `text` cut to at most `maxBytes` of UTF-8, never inside a character. */
export function capUtf8(text: string, maxBytes: number): string {
  // Every UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4): short texts need no encoding.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Back to the start of a character: continuation bytes are 10xxxxxx.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

const SHA = /^[0-9a-f]{40}$/;
const isoOf = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
};

/** The well-formed commit SHAs of a page of a pull request's commits. */
const shasOf = (commits: GraphqlCommits | null | undefined): string[] =>
  (commits?.nodes ?? []).map((c) => c?.commit?.oid).filter((sha): sha is string => typeof sha === 'string' && SHA.test(sha));

/** Where the next page of a pull request's commits starts, or null when there is none. */
const nextCommits = (commits: GraphqlCommits | null | undefined): string | null =>
  commits?.pageInfo?.hasNextPage === true && typeof commits.pageInfo.endCursor === 'string' ? commits.pageInfo.endCursor : null;

/** A node as the engine takes it, every untrusted field checked and capped; null when it is not a merged pull request. */
export function toMergedPullRequest(node: GraphqlPullRequestNode | null): MergedPullRequest | null {
  if (!node || typeof node.number !== 'number' || !Number.isSafeInteger(node.number) || node.number < 1) return null;
  const mergedAt = isoOf(node.mergedAt);
  const updatedAt = isoOf(node.updatedAt) ?? mergedAt;
  if (!mergedAt || !updatedAt) return null;
  const login = typeof node.author?.login === 'string' ? node.author.login.slice(0, 100) : null;
  const oid = node.mergeCommit?.oid;
  return {
    number: node.number,
    title: typeof node.title === 'string' ? capUtf8(node.title, 1024) : '',
    body: typeof node.body === 'string' ? capUtf8(node.body, PULL_REQUEST_LIMITS.bodyBytes) : '',
    labels: (node.labels?.nodes ?? [])
      .map((l) => l?.name)
      .filter((name): name is string => typeof name === 'string')
      .slice(0, PULL_REQUEST_LIMITS.labels)
      .map((name) => name.slice(0, 100)),
    author: login ? { login, isBot: node.author?.__typename === 'Bot' } : null,
    mergedAt,
    mergeCommitSha: typeof oid === 'string' && SHA.test(oid) ? oid : null,
    commitShas: shasOf(node.commits).slice(0, PULL_REQUEST_LIMITS.commits),
    updatedAt,
  };
}

/**
 * GraphQL's own errors (an answer of 200): RATE_LIMITED (until the budget's reset, from the answer
 * or its headers), FORBIDDEN (a missing permission), NOT_FOUND (a repository the installation cannot
 * reach); any other is a failure. GitHub's message is quoted, capped: it names the problem.
 */
function graphqlError(answer: GraphqlAnswer, headers: Record<string, unknown>, what: string, now = Date.now()): GitHubWriteError {
  const errors = answer.errors ?? [];
  const types = new Set(errors.map((e) => e.type));
  const said = typeof errors[0]?.message === 'string' ? ` (GitHub said: ${errors[0].message.slice(0, 200)})` : '';
  if (types.has('RATE_LIMITED')) {
    const resetAt = isoOf(answer.data?.rateLimit?.resetAt);
    const reset = headerNumber(headers, 'x-ratelimit-reset');
    const waitMs = resetAt ? Date.parse(resetAt) - now : reset !== null ? reset * 1000 - now : 60_000;
    const retryAt = new Date(now + Math.min(Math.max(waitMs, 1000), MAX_RATE_LIMIT_WAIT_MS));
    return new GitHubWriteError('rate_limited', `GitHub's GraphQL rate limit for this installation was reached ${what}: retrying after ${retryAt.toISOString()}`, retryAt);
  }
  if (types.has('FORBIDDEN')) return new GitHubWriteError('forbidden', `GitHub refused ${what}${said}`);
  if (types.has('NOT_FOUND')) return new GitHubWriteError('not_found', `GitHub found nothing ${what}${said}`);
  return new GitHubWriteError('failed', `GitHub did not answer ${what}${said}`);
}

/** The installation's GraphQL budget as an answer reports it (the headers when the body lacks it). */
function rateLimitOf(answer: GraphqlAnswer, headers: Record<string, unknown>): MergedPullRequestPage['rateLimit'] {
  const body = answer.data?.rateLimit;
  const remaining = typeof body?.remaining === 'number' ? body.remaining : headerNumber(headers, 'x-ratelimit-remaining');
  const resetAt = isoOf(body?.resetAt);
  const reset = headerNumber(headers, 'x-ratelimit-reset');
  return {
    // Unknown: as if plenty were left (GitHub then refuses with RATE_LIMITED, which is handled).
    remaining: remaining ?? Number.MAX_SAFE_INTEGER,
    resetAt: resetAt ? new Date(resetAt) : reset !== null ? new Date(reset * 1000) : new Date(Date.now() + 60_000),
    cost: typeof body?.cost === 'number' ? body.cost : 1,
  };
}

interface ReleasePayload {
  id: number;
  tag_name: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  prerelease: boolean;
}

const toRelease = (data: ReleasePayload): GitHubRelease => ({
  id: data.id,
  tagName: data.tag_name,
  name: data.name ?? null,
  body: data.body ?? null,
  draft: data.draft === true,
  prerelease: data.prerelease === true,
});

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

/** What is missing for user authorization (OAuth), or an empty list when it is configured. */
export function missingOAuthConfig(config: GitHubConfig): string[] {
  const missing: string[] = [];
  if (config.clientId === null) missing.push('GITHUB_CLIENT_ID');
  if (config.clientSecret === null) missing.push('GITHUB_CLIENT_SECRET');
  return missing;
}

export function createGitHubClient(config: GitHubConfig): GitHubClient | null {
  if (missingGitHubConfig(config).length > 0) return null;
  const auth = { appId: config.appId!, privateKey: config.privateKey! };
  // Every request (installation tokens and OAuth exchanges included) goes through the budgeted fetch.
  const request = { fetch: budgetedFetch(config.timeoutMs) };
  // GraphQL pages of pull requests: the same time budget, a larger size budget (their bodies).
  const graphqlFetch = budgetedFetch(config.timeoutMs, GITHUB_MAX_GRAPHQL_BYTES);
  const app = new AppOctokit({ authStrategy: createAppAuth, auth, baseUrl: config.apiUrl, request });
  // OAuth lives on GitHub's web host, not the API host (github.com, or the Enterprise Server's root).
  const web = new Octokit({ baseUrl: config.webUrl, request });
  // One client per installation: auth-app caches its token and renews it before it expires.
  const installations = new Map<number, AppOctokitInstance>();
  const forInstallation = (installationId: number) => {
    let client = installations.get(installationId);
    if (!client) {
      client = new AppOctokit({ authStrategy: createAppAuth, auth: { ...auth, installationId }, baseUrl: config.apiUrl, request });
      installations.set(installationId, client);
    }
    return client;
  };

  /**
   * One GraphQL query with the installation's token (POST /graphql, as Octokit's graphql() sends it),
   * read here: Octokit's own errors would drop the answer's headers (a reset) and its partial data.
   * An answer with `errors` is a GitHubWriteError (graphqlError); an HTTP failure too (writeError).
   */
  async function graphql(installationId: number, query: string, variables: Record<string, unknown>, what: string): Promise<{ data: GraphqlAnswer; headers: Record<string, unknown> }> {
    let data: GraphqlAnswer;
    let headers: Record<string, unknown>;
    try {
      const response = await forInstallation(installationId).request('POST /graphql', { query, variables, request: { fetch: graphqlFetch } });
      data = (response.data ?? {}) as GraphqlAnswer;
      headers = response.headers as Record<string, unknown>;
    } catch (error) {
      throw writeError(error, what);
    }
    if (data.errors?.length) throw graphqlError(data, headers, what);
    return { data, headers };
  }

  return {
    async getInstallation(installationId) {
      try {
        const { data } = await app.request('GET /app/installations/{installation_id}', { installation_id: installationId });
        const account = data.account as { id?: number; login?: string; slug?: string; type?: string } | null;
        return {
          id: data.id,
          accountId: Number(account?.id ?? 0),
          accountLogin: account?.login ?? account?.slug ?? '',
          accountType: account?.type ?? (data.target_type as string),
          suspendedAt: data.suspended_at ?? null,
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

    async hasBranch(installationId, owner, name, branch) {
      try {
        await forInstallation(installationId).request('GET /repos/{owner}/{repo}/branches/{branch}', { owner, repo: name, branch });
        return true;
      } catch (error) {
        if (statusOf(error) === 404) return false;
        throw upstream(error, 'about the branch');
      }
    },

    async listRepositories(installationId) {
      try {
        let pages = 0;
        const repos = await forInstallation(installationId).paginate('GET /installation/repositories', { per_page: 100 }, (response, done) => {
          if (++pages >= GITHUB_MAX_PAGES.repositories) done();
          return response.data as unknown as RepoPayload[];
        });
        return repos.map(toRepository);
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

    async proveUser(code, installationId) {
      let token: string;
      try {
        const { authentication } = await exchangeWebFlowCode({
          clientType: 'github-app',
          clientId: config.clientId ?? '',
          clientSecret: config.clientSecret ?? '',
          code,
          request: web.request,
        });
        token = authentication.token;
      } catch (error) {
        // GitHub answers a bad, expired or used code with an OAuth error (400 here). The error object
        // carries the request, client secret included: it is never logged or passed on.
        if (statusOf(error) === 400) return null;
        throw upstream(error, 'when exchanging the authorization code');
      }
      try {
        const user = new AppOctokit({ auth: token, baseUrl: config.apiUrl, request });
        const { data: me } = await user.request('GET /user');
        let canAccessInstallation = false as boolean;
        if (installationId !== null) {
          // Not listed within the pages read is not proved.
          let pages = 0;
          await user.paginate('GET /user/installations', { per_page: 100 }, (response, done) => {
            const page = response.data as unknown as { id: number }[];
            if (page.some((i) => i.id === installationId)) canAccessInstallation = true;
            if (canAccessInstallation || ++pages >= GITHUB_MAX_PAGES.userInstallations) done();
            return [];
          });
        }
        return { userId: Number(me.id), login: me.login, canAccessInstallation };
      } catch (error) {
        throw upstream(error, 'about the authorized user');
      }
    },

    async getReleaseByTag(installationId, owner, repo, tag) {
      try {
        const { data } = await forInstallation(installationId).request('GET /repos/{owner}/{repo}/releases/tags/{tag}', { owner, repo, tag });
        return toRelease(data as ReleasePayload);
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw writeError(error, `about the release of ${tag}`);
      }
    },

    async getRelease(installationId, owner, repo, releaseId) {
      try {
        const { data } = await forInstallation(installationId).request('GET /repos/{owner}/{repo}/releases/{release_id}', { owner, repo, release_id: releaseId });
        return toRelease(data as ReleasePayload);
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw writeError(error, `about release ${releaseId}`);
      }
    },

    async createRelease(installationId, owner, repo, tag, fields) {
      try {
        const { data } = await forInstallation(installationId).request('POST /repos/{owner}/{repo}/releases', { owner, repo, tag_name: tag, ...fields });
        return toRelease(data as ReleasePayload);
      } catch (error) {
        throw writeError(error, `to create the release of ${tag}`);
      }
    },

    async updateRelease(installationId, owner, repo, releaseId, fields) {
      try {
        const { data } = await forInstallation(installationId).request('PATCH /repos/{owner}/{repo}/releases/{release_id}', { owner, repo, release_id: releaseId, ...fields });
        return toRelease(data as ReleasePayload);
      } catch (error) {
        throw writeError(error, `to update release ${releaseId}`);
      }
    },

    async hasTag(installationId, owner, repo, tag) {
      try {
        // `tags/` literally in the path: Octokit would encode the slash of a `ref` parameter.
        await forInstallation(installationId).request('GET /repos/{owner}/{repo}/git/ref/tags/{tag}', { owner, repo, tag });
        return true;
      } catch (error) {
        if (statusOf(error) === 404) return false;
        throw writeError(error, `about tag ${tag}`);
      }
    },

    async createCheckRun(installationId, owner, repo, run) {
      try {
        await forInstallation(installationId).request('POST /repos/{owner}/{repo}/check-runs', {
          owner,
          repo,
          name: run.name,
          head_sha: run.headSha,
          status: 'completed',
          conclusion: run.conclusion,
          ...(run.externalId !== undefined ? { external_id: run.externalId } : {}),
          output: { title: run.title, summary: run.summary, ...(run.text !== undefined ? { text: run.text } : {}) },
        });
      } catch (error) {
        throw writeError(error, 'to create a check run');
      }
    },

    async getPullRequest(installationId, owner, repo, number) {
      try {
        const client = forInstallation(installationId);
        const { data } = await client.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { owner, repo, pull_number: number });
        // One page: a pull request's first 100 paths name its components as well as all of them would.
        const { data: files } = await client.request('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', { owner, repo, pull_number: number, per_page: 100 });
        return {
          number: data.number,
          title: data.title,
          body: data.body ?? '',
          author: data.user?.login ?? 'ghost',
          headSha: data.head.sha,
          baseRef: data.base.ref,
          state: data.state,
          files: (files as { filename: string }[]).map((f) => f.filename),
        };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw writeError(error, `about pull request #${number}`);
      }
    },

    async mergedPullRequests(installationId, owner, repo, page) {
      const what = `about the merged pull requests of ${owner}/${repo}`;
      const { data, headers } = await graphql(installationId, MERGED_PULL_REQUESTS_QUERY, { owner, name: repo, first: Math.min(Math.max(1, page.first), 100), after: page.after }, what);
      const connection = data.data?.repository?.pullRequests;
      if (!connection) throw graphqlError(data, headers, what);
      let rateLimit = rateLimitOf(data, headers);
      const pullRequests: MergedPullRequest[] = [];
      for (const node of connection.nodes ?? []) {
        const pr = toMergedPullRequest(node);
        if (!pr) continue;
        pullRequests.push(pr);
        // A long branch: its commits past the first page, to PULL_REQUEST_LIMITS.commits, a query a page.
        let after = nextCommits(node?.commits);
        while (after !== null && pr.commitShas.length < PULL_REQUEST_LIMITS.commits) {
          const first = Math.min(GRAPHQL_PAGE, PULL_REQUEST_LIMITS.commits - pr.commitShas.length);
          const more = await graphql(installationId, PULL_REQUEST_COMMITS_QUERY, { owner, name: repo, number: pr.number, first, after }, `about the commits of pull request #${pr.number}`);
          const commits = more.data.data?.repository?.pullRequest?.commits;
          if (!commits) throw graphqlError(more.data, more.headers, `about the commits of pull request #${pr.number}`);
          pr.commitShas.push(...shasOf(commits).slice(0, first));
          rateLimit = rateLimitOf(more.data, more.headers);
          after = nextCommits(commits);
        }
      }
      const endCursor = typeof connection.pageInfo?.endCursor === 'string' ? connection.pageInfo.endCursor : null;
      return { pullRequests, endCursor, hasNextPage: connection.pageInfo?.hasNextPage === true && endCursor !== null, rateLimit };
    },

    async getFile(installationId, owner, repo, path, branch) {
      try {
        const { data } = await forInstallation(installationId).request('GET /repos/{owner}/{repo}/contents/{path}', { owner, repo, path, ref: branch });
        const file = data as { type?: string; sha: string; content?: string; encoding?: string };
        if (file.type !== 'file') return null;
        return { sha: file.sha, text: Buffer.from(file.content ?? '', 'base64').toString('utf8') };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw writeError(error, `about ${path}`);
      }
    },

    async putFile(installationId, owner, repo, path, input) {
      try {
        await forInstallation(installationId).request('PUT /repos/{owner}/{repo}/contents/{path}', {
          owner,
          repo,
          path,
          branch: input.branch,
          message: input.message,
          content: Buffer.from(input.text, 'utf8').toString('base64'),
          ...(input.sha ? { sha: input.sha } : {}),
        });
      } catch (error) {
        throw writeError(error, `to write ${path}`);
      }
    },

    async branchSha(installationId, owner, repo, branch) {
      try {
        const { data } = await forInstallation(installationId).request('GET /repos/{owner}/{repo}/git/ref/heads/{branch}', { owner, repo, branch });
        return data.object.sha;
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw writeError(error, `about branch ${branch}`);
      }
    },

    async setBranch(installationId, owner, repo, branch, sha, exists) {
      try {
        const client = forInstallation(installationId);
        if (exists) await client.request('PATCH /repos/{owner}/{repo}/git/refs/heads/{branch}', { owner, repo, branch, sha, force: true });
        else await client.request('POST /repos/{owner}/{repo}/git/refs', { owner, repo, ref: `refs/heads/${branch}`, sha });
      } catch (error) {
        throw writeError(error, `to set branch ${branch}`);
      }
    },

    async openPullRequest(installationId, owner, repo, head, base) {
      try {
        const { data } = await forInstallation(installationId).request('GET /repos/{owner}/{repo}/pulls', { owner, repo, head: `${owner}:${head}`, base, state: 'open', per_page: 1 });
        return data[0]?.number ?? null;
      } catch (error) {
        throw writeError(error, 'about the open pull requests');
      }
    },

    async createPullRequest(installationId, owner, repo, input) {
      try {
        const { data } = await forInstallation(installationId).request('POST /repos/{owner}/{repo}/pulls', { owner, repo, ...input });
        return data.number;
      } catch (error) {
        throw writeError(error, 'to open a pull request');
      }
    },

    async isOrgAdmin(installationId, org, userId, login) {
      try {
        const { data } = await forInstallation(installationId).request('GET /orgs/{org}/memberships/{username}', { org, username: login });
        return data.state === 'active' && data.role === 'admin' && data.user?.id === userId;
      } catch (error) {
        // 404: not a member; 403: the app lacks "Members: read" on the organization.
        if (statusOf(error) === 404 || statusOf(error) === 403) return false;
        throw upstream(error, 'about the organization membership');
      }
    },
  };
}
