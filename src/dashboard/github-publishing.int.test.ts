// The project page's "Publish to GitHub" settings of a GitHub link (issue 25): shown with the
// permissions they need, saved by a manager only (a member is refused, another tenant and a forged
// link id find nothing, a form without its CSRF token changes nothing), and the releases' sync state
// (last sync, the error that stopped it, Retry) shown where the setting is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCommit } from '../../test/helpers/commits.js';
import { signUpTeam, type DashboardClient, type Person } from '../../test/helpers/dashboard-client.js';
import { storeCommits } from '../../test/helpers/releases.js';
import { createScmTestContext, linkAcmeApp, type ScmTestContext } from '../../test/helpers/scm.js';
import type { RepoLinkRow } from '../db/schema.js';

let ctx: ScmTestContext;
let people: Record<Person, DashboardClient>;
let link: RepoLinkRow;
const page = '/dashboard/projects/acme-app';
const settingsOf = () => ctx.services.database.db.selectFrom('github_link_publishing').selectAll().where('link_id', '=', link.id).executeTakeFirst();

beforeAll(async () => {
  ctx = await createScmTestContext({ SIGNUP_OPEN: 'true', GITHUB_TRUSTED_ACCOUNTS: 'acme' });
  people = await signUpTeam(ctx.app, ctx.services, { carol: 'member' });
  await people.alice.submit('/dashboard/orgs/acme', '/dashboard/orgs/acme/projects', { name: 'Acme App', slug: 'acme-app' });
  await people.bob.submit('/dashboard/personal', '/dashboard/personal/projects', { name: 'Bob Site', slug: 'bob-site' });
  ctx.github.addInstallation({
    id: 101,
    account: { login: 'acme', type: 'Organization' },
    permissions: { contents: 'read', metadata: 'read' },
    repos: [{ owner: 'acme', name: 'app', cloneUrl: '/nonexistent/app.git', tags: ['v1.0.0'] }],
  });
  const alice = (await ctx.services.users.findByEmail('alice@example.com'))!;
  const org = await ctx.services.orgs.membership('acme', alice.id);
  const project = (await ctx.services.projects.findBySlug('acme-app'))!;
  ({ link } = await linkAcmeApp(ctx, { type: 'org', orgId: org.org.id }, project.id));
  await ctx.services.generation.configure('acme-app', { history: 'draft' });
  await storeCommits(ctx.services, project.id, [buildCommit({ message: 'feat: first (#1)', tags: ['v1.0.0'] })]);
  await ctx.services.generation.generate('acme-app');
});

afterAll(async () => ctx?.close());

describe('Publish to GitHub on the project page', () => {
  it('shows the settings of a GitHub link with the permissions they need', async () => {
    const res = await people.alice.get(page);
    expect(res.status).toBe(200);
    expect(res.body).toContain('Publish to GitHub');
    expect(res.body).toContain('Publish release notes to GitHub Releases');
    expect(res.body).toContain('&quot;Contents: Read and write&quot;');
    expect(res.body).toContain('&quot;Checks: Read and write&quot;');
    expect(res.body).not.toMatch(/name="releases" value="on" checked/);
    expect(res.body).toContain('Keep CHANGELOG.md current through a pull request');
    expect(res.body).toContain('&quot;Pull requests: Read and write&quot;');
  });

  it('saves them for a manager', async () => {
    const res = await people.alice.submit(page, `${page}/repos/${link.id}/github`, { releases: 'on', prChecks: 'report', changelogPr: 'on' });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${page}?notice=github-publishing-saved`);
    expect(await settingsOf()).toMatchObject({ releases: true, pr_checks: 'report', changelog_pr: true });
    expect((await people.alice.get(page)).body).toMatch(/name="changelogPr" value="on" checked/);
    await people.alice.submit(page, `${page}/repos/${link.id}/github`, { releases: 'on', prChecks: 'report' });
    expect(await settingsOf()).toMatchObject({ changelog_pr: false });
    const shown = await people.alice.get(page);
    expect(shown.body).toMatch(/name="releases" value="on" checked/);
    expect(shown.body).toMatch(/<option value="report" selected>/);
    expect(shown.body).toContain('GitHub Releases: nothing synced yet');
  });

  it('refuses an unknown mode, a member, another tenant, a forged link id and a missing CSRF token', async () => {
    const bad = await people.alice.submit(page, `${page}/repos/${link.id}/github`, { releases: 'on', prChecks: 'always' });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('prChecks must be one of off, report, blocking');
    expect((await people.carol.submit(page, `${page}/repos/${link.id}/github`, { prChecks: 'off' })).status).toBe(403);
    expect((await people.bob.submit('/dashboard/personal', `${page}/repos/${link.id}/github`, { prChecks: 'off' })).status).toBe(404);
    expect((await people.bob.submit('/dashboard/projects/bob-site', `/dashboard/projects/bob-site/repos/${link.id}/github`, { prChecks: 'off' })).status).toBe(
      404,
    );
    expect((await people.alice.submit(page, `${page}/repos/00000000-0000-4000-8000-000000000000/github`, { prChecks: 'off' })).status).toBe(404);
    expect((await people.alice.post(`${page}/repos/${link.id}/github`, { _csrf: null, prChecks: 'off' })).status).toBe(403);
    expect(await settingsOf()).toMatchObject({ releases: true, pr_checks: 'report' });
  });

  it('shows what stopped the sync (a missing permission) and retries once it is granted', async () => {
    await ctx.services.entries.publishRelease('acme-app', 'v1.0.0');
    await ctx.services.publishing.dispatchPending();
    await ctx.services.publishing.syncLink(link.id);
    const stopped = await people.alice.get(page);
    expect(stopped.body).toContain(
      'GitHub Releases, v1.0.0: GitHub refused to create the release of v1.0.0 (GitHub said: Resource not accessible by integration)',
    );
    expect(stopped.body).toContain('1 waiting');
    expect(stopped.body).toContain('Retry GitHub Releases');
    // A member sees the state, not the forms.
    const member = await people.carol.get(page);
    expect(member.body).toContain('GitHub Releases, v1.0.0: GitHub refused');
    expect(member.body).not.toContain('Retry GitHub Releases');

    ctx.github.installation(101)!.permissions = { contents: 'write', metadata: 'read' };
    const retried = await people.alice.submit(page, `${page}/repos/${link.id}/github/retry`);
    expect(retried.location).toBe(`${page}?notice=github-releases-retried`);
    await ctx.services.publishing.syncLink(link.id);
    expect(ctx.github.releases('acme/app')).toEqual([expect.objectContaining({ tag_name: 'v1.0.0', draft: false })]);
    const synced = await people.alice.get(page);
    expect(synced.body).toMatch(/GitHub Releases: last synced/);
    expect(synced.body).not.toContain('GitHub refused');
  });
});
