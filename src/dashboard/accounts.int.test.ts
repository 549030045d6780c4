import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { seedDemo } from '../demo/seed.js';
import { SIGN_IN_LIMITS } from '../auth/accounts.service.js';
import { hashPassword } from '../auth/passwords.js';
import { eventually } from '../../test/helpers/eventually.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  // As `npm start` does on an empty installation: a demo user without a password.
  await seedDemo(ctx.services);
});
afterAll(() => ctx?.close());

const db = () => ctx.services.database.db;

describe('setting up a fresh installation', () => {
  it('sends a fresh installation to the setup page, and refuses sign-up without the setup link, even for the passwordless demo user', async () => {
    const attacker = new DashboardClient(ctx.app);
    expect((await attacker.get('/dashboard')).location).toBe('/login?next=%2Fdashboard');
    expect((await attacker.get('/login')).location).toBe('/dashboard/signup');
    const page = await attacker.get('/dashboard/signup');
    expect(page.status).toBe(403);
    expect(page.body).toContain('setup link');
    // The attacker's form, posted with a valid pre-session token: nobody becomes the demo user.
    const refused = await attacker.post('/dashboard/signup', { name: 'Mallory', email: 'demo@example.com', password: 'mallory-password' });
    expect(refused.status).toBe(403);
    expect(attacker.cookies.has('cl_session')).toBe(false);
    const demo = await db().selectFrom('users').select(['password_hash', 'is_instance_owner']).where('email', '=', 'demo@example.com').executeTakeFirstOrThrow();
    expect(demo).toEqual({ password_hash: null, is_instance_owner: false });
  });

  it('refuses an unknown setup link', async () => {
    const guest = new DashboardClient(ctx.app);
    expect((await guest.get(`/dashboard/setup/${'A'.repeat(43)}`)).status).toBe(404);
    // A pre-session CSRF token from a real setup page, so that the refusal is the link's.
    await guest.get(`/dashboard/setup/${(await ctx.services.accounts.firstAccountSetupLink())!.token}`);
    expect((await guest.post(`/dashboard/setup/${'A'.repeat(43)}`, { name: 'M', email: 'm@example.com', password: 'long-enough-pw' })).status).toBe(404);
  });

  it('creates the first account through the setup link (claiming the demo user), once, with the token stored hashed', async () => {
    const earlier = (await ctx.services.accounts.firstAccountSetupLink())!;
    const link = (await ctx.services.accounts.firstAccountSetupLink())!;
    const stored = await db().selectFrom('account_setup_tokens').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(link.token);
    const browser = new DashboardClient(ctx.app);
    const page = await browser.get(`/dashboard/setup/${link.token}`);
    expect(page.body).toContain("the installation's owner");
    // A mistake leaves the link usable.
    expect((await browser.post(`/dashboard/setup/${link.token}`, { name: 'Demo Owner', email: 'demo@example.com', password: 'short' })).status).toBe(400);

    const done = await browser.post(`/dashboard/setup/${link.token}`, { name: 'Demo Owner', email: 'demo@example.com', password: 'correct-horse-battery' });
    expect(done.location).toBe('/dashboard?notice=welcome');
    const users = await db().selectFrom('users').select(['email', 'is_instance_owner', 'password_hash']).execute();
    expect(users).toHaveLength(1);
    expect(users[0]!.is_instance_owner).toBe(true);
    expect(users[0]!.password_hash).toMatch(/^scrypt\$/);
    expect((await browser.get('/dashboard/personal')).body).toContain('/dashboard/projects/demo');

    // Single use, and every other first-account link dies with the setup.
    const replay = new DashboardClient(ctx.app);
    expect((await replay.get(`/dashboard/setup/${link.token}`)).status).toBe(404);
    await replay.get('/login');
    for (const token of [link.token, earlier.token]) {
      expect((await replay.post(`/dashboard/setup/${token}`, { name: 'M', email: 'mallory@example.com', password: 'mallory-password' })).status).toBe(404);
    }
    expect(await ctx.services.accounts.firstAccountSetupLink()).toBeUndefined();
    expect(await db().selectFrom('users').select('id').where('email', '=', 'mallory@example.com').executeTakeFirst()).toBeUndefined();
  });

  it('closes sign-up after the first account', async () => {
    const browser = new DashboardClient(ctx.app);
    expect((await browser.get('/dashboard/signup')).status).toBe(403);
    const refused = await browser.signUp({ email: 'late@example.com' });
    expect(refused.status).toBe(403);
    expect(await db().selectFrom('users').select('id').where('email', '=', 'late@example.com').executeTakeFirst()).toBeUndefined();
  });
});

