// Per-tenant limits on the dashboard's expensive actions (settings preview, "Generate now", "Sync
// now"): the tenant (the user or organization that owns the project) past its budget gets a 429 with
// Retry-After and a message naming the limit, whoever of its members asks; another tenant does not.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { buildProject } from '../../test/helpers/factories.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';

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
    // The general limits stay out of the way (every client here shares few addresses).
    RATE_LIMIT_ENABLED: 'true',
    RATE_LIMIT_PUBLIC_MAX: '100000',
    RATE_LIMIT_AUTHENTICATED_MAX: '100000',
    RATE_LIMIT_TENANT_ACTIONS_MAX: '2',
    RATE_LIMIT_TENANT_ACTIONS_WINDOW_MS: '600000',
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
});
