import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createHash, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRepo {
  owner: string;
  name: string;
  /** Where git clones it from: a local bare repository. */
  cloneUrl: string;
  defaultBranch?: string;
  /** The branches GET /repos/{o}/{r}/branches/{b} knows; default: those of the bare repository at cloneUrl (any, when there is none). */
  branches?: string[];
  /** The tags GET /repos/{o}/{r}/git/ref/tags/{tag} knows; default: those of the bare repository at cloneUrl (any, when there is none). */
  tags?: string[];
}

/** A release as GitHub stores it (the fields the REST API returns that the service may read or set). */
export interface FakeRelease {
  id: number;
  tag_name: string;
  target_commitish: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  prerelease: boolean;
  created_at: string;
  published_at: string | null;
  /** Assets someone uploaded: the service must never change them. */
  assets: { id: number; name: string; size: number }[];
}

/** A check run as POST /repos/{o}/{r}/check-runs stored it. */
export interface FakeCheckRun {
  id: number;
  repo: string;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  external_id: string | null;
  output: { title?: string; summary?: string; text?: string };
}

/** A pull request as GET /repos/{o}/{r}/pulls/{n} and its files return it. */
export interface FakePullRequest {
  number: number;
  title: string;
  body: string | null;
  user: string;
  headSha: string;
  base: string;
  state?: 'open' | 'closed';
  labels?: string[];
  files?: string[];
  /** The branch of the repository it comes from (pull requests the service opens). */
  head?: string;
  body_text?: string;
}

/** What the next matching requests get instead of GitHub's normal answer. */
export type FakeFault =
  /** GitHub's primary rate limit (403, x-ratelimit-remaining: 0, x-ratelimit-reset) or a secondary one (403 or 429 with retry-after). */
  | { kind: 'rate-limit'; status: 403 | 429; retryAfterSeconds?: number; resetInSeconds?: number }
  | { kind: 'status'; status: number }
  /** GitHub does the work, then the connection drops before the answer: the caller never learns it happened. */
  | { kind: 'drop-after' }
  /** GitHub accepts the request and never answers (nor closes the connection): a stuck upstream. */
  | { kind: 'stall' };

/** A merged pull request as GitHub's GraphQL API returns it (`repository.pullRequests(states: MERGED)`). */
export interface FakeMergedPullRequest {
  number: number;
  title: string;
  body?: string;
  labels?: string[];
  /** Null: the account was deleted (GitHub's "ghost"). */
  author?: { login: string; type: 'User' | 'Bot' | 'Organization' | 'Mannequin' } | null;
  /** ISO 8601; `updatedAt` defaults to `mergedAt`. */
  mergedAt: string;
  updatedAt?: string;
  mergeCommit?: string | null;
  /** The PR's own commits, oldest first. */
  commits?: string[];
  baseRefName?: string;
}

export interface FakeInstallation {
  id: number;
  account: { login: string; type: 'User' | 'Organization' };
  repos: FakeRepo[];
  suspended?: boolean;
  /** Logins of users GET /user/installations lists it for (a User account always sees its own). */
  users?: string[];
  /** Organization admins (GET /orgs/{org}/memberships/{username} with its installation token). */
  admins?: string[];
  /** The permissions the installation was granted; default contents: read, metadata: read. */
  permissions?: Record<string, 'read' | 'write'>;
}

export interface FakeUser {
  id: number;
  login: string;
}

/** GitHub's id of an account: stable per login, so the fake's users and installation accounts agree. */
export const accountId = (login: string) => 100_000 + Math.abs([...login.toLowerCase()].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7) % 1_000_000);

/** An RSA key pair for a test GitHub App. */
export function appKeyPair(): { privateKey: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), publicKey };
}

const b64url = (text: string) => Buffer.from(text, 'base64url');

/**
 * A local stand-in for the GitHub REST endpoints the service uses, speaking GitHub's protocol:
 * app routes need an RS256 JWT signed by the app's key (verified with its public key), other
 * routes an installation token it issued; lists paginate with a Link header.
 */