describe('sign-in', () => {
  it('signs in with the right password only, and stores only a hash of the session token', async () => {
    const browser = new DashboardClient(ctx.app);
    const wrong = await browser.signIn('demo@example.com', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('Wrong e-mail or password');
    const ok = await browser.signIn('demo@example.com');
    expect(ok.location).toBe('/dashboard');
    const token = browser.cookies.get('cl_session')!;
    expect(token).toMatch(/^[\w-]{43}$/);
    const rows = await db().selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect((await browser.get('/dashboard')).status).toBe(200);
  });

  it('sign-out deletes the session row, so the old cookie signs nobody in', async () => {
    const browser = new DashboardClient(ctx.app);
    await browser.signIn('demo@example.com');
    const token = browser.cookies.get('cl_session')!;
    const before = await db().selectFrom('sessions').select('id').execute();
    await browser.get('/dashboard');
    const out = await browser.post('/logout');
    expect(out.location).toBe('/login');
    expect(out.setCookies.join()).toMatch(/cl_session=;/);
    expect(await db().selectFrom('sessions').select('id').execute()).toHaveLength(before.length - 1);
    const replay = await ctx.app.inject({ url: '/dashboard', headers: { cookie: `cl_session=${token}` } });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toMatch(/^\/login/);
  });

  it('ends expired sessions, and sign-ins clear them away', async () => {
    const browser = new DashboardClient(ctx.app);
    await browser.signIn('demo@example.com');
    await db().updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).execute();
    const res = await browser.get('/dashboard/account');
    expect(res.location).toBe('/login?next=%2Fdashboard%2Faccount');
    expect(res.setCookies.join()).toMatch(/cl_session=;/);
    await browser.signIn('demo@example.com');
    const left = await db().selectFrom('sessions').select('expires_at').execute();
    expect(left).toHaveLength(1);
    expect(left[0]!.expires_at.getTime()).toBeGreaterThan(Date.now());
  });

  it('rehashes a password stored with weaker scrypt parameters at the next successful sign-in only', async () => {
    await db().updateTable('users').set({ password_hash: await hashPassword('correct-horse-battery', 10) }).where('email', '=', 'demo@example.com').execute();
    const stored = async () => (await db().selectFrom('users').select('password_hash').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow()).password_hash!;
    const browser = new DashboardClient(ctx.app, '192.0.2.50');
    expect((await browser.signIn('demo@example.com', 'wrong-password-1')).status).toBe(401);
    expect(await stored()).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect((await browser.signIn('demo@example.com')).status).toBe(303);
    // The configured cost (the test suite's PASSWORD_SCRYPT_LOG_N=12), parameters in the string.
    expect(await stored()).toMatch(/^scrypt\$4096\$8\$1\$/);
    expect((await new DashboardClient(ctx.app).signIn('demo@example.com')).status).toBe(303);
  });

  it('does not follow an off-site next= after sign-in', async () => {
    const browser = new DashboardClient(ctx.app);
    await browser.get('/login');
    const res = await browser.post('/login', { email: 'demo@example.com', password: 'correct-horse-battery', next: '//evil.example/x' });
    expect(res.location).toBe('/dashboard');
  });
});

