import { testConfig } from '../../test/helpers/config.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createServices } from '../services.js';
import { buildOrg, buildProject, buildUser } from '../../test/helpers/factories.js';
import { cachedDatasetRepo } from '../../test/helpers/git-fixtures.js';
import { createScmTestContext, PUBLIC_URL, type ScmTestContext } from '../../test/helpers/scm.js';

let ctx: ScmTestContext;
let aliceKey: string;
let bobKey: string;
let orgKey: string;
let limitedKey: string;
let project: { id: string; slug: string };
let otherProject: { id: string; slug: string };
let bobProject: { id: string; slug: string };
const cloneUrl = () => `file://${cachedDatasetRepo()}`;

const callback = (query: string, key: string | null = aliceKey, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'GET',
    url: `/v1/scm/callback?${query}`,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });

const link = (projectId: string, body: unknown, key: string | null = aliceKey) =>
  ctx.app.inject({
    method: 'POST',
    url: `/v1/projects/${projectId}/repos`,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    payload: body as object,
  });

const installationCount = async () =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM scm_installations`.execute(ctx.services.database.db)).rows[0]!.n);

beforeAll(async () => {
  // The accounts of the first tests are trusted (self-hosting); "victim-org" and the users' own are not.
  ctx = await createScmTestContext({ GITHUB_TRUSTED_ACCOUNTS: 'acme,acme-renamed, Bob-Personal,shared' });
  const alice = await buildUser(ctx.services);
  const bob = await buildUser(ctx.services);
  const org = await buildOrg(ctx.services, alice.email);
  project = await buildProject(ctx.services, { type: 'user', email: alice.email });
  otherProject = await buildProject(ctx.services, { type: 'user', email: alice.email });
  bobProject = await buildProject(ctx.services, { type: 'user', email: bob.email });
  aliceKey = (await ctx.services.keys.create({ name: 'alice', context: { type: 'user', email: alice.email } })).secret;
  bobKey = (await ctx.services.keys.create({ name: 'bob', context: { type: 'user', email: bob.email } })).secret;
  orgKey = (await ctx.services.keys.create({ name: 'org', context: { type: 'org', slug: org.slug } })).secret;
  limitedKey = (
    await ctx.services.keys.create({ name: 'limited', context: { type: 'user', email: alice.email }, projectSlugs: [otherProject.slug] })
  ).secret;
  ctx.github.addInstallation({
    id: 101,
    account: { login: 'acme', type: 'Organization' },
    repos: [
      { owner: 'acme', name: 'git-cliff', cloneUrl: cloneUrl(), defaultBranch: 'main' },
      { owner: 'acme', name: 'second', cloneUrl: cloneUrl() },
      { owner: 'acme', name: 'third', cloneUrl: cloneUrl() },
    ],
  });
  ctx.github.addInstallation({ id: 202, account: { login: 'bob-personal', type: 'User' }, repos: [] });
  ctx.github.addInstallation({ id: 303, account: { login: 'shared', type: 'Organization' }, repos: [] });
});

afterAll(async () => ctx?.close());

describe('GET /v1/scm/callback', () => {
  let installationId: string;

  it('records the installation with the account GitHub reports, not what the query claims', async () => {
    const res = await callback('installation_id=101&setup_action=install&account_login=evil&account_type=User');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      installationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      scmInstallationId: 101,
      accountLogin: 'acme',
      accountType: 'Organization',
      setupAction: 'install',
      redirectUrl: `${PUBLIC_URL}/dashboard/settings/github?installation=${body.installationId}`,
    });
    installationId = body.installationId;
    // The app asked GitHub with its JWT (the fake verifies it with the app's public key).
    expect(ctx.github.requests).toContainEqual({ method: 'GET', path: '/app/installations/101', status: 200 });
  });

  it('updates the same record on setup_action=update and returns the same installationId', async () => {
    ctx.github.installation(101)!.account.login = 'acme-renamed';
    const res = await callback('installation_id=101&setup_action=update');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ installationId, setupAction: 'update', accountLogin: 'acme-renamed' });
    expect(await installationCount()).toBe(1);
    ctx.github.installation(101)!.account.login = 'acme';
    await callback('installation_id=101');
  });

  it('defaults setup_action to install', async () => {
    const res = await callback('installation_id=202', bobKey);
    expect(res.statusCode).toBe(200);
    expect(res.json().setupAction).toBe('install');
  });

  it.each(['', 'installation_id=', 'installation_id=0', 'installation_id=-5', 'installation_id=abc', 'installation_id=1.5', 'installation_id=1&installation_id=2', 'installation_id=101&setup_action=bogus', 'installation_id=99999999999999999999'])(
    'answers 400 for %j and records nothing',
    async (query) => {
      const before = await installationCount();
      const res = await callback(query);
      expect(res.statusCode).toBe(400);
      expect(res.json().details.map((d: { parameter: string }) => d.parameter).join(',')).toMatch(/installation_id|setup_action/);
      expect(await installationCount()).toBe(before);
    },
  );

  it('answers 401 without a key, with a bad key, and with X-API-KEY (Bearer only here)', async () => {
    expect((await callback('installation_id=101', null)).statusCode).toBe(401);
    expect((await callback('installation_id=101', 'clk_notarealkey')).statusCode).toBe(401);
    const viaHeader = await callback('installation_id=101', null, { 'x-api-key': aliceKey });
    expect(viaHeader.statusCode).toBe(401);
    expect(viaHeader.json().error).toMatch(/Bearer/);
  });

  it('answers 403 when GitHub does not know the installation, exactly as for one the caller cannot prove', async () => {
    const res = await callback('installation_id=999');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden', error: expect.stringContaining('GITHUB_TRUSTED_ACCOUNTS') });
  });

  it('answers 409 when the installation belongs to another context', async () => {
    const res = await callback('installation_id=101', bobKey);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict');
    const again = await callback('installation_id=101', orgKey);
    expect(again.statusCode).toBe(409);
  });

  it('answers 202 for setup_action=request and records nothing', async () => {
    const before = await installationCount();
    const res = await callback('installation_id=303&setup_action=request');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ recorded: false, scmInstallationId: 303, setupAction: 'request' });
    expect(await installationCount()).toBe(before);
  });

  it('answers 502 when GitHub errors, and records nothing', async () => {
    ctx.github.failWith(500);
    try {
      const res = await callback('installation_id=303');
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ error: expect.stringContaining('GitHub'), code: 'bad_gateway' });
    } finally {
      ctx.github.failWith(null);
    }
    expect(await installationCount()).toBe(2);
  });

  it('answers 502 when GitHub is unreachable', async () => {
    const config = testConfig({ ...ctx.env, GITHUB_API_URL: 'http://127.0.0.1:9' });
    const app = await buildApp({ config, database: ctx.database, services: createServices(ctx.database, config) });
    try {
      const res = await app.inject({ method: 'GET', url: '/v1/scm/callback?installation_id=303', headers: { authorization: `Bearer ${aliceKey}` } });
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe('bad_gateway');
    } finally {
      await app.close();
    }
  });
});

describe('GET /v1/scm/callback: proving access to the installation', () => {
  const VICTIM = 701;
  const secretRepo = { owner: 'victim-org', name: 'secret-repo', cloneUrl: 'file:///nowhere' };

  beforeAll(() => {
    ctx.github.addInstallation({ id: VICTIM, account: { login: 'victim-org', type: 'Organization' }, repos: [secretRepo], users: ['victor', 'carl'], admins: ['victor'] });
    ctx.github.addInstallation({ id: 702, account: { login: 'dora', type: 'User' }, repos: [] });
  });

  it("refuses an attacker's claim of another customer's installation, with the same answer as for an id that does not exist", async () => {
    const before = await installationCount();
    const claimed = await callback(`installation_id=${VICTIM}`, bobKey);
    const missing = await callback('installation_id=7777777', bobKey);
    expect(claimed.statusCode).toBe(403);
    expect(missing.statusCode).toBe(403);
    expect(claimed.body).toBe(missing.body);
    expect(claimed.json().error).toMatch(/code.*dashboard.*GITHUB_TRUSTED_ACCOUNTS/s);
    // With nothing recorded, the attacker has no installation to link victim-org/secret-repo through.
    expect(await installationCount()).toBe(before);
    const rows = await ctx.services.database.db.selectFrom('scm_installations').select('id').where('scm_installation_id', '=', String(VICTIM)).execute();
    expect(rows).toEqual([]);
  });

  it("refuses a code whose user cannot access the installation, a bad code and a used one", async () => {
    const mallory = await callback(`installation_id=${VICTIM}&code=${ctx.github.authorize('mallory')}`, bobKey);
    expect(mallory.statusCode).toBe(403);
    expect(mallory.json().error).toMatch(/Cannot verify/);
    const bad = await callback(`installation_id=${VICTIM}&code=not-a-code`, bobKey);
    expect(bad.statusCode).toBe(403);
    expect(bad.json().error).toMatch(/did not accept the authorization code/);
    expect(JSON.stringify(bad.json())).not.toContain('test-client-secret');
  });

  it('refuses a code of a user GitHub lists the installation for who does not own it (a collaborator of one repository)', async () => {
    const carl = await callback(`installation_id=${VICTIM}&code=${ctx.github.authorize('carl')}`, bobKey);
    expect(carl.statusCode).toBe(403);
    expect(carl.body).toBe((await callback('installation_id=7777777', bobKey)).body);
    expect(ctx.github.requests.some((r) => r.path.startsWith('/user/installations') && r.status === 200)).toBe(true);
    // Carl's identity is now the attacker context's, and it owns nothing either.
    expect((await callback(`installation_id=${VICTIM}`, bobKey)).statusCode).toBe(403);
  });

  it('refuses a key limited to selected projects, even with proof', async () => {
    const res = await callback(`installation_id=${VICTIM}&code=${ctx.github.authorize('victor')}`, limitedKey);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/not limited to selected projects/);
    // The trusted path too: claiming acts for the whole context.
    expect((await callback('installation_id=303', limitedKey)).statusCode).toBe(403);
  });

  it('records the installation with a code whose GitHub user can access it (token exchange, then GET /user/installations)', async () => {
    const code = ctx.github.authorize('victor');
    const res = await callback(`installation_id=${VICTIM}&setup_action=install&code=${code}&state=anything-the-integrator-sent`, orgKey);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ scmInstallationId: VICTIM, accountLogin: 'victim-org', accountType: 'Organization' });
    expect(ctx.github.requests).toContainEqual({ method: 'POST', path: '/login/oauth/access_token', status: 200 });
    expect(ctx.github.requests.some((r) => r.path.startsWith('/user/installations') && r.status === 200)).toBe(true);
    // The code is spent.
    expect((await callback(`installation_id=${VICTIM}&code=${code}`, orgKey)).statusCode).toBe(403);
    // The org context verified its GitHub user: an update needs no code now (victor administers victim-org).
    const update = await callback(`installation_id=${VICTIM}&setup_action=update`, orgKey);
    expect(update.statusCode).toBe(200);
    // The attacker still gets the same 403 as before, not a 409 revealing that someone claimed it.
    const attacker = await callback(`installation_id=${VICTIM}`, bobKey);
    expect(attacker.statusCode).toBe(403);
    expect(attacker.body).toBe((await callback('installation_id=7777777', bobKey)).body);
  });

  it('accepts an account in GITHUB_TRUSTED_ACCOUNTS without proof (case-insensitive), and only that', async () => {
    // "shared" is trusted; dora's personal installation is not.
    expect((await callback('installation_id=303&setup_action=request')).statusCode).toBe(202);
    expect((await callback('installation_id=702', bobKey)).statusCode).toBe(403);
  });

  it('after a code proved who the context is on GitHub, their personal installations need no code', async () => {
    expect((await callback('installation_id=702', aliceKey)).statusCode).toBe(403);
    const proved = await callback(`installation_id=7777777&code=${ctx.github.authorize('dora')}`, aliceKey);
    expect(proved.statusCode).toBe(403);
    const res = await callback('installation_id=702', aliceKey);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ accountLogin: 'dora', accountType: 'User' });
  });
});

describe('POST /v1/projects/{projectId}/repos', () => {
  let installationId: string;
  let bobInstallationId: string;
  let linkId: string;

  beforeAll(async () => {
    installationId = (await callback('installation_id=101')).json().installationId;
    bobInstallationId = (await callback('installation_id=202', bobKey)).json().installationId;
  });

  it('links a repository the installation reaches, reads its clone URL and default branch, and queues the backfill', async () => {
    const res = await link(project.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      projectId: project.id,
      kind: 'github',
      scmInstallationId: installationId,
      repoOwner: 'acme',
      repoName: 'git-cliff',
      trackedBranch: 'main',
      defaultBranch: 'main',
      status: 'pending',
      lastIngestedSha: null,
    });
    linkId = body.id;
    const stored = await ctx.services.database.db.selectFrom('repo_links').selectAll().where('id', '=', linkId).executeTakeFirstOrThrow();
    expect(stored.source_url).toBe(cloneUrl());
    const jobs = await sql<{ n: string }>`SELECT count(*) AS n FROM pgboss.job WHERE name = 'repo-ingest' AND data->>'linkId' = ${linkId}`.execute(
      ctx.services.database.db,
    );
    expect(Number(jobs.rows[0]!.n)).toBe(1);
    // Its pull requests are linked wherever a note cites them.
    expect((await ctx.services.generation.settings(project.slug)).resolved.pullRequestUrl).toBe(`${ctx.github.url}/acme/git-cliff/pull/{number}`);
  });

  it("keeps a project's own pull-request link setting, and one an editor cleared, when a GitHub repository is linked", async () => {
    const owner = (await ctx.services.database.db.selectFrom('users').select('email').innerJoin('projects', 'projects.owner_user_id', 'users.id').where('projects.id', '=', project.id).executeTakeFirstOrThrow()).email;
    const own = await buildProject(ctx.services, { type: 'user', email: owner });
    await ctx.services.generation.configure(own.slug, { pullRequestUrl: 'https://code.example.com/pr/{number}' });
    expect((await link(own.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff' })).statusCode).toBe(200);
    expect((await ctx.services.generation.settings(own.slug)).resolved.pullRequestUrl).toBe('https://code.example.com/pr/{number}');
    const cleared = await buildProject(ctx.services, { type: 'user', email: owner });
    await ctx.services.generation.configure(cleared.slug, { pullRequestUrl: null });
    expect((await link(cleared.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff' })).statusCode).toBe(200);
    expect((await ctx.services.generation.settings(cleared.slug)).resolved.pullRequestUrl).toBeNull();
  });

  it('returns the existing link when the same repository and branch are linked again', async () => {
    const res = await link(project.id, { scmInstallationId: installationId, repoOwner: 'ACME', repoName: 'Git-Cliff', trackedBranch: 'main' });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(linkId);
    const other = await link(project.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff', trackedBranch: 'release/2.x' });
    expect(other.statusCode).toBe(200);
    expect(other.json().id).not.toBe(linkId);
    expect(other.json().trackedBranch).toBe('release/2.x');
  });

  it.each([
    [{ repoOwner: 'acme', repoName: 'git-cliff' }, 'scmInstallationId'],
    [{ scmInstallationId: 'not-a-uuid', repoOwner: 'acme', repoName: 'git-cliff' }, 'scmInstallationId'],
    [{ scmInstallationId: '00000000-0000-0000-0000-000000000000', repoName: 'git-cliff' }, 'repoOwner'],
    [{ scmInstallationId: '00000000-0000-0000-0000-000000000000', repoOwner: '-acme', repoName: 'git-cliff' }, 'repoOwner'],
    [{ scmInstallationId: '00000000-0000-0000-0000-000000000000', repoOwner: 'acme', repoName: '..' }, 'repoName'],
    [{ scmInstallationId: '00000000-0000-0000-0000-000000000000', repoOwner: 'acme', repoName: 'a b' }, 'repoName'],
    [{ scmInstallationId: '00000000-0000-0000-0000-000000000000', repoOwner: 'acme', repoName: 'x', trackedBranch: '' }, 'trackedBranch'],
    [{ scmInstallationId: '00000000-0000-0000-0000-000000000000', repoOwner: 'acme', repoName: 'x', extra: 1 }, 'extra'],
  ])('answers 400 for %j naming %s', async (body, parameter) => {
    const res = await link(project.id, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { parameter: string }) => d.parameter)).toContain(parameter);
  });

  it('takes release-branch patterns, and linking again with others replaces them', async () => {
    const res = await link(project.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff', trackedBranch: 'main', releaseBranches: ['*.x', 'release/*'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: linkId, releaseBranches: ['*.x', 'release/*'] });
    const again = await link(project.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff', trackedBranch: 'main' });
    expect(again.json().releaseBranches).toEqual(['*.x', 'release/*']);
    const cleared = await link(project.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff', trackedBranch: 'main', releaseBranches: [] });
    expect(cleared.json().releaseBranches).toEqual([]);
  });

  it.each([
    ['a long pattern', ['x'.repeat(1_000)]],
    ['too many patterns', Array.from({ length: 1000 }, (_, i) => `${i}.x`)],
    ['a run of *', ['*a*a*a*a*a*a*a*a*a*a*a*a*b']],
    ['..', ['../../tags/*']],
    ['a ref outside refs/heads', ['refs/tags/*']],
    ['every branch', ['*']],
  ])('answers 400 naming releaseBranches for %s, and changes nothing', async (_, releaseBranches) => {
    const res = await link(project.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff', trackedBranch: 'main', releaseBranches });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.some((d: { parameter?: string }) => d.parameter?.startsWith('releaseBranches'))).toBe(true);
    expect(res.body.length).toBeLessThan(2000);
    const stored = await ctx.services.database.db.selectFrom('repo_links').select('release_branches').where('id', '=', linkId).executeTakeFirstOrThrow();
    expect(stored.release_branches).toEqual([]);
  });

  it('refuses a body of huge patterns before reading it whole', async () => {
    const res = await link(project.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff', releaseBranches: ['x'.repeat(1_000_000)] });
    expect(res.statusCode).toBe(413);
  });

  it.each(['a..b', 'feature branch', 'x.lock', '-x', 'a~1'])('answers 400 for the invalid branch %j', async (trackedBranch) => {
    const res = await link(project.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff', trackedBranch });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].parameter).toBe('trackedBranch');
  });

  it('answers 400 for a malformed project id', async () => {
    const res = await link('nope', { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].parameter).toBe('projectId');
  });

  it('answers 401 without a valid Bearer key', async () => {
    expect((await link(project.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff' }, null)).statusCode).toBe(401);
    expect((await link(project.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff' }, 'clk_bad')).statusCode).toBe(401);
  });

  it('answers 404 for a project the key may not see, revealing nothing', async () => {
    const body = { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'git-cliff' };
    const unknown = await link('00000000-0000-4000-8000-000000000000', body);
    const foreign = await link(bobProject.id, body);
    const unselected = await link(project.id, body, limitedKey);
    for (const res of [unknown, foreign, unselected]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Project not found', code: 'not_found' });
    }
  });

  it("answers 404 for an installation of another context or an unknown one", async () => {
    const foreign = await link(project.id, { scmInstallationId: bobInstallationId, repoOwner: 'acme', repoName: 'git-cliff' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Installation not found');
    const unknown = await link(project.id, { scmInstallationId: '00000000-0000-4000-8000-000000000000', repoOwner: 'acme', repoName: 'git-cliff' });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers 422 when the installation cannot reach the repository', async () => {
    const res = await link(otherProject.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'private-elsewhere' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'unprocessable', error: expect.stringContaining('cannot reach acme/private-elsewhere') });
  });

  it("answers 422 naming the default branch when the contract's default `main` does not exist, and links nothing", async () => {
    // For this test, acme/third's only branches are trunk (its default) and release.
    const third = ctx.github.installation(101)!.repos.find((r) => r.name === 'third')!;
    Object.assign(third, { defaultBranch: 'trunk', branches: ['trunk', 'release'] });
    try {
      const res = await link(otherProject.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'third' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'unprocessable', error: expect.stringContaining('its default branch is trunk') });
      const links = await ctx.services.database.db.selectFrom('repo_links').select('id').where('project_id', '=', otherProject.id).execute();
      expect(links).toEqual([]);
    } finally {
      delete third.defaultBranch;
      delete third.branches;
    }
  });

  it('answers 502 when GitHub errors, and links nothing', async () => {
    ctx.github.failWith(503);
    try {
      const res = await link(otherProject.id, { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'second' });
      expect(res.statusCode).toBe(502);
    } finally {
      ctx.github.failWith(null);
    }
    const links = await ctx.services.database.db.selectFrom('repo_links').select('id').where('project_id', '=', otherProject.id).execute();
    expect(links).toEqual([]);
  });

  it('lists every repository of an installation across pages', async () => {
    const repos = await ctx.services.githubClient!.listRepositories(101);
    expect(repos.map((r) => r.fullName)).toEqual(['acme/git-cliff', 'acme/second', 'acme/third']);
    expect(ctx.github.requests.filter((r) => r.path.startsWith('/installation/repositories')).length).toBe(2);
  });

  it('documents every status of both operations in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths['/v1/scm/callback'].get.responses).sort()).toEqual(['200', '202', '400', '401', '403', '409', '429', '500', '502', '503']);
    expect(Object.keys(doc.paths['/v1/projects/{projectId}/repos'].post.responses).sort()).toEqual(['200', '400', '401', '404', '413', '422', '429', '500', '502', '503']);
    expect(doc.paths['/webhooks/github']).toBeUndefined();
    const params = doc.paths['/v1/scm/callback'].get.parameters.map((p: { name: string }) => p.name).sort();
    expect(params).toEqual(['code', 'installation_id', 'setup_action', 'state']);
    expect(doc.paths['/v1/scm/callback'].get.description).toMatch(/GITHUB_TRUSTED_ACCOUNTS/);
  });
});

describe('"Connect GitHub" from the dashboard', () => {
  let aliceOwner: { type: 'user'; userId: string };
  let bobOwner: { type: 'user'; userId: string };

  beforeAll(async () => {
    const users = await ctx.services.database.db.selectFrom('users').select('id').orderBy('created_at').limit(2).execute();
    aliceOwner = { type: 'user', userId: users[0]!.id };
    bobOwner = { type: 'user', userId: users[1]!.id };
  });

  const stateOf = (url: string) => new URL(url).searchParams.get('state')!;

  it('sends people to the install page with a signed state that works once, for its context only', async () => {
    const url = await ctx.services.github.installUrl(aliceOwner);
    expect(url).toMatch(/^https:\/\/github\.com\/apps\/changelog-test\/installations\/new\?state=[\w-]+\.[\w-]+$/);
    const state = stateOf(url);
    await expect(ctx.services.github.completeInstall(bobOwner, { installationId: 101, setupAction: 'install', state })).rejects.toThrow(/expired or was already used/);
    const done = await ctx.services.github.completeInstall(aliceOwner, { installationId: 101, setupAction: 'update', state });
    expect(done).toMatchObject({ recorded: true, scmInstallationId: 101, setupAction: 'update' });
    await expect(ctx.services.github.completeInstall(aliceOwner, { installationId: 101, setupAction: 'update', state })).rejects.toThrow(/already used/);
    expect((await ctx.services.github.listInstallations(aliceOwner)).map((i) => Number(i.scm_installation_id))).toContain(101);
  });

  it('refuses a tampered, forged or expired state', async () => {
    const state = stateOf(await ctx.services.github.installUrl(aliceOwner));
    const [nonce, signature] = state.split('.') as [string, string];
    const input = { installationId: 101, setupAction: 'update' as const };
    await expect(ctx.services.github.completeInstall(aliceOwner, { ...input, state: `${nonce}.${signature.slice(1)}x` })).rejects.toThrow(/expired/);
    await expect(ctx.services.github.completeInstall(aliceOwner, { ...input, state: `forged.${signature}` })).rejects.toThrow(/expired/);
    await expect(ctx.services.github.completeInstall(aliceOwner, { ...input, state: nonce })).rejects.toThrow(/expired/);
    await ctx.services.database.db.updateTable('scm_install_states').set({ expires_at: new Date(Date.now() - 1000) }).where('nonce', '=', nonce).execute();
    await expect(ctx.services.github.completeInstall(aliceOwner, { ...input, state })).rejects.toThrow(/expired/);
  });
});

describe('without GitHub configuration', () => {
  it('answers 503 naming what is missing, while the rest of the service runs', async () => {
    const config = testConfig();
    const app = await buildApp({ config, database: ctx.database, services: createServices(ctx.database, config) });
    try {
      const cb = await app.inject({ method: 'GET', url: '/v1/scm/callback?installation_id=101', headers: { authorization: `Bearer ${aliceKey}` } });
      expect(cb.statusCode).toBe(503);
      expect(cb.json()).toEqual({ error: expect.stringMatching(/GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY/), code: 'unavailable' });
      const ln = await app.inject({
        method: 'POST',
        url: `/v1/projects/${project.id}/repos`,
        headers: { authorization: `Bearer ${aliceKey}` },
        payload: { scmInstallationId: '00000000-0000-4000-8000-000000000000', repoOwner: 'acme', repoName: 'x' },
      });
      expect(ln.statusCode).toBe(503);
      const hook = await app.inject({ method: 'POST', url: '/webhooks/github', headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(hook.statusCode).toBe(503);
      expect(hook.json().error).toMatch(/GITHUB_WEBHOOK_SECRET/);
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
