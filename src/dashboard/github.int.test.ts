import { testConfig } from '../../test/helpers/config.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { createScmTestContext, type ScmTestContext } from '../../test/helpers/scm.js';
import { buildApp } from '../app.js';
import { createServices } from '../services.js';

let ctx: ScmTestContext;
const people: Record<'alice' | 'bob' | 'carol', DashboardClient> = {} as never;
const SETTINGS = '/dashboard/settings/github';

const installationCount = async () =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM scm_installations`.execute(ctx.services.database.db)).rows[0]!.n);

/** Presses "Connect GitHub" (for an org when given) and returns the state GitHub is sent. */
async function connect(who: DashboardClient, org?: string) {
  const res = await who.submit(SETTINGS, `${SETTINGS}/connect`, org ? { org } : {});
  return { res, state: res.location?.startsWith('https://github.com/') ? new URL(res.location).searchParams.get('state')! : undefined };
}

const setup = (who: DashboardClient, query: Record<string, string>) => who.get(`${SETTINGS}/setup?${new URLSearchParams(query).toString()}`);

beforeAll(async () => {
  // The first tests' accounts are trusted (self-hosting); "victim-org" and "alice-real" are not.
  ctx = await createScmTestContext({ SIGNUP_OPEN: 'true', GITHUB_TRUSTED_ACCOUNTS: 'alice-gh,acme-gh,spare-gh' });
  for (const name of ['alice', 'bob', 'carol'] as const) {
    people[name] = new DashboardClient(ctx.app);
    // alice is the installation's first account (a setup link); the others sign up (SIGNUP_OPEN).
    const signedUp = name === 'alice' ? people[name].setUp(ctx.services, { name, email: `${name}@example.com` }) : people[name].signUp({ name, email: `${name}@example.com` });
    expect((await signedUp).status).toBe(303);
  }
  // acme: alice owner, bob admin, carol member.
  await people.alice.submit('/dashboard', '/dashboard/orgs', { name: 'Acme Corp', slug: 'acme' });
  const users = await ctx.services.database.db.selectFrom('users').select(['id', 'email']).execute();
  const org = await ctx.services.orgs.membership('acme', users.find((u) => u.email === 'alice@example.com')!.id);
  await ctx.services.database.db
    .insertInto('organization_members')
    .values([
      { organization_id: org.org.id, user_id: users.find((u) => u.email === 'bob@example.com')!.id, role: 'admin' },
      { organization_id: org.org.id, user_id: users.find((u) => u.email === 'carol@example.com')!.id, role: 'member' },
    ])
    .execute();
  ctx.github.addInstallation({ id: 501, account: { login: 'alice-gh', type: 'User' }, repos: [] });
  ctx.github.addInstallation({ id: 502, account: { login: 'acme-gh', type: 'Organization' }, repos: [] });
  ctx.github.addInstallation({ id: 503, account: { login: 'spare-gh', type: 'Organization' }, repos: [] });
});

afterAll(async () => ctx?.close());

describe('GitHub settings in the dashboard', () => {
  it('is linked from the navigation and offers "Connect GitHub" per managed context', async () => {
    const overview = await people.alice.get('/dashboard');
    expect(overview.body).toContain(`href="${SETTINGS}"`);
    const page = await people.alice.get(SETTINGS);
    expect(page.status).toBe(200);
    expect(page.body).toContain('No GitHub installation connected yet.');
    expect(page.body).toContain('Connect GitHub</button>');
    expect(page.body).toContain('Connect GitHub for Acme Corp</button>');
    // A member sees no org section and no button for it.
    const carol = await people.carol.get(SETTINGS);
    expect(carol.status).toBe(200);
    expect(carol.body).not.toContain('Acme Corp');
  });

  it('sends the user to GitHub with a signed state, and records the installation on return', async () => {
    const { res, state } = await connect(people.alice);
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^https:\/\/github\.com\/apps\/changelog-test\/installations\/new\?state=[\w-]+\.[\w-]+$/);
    expect(await installationCount()).toBe(0);

    const back = await setup(people.alice, { installation_id: '501', setup_action: 'install', state: state! });
    expect(back.status).toBe(303);
    const id = /installation=([0-9a-f-]{36})/.exec(back.location!)![1]!;
    expect(back.location).toBe(`${SETTINGS}?installation=${id}&notice=github-connected`);
    expect(await installationCount()).toBe(1);
    // The fake GitHub was asked with the app's JWT: login and type come from it.
    expect(ctx.github.requests).toContainEqual({ method: 'GET', path: '/app/installations/501', status: 200 });

    const page = await people.alice.get(back.location!);
    expect(page.body).toContain('GitHub connected');
    expect(page.body).toMatch(new RegExp(`data-installation="${id}" class="highlight"[^]*?alice-gh</strong></td><td>User</td><td><span class="badge active">active`));
    // Its linked repositories are listed with their project.
    const project = await ctx.services.projects.create({ name: 'Blog', slug: 'alice-blog', owner: { type: 'user', email: 'alice@example.com' } });
    await ctx.services.database.db
      .insertInto('repo_links')
      .values({ project_id: project.id, kind: 'github', installation_id: id, repo_owner: 'alice-gh', repo_name: 'blog', source_url: 'file:///nowhere', source_key: 'github:alice-gh/blog', tracked_branch: 'main', default_branch: 'main' })
      .execute();
    expect((await people.alice.get(SETTINGS)).body).toMatch(/<code>alice-gh\/blog<\/code> \(main\) → <a href="\/dashboard\/projects\/alice-blog">/);
    // Personal installations are nobody else's.
    expect((await people.bob.get(SETTINGS)).body).not.toContain('alice-gh');
  });

  it('refuses a reused, forged, tampered or foreign state and records nothing', async () => {
    const { state } = await connect(people.alice);
    const before = await installationCount();
    const [nonce, signature] = state!.split('.') as [string, string];
    for (const bad of [`${nonce}.${signature.slice(0, -2)}xx`, `forged.${signature}`, nonce, 'x']) {
      const res = await setup(people.alice, { installation_id: '503', state: bad });
      expect(res.status).toBe(400);
      expect(res.body).toContain('expired or was already used');
    }
    // Another user cannot complete alice's round trip.
    const foreign = await setup(people.bob, { installation_id: '503', state: state! });
    expect(foreign.status).toBe(400);
    expect(await installationCount()).toBe(before);

    // Used once by its owner, it is spent.
    expect((await setup(people.alice, { installation_id: '503', state: state! })).status).toBe(303);
    expect(await installationCount()).toBe(before + 1);
    const reused = await setup(people.alice, { installation_id: '503', state: state! });
    expect(reused.status).toBe(400);
    expect(reused.body).toContain('already used');
    expect(await installationCount()).toBe(before + 1);
  });

  it('rejects a malformed return with a 400 naming the problem', async () => {
    const { state } = await connect(people.alice);
    const before = await installationCount();
    expect((await setup(people.alice, { installation_id: 'abc', state: state! })).status).toBe(400);
    expect((await setup(people.alice, { installation_id: '501', setup_action: 'bogus', state: state! })).status).toBe(400);
    const missing = await setup(people.alice, { state: state! });
    expect(missing.status).toBe(400);
    expect(missing.body).toContain('installation_id');
    expect(await installationCount()).toBe(before);
  });

  it('records nothing while an org owner has yet to approve (setup_action=request)', async () => {
    const { state } = await connect(people.alice);
    const before = await installationCount();
    const res = await setup(people.alice, { setup_action: 'request', state: state! });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${SETTINGS}?notice=github-requested`);
    expect(await installationCount()).toBe(before);
  });

  it('lets an org admin connect for the org, but not a member', async () => {
    const member = await connect(people.carol, 'acme');
    expect(member.res.status).toBe(403);
    expect(member.state).toBeUndefined();
    expect((await connect(people.carol, 'no-such-org')).res.status).toBe(404);

    const { state } = await connect(people.bob, 'acme');
    // A member of the org cannot use the admin's link either.
    const before = await installationCount();
    expect((await setup(people.carol, { installation_id: '502', state: state! })).status).toBe(403);
    expect(await installationCount()).toBe(before);

    const back = await setup(people.bob, { installation_id: '502', state: state! });
    expect(back.status).toBe(303);
    const page = await people.alice.get(SETTINGS);
    expect(page.body).toMatch(/Acme Corp[^]*acme-gh/);
    const orgRows = await ctx.services.database.db.selectFrom('scm_installations').select(['context_type', 'account_login']).where('account_login', '=', 'acme-gh').execute();
    expect(orgRows).toEqual([{ context_type: 'org', account_login: 'acme-gh' }]);
  });

  it('refuses "Connect GitHub" without the CSRF token', async () => {
    const res = await people.alice.post(`${SETTINGS}/connect`, { _csrf: 'nope' });
    expect(res.status).toBe(403);
    expect(res.location).toBeUndefined();
  });

  it('never shows the app private key, the webhook secret or a state', async () => {
    const { state } = await connect(people.alice);
    const page = await people.alice.get(SETTINGS);
    const keyBody = ctx.env.GITHUB_APP_PRIVATE_KEY!.split('\n')[1]!;
    expect(page.body).not.toContain(keyBody);
    expect(page.body).not.toContain(ctx.env.GITHUB_WEBHOOK_SECRET!);
    expect(page.body).not.toContain(state!.split('.')[0]!);
  });
});