describe('sign-in limits', () => {
  afterEach(() => db().deleteFrom('sign_in_limits').execute());

  /** Posts sign-ins with one pre-session, all at once. */
  const parallelSignIns = async (browser: DashboardClient, email: string, passwords: string[]) => {
    await browser.get('/login');
    return Promise.all(passwords.map((password) => browser.post('/login', { email, password })));
  };

  it('checks exactly the allowed number of 60 parallel wrong guesses for one account', async () => {
    const attacker = new DashboardClient(ctx.app, '198.51.100.1');
    const results = await parallelSignIns(attacker, 'demo@example.com', Array.from({ length: 60 }, (_, i) => `wrong-guess-${i}`));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_LIMITS.perPair);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - SIGN_IN_LIMITS.perPair);
  });

  it('refuses the right password sent last among 40 parallel tries, and once locked', async () => {
    const attacker = new DashboardClient(ctx.app, '198.51.100.2');
    const passwords = [...Array.from({ length: 39 }, (_, i) => `wrong-guess-${i}`), 'correct-horse-battery'];
    const results = await parallelSignIns(attacker, 'demo@example.com', passwords);
    expect(results.at(-1)!.status).toBe(429);
    expect(results.filter((r) => r.status === 303)).toEqual([]);
    expect(attacker.cookies.has('cl_session')).toBe(false);
    const limited = await attacker.signIn('demo@example.com');
    expect(limited.status).toBe(429);
    expect(limited.body).toContain('Too many failed sign-ins');
  });

  it('locks one address out of one account without locking the owner out from elsewhere', async () => {
    const attacker = new DashboardClient(ctx.app, '198.51.100.3');
    for (let i = 0; i < SIGN_IN_LIMITS.perPair; i++) expect((await attacker.signIn('demo@example.com', `wrong-${i}-password`)).status).toBe(401);
    expect((await attacker.signIn('demo@example.com')).status).toBe(429);
    expect((await new DashboardClient(ctx.app, '203.0.113.9').signIn('demo@example.com')).status).toBe(303);
  });

  it('counts every IPv6 address of one /56 as one address: a fresh address from the same prefix is no fresh start', async () => {
    for (let i = 0; i < SIGN_IN_LIMITS.perPair; i++) {
      const bot = new DashboardClient(ctx.app, `2001:db8:77:${(i * 17).toString(16)}::${i + 1}`);
      expect((await bot.signIn('demo@example.com', `wrong-${i}-password`)).status).toBe(401);
    }
    expect((await new DashboardClient(ctx.app, '2001:db8:77:ff:1234::9').signIn('demo@example.com')).status).toBe(429);
    // Another subscriber's prefix is not affected.
    expect((await new DashboardClient(ctx.app, '2001:db8:78::1').signIn('demo@example.com')).status).toBe(303);
  });

  it('slows guesses spread over many addresses, but always lets an address\'s first try at the account through', async () => {
    for (let a = 0; a < SIGN_IN_LIMITS.perAccount / SIGN_IN_LIMITS.perPair; a++) {
      const bot = new DashboardClient(ctx.app, `198.51.100.${10 + a}`);
      for (let i = 0; i < SIGN_IN_LIMITS.perPair; i++) expect((await bot.signIn('demo@example.com', `wrong-${i}-password`)).status).toBe(401);
    }
    // Past the account's limit: a fresh address gets one try, then waits (2 s, 4 s, ... after the account's last attempt).
    const next = new DashboardClient(ctx.app, '198.51.100.30');
    expect((await next.signIn('demo@example.com', 'wrong-password-x')).status).toBe(401);
    expect((await next.signIn('demo@example.com')).status).toBe(429);
    // The owner, trying from their own address, is not locked out.
    expect((await new DashboardClient(ctx.app, '203.0.113.10').signIn('demo@example.com')).status).toBe(303);
  });

  it('stops password spraying from one address, except for accounts that signed in from it before', async () => {
    const shared = '198.51.100.99';
    expect((await new DashboardClient(ctx.app, shared).signIn('demo@example.com')).status).toBe(303);
    const sprayer = new DashboardClient(ctx.app, shared);
    await sprayer.get('/login');
    const sprayed = await Promise.all(
      Array.from({ length: SIGN_IN_LIMITS.perAddress + 10 }, (_, i) => sprayer.post('/login', { email: `nobody-${i}@example.com`, password: 'Summer2024!!' })),
    );
    expect(sprayed.filter((r) => r.status === 401)).toHaveLength(SIGN_IN_LIMITS.perAddress);
    expect((await sprayer.signIn('someone-else@example.com')).status).toBe(429);
    // Behind the same proxy address, the demo owner (known here) still signs in.
    expect((await new DashboardClient(ctx.app, shared).signIn('demo@example.com')).status).toBe(303);
  });
});

