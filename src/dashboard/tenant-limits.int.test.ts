// Per-tenant limits on expensive actions (settings preview, "Generate now", "Sync now", regenerating
// entries, bulk review actions, linking repositories or changing their branch, webhook test events; the
// API's repository links): the tenant (the user or organization that owns the project) past its budget
// gets a 429 with Retry-After and a message naming the limit, whoever of its members (or keys) asks;
// another tenant does not.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantLimitsEnv } from '../../test/helpers/config.js';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { createScmTestContext, type ScmTestContext } from '../../test/helpers/scm.js';

let ctx: TestContext;
let scratch: string;
const alice = () => new DashboardClient(ctx.app, '10.0.0.1');
let aliceClient: DashboardClient;
let carol: DashboardClient;
let bob: DashboardClient;
let orgProject: { id: string; slug: string };
let bobProject: { id: string; slug: string };

const PREVIEW_FORM = { entry_types: 'commit', time_zone: 'UTC', exclude_authors: '', path_rules: '' };
const preview = (client: DashboardClient, slug: string) =>
  client.submit(`/dashboard/projects/${slug}/generation`, `/dashboard/projects/${slug}/generation/preview`, PREVIEW_FORM);

beforeAll(async () => {
  scratch = tempDir('tenant-limits');
  ctx = await createTestContext({
    REPOS_DIR: join(scratch, 'repos'),
    SIGNUP_OPEN: 'true',
    ...tenantLimitsEnv(2),
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  });
  aliceClient = alice();
  expect((await aliceClient.setUp(ctx.services, { email: 'alice@example.com' })).status).toBe(303);
  carol = new DashboardClient(ctx.app, '10.0.0.2');
  bob = new DashboardClient(ctx.app, '10.0.0.3');
  expect((await carol.signUp({ email: 'carol@example.com' })).status).toBe(303);
  expect((await bob.signUp({ email: 'bob@example.com' })).status).toBe(303);
  const org = await ctx.services.orgs.create({ slug: 'acme', name: 'Acme', ownerEmail: 'alice@example.com' });
  const carolId = (await ctx.services.database.db.selectFrom('users').select('id').where('email', '=', 'carol@example.com').executeTakeFirstOrThrow()).id;
  await ctx.services.database.db.insertInto('organization_members').values({ organization_id: org.id, user_id: carolId, role: 'admin' }).execute();
  orgProject = await buildProject(ctx.services, { type: 'org', slug: 'acme' }, { slug: 'acme-app' });
  bobProject = await buildProject(ctx.services, { type: 'user', email: 'bob@example.com' }, { slug: 'bob-app' });
  // A repository for "Sync now".
  const repo = join(scratch, 'origin');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      env: { PATH: process.env.PATH ?? '', HOME: scratch, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' },
    });
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', repo]);
  git('commit', '--quiet', '--allow-empty', '-m', 'feat: first');
  for (const slug of [orgProject.slug, bobProject.slug]) await ctx.services.repos.linkLocalRepo({ projectSlug: slug, source: repo, branch: 'main' });
}, 60_000);