describe('GitHub settings without app configuration', () => {
  it('says what to configure instead of offering the button', async () => {
    const config = testConfig({ SIGNUP_OPEN: 'true' });
    const app = await buildApp({ config, database: ctx.database, services: createServices(ctx.database, config) });
    try {
      const client = new DashboardClient(app);
      await client.signIn('alice@example.com');
      const page = await client.get(SETTINGS);
      expect(page.status).toBe(200);
      expect(page.body).toContain('not available');
      expect(page.body).toContain('GITHUB_APP_ID');
      expect(page.body).not.toContain('Connect GitHub</button>');
      expect(page.body).toContain('alice-gh');
      const res = await client.submit(SETTINGS, `${SETTINGS}/connect`);
      expect(res.status).toBe(503);
    } finally {
      await app.close();
    }
  });

  it('names GITHUB_APP_INSTALL_URL when only that is missing', async () => {
    const config = testConfig({ ...ctx.env, GITHUB_APP_INSTALL_URL: '' });
    const app = await buildApp({ config, database: ctx.database, services: createServices(ctx.database, config) });
    try {
      const client = new DashboardClient(app);
      await client.signIn('alice@example.com');
      const page = await client.get(SETTINGS);
      expect(page.body).toContain('GITHUB_APP_INSTALL_URL');
      expect(page.body).not.toContain('Connect GitHub</button>');
    } finally {
      await app.close();
    }
  });
});