describe('account page', () => {
  afterEach(() => db().deleteFrom('sign_in_limits').execute());

  it('signs out every other session on a password change, keeping this one', async () => {
    const here = new DashboardClient(ctx.app);
    const elsewhere = new DashboardClient(ctx.app);
    await here.signIn('demo@example.com');
    await elsewhere.signIn('demo@example.com');
    const changed = await here.submit('/dashboard/account', '/dashboard/account/password', { current_password: 'correct-horse-battery', new_password: 'new-horse-battery' });
    expect(changed.location).toBe('/dashboard/account?notice=password-changed');
    expect((await here.get('/dashboard/account')).status).toBe(200);
    expect((await elsewhere.get('/dashboard/account')).location).toBe('/login?next=%2Fdashboard%2Faccount');
    expect((await new DashboardClient(ctx.app).signIn('demo@example.com', 'new-horse-battery')).status).toBe(303);
    // Back to the password the other tests use.
    await here.submit('/dashboard/account', '/dashboard/account/password', { current_password: 'new-horse-battery', new_password: 'correct-horse-battery' });
  });

  it('limits wrong current passwords like sign-ins: a thief with a session cannot guess the password', async () => {
    const thief = new DashboardClient(ctx.app, '198.51.100.77');
    await thief.signIn('demo@example.com');
    await thief.get('/dashboard/account');
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => thief.post('/dashboard/account/password', { current_password: `guess-number-${i}`, new_password: 'thief-password-1' })),
    );
    expect(guesses.filter((r) => r.status === 400)).toHaveLength(SIGN_IN_LIMITS.perPair);
    expect(guesses.filter((r) => r.status === 429)).toHaveLength(20 - SIGN_IN_LIMITS.perPair);
    const right = await thief.post('/dashboard/account/password', { current_password: 'correct-horse-battery', new_password: 'thief-password-1' });
    expect(right.status).toBe(429);
    expect((await new DashboardClient(ctx.app).signIn('demo@example.com')).status).toBe(303);
  });
});