afterAll(async () => {
  await ctx?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('per-tenant limits on expensive dashboard actions', () => {
  it('refuses a settings preview past the limit with 429, Retry-After and the limit named, for every member of the tenant; another tenant is not limited', async () => {
    expect((await preview(aliceClient, orgProject.slug)).status).toBe(200);
    expect((await preview(carol, orgProject.slug)).status).toBe(200);
    // The organization's budget is spent, whichever member asks.
    for (const client of [aliceClient, carol]) {
      const refused = await preview(client, orgProject.slug);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toContain('Too many settings previews for the organization that owns this project: at most 2 every 10 minutes');
    }
    // Bob's own account is another tenant.
    for (let i = 0; i < 2; i++) expect((await preview(bob, bobProject.slug)).status).toBe(200);
    expect((await preview(bob, bobProject.slug)).status).toBe(429);
  }, 60_000);

  it('counts "Generate now" and "Sync now" each on their own budget', async () => {
    const generate = (client: DashboardClient, slug: string) =>
      client.submit(`/dashboard/projects/${slug}/generation`, `/dashboard/projects/${slug}/generate`);
    expect((await generate(aliceClient, orgProject.slug)).status).toBe(303);
    expect((await generate(carol, orgProject.slug)).status).toBe(303);
    const refused = await generate(aliceClient, orgProject.slug);
    expect(refused.status).toBe(429);
    expect(refused.body).toContain('Too many generations (&quot;Generate now&quot;) for the organization');
    expect((await generate(bob, bobProject.slug)).status).toBe(303);

    const links = await ctx.services.database.db.selectFrom('repo_links').select(['id', 'project_id']).execute();
    const linkOf = (projectId: string) => links.find((l) => l.project_id === projectId)!.id;
    const sync = (client: DashboardClient, project: { id: string; slug: string }) =>
      client.submit(`/dashboard/projects/${project.slug}`, `/dashboard/projects/${project.slug}/repos/${linkOf(project.id)}/sync`);
    expect((await sync(aliceClient, orgProject)).status).toBe(303);
    expect((await sync(aliceClient, orgProject)).status).toBe(303);
    const syncRefused = await sync(carol, orgProject);
    expect(syncRefused.status).toBe(429);
    expect(Number(syncRefused.headers['retry-after'])).toBeGreaterThan(0);
    expect(syncRefused.body).toContain('Too many syncs (&quot;Sync now&quot;)');
    expect((await sync(bob, bobProject)).status).toBe(303);
  }, 60_000);

  it('counts regenerations (one entry, or ticked in the review queue) on one budget, and other bulk review actions on another', async () => {
    const entryOf = async (project: { id: string; slug: string }) => {
      const link = await ctx.services.database.db.selectFrom('repo_links').select('id').where('project_id', '=', project.id).executeTakeFirstOrThrow();
      await ctx.services.ingest.ingestLink(link.id);
      await ctx.services.generation.configure(project.slug, { entryTypes: ['commit'], history: 'draft' });
      await ctx.services.generation.generate(project.slug);
      return (await ctx.services.database.db.selectFrom('changelog_entries').select('id').where('project_id', '=', project.id).executeTakeFirstOrThrow()).id;
    };
    const orgEntry = await entryOf(orgProject);
    const bobEntry = await entryOf(bobProject);
    const regenerate = (client: DashboardClient, id: string) => client.submit(`/dashboard/entries/${id}`, `/dashboard/entries/${id}/regenerate`);
    const bulk = (client: DashboardClient, slug: string, action: string, id: string) =>
      client.submit(`/dashboard/projects/${slug}/review`, `/dashboard/projects/${slug}/review/bulk`, { action, ids: [id] });

    expect((await regenerate(aliceClient, orgEntry)).status).toBe(303);
    expect((await bulk(carol, orgProject.slug, 'regenerate', orgEntry)).status).toBe(303);
    for (const refused of [await regenerate(carol, orgEntry), await bulk(aliceClient, orgProject.slug, 'regenerate', orgEntry)]) {
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toContain('Too many regenerations for the organization that owns this project: at most 2 every 10 minutes');
    }
    // Publishing and archiving in bulk fan out to every webhook endpoint: a budget of their own.
    expect((await bulk(aliceClient, orgProject.slug, 'publish', orgEntry)).status).toBe(303);
    expect((await bulk(carol, orgProject.slug, 'archive', orgEntry)).status).toBe(303);
    const bulkRefused = await bulk(aliceClient, orgProject.slug, 'publish', orgEntry);
    expect(bulkRefused.status).toBe(429);
    expect(bulkRefused.body).toContain('Too many bulk review actions for the organization');
    expect((await ctx.services.database.db.selectFrom('changelog_entries').select('status').where('id', '=', orgEntry).executeTakeFirstOrThrow()).status).toBe('archived');

    expect((await regenerate(bob, bobEntry)).status).toBe(303);
    expect((await bulk(bob, bobProject.slug, 'publish', bobEntry)).status).toBe(303);
  }, 60_000);

  it('counts every attempt to link a repository or change its branch, refused ones too (each costs a lookup or a git ls-remote)', async () => {
    const link = (client: DashboardClient, slug: string) =>
      client.submit(`/dashboard/projects/${slug}`, `/dashboard/projects/${slug}/repos`, { source: 'https://127.0.0.1/private.git', branch: '' });
    const first = await link(aliceClient, orgProject.slug);
    expect(first.status).toBe(400);
    expect(first.body).toContain('public addresses');
    const linkId = (await ctx.services.database.db.selectFrom('repo_links').select('id').where('project_id', '=', orgProject.id).executeTakeFirstOrThrow()).id;
    const branch = await carol.submit(`/dashboard/projects/${orgProject.slug}`, `/dashboard/projects/${orgProject.slug}/repos/${linkId}/branch`, { branch: 'no-such-branch' });
    expect(branch.status).toBe(422);
    for (const refused of [
      await link(carol, orgProject.slug),
      await aliceClient.submit(`/dashboard/projects/${orgProject.slug}`, `/dashboard/projects/${orgProject.slug}/repos/${linkId}/branch`, { branch: 'main' }),
    ]) {
      expect(refused.status).toBe(429);
      expect(refused.body).toContain('Too many repository links (linking, or changing the branch) for the organization that owns this project: at most 2');
    }
    expect((await link(bob, bobProject.slug)).status).toBe(400);
  }, 60_000);

  it('counts webhook test events, each an outbound request', async () => {
    const endpoint = async (project: { id: string }) =>
      (await ctx.services.webhooks.create(project.id, { url: 'http://127.0.0.1:9/hook', eventTypes: ['entry.published'] })).endpoint.id;
    const orgEndpoint = await endpoint(orgProject);
    const bobEndpoint = await endpoint(bobProject);
    const test = (client: DashboardClient, slug: string, id: string) =>
      client.submit(`/dashboard/projects/${slug}/webhooks/${id}`, `/dashboard/projects/${slug}/webhooks/${id}/test`);
    expect((await test(aliceClient, orgProject.slug, orgEndpoint)).status).toBe(303);
    expect((await test(carol, orgProject.slug, orgEndpoint)).status).toBe(303);
    const refused = await test(aliceClient, orgProject.slug, orgEndpoint);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain('Too many webhook test events for the organization that owns this project');
    expect(await ctx.services.webhooks.deliveries(orgProject.id, orgEndpoint)).toHaveLength(2);
    expect((await test(bob, bobProject.slug, bobEndpoint)).status).toBe(303);
  }, 60_000);
});

describe("per-tenant limit on the API's repository links", () => {
  let scm: ScmTestContext;
  beforeAll(async () => {
    scm = await createScmTestContext({
      ...tenantLimitsEnv(2),
      GITHUB_TRUSTED_ACCOUNTS: 'acme,other',
    });
  }, 60_000);
  afterAll(async () => scm?.close());

  it("refuses a tenant's links past the limit across all of its keys (429 JSON, Retry-After), counted only once the key may see the project", async () => {
    const owner = await buildUser(scm.services);
    const other = await buildUser(scm.services);
    const project = await buildProject(scm.services, { type: 'user', email: owner.email });
    const otherProject = await buildProject(scm.services, { type: 'user', email: other.email });
    const keyOf = async (email: string) => (await scm.services.keys.create({ name: 'k', context: { type: 'user', email } })).secret;
    // A fresh key for every request: the per-key limit alone would never stop this.
    const keys = await Promise.all([1, 2, 3, 4].map(() => keyOf(owner.email)));
    const otherKey = await keyOf(other.email);
    scm.github.addInstallation({ id: 11, account: { login: 'acme', type: 'Organization' }, repos: [] });
    scm.github.addInstallation({ id: 12, account: { login: 'other', type: 'Organization' }, repos: [] });
    const installationOf = async (key: string, id: number) =>
      (await scm.app.inject({ method: 'GET', url: `/v1/scm/callback?installation_id=${id}`, headers: { authorization: `Bearer ${key}` } })).json().installationId as string;
    const installation = await installationOf(keys[0]!, 11);
    const otherInstallation = await installationOf(otherKey, 12);
    const link = (key: string, projectId: string, scmInstallationId: string) =>
      scm.app.inject({
        method: 'POST',
        url: `/v1/projects/${projectId}/repos`,
        headers: { authorization: `Bearer ${key}` },
        payload: { scmInstallationId, repoOwner: 'acme', repoName: 'missing' },
      });

    // Another tenant's key spends nothing of this tenant's budget: it cannot see the project.
    for (let i = 0; i < 3; i++) expect((await link(otherKey, project.id, otherInstallation)).statusCode).toBe(404);
    expect((await link(keys[0]!, project.id, installation)).statusCode).toBe(422);
    expect((await link(keys[1]!, project.id, installation)).statusCode).toBe(422);
    const refused = await link(keys[2]!, project.id, installation);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error).toMatch(/^Too many repository links \(linking, or changing the branch\) for the account that owns this project: at most 2 every 10 minutes/);
    const asked = scm.github.requests.filter((r) => r.path.startsWith('/repos/acme/missing')).length;
    expect((await link(keys[3]!, project.id, installation)).statusCode).toBe(429);
    expect(scm.github.requests.filter((r) => r.path.startsWith('/repos/acme/missing')).length).toBe(asked);
    expect((await link(otherKey, otherProject.id, otherInstallation)).statusCode).toBe(422);
  }, 60_000);

  it("refuses GitHub checks past the limit for the context, through the API callback or the dashboard's return from GitHub", async () => {
    const alice = new DashboardClient(scm.app, '10.9.0.1');
    expect((await alice.setUp(scm.services, { email: 'alice@example.com' })).status).toBe(303);
    const aliceKey = (await scm.services.keys.create({ name: 'k', context: { type: 'user', email: 'alice@example.com' } })).secret;
    const bobKey = (await scm.services.keys.create({ name: 'k', context: { type: 'user', email: (await buildUser(scm.services)).email } })).secret;
    scm.github.addInstallation({ id: 21, account: { login: 'acme', type: 'Organization' }, repos: [] });
    scm.github.addInstallation({ id: 22, account: { login: 'other', type: 'Organization' }, repos: [] });
    const callback = (key: string, id = 21) => scm.app.inject({ method: 'GET', url: `/v1/scm/callback?installation_id=${id}`, headers: { authorization: `Bearer ${key}` } });
    const asked = () => scm.github.requests.filter((r) => r.path === '/app/installations/21').length;

    const first = await callback(aliceKey);
    expect(first.statusCode, first.body).toBe(200);
    // "Verify GitHub account" and back: an OAuth exchange and its questions.
    const settings = '/dashboard/settings/github';
    const go = await alice.submit(settings, `${settings}/identity`, {});
    const state = new URL(go.location!).searchParams.get('state')!;
    expect((await alice.get(`${settings}/setup?${new URLSearchParams({ state, code: scm.github.authorize('alice-gh') }).toString()}`)).status).toBe(303);

    const before = asked();
    const refused = await callback(aliceKey);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error).toMatch(/^Too many GitHub installation and account checks for this account: at most 2 every 10 minutes/);
    const again = await alice.submit(settings, `${settings}/identity`, {});
    const page = await alice.get(`${settings}/setup?${new URLSearchParams({ state: new URL(again.location!).searchParams.get('state')!, code: scm.github.authorize('alice-gh') }).toString()}`);
    expect(page.status).toBe(429);
    expect(page.body).toContain('Too many GitHub installation and account checks for this account');
    expect(asked()).toBe(before);
    expect((await callback(bobKey, 22)).statusCode).toBe(200);
  }, 60_000);
});