describe('GitHub ownership through the dashboard', () => {
  beforeAll(() => {
    ctx.github.addInstallation({ id: 601, account: { login: 'victim-org', type: 'Organization' }, repos: [], users: ['victor'], admins: ['victor'] });
    ctx.github.addInstallation({ id: 602, account: { login: 'alice-real', type: 'User' }, repos: [] });
    ctx.github.addInstallation({ id: 603, account: { login: 'alice-org', type: 'Organization' }, repos: [], users: ['alice-real'], admins: ['alice-real'] });
    ctx.github.addInstallation({ id: 604, account: { login: 'other-org', type: 'Organization' }, repos: [], users: ['alice-real'] });
  });

  it("refuses a valid state returning with another customer's installation, exactly as for one that does not exist", async () => {
    const before = await installationCount();
    const victim = await setup(people.bob, { installation_id: '601', setup_action: 'install', state: (await connect(people.bob)).state! });
    const missing = await setup(people.bob, { installation_id: '6666666', setup_action: 'install', state: (await connect(people.bob)).state! });
    expect(victim.status).toBe(403);
    expect(missing.status).toBe(403);
    expect(victim.body).toBe(missing.body);
    expect(await installationCount()).toBe(before);
  });

  it("records it when GitHub's user authorization code shows the user can access it", async () => {
    const res = await setup(people.bob, { installation_id: '601', setup_action: 'install', state: (await connect(people.bob)).state!, code: ctx.github.authorize('victor') });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/notice=github-connected/);
  });

  it('"Verify GitHub account" then lets the API callback alone claim that account\'s installations and its admin orgs', async () => {
    const key = (await ctx.services.keys.create({ name: 'alice-api', context: { type: 'user', email: 'alice@example.com' } })).secret;
    const callback = (id: number) =>
      ctx.app.inject({ method: 'GET', url: `/v1/scm/callback?installation_id=${id}`, headers: { authorization: `Bearer ${key}` } });
    expect((await callback(602)).statusCode).toBe(403);

    const go = await people.alice.submit(SETTINGS, `${SETTINGS}/identity`, {});
    expect(go.status).toBe(303);
    const authorize = new URL(go.location!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${ctx.github.url}/login/oauth/authorize`);
    expect(authorize.searchParams.get('client_id')).toBe(ctx.env.GITHUB_CLIENT_ID);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${ctx.env.PUBLIC_URL}${SETTINGS}/setup`);
    const state = authorize.searchParams.get('state')!;
    // Someone else cannot finish alice's verification with their own code.
    expect((await setup(people.bob, { state, code: ctx.github.authorize('victor') })).status).toBe(400);
    const back = await setup(people.alice, { state, code: ctx.github.authorize('alice-real') });
    expect(back.status).toBe(303);
    expect(back.location).toBe(`${SETTINGS}?notice=github-verified`);
    expect((await people.alice.get(SETTINGS)).body).toContain('Verified GitHub account: <strong>alice-real</strong>');

    const personal = await callback(602);
    expect(personal.statusCode).toBe(200);
    expect(personal.json()).toMatchObject({ accountLogin: 'alice-real', accountType: 'User' });
    expect((await callback(603)).statusCode).toBe(200);
    // A member but not an admin of other-org, and victor's org: no.
    expect((await callback(604)).statusCode).toBe(403);
    expect((await callback(601)).statusCode).toBe(403);
  });
});