describe('organizations and invitations', () => {
  let owner: DashboardClient;

  beforeAll(async () => {
    owner = new DashboardClient(ctx.app);
    await owner.signIn('demo@example.com');
  });

  const inviteLink = async (role: string) => {
    const page = await owner.submit('/dashboard/orgs/acme', '/dashboard/orgs/acme/invites', { role });
    expect(page.status).toBe(200);
    return /\/dashboard\/invites\/([\w-]+)/.exec(page.body)![0];
  };

  it('creates an organization with the creator as owner', async () => {
    const res = await owner.submit('/dashboard', '/dashboard/orgs', { name: 'Acme', slug: 'acme' });
    expect(res.location).toBe('/dashboard/orgs/acme?notice=org-created');
    const page = await owner.get('/dashboard/orgs/acme');
    expect(page.body).toContain('<span class="badge owner">owner</span>');
    const bad = await owner.submit('/dashboard', '/dashboard/orgs', { name: 'Bad', slug: 'Bad Slug' });
    expect(bad.status).toBe(400);
  });

  it('lets an invitee sign up through a single-use link while sign-up is closed', async () => {
    const link = await inviteLink('admin');
    const guest = new DashboardClient(ctx.app);
    expect((await guest.get(link)).body).toContain('Join Acme');
    const joined = await guest.post(link, { name: 'Grace', email: 'grace@example.com', password: 'grace-password-1' });
    expect(joined.location).toBe('/dashboard?notice=joined');
    expect((await guest.get('/dashboard/orgs/acme')).body).toContain('<span class="badge admin">admin</span>');
    // The link is used up.
    const again = new DashboardClient(ctx.app);
    expect((await again.get(link)).status).toBe(404);
    await again.get('/login');
    expect((await again.post(link, { name: 'Eve', email: 'eve@example.com', password: 'eve-password-12' })).status).toBe(404);
    expect(await db().selectFrom('users').select('id').where('email', '=', 'eve@example.com').executeTakeFirst()).toBeUndefined();
  });

  it('refuses expired invitation links', async () => {
    const link = await inviteLink('member');
    await db().updateTable('organization_invites').set({ expires_at: new Date(Date.now() - 1000) }).where('used_at', 'is', null).execute();
    const guest = new DashboardClient(ctx.app);
    expect((await guest.get(link)).status).toBe(404);
  });

  it('refuses a signed-in member an invitation to an org they are in, leaving it unused', async () => {
    const linus = new DashboardClient(ctx.app);
    await linus.get(await inviteLink('member'));
    await linus.post(await inviteLink('member'), { name: 'Linus', email: 'linus@example.com', password: 'linus-password-1' });
    const other = await inviteLink('member');
    const org = await db().selectFrom('organizations').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow();
    // Already a member of acme: the second link is refused and stays unused.
    expect((await linus.submit(other, other)).status).toBe(409);
    expect(await ctx.services.orgs.pendingInvites(org.id)).toHaveLength(2);
    expect((await linus.get('/dashboard/orgs/acme')).status).toBe(200);
  });

  it('changes roles, and never lets the last owner leave or stop being owner', async () => {
    const grace = await db().selectFrom('users').select('id').where('email', '=', 'grace@example.com').executeTakeFirstOrThrow();
    const me = await db().selectFrom('users').select('id').where('email', '=', 'demo@example.com').executeTakeFirstOrThrow();
    const demote = await owner.submit('/dashboard/orgs/acme', `/dashboard/orgs/acme/members/${me.id}/role`, { role: 'member' });
    expect(demote.status).toBe(409);
    const leave = await owner.submit('/dashboard/orgs/acme', `/dashboard/orgs/acme/members/${me.id}/remove`);
    expect(leave.status).toBe(409);
    expect(leave.body).toContain('last owner');

    expect((await owner.submit('/dashboard/orgs/acme', `/dashboard/orgs/acme/members/${grace.id}/role`, { role: 'owner' })).status).toBe(303);
    expect((await owner.submit('/dashboard/orgs/acme', `/dashboard/orgs/acme/members/${me.id}/role`, { role: 'admin' })).status).toBe(303);
    const roles = await db().selectFrom('organization_members').select(['user_id', 'role']).execute();
    expect(roles.find((r) => r.user_id === me.id)!.role).toBe('admin');
    expect(roles.find((r) => r.user_id === grace.id)!.role).toBe('owner');
    // An admin changes no roles.
    expect((await owner.submit('/dashboard/orgs/acme', `/dashboard/orgs/acme/members/${me.id}/role`, { role: 'owner' })).status).toBe(403);
  });

  it('hides organizations from non-members', async () => {
    const grace = new DashboardClient(ctx.app);
    await grace.signIn('grace@example.com', 'grace-password-1');
    expect((await grace.submit('/dashboard', '/dashboard/orgs', { name: 'Other', slug: 'other' })).status).toBe(303);
    const outsider = new DashboardClient(ctx.app);
    await outsider.signIn('linus@example.com', 'linus-password-1');
    expect((await outsider.get('/dashboard/orgs/other')).status).toBe(404);
    expect((await outsider.get('/dashboard/orgs/other/keys')).status).toBe(404);
  });
});