export async function startFakeGitHub(options: {
  appId: number;
  publicKey: KeyObject;
  perPage?: number;
  /** The app's OAuth client (user authorization). */
  clientId?: string;
  clientSecret?: string;
}) {
  const installations = new Map<number, FakeInstallation>();
  const tokens = new Map<string, number>();
  /** Unused authorization codes and user-to-server tokens, each to the user's login. */
  const codes = new Map<string, string>();
  const userTokens = new Map<string, string>();
  const requests: { method: string; path: string; status: number }[] = [];
  let failWith: number | null = null;
  /** Releases and check runs per repository (`owner/name`, lower case). */
  const releases = new Map<string, FakeRelease[]>();
  const checkRuns: FakeCheckRun[] = [];
  const pulls = new Map<string, FakePullRequest[]>();
  /** Merged pull requests per repository (`owner/name`, lower case), for POST /graphql. */
  const merged = new Map<string, FakeMergedPullRequest[]>();
  /** The installations' GraphQL budget (GitHub's is per installation; one is enough for the tests). */
  const graphqlLimit = { limit: 5000, remaining: 5000, resetAt: new Date(Date.now() + 3_600_000), costPerQuery: 1 };
  /** Responses held open by a `stall` fault, ended when the fake closes. */
  const stalled = new Set<ServerResponse>();
  /** Git content per repository: commits (sha → path → text) and branch heads, for contents and refs. */
  const gitState = new Map<string, { commits: Map<string, Map<string, string>>; heads: Map<string, string>; protected: Set<string> }>();
  const gitOf = (repoKey: string) => {
    let state = gitState.get(repoKey);
    if (!state) gitState.set(repoKey, (state = { commits: new Map(), heads: new Map(), protected: new Set() }));
    return state;
  };
  const blobSha = (text: string) => createHash('sha1').update(`blob ${Buffer.byteLength(text)}\0${text}`).digest('hex');
  const newSha = () => randomBytes(20).toString('hex');
  let nextId = 1000;
  const faults: { method: string; path: RegExp; fault: FakeFault; remaining: number }[] = [];
  /** Set while a request's answer is to be dropped after its work is done. */
  let dropping = false;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (dropping) {
      dropping = false;
      res.socket?.destroy();
      return status;
    }
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
    return status;
  };

  /** Null when the request carries a valid app JWT, else the reason. */
  const jwtProblem = (req: IncomingMessage): string | null => {
    const match = /^bearer (.+)$/i.exec(req.headers.authorization ?? '');
    if (!match) return 'missing bearer JWT';
    const parts = match[1]!.split('.');
    if (parts.length !== 3) return 'malformed JWT';
    const [h, p, s] = parts as [string, string, string];
    const header = JSON.parse(b64url(h).toString()) as { alg?: string };
    if (header.alg !== 'RS256') return 'JWT must be RS256';
    if (!verify('sha256', Buffer.from(`${h}.${p}`), options.publicKey, b64url(s))) return 'bad JWT signature';
    const claims = JSON.parse(b64url(p).toString()) as { iss?: unknown; iat?: number; exp?: number };
    const now = Math.floor(Date.now() / 1000);
    if (String(claims.iss) !== String(options.appId)) return 'JWT issuer is not the app';
    if (typeof claims.exp !== 'number' || claims.exp <= now || claims.exp - (claims.iat ?? 0) > 600) return 'JWT expired or too long-lived';
    if (typeof claims.iat !== 'number' || claims.iat > now + 60) return 'JWT issued in the future';
    return null;
  };

  const installationOf = (req: IncomingMessage): FakeInstallation | undefined => {
    const match = /^(?:token|bearer) (ghs_\w+)$/i.exec(req.headers.authorization ?? '');
    const id = match ? tokens.get(match[1]!) : undefined;
    return id === undefined ? undefined : installations.get(id);
  };

  const hasBranch = (repo: FakeRepo, branch: string) => {
    if (repo.branches) return repo.branches.includes(branch);
    if (!existsSync(repo.cloneUrl)) return true;
    try {
      execFileSync('git', ['--git-dir', repo.cloneUrl, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };

  const hasTag = (repo: FakeRepo, tag: string) => {
    if (repo.tags) return repo.tags.includes(tag);
    if (!existsSync(repo.cloneUrl)) return true;
    try {
      execFileSync('git', ['--git-dir', repo.cloneUrl, 'rev-parse', '--verify', '--quiet', `refs/tags/${tag}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };

  const permitted = (installation: FakeInstallation, permission: string, level: 'read' | 'write') => {
    const granted = (installation.permissions ?? { contents: 'read', metadata: 'read' })[permission];
    return granted === 'write' || (level === 'read' && granted === 'read');
  };

  const releaseJson = (repoKey: string, r: FakeRelease) => ({
    url: `${baseUrl}/repos/${repoKey}/releases/${r.id}`,
    html_url: `https://github.com/${repoKey}/releases/tag/${encodeURIComponent(r.tag_name)}`,
    id: r.id,
    node_id: `RE_${r.id}`,
    tag_name: r.tag_name,
    target_commitish: r.target_commitish,
    name: r.name,
    body: r.body,
    draft: r.draft,
    prerelease: r.prerelease,
    created_at: r.created_at,
    published_at: r.published_at,
    author: { login: 'changelog-test[bot]', type: 'Bot' },
    assets: r.assets.map((a) => ({ ...a, url: `${baseUrl}/repos/${repoKey}/releases/assets/${a.id}`, state: 'uploaded' })),
  });

  const repoJson = (repo: FakeRepo) => ({
    id: Math.abs([...`${repo.owner}/${repo.name}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7)),
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    owner: { login: repo.owner },
    private: true,
    clone_url: repo.cloneUrl,
    default_branch: repo.defaultBranch ?? 'main',
  });

  const userOf = (req: IncomingMessage): FakeUser | undefined => {
    const match = /^(?:token|bearer) (ghu_\w+)$/i.exec(req.headers.authorization ?? '');
    const login = match ? userTokens.get(match[1]!) : undefined;
    return login === undefined ? undefined : { id: accountId(login), login };
  };

  const canAccess = (login: string, installation: FakeInstallation) =>
    (installation.account.type === 'User' && installation.account.login.toLowerCase() === login.toLowerCase()) ||
    (installation.users ?? []).some((u) => u.toLowerCase() === login.toLowerCase());

  /** A page of `all` as GitHub paginates it (per_page, page, Link rel="next"). */
  const paginate = <T>(url: URL, all: T[]) => {
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), options.perPage ?? 100);
    const page = Number(url.searchParams.get('page') ?? 1);
    const headers: Record<string, string> = {};
    if (page * perPage < all.length) {
      const next = new URL(url.pathname, baseUrl);
      next.searchParams.set('per_page', String(perPage));
      next.searchParams.set('page', String(page + 1));
      headers.link = `<${next.toString()}>; rel="next"`;
    }
    return { slice: all.slice((page - 1) * perPage, page * perPage), headers };
  };

  /** GitHub's opaque connection cursor: here the position (updatedAt, number) of the node it follows. */
  const cursorOf = (pr: FakeMergedPullRequest) => Buffer.from(`cursor:v2:${pr.updatedAt ?? pr.mergedAt}|${pr.number}`).toString('base64');
  const newestUpdatedFirst = (a: FakeMergedPullRequest, b: FakeMergedPullRequest) =>
    (b.updatedAt ?? b.mergedAt).localeCompare(a.updatedAt ?? a.mergedAt) || b.number - a.number;

  /**
   * POST /graphql for the one query the service sends (merged pull requests, newest updated first),
   * answered in GitHub's shapes: `data` beside an `errors` array, `rateLimit` costed per query, a
   * primary limit spent as GitHub reports it (200 with a RATE_LIMITED error and x-ratelimit headers).
   */
  const graphql = (res: ServerResponse, installation: FakeInstallation, body: string): number => {
    let request: { query?: unknown; variables?: Record<string, unknown> };
    try {
      request = JSON.parse(body || '{}') as typeof request;
    } catch {
      return send(res, 400, { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/graphql' });
    }
    const query = typeof request.query === 'string' ? request.query : '';
    const variables = request.variables ?? {};
    const resetEpoch = Math.floor(graphqlLimit.resetAt.getTime() / 1000);
    const limitHeaders = () => ({
      'x-ratelimit-limit': String(graphqlLimit.limit),
      'x-ratelimit-remaining': String(graphqlLimit.remaining),
      'x-ratelimit-used': String(graphqlLimit.limit - graphqlLimit.remaining),
      'x-ratelimit-reset': String(resetEpoch),
      'x-ratelimit-resource': 'graphql',
    });
    if (graphqlLimit.remaining <= 0) {
      return send(res, 200, { errors: [{ type: 'RATE_LIMITED', message: `API rate limit exceeded for installation ID ${installation.id}.` }] }, limitHeaders());
    }
    const commitCursor = (index: number) => Buffer.from(`commit:${index}`).toString('base64');
    /** A page of a pull request's commits as GraphQL's connection gives it. */
    const commitPage = (commits: string[], start: number, first: number) => ({
      totalCount: commits.length,
      pageInfo: { hasNextPage: start + first < commits.length, endCursor: commits.length > start ? commitCursor(Math.min(start + first, commits.length) - 1) : null },
      nodes: commits.slice(start, start + first).map((oid) => ({ commit: { oid } })),
    });
    const repoOf = () =>
      installation.repos.find((r) => r.owner.toLowerCase() === String(variables.owner ?? '').toLowerCase() && r.name.toLowerCase() === String(variables.name ?? '').toLowerCase());
    if (/pullRequest\s*\(\s*number:/.test(query)) {
      const first = Number(variables.first);
      if (!Number.isInteger(first) || first < 1 || first > 100) {
        return send(res, 200, { errors: [{ type: 'EXCESSIVE_PAGINATION', path: ['repository', 'pullRequest', 'commits'], message: `Requesting ${String(variables.first)} records on the \`commits\` connection exceeds the \`first\` limit of 100 records.` }] });
      }
      graphqlLimit.remaining = Math.max(0, graphqlLimit.remaining - graphqlLimit.costPerQuery);
      const rateLimit = { limit: graphqlLimit.limit, cost: graphqlLimit.costPerQuery, remaining: graphqlLimit.remaining, resetAt: graphqlLimit.resetAt.toISOString() };
      const repo = repoOf();
      const found = repo && (merged.get(`${repo.owner}/${repo.name}`.toLowerCase()) ?? []).find((p) => p.number === Number(variables.number));
      if (!found) {
        return send(res, 200, { data: { rateLimit, repository: repo ? { pullRequest: null } : null }, errors: [{ type: 'NOT_FOUND', path: ['repository', 'pullRequest'], message: `Could not resolve to a PullRequest with the number of ${String(variables.number)}.` }] }, limitHeaders());
      }
      const after = typeof variables.after === 'string' ? Number(/^commit:(\d+)$/.exec(Buffer.from(variables.after, 'base64').toString())?.[1] ?? -1) : -1;
      return send(res, 200, { data: { rateLimit, repository: { pullRequest: { commits: commitPage(found.commits ?? [], after + 1, first) } } } }, limitHeaders());
    }
    if (!/pullRequests\s*\(/.test(query) || !/repository\s*\(/.test(query)) {
      return send(res, 200, { errors: [{ message: 'The fake GitHub answers only the merged pull requests query', locations: [{ line: 1, column: 1 }] }] });
    }
    const first = Number(variables.first);
    if (!Number.isInteger(first) || first < 1 || first > 100) {
      return send(res, 200, {
        errors: [{ type: 'EXCESSIVE_PAGINATION', path: ['repository', 'pullRequests'], message: `Requesting ${String(variables.first)} records on the \`pullRequests\` connection exceeds the \`first\` limit of 100 records.` }],
      });
    }
    graphqlLimit.remaining = Math.max(0, graphqlLimit.remaining - graphqlLimit.costPerQuery);
    const rateLimit = { limit: graphqlLimit.limit, cost: graphqlLimit.costPerQuery, remaining: graphqlLimit.remaining, resetAt: graphqlLimit.resetAt.toISOString(), used: graphqlLimit.limit - graphqlLimit.remaining };
    const owner = String(variables.owner ?? '');
    const name = String(variables.name ?? '');
    const repo = installation.repos.find((r) => r.owner.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === name.toLowerCase());
    if (!repo) {
      return send(res, 200, {
        data: { rateLimit, repository: null },
        errors: [{ type: 'NOT_FOUND', path: ['repository'], locations: [{ line: 3, column: 3 }], message: `Could not resolve to a Repository with the name '${owner}/${name}'.` }],
      }, limitHeaders());
    }
    if (!permitted(installation, 'pull_requests', 'read')) {
      return send(res, 200, {
        data: { rateLimit, repository: { pullRequests: null } },
        errors: [{ type: 'FORBIDDEN', path: ['repository', 'pullRequests'], locations: [{ line: 4, column: 5 }], message: 'Resource not accessible by integration' }],
      }, limitHeaders());
    }
    const labelsFirst = Number(/labels\s*\(\s*first:\s*(\d+)/.exec(query)?.[1] ?? 100);
    const commitsFirst = Number(/commits\s*\(\s*first:\s*(\$?\w+)/.exec(query)?.[1]?.replace(/^\$(\w+)$/, (_, v: string) => String(variables[v] ?? 100)) ?? 100);
    const all = [...(merged.get(`${repo.owner}/${repo.name}`.toLowerCase()) ?? [])].sort(newestUpdatedFirst);
    const after = typeof variables.after === 'string' ? variables.after : null;
    const start = after === null ? 0 : all.findIndex((pr) => cursorOf(pr) === after) + 1;
    const page = all.slice(start, start + first);
    const nodes = page.map((pr) => ({
      number: pr.number,
      title: pr.title,
      body: pr.body ?? '',
      updatedAt: pr.updatedAt ?? pr.mergedAt,
      mergedAt: pr.mergedAt,
      author: pr.author === null ? null : { __typename: pr.author?.type ?? 'User', login: pr.author?.login ?? 'octocat' },
      labels: { totalCount: (pr.labels ?? []).length, nodes: (pr.labels ?? []).slice(0, labelsFirst).map((label) => ({ name: label })) },
      mergeCommit: pr.mergeCommit === null ? null : { oid: pr.mergeCommit ?? createHash('sha1').update(`merge ${pr.number}`).digest('hex') },
      commits: commitPage(pr.commits ?? [], 0, commitsFirst),
    }));
    const pageInfo = { hasNextPage: start + first < all.length, endCursor: page.length ? cursorOf(page.at(-1)!) : null };
    return send(res, 200, { data: { rateLimit, repository: { pullRequests: { pageInfo, nodes } } } }, limitHeaders());
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): number => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const notFound = () => send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    if (failWith !== null) return send(res, failWith, { message: 'Server Error' });
    const faultAt = faults.findIndex((f) => f.remaining > 0 && f.method === req.method && f.path.test(url.pathname));
    if (faultAt >= 0) {
      const { fault } = faults[faultAt]!;
      if (--faults[faultAt]!.remaining === 0) faults.splice(faultAt, 1);
      if (fault.kind === 'rate-limit') {
        // As GitHub answers: the primary limit names its reset, a secondary limit says how long to wait.
        const reset = Math.floor(Date.now() / 1000) + (fault.resetInSeconds ?? 60);
        const headers: Record<string, string> = { 'x-ratelimit-limit': '5000', 'x-ratelimit-used': '5000', 'x-ratelimit-resource': 'core' };
        if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
        else Object.assign(headers, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) });
        const message = fault.retryAfterSeconds !== undefined ? 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' : 'API rate limit exceeded for installation ID 101.';
        return send(res, fault.status, { message, documentation_url: 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api' }, headers);
      }
      if (fault.kind === 'status') return send(res, fault.status, { message: 'Server Error' });
      if (fault.kind === 'stall') {
        stalled.add(res);
        return 0;
      }
      dropping = true;
    }

    // The OAuth web flow's token exchange (on GitHub's web host): errors come back as 200 with `error`.
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      const params: Record<string, unknown> = (req.headers['content-type'] ?? '').includes('json')
        ? (JSON.parse(body || '{}') as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(body));
      if (!options.clientId || params.client_id !== options.clientId || params.client_secret !== options.clientSecret) {
        return send(res, 200, { error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.', error_uri: 'https://docs.github.com' });
      }
      const login = codes.get(String(params.code));
      if (login === undefined) {
        return send(res, 200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.', error_uri: 'https://docs.github.com' });
      }
      codes.delete(String(params.code));
      const token = `ghu_${randomBytes(18).toString('hex')}`;
      userTokens.set(token, login);
      return send(res, 200, { access_token: token, token_type: 'bearer', scope: '', expires_in: 28800 });
    }

    if (url.pathname === '/user' || url.pathname === '/user/installations') {
      const user = userOf(req);
      if (!user) return send(res, 401, { message: 'Bad credentials' });
      if (url.pathname === '/user') return send(res, 200, { login: user.login, id: user.id, type: 'User' });
      const visible = [...installations.values()].filter((i) => canAccess(user.login, i));
      const { slice, headers } = paginate(url, visible);
      return send(
        res,
        200,
        { total_count: visible.length, installations: slice.map((i) => ({ id: i.id, account: { login: i.account.login, id: accountId(i.account.login), type: i.account.type } })) },
        headers,
      );
    }

    if (url.pathname === '/graphql') {
      if (req.method !== 'POST') return notFound();
      const installation = installationOf(req);
      if (!installation) return send(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/graphql' });
      return graphql(res, installation, body);
    }

    let m = /^\/app\/installations\/(\d+)(\/access_tokens)?$/.exec(url.pathname);
    if (m) {
      const problem = jwtProblem(req);
      if (problem) return send(res, 401, { message: problem });
      const installation = installations.get(Number(m[1]));
      if (!installation) return notFound();
      if (!m[2] && req.method === 'GET') {
        return send(res, 200, {
          id: installation.id,
          account: { login: installation.account.login, type: installation.account.type, id: accountId(installation.account.login) },
          target_type: installation.account.type,
          app_id: options.appId,
          suspended_at: installation.suspended ? new Date().toISOString() : null,
        });
      }
      if (m[2] && req.method === 'POST') {
        if (installation.suspended) return send(res, 403, { message: 'This installation has been suspended' });
        const token = `ghs_${randomBytes(18).toString('hex')}`;
        tokens.set(token, installation.id);
        return send(res, 201, {
          token,
          expires_at: new Date(Date.now() + 3_600_000).toISOString(),
          permissions: installation.permissions ?? { contents: 'read', metadata: 'read' },
          repository_selection: 'selected',
        });
      }
      return notFound();
    }

    if (url.pathname.startsWith('/repos/') || url.pathname.startsWith('/orgs/') || url.pathname === '/installation/repositories') {
      const installation = installationOf(req);
      if (!installation) return send(res, 401, { message: 'Bad credentials' });
      m = /^\/orgs\/([^/]+)\/memberships\/([^/]+)$/.exec(url.pathname);
      if (m && req.method === 'GET') {
        if (installation.account.login.toLowerCase() !== m[1]!.toLowerCase()) return notFound();
        const login = m[2]!;
        const admin = (installation.admins ?? []).some((a) => a.toLowerCase() === login.toLowerCase());
        const member = admin || (installation.users ?? []).some((u) => u.toLowerCase() === login.toLowerCase());
        if (!member) return notFound();
        return send(res, 200, { state: 'active', role: admin ? 'admin' : 'member', user: { login, id: accountId(login) }, organization: { login: m[1] } });
      }
      m = /^\/repos\/([^/]+)\/([^/]+)\/branches\/(.+)$/.exec(url.pathname);
      if (m && req.method === 'GET') {
        const repo = installation.repos.find((r) => r.owner.toLowerCase() === m![1]!.toLowerCase() && r.name.toLowerCase() === m![2]!.toLowerCase());
        return repo && hasBranch(repo, decodeURIComponent(m[3]!)) ? send(res, 200, { name: decodeURIComponent(m[3]!) }) : notFound();
      }
      m = /^\/repos\/([^/]+)\/([^/]+)$/.exec(url.pathname);
      if (m && req.method === 'GET') {
        const repo = installation.repos.find((r) => r.owner.toLowerCase() === m![1]!.toLowerCase() && r.name.toLowerCase() === m![2]!.toLowerCase());
        return repo ? send(res, 200, repoJson(repo)) : notFound();
      }
      const gitRoute = /^\/repos\/([^/]+)\/([^/]+)\/(contents|git\/ref\/heads|git\/refs\/heads|git\/refs|pulls)(?:\/(.+))?$/.exec(url.pathname);
      if (gitRoute && !(gitRoute[3] === 'pulls' && gitRoute[4] !== undefined)) {
        const repo = installation.repos.find((r) => r.owner.toLowerCase() === gitRoute[1]!.toLowerCase() && r.name.toLowerCase() === gitRoute[2]!.toLowerCase());
        if (!repo) return notFound();
        const repoKey = `${repo.owner}/${repo.name}`.toLowerCase();
        const git = gitOf(repoKey);
        const rest = gitRoute[4] === undefined ? undefined : decodeURIComponent(gitRoute[4]);
        const data = (): Record<string, unknown> => JSON.parse(body || '{}') as Record<string, unknown>;
        const refused = (permission: string) =>
          send(res, 403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' }, { 'x-accepted-github-permissions': `${permission}=write` });
        const kind = gitRoute[3];
        if (kind === 'pulls') {
          const list = pulls.get(repoKey) ?? [];
          if (req.method === 'GET') {
            if (!permitted(installation, 'pull_requests', 'read')) return refused('pull_requests');
            const head = url.searchParams.get('head');
            const base = url.searchParams.get('base');
            const state = url.searchParams.get('state') ?? 'open';
            const found = list.filter((p) => (state === 'all' || (p.state ?? 'open') === state) && (!head || `${repo.owner}:${p.head ?? ''}`.toLowerCase() === head.toLowerCase()) && (!base || p.base === base));
            return send(res, 200, found.map((p) => ({ number: p.number, state: p.state ?? 'open', title: p.title, head: { ref: p.head ?? 'feature', sha: p.headSha }, base: { ref: p.base } })));
          }
          if (req.method === 'POST') {
            if (!permitted(installation, 'pull_requests', 'write')) return refused('pull_requests');
            const input = data();
            const head = String(input.head ?? '');
            if (!git.heads.has(head) || !git.heads.has(String(input.base ?? ''))) return send(res, 422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }] });
            if (list.some((p) => (p.state ?? 'open') === 'open' && p.head === head)) {
              return send(res, 422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${repo.owner}:${head}.` }] });
            }
            const number = list.reduce((n, p) => Math.max(n, p.number), 0) + 1;
            const pr: FakePullRequest = { number, title: String(input.title ?? ''), body: String(input.body ?? ''), user: 'changelog-test[bot]', headSha: git.heads.get(head)!, base: String(input.base), head, state: 'open' };
            pulls.set(repoKey, [...list, pr]);
            return send(res, 201, { number, state: 'open', title: pr.title, head: { ref: head, sha: pr.headSha }, base: { ref: pr.base }, html_url: `https://github.com/${repoKey}/pull/${number}` });
          }
          return notFound();
        }
        if (kind === 'contents' && rest !== undefined) {
          if (req.method === 'GET') {
            if (!permitted(installation, 'contents', 'read')) return refused('contents');
            const branch = url.searchParams.get('ref') ?? repo.defaultBranch ?? 'main';
            const head = git.heads.get(branch);
            const text = head ? git.commits.get(head)?.get(rest) : undefined;
            if (text === undefined) return notFound();
            return send(res, 200, { type: 'file', encoding: 'base64', size: Buffer.byteLength(text), name: rest.split('/').at(-1), path: rest, sha: blobSha(text), content: Buffer.from(text).toString('base64') });
          }
          if (req.method === 'PUT') {
            if (!permitted(installation, 'contents', 'write')) return refused('contents');
            const input = data();
            const branch = String(input.branch ?? repo.defaultBranch ?? 'main');
            const head = git.heads.get(branch);
            if (!head) return send(res, 404, { message: `Branch ${branch} not found` });
            if (git.protected.has(branch)) return send(res, 409, { message: 'Repository rule violations found\n\nChanges must be made through a pull request.' });
            const files = new Map(git.commits.get(head));
            const current = files.get(rest);
            if (current !== undefined && input.sha !== blobSha(current)) return send(res, 409, { message: `${rest} does not match ${String(input.sha)}` });
            if (current === undefined && input.sha !== undefined) return send(res, 422, { message: 'Invalid request.\n\n"sha" wasn\'t supplied.' });
            const text = Buffer.from(String(input.content ?? ''), 'base64').toString('utf8');
            files.set(rest, text);
            const commit = newSha();
            git.commits.set(commit, files);
            git.heads.set(branch, commit);
            return send(res, current === undefined ? 201 : 200, { content: { path: rest, sha: blobSha(text) }, commit: { sha: commit, message: input.message } });
          }
          return notFound();
        }
        if (kind === 'git/ref/heads' && rest !== undefined && req.method === 'GET') {
          const head = git.heads.get(rest);
          return head ? send(res, 200, { ref: `refs/heads/${rest}`, object: { sha: head, type: 'commit' } }) : notFound();
        }
        if (kind === 'git/refs' && rest === undefined && req.method === 'POST') {
          if (!permitted(installation, 'contents', 'write')) return refused('contents');
          const input = data();
          const ref = String(input.ref ?? '');
          if (!ref.startsWith('refs/heads/') || !git.commits.has(String(input.sha))) return send(res, 422, { message: 'Invalid request' });
          const branch = ref.slice('refs/heads/'.length);
          if (git.heads.has(branch)) return send(res, 422, { message: 'Reference already exists' });
          git.heads.set(branch, String(input.sha));
          return send(res, 201, { ref, object: { sha: input.sha, type: 'commit' } });
        }
        if (kind === 'git/refs/heads' && rest !== undefined && req.method === 'PATCH') {
          if (!permitted(installation, 'contents', 'write')) return refused('contents');
          const input = data();
          if (!git.heads.has(rest) || !git.commits.has(String(input.sha))) return send(res, 422, { message: 'Reference does not exist' });
          if (git.protected.has(rest)) return send(res, 422, { message: 'Protected branch update failed' });
          git.heads.set(rest, String(input.sha));
          return send(res, 200, { ref: `refs/heads/${rest}`, object: { sha: input.sha, type: 'commit' } });
        }
        return notFound();
      }
      const pullRoute = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)(\/files)?$/.exec(url.pathname);
      if (pullRoute && req.method === 'GET') {
        const repo = installation.repos.find((r) => r.owner.toLowerCase() === pullRoute[1]!.toLowerCase() && r.name.toLowerCase() === pullRoute[2]!.toLowerCase());
        if (!repo) return notFound();
        if (!permitted(installation, 'pull_requests', 'read')) {
          return send(res, 403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' }, { 'x-accepted-github-permissions': 'pull_requests=read' });
        }
        const repoKey = `${repo.owner}/${repo.name}`.toLowerCase();
        const pr = (pulls.get(repoKey) ?? []).find((p) => p.number === Number(pullRoute[3]));
        if (!pr) return notFound();
        if (pullRoute[4]) {
          const { slice, headers } = paginate(url, (pr.files ?? []).map((filename) => ({ sha: 'e'.repeat(40), filename, status: 'modified', additions: 1, deletions: 0, changes: 1 })));
          return send(res, 200, slice, headers);
        }
        return send(res, 200, {
          url: `${baseUrl}/repos/${repoKey}/pulls/${pr.number}`,
          html_url: `https://github.com/${repoKey}/pull/${pr.number}`,
          number: pr.number,
          state: pr.state ?? 'open',
          title: pr.title,
          body: pr.body,
          user: { login: pr.user, id: accountId(pr.user), type: 'User' },
          labels: (pr.labels ?? []).map((name, i) => ({ id: i + 1, name })),
          head: { ref: 'feature', sha: pr.headSha, repo: repoJson(repo) },
          base: { ref: pr.base, sha: 'd'.repeat(40), repo: repoJson(repo) },
          draft: false,
          merged: false,
        });
      }
      const releaseRoute = /^\/repos\/([^/]+)\/([^/]+)\/(releases|git\/ref\/tags|check-runs)(?:\/(.+))?$/.exec(url.pathname);
      if (releaseRoute) {
        const repo = installation.repos.find((r) => r.owner.toLowerCase() === releaseRoute[1]!.toLowerCase() && r.name.toLowerCase() === releaseRoute[2]!.toLowerCase());
        if (!repo) return notFound();
        const repoKey = `${repo.owner}/${repo.name}`.toLowerCase();
        const list = releases.get(repoKey) ?? [];
        releases.set(repoKey, list);
        const rest = releaseRoute[4] === undefined ? undefined : decodeURIComponent(releaseRoute[4]);
        const refused = (permission: string) =>
          send(res, 403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' }, { 'x-accepted-github-permissions': `${permission}=write` });
        const input = () => JSON.parse(body || '{}') as Record<string, unknown>;
        if (releaseRoute[3] === 'git/ref/tags') {
          if (!permitted(installation, 'contents', 'read')) return refused('contents');
          return rest !== undefined && req.method === 'GET' && hasTag(repo, rest)
            ? send(res, 200, { ref: `refs/tags/${rest}`, object: { sha: 'f'.repeat(40), type: 'commit' } })
            : notFound();
        }
        if (releaseRoute[3] === 'check-runs') {
          if (rest !== undefined || req.method !== 'POST') return notFound();
          if (!permitted(installation, 'checks', 'write')) return refused('checks');
          const data = input();
          if (typeof data.name !== 'string' || typeof data.head_sha !== 'string') return send(res, 422, { message: 'Validation Failed', errors: [{ resource: 'CheckRun', code: 'missing_field' }] });
          const run: FakeCheckRun = {
            id: nextId++,
            repo: repoKey,
            name: data.name,
            head_sha: data.head_sha,
            status: String(data.status ?? 'queued'),
            conclusion: typeof data.conclusion === 'string' ? data.conclusion : null,
            external_id: typeof data.external_id === 'string' ? data.external_id : null,
            output: (data.output ?? {}) as FakeCheckRun['output'],
          };
          if ((run.output.summary ?? '').length > 65535 || (run.output.text ?? '').length > 65535) return send(res, 422, { message: 'Validation Failed', errors: [{ resource: 'CheckRun', code: 'too_long' }] });
          checkRuns.push(run);
          return send(res, 201, { ...run, html_url: `https://github.com/${repoKey}/runs/${run.id}` });
        }
        // Releases: reads need contents read, writes contents write (drafts only for writers, as on GitHub).
        if (req.method === 'GET' && rest?.startsWith('tags/')) {
          const found = list.find((r) => r.tag_name === rest.slice('tags/'.length) && !r.draft);
          return found ? send(res, 200, releaseJson(repoKey, found)) : notFound();
        }
        if (req.method === 'GET' && rest !== undefined && /^\d+$/.test(rest)) {
          const found = list.find((r) => r.id === Number(rest));
          return found && (!found.draft || permitted(installation, 'contents', 'write')) ? send(res, 200, releaseJson(repoKey, found)) : notFound();
        }
        if (req.method === 'POST' && rest === undefined) {
          if (!permitted(installation, 'contents', 'write')) return refused('contents');
          const data = input();
          const tag = data.tag_name;
          if (typeof tag !== 'string' || !tag) return send(res, 422, { message: 'Validation Failed', errors: [{ resource: 'Release', code: 'missing_field', field: 'tag_name' }] });
          if (list.some((r) => r.tag_name === tag && !r.draft)) {
            return send(res, 422, { message: 'Validation Failed', errors: [{ resource: 'Release', code: 'already_exists', field: 'tag_name' }] });
          }
          const now = new Date().toISOString();
          const release: FakeRelease = {
            id: nextId++,
            tag_name: tag,
            target_commitish: typeof data.target_commitish === 'string' ? data.target_commitish : (repo.defaultBranch ?? 'main'),
            name: typeof data.name === 'string' ? data.name : null,
            body: typeof data.body === 'string' ? data.body : null,
            draft: data.draft === true,
            prerelease: data.prerelease === true,
            created_at: now,
            published_at: data.draft === true ? null : now,
            assets: [],
          };
          if ((release.body ?? '').length > 125_000) return send(res, 422, { message: 'Validation Failed', errors: [{ resource: 'Release', code: 'custom', field: 'body', message: 'body is too long (maximum is 125000 characters)' }] });
          list.push(release);
          return send(res, 201, releaseJson(repoKey, release));
        }
        if (req.method === 'PATCH' && rest !== undefined && /^\d+$/.test(rest)) {
          if (!permitted(installation, 'contents', 'write')) return refused('contents');
          const found = list.find((r) => r.id === Number(rest));
          if (!found) return notFound();
          const data = input();
          // Only what the REST API lets a PATCH set; assets have endpoints of their own.
          if (typeof data.name === 'string') found.name = data.name;
          if (typeof data.body === 'string') found.body = data.body;
          if (typeof data.prerelease === 'boolean') found.prerelease = data.prerelease;
          if (typeof data.draft === 'boolean') {
            found.draft = data.draft;
            if (!data.draft) found.published_at ??= new Date().toISOString();
          }
          if ((found.body ?? '').length > 125_000) return send(res, 422, { message: 'Validation Failed' });
          return send(res, 200, releaseJson(repoKey, found));
        }
        return notFound();
      }
      if (url.pathname === '/installation/repositories' && req.method === 'GET') {
        const all = installation.repos;
        const { slice, headers } = paginate(url, all);
        return send(res, 200, { total_count: all.length, repository_selection: 'selected', repositories: slice.map(repoJson) }, headers);
      }
    }
    return notFound();
  };

  const server = createServer((req, res) => {
    // Read the body (token requests carry one) before answering.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = handle(req, res, Buffer.concat(chunks).toString('utf8'));
      requests.push({ method: req.method ?? '', path: req.url ?? '', status });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    requests,
    addInstallation(installation: FakeInstallation) {
      installations.set(installation.id, installation);
    },
    installation: (id: number) => installations.get(id),
    removeInstallation(id: number) {
      installations.delete(id);
    },
    /** A one-time authorization code GitHub would hand `login` after they authorize the app. */
    authorize(login: string): string {
      const code = randomBytes(10).toString('hex');
      codes.set(code, login);
      return code;
    },
    /** The releases of a repository (`owner/name`), as GitHub holds them; tests may add their own. */
    releases(repo: string): FakeRelease[] {
      const key = repo.toLowerCase();
      if (!releases.has(key)) releases.set(key, []);
      return releases.get(key)!;
    },
    /** A release someone made on GitHub (not the service), with assets if given. */
    addRelease(repo: string, release: Partial<FakeRelease> & { tag_name: string }): FakeRelease {
      const now = new Date().toISOString();
      const made: FakeRelease = { id: nextId++, target_commitish: 'main', name: null, body: null, draft: false, prerelease: false, created_at: now, published_at: now, assets: [], ...release };
      this.releases(repo).push(made);
      return made;
    },
    checkRuns,
    /** Writes a file on a branch as someone pushing would (the branch is made when new). */
    pushFile(repo: string, branch: string, path: string, text: string) {
      const git = gitOf(repo.toLowerCase());
      const files = new Map(git.commits.get(git.heads.get(branch) ?? '') ?? []);
      files.set(path, text);
      const commit = newSha();
      git.commits.set(commit, files);
      git.heads.set(branch, commit);
    },
    /** A file's text on a branch, or undefined. */
    fileOn(repo: string, branch: string, path: string): string | undefined {
      const git = gitOf(repo.toLowerCase());
      return git.commits.get(git.heads.get(branch) ?? '')?.get(path);
    },
    /** Refuses direct writes to the branch (a protected branch, or a ruleset requiring pull requests). */
    protectBranch(repo: string, branch: string) {
      gitOf(repo.toLowerCase()).protected.add(branch);
    },
    /** The pull requests of a repository. */
    pullsOf: (repo: string) => pulls.get(repo.toLowerCase()) ?? [],
    /** Merges an open pull request the service opened: its branch's files become the base's. */
    mergePull(repo: string, number: number) {
      const key = repo.toLowerCase();
      const git = gitOf(key);
      const pr = (pulls.get(key) ?? []).find((p) => p.number === number)!;
      git.heads.set(pr.base, git.heads.get(pr.head!)!);
      pr.state = 'closed';
    },
    /** Opens (or replaces) a pull request of a repository (`owner/name`). */
    setPullRequest(repo: string, pr: FakePullRequest) {
      const key = repo.toLowerCase();
      const list = pulls.get(key) ?? [];
      pulls.set(key, [...list.filter((p) => p.number !== pr.number), pr]);
    },
    /** The next `times` requests of `method` to a path matching `path` get `fault` instead of GitHub's answer. */
    fault(method: string, path: RegExp, fault: FakeFault, times = 1) {
      faults.push({ method, path, fault, remaining: times });
    },
    clearFaults() {
      faults.length = 0;
    },
    /** Every request answers with this status until set back to null (GitHub having an outage). */
    failWith(status: number | null) {
      failWith = status;
    },
    /** Adds (or replaces, by number) merged pull requests of a repository (`owner/name`), as the GraphQL API lists them. */
    addMergedPullRequests(repo: string, ...prs: FakeMergedPullRequest[]) {
      const key = repo.toLowerCase();
      const numbers = new Set(prs.map((p) => p.number));
      merged.set(key, [...(merged.get(key) ?? []).filter((p) => !numbers.has(p.number)), ...prs]);
    },
    mergedPullRequests: (repo: string) => merged.get(repo.toLowerCase()) ?? [],
    /**
     * The installation's GraphQL budget as GitHub reports it: `remaining` points until `resetInSeconds`
     * from now (0 remaining: the next query is refused with RATE_LIMITED); `cost` per query.
     */
    setGraphqlRateLimit(limit: { remaining: number; resetInSeconds?: number; cost?: number }) {
      graphqlLimit.remaining = limit.remaining;
      graphqlLimit.resetAt = new Date(Date.now() + (limit.resetInSeconds ?? 3600) * 1000);
      if (limit.cost !== undefined) graphqlLimit.costPerQuery = limit.cost;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of stalled) res.socket?.destroy();
        stalled.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type FakeGitHub = Awaited<ReturnType<typeof startFakeGitHub>>;