describe('projects and entries', () => {
  let owner: DashboardClient;
  beforeAll(async () => {
    owner = new DashboardClient(ctx.app);
    await owner.signIn('demo@example.com');
  });

  it('creates, renames and re-slugs a project with the CLI rules', async () => {
    const created = await owner.submit('/dashboard/personal', '/dashboard/personal/projects', { name: 'Widget', slug: 'widget' });
    expect(created.location).toBe('/dashboard/projects/widget?notice=project-created');
    const bad = await owner.submit('/dashboard/projects/widget', '/dashboard/projects/widget', { name: 'Widget', slug: '-bad-' });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('Slug may contain only lowercase letters');
    const taken = await owner.submit('/dashboard/projects/widget', '/dashboard/projects/widget', { name: 'Widget', slug: 'demo' });
    expect(taken.status).toBe(409);
    const saved = await owner.submit('/dashboard/projects/widget', '/dashboard/projects/widget', { name: 'Widget 2', slug: 'widget-two' });
    expect(saved.location).toBe('/dashboard/projects/widget-two?notice=project-saved');
    expect((await owner.get('/dashboard/projects/widget-two')).body).toContain('<h1>Widget 2</h1>');
  });

  it('deletes a project only after the slug is typed, with its entries and keys\' references', async () => {
    const project = await ctx.services.projects.findBySlug('widget-two');
    await ctx.services.entries.import('widget-two', [{ entry_type: 'commit', title: 'x' }]);
    const key = await ctx.services.keys.create({ name: 'k', context: { type: 'user', userId: project!.owner_user_id! }, projectSlugs: ['widget-two'] });
    const wrong = await owner.submit('/dashboard/projects/widget-two/delete', '/dashboard/projects/widget-two/delete', { confirm: 'widget' });
    expect(wrong.status).toBe(400);
    expect(await ctx.services.projects.findBySlug('widget-two')).toBeDefined();
    const done = await owner.submit('/dashboard/projects/widget-two/delete', '/dashboard/projects/widget-two/delete', { confirm: 'widget-two' });
    expect(done.location).toBe('/dashboard/personal?notice=project-deleted');
    expect(await ctx.services.projects.findBySlug('widget-two')).toBeUndefined();
    expect(await db().selectFrom('changelog_entries').select('id').where('project_id', '=', project!.id).execute()).toEqual([]);
    expect((await ctx.services.keys.get(key.key.id)).projects).toEqual([]);
    // A key limited to a deleted project sees nothing (it is not widened to all projects).
    const listed = await ctx.app.inject({ url: '/v1/projects', headers: { authorization: `Bearer ${key.secret}` } });
    expect(listed.json().projects).toEqual([]);
  });

  it('lists entries in every status and publishes, unpublishes, archives and edits them with a preview', async () => {
    const page = await owner.get('/dashboard/projects/demo');
    expect(page.body).toContain('Upcoming: this week (draft, not public)');
    expect(page.body).toContain('<span class="badge draft">draft</span>');
    const draft = await db().selectFrom('changelog_entries').select('id').where('status', '=', 'draft').executeTakeFirstOrThrow();

    const published = await owner.submit('/dashboard/projects/demo', `/dashboard/entries/${draft.id}/status`, { status: 'published' });
    expect(published.location).toBe('/dashboard/projects/demo?notice=entry-published');
    const publicPage = await ctx.app.inject({ url: `/v1/changelog/demo/entries/${draft.id}` });
    expect(publicPage.statusCode).toBe(200);
    await owner.submit('/dashboard/projects/demo', `/dashboard/entries/${draft.id}/status`, { status: 'draft' });
    // Gone from the public API within a second (the change notification's way back from the database).
    const status = (await eventually(() => ctx.app.inject({ url: `/v1/changelog/demo/entries/${draft.id}` }), (r) => r.statusCode === 404)).statusCode;
    expect(status).toBe(404);

    const content = '## Hello\n\n<script>alert(1)</script> **bold**';
    const preview = await owner.submit(`/dashboard/entries/${draft.id}`, `/dashboard/entries/${draft.id}`, { title: 'New title', content, intent: 'preview' });
    expect(preview.status).toBe(200);
    expect(preview.body).toContain('<h2>Hello</h2>');
    expect(preview.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; <strong>bold</strong>');
    expect(preview.body).not.toContain('<script>alert(1)');
    expect((await ctx.services.entries.get(draft.id)).title).not.toBe('New title');

    const saved = await owner.post(`/dashboard/entries/${draft.id}`, { title: 'New title', content, intent: 'save' });
    expect(saved.location).toBe(`/dashboard/entries/${draft.id}?notice=entry-saved`);
    const entry = await ctx.services.entries.get(draft.id);
    expect(entry.title).toBe('New title');
    expect(entry.content).toBe(content);

    await owner.submit(`/dashboard/entries/${draft.id}`, `/dashboard/entries/${draft.id}/status`, { status: 'archived', back: 'entry' });
    expect((await ctx.services.entries.get(draft.id)).status).toBe('archived');
  });

  it('lets org members read but not review or manage', async () => {
    const grace = new DashboardClient(ctx.app);
    await grace.signIn('grace@example.com', 'grace-password-1');
    await grace.submit('/dashboard/orgs/acme', '/dashboard/orgs/acme/projects', { name: 'Acme App', slug: 'acme-app' });
    const [entryId] = (await ctx.services.entries.import('acme-app', [{ entry_type: 'commit', title: 'Acme draft' }])).ids;
    const linus = new DashboardClient(ctx.app);
    await linus.signIn('linus@example.com', 'linus-password-1');
    const page = await linus.get('/dashboard/projects/acme-app');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Acme draft');
    expect(page.body).not.toContain('/status');
    expect((await linus.get(`/dashboard/entries/${entryId}`)).status).toBe(403);
    expect((await linus.post(`/dashboard/entries/${entryId}/status`, { status: 'published' })).status).toBe(403);
    expect((await linus.post('/dashboard/orgs/acme/projects', { name: 'Nope', slug: 'nope' })).status).toBe(403);
    expect((await ctx.services.entries.get(entryId!)).status).toBe('draft');
  });
});

describe('the public contract', () => {
  it('keeps every dashboard route out of /openapi.json', async () => {
    const doc = (await ctx.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    const paths = Object.keys(doc.paths);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => p.startsWith('/dashboard') || p === '/login' || p === '/logout')).toEqual([]);
  });
});

describe('with open sign-up (SIGNUP_OPEN)', () => {
  let open: TestContext;
  let alice: DashboardClient;
  const odb = () => open.services.database.db;
  const pendingInvites = async () => odb().selectFrom('organization_invites').select('id').where('used_at', 'is', null).execute();

  beforeAll(async () => {
    open = await createTestContext({ SIGNUP_OPEN: 'true' });
  });
  afterAll(() => open?.close());

  it('uses a setup link once even when it is posted twice at the same time', async () => {
    const link = `/dashboard/setup/${(await open.services.accounts.firstAccountSetupLink())!.token}`;
    const [a, b] = [new DashboardClient(open.app), new DashboardClient(open.app)];
    await a.get(link);
    await b.get(link);
    const results = await Promise.all([
      a.post(link, { name: 'Alice', email: 'alice@example.com', password: 'correct-horse-battery' }),
      b.post(link, { name: 'Mallory', email: 'mallory@example.com', password: 'mallory-password' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 404]);
    expect(await odb().selectFrom('users').select('email').execute()).toHaveLength(1);
    alice = new DashboardClient(open.app);
    if (results[0]!.status !== 303) {
      // Mallory won this race; the test needs alice as the owner.
      await odb().deleteFrom('users').execute();
      expect((await alice.setUp(open.services, { name: 'Alice', email: 'alice@example.com' })).status).toBe(303);
    } else {
      expect((await alice.signIn('alice@example.com')).status).toBe(303);
    }
  });

  it('answers sign-up alike for a new e-mail, an account with a password and a passwordless (CLI) org owner, and signs nobody in', async () => {
    // As `changelog users create` and `changelog orgs create --owner` leave it: an owner without a password.
    await open.services.users.create({ email: 'cli-owner@example.com', name: 'CLI Owner' });
    await open.services.orgs.create({ slug: 'cli-org', name: 'CLI Org', ownerEmail: 'cli-owner@example.com' });
    const answers = [];
    for (const email of ['fresh@example.com', 'alice@example.com', 'cli-owner@example.com']) {
      const attacker = new DashboardClient(open.app);
      await attacker.get('/dashboard/signup');
      const res = await attacker.post('/dashboard/signup', { name: 'Mallory', email, password: 'mallory-password' });
      answers.push({ status: res.status, location: res.location, cookies: res.setCookies.map((c) => c.split('=')[0]), body: res.body });
      expect(attacker.cookies.has('cl_session')).toBe(false);
    }
    expect(answers[0]).toEqual({ status: 303, location: '/login?notice=signup-done', cookies: [], body: '' });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    // Existing accounts are untouched: the attacker's password opens neither.
    expect((await odb().selectFrom('users').select('password_hash').where('email', '=', 'cli-owner@example.com').executeTakeFirstOrThrow()).password_hash).toBeNull();
    expect((await new DashboardClient(open.app).signIn('alice@example.com', 'mallory-password')).status).toBe(401);
    expect((await new DashboardClient(open.app).signIn('cli-owner@example.com', 'mallory-password')).status).toBe(401);
    // The new account's owner signs in.
    expect((await new DashboardClient(open.app).signIn('fresh@example.com', 'mallory-password')).status).toBe(303);
    await odb().deleteFrom('sign_in_limits').execute();
  });

  const inviteLink = async () => {
    if (!(await odb().selectFrom('organizations').select('id').where('slug', '=', 'team').executeTakeFirst())) {
      await alice.submit('/dashboard', '/dashboard/orgs', { name: 'Team', slug: 'team' });
    }
    const page = await alice.submit('/dashboard/orgs/team', '/dashboard/orgs/team/invites', { role: 'member' });
    return /\/dashboard\/invites\/[\w-]+/.exec(page.body)![0];
  };

  it('joins an invitation with an existing e-mail only with its password, without saying the account exists', async () => {
    const link = await inviteLink();
    const guest = new DashboardClient(open.app);
    await guest.get(link);
    const wrong = await guest.post(link, { name: 'Mallory', email: 'fresh@example.com', password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('Wrong e-mail or password');
    expect(wrong.body).not.toMatch(/already exists|fresh@example\.com already/);
    expect(guest.cookies.has('cl_session')).toBe(false);
    expect(await pendingInvites()).toHaveLength(1);

    const right = await guest.post(link, { name: 'ignored', email: 'fresh@example.com', password: 'mallory-password' });
    expect(right.location).toBe('/dashboard?notice=joined');
    expect((await guest.get('/dashboard/orgs/team')).body).toContain('fresh@example.com');
    expect(await pendingInvites()).toHaveLength(0);
    await odb().deleteFrom('sign_in_limits').execute();
  });

  it('lets two newcomers racing for one invitation create one account and one membership', async () => {
    const link = await inviteLink();
    const [a, b] = [new DashboardClient(open.app), new DashboardClient(open.app)];
    await a.get(link);
    await b.get(link);
    const results = await Promise.all([
      a.post(link, { name: 'A', email: 'racer-a@example.com', password: 'racer-password-a' }),
      b.post(link, { name: 'B', email: 'racer-b@example.com', password: 'racer-password-b' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 404]);
    const racers = await odb().selectFrom('users').select('email').where('email', 'like', 'racer-%').execute();
    expect(racers).toHaveLength(1);
  });

  it('answers a member accepting two invitations to one organization at once with one membership and a 409, not a 500', async () => {
    const [first, second] = [await inviteLink(), await inviteLink()];
    const carol = new DashboardClient(open.app);
    expect((await carol.signUp({ email: 'carol@example.com' })).status).toBe(303);
    await carol.get(first);
    const results = await Promise.all([carol.post(first), carol.post(second)]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 409]);
    expect(await pendingInvites()).toHaveLength(1);
  });

  it('checks an owner\'s ownership again when acting: an owner demoted meanwhile removes and promotes nobody', async () => {
    const id = async (email: string) => (await odb().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const [aliceId, freshId, carolId] = [await id('alice@example.com'), await id('fresh@example.com'), await id('carol@example.com')];
    await open.services.orgs.changeRole(await open.services.orgs.membership('team', aliceId), aliceId, freshId, 'owner');
    // fresh's request read its membership (owner) just before alice demoted fresh.
    const stale = await open.services.orgs.membership('team', freshId);
    await open.services.orgs.changeRole(await open.services.orgs.membership('team', aliceId), aliceId, freshId, 'member');
    await expect(open.services.orgs.removeMember(stale, freshId, carolId)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(open.services.orgs.changeRole(stale, freshId, freshId, 'owner')).rejects.toMatchObject({ code: 'forbidden' });
    const roles = await odb().selectFrom('organization_members').select(['user_id', 'role']).execute();
    expect(roles.find((r) => r.user_id === carolId)?.role).toBe('member');
    expect(roles.find((r) => r.user_id === freshId)?.role).toBe('member');
    // Leaving needs no ownership.
    await open.services.orgs.removeMember(stale, freshId, freshId);
  });
});
