// The dashboard's Releases screen: every release note with filters and pages, bulk publish and
// unpublish of ticked notes or all matching, the whole history in one action, and who may.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import type { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { dashboardCast } from '../../test/helpers/dashboard-cast.js';
import { releaseHistory, storeCommits } from '../../test/helpers/releases.js';

let ctx: TestContext;
let alice: DashboardClient;
let carol: DashboardClient;
let dave: DashboardClient;
let app: { id: string; slug: string };
let other: { id: string; slug: string };

const db = () => ctx.services.database.db;
const releases = (query = '') => `/dashboard/projects/${app.slug}/releases${query}`;
const bulk = (slug = app.slug) => `/dashboard/projects/${slug}/releases/bulk`;
const idsOn = (body: string) => [...body.matchAll(/name="ids" value="([0-9a-f-]{36})"/g)].map((m) => m[1]!);
const statuses = async (projectId: string) =>
  Object.fromEntries((await db().selectFrom('release_notes').select(['tag', 'status']).where('project_id', '=', projectId).execute()).map((r) => [r.tag ?? 'unreleased', r.status]));
const idOf = async (projectId: string, tag: string) =>
  (await db().selectFrom('release_notes').select('id').where('project_id', '=', projectId).where('tag', '=', tag).executeTakeFirstOrThrow()).id;
const allDrafts = (s: Record<string, string>) => Object.values(s).every((v) => v === 'draft');

async function withReleases(project: { id: string; slug: string }) {
  await storeCommits(ctx.services, project.id, releaseHistory().commits);
  await ctx.services.generation.generate(project.slug);
}

beforeAll(async () => {
  ctx = await createTestContext({ SIGNUP_OPEN: 'true' });
  ({ alice, carol, dave, app, other } = await dashboardCast(ctx, 'dave-lib'));
  await withReleases(app);
  await withReleases(other);
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

describe('the Releases screen', () => {
  it('lists every release note newest first with its tag, version, package, status and counts, linked from the project page', async () => {
    expect((await alice.get(`/dashboard/projects/${app.slug}`)).body).toContain(`href="${releases()}"`);
    const page = await alice.get(releases());
    expect(page.status).toBe(200);
    const tags = ['Unreleased', 'v1.1.0', 'v1.1.0-beta.1', 'pkg@2.0.0', 'v1.0.0'];
    const at = tags.map((t) => page.body.indexOf(t));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(idsOn(page.body)).toHaveLength(5);
    expect(page.body).toContain('5 matching');
    expect(page.body).toContain('<td>1.1.0</td>');
    expect(page.body).toMatch(/pre-release/);
    expect(page.body).toMatch(/1 new since v1\.1\.0/);
    // Four notes of tags are drafts: the history action offers them.
    expect(page.body).toContain('4 release notes of tags are drafts');
  });

  it('filters by status, package and pre-release, and pages with a link to the older ones', async () => {
    expect(idsOn((await alice.get(releases('?package=pkg'))).body)).toEqual([await idOf(app.id, 'pkg@2.0.0')]);
    expect(idsOn((await alice.get(releases('?package=:root&prerelease=false'))).body)).toHaveLength(3);
    expect(idsOn((await alice.get(releases('?status=published'))).body)).toHaveLength(0);
    const first = await alice.get(releases('?limit=2'));
    expect(idsOn(first.body)).toHaveLength(2);
    const next = /<a rel="next" href="([^"]+)"/.exec(first.body)![1]!.replace(/&amp;/g, '&');
    const second = await alice.get(next);
    expect(idsOn(second.body)).toHaveLength(2);
    expect(idsOn(second.body)).not.toContain(idsOn(first.body)[1]);
    const bad = await alice.get(releases('?status=maybe'));
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('Invalid filter');
  });

  it('publishes ticked notes, then unpublishes them', async () => {
    const ids = [await idOf(app.id, 'v1.0.0'), await idOf(app.id, 'pkg@2.0.0')];
    await alice.get(releases());
    const done = await alice.post(bulk(), { action: 'publish', ids });
    expect(done.status, done.body).toBe(303);
    expect(done.location).toContain('done=publish&changed=2');
    expect((await alice.get(done.location!)).body).toContain('Published 2 release notes.');
    expect(await statuses(app.id)).toMatchObject({ 'v1.0.0': 'published', 'pkg@2.0.0': 'published', 'v1.1.0': 'draft' });
    expect((await alice.post(bulk(), { action: 'unpublish', ids: ids[0]! })).status).toBe(303);
    expect(await statuses(app.id)).toMatchObject({ 'v1.0.0': 'draft', 'pkg@2.0.0': 'published' });
  });

  it('publishes all matching a filter, refusing when more match than confirmed', async () => {
    await alice.get(releases());
    const stale = await alice.post(bulk(), { action: 'publish', scope: 'matching', prerelease: 'true', expected: '0' });
    expect(stale.status).toBe(409);
    expect((await statuses(app.id))['v1.1.0-beta.1']).toBe('draft');
    const ok = await alice.post(bulk(), { action: 'publish', scope: 'matching', prerelease: 'true', expected: '1' });
    expect(ok.status).toBe(303);
    expect((await statuses(app.id))['v1.1.0-beta.1']).toBe('published');
  });

  it('publishes the whole history of releases in one action: every draft note of a tag, not the Unreleased note', async () => {
    await alice.get(releases());
    const res = await alice.post(bulk(), { action: 'publish', scope: 'history' });
    expect(res.status, res.body).toBe(303);
    expect(await statuses(app.id)).toEqual({ unreleased: 'draft', 'v1.0.0': 'published', 'pkg@2.0.0': 'published', 'v1.1.0-beta.1': 'published', 'v1.1.0': 'published' });
    await expect.poll(async () => (await ctx.app.inject({ method: 'GET', url: `/v1/changelog/${app.slug}/releases` })).json<{ meta: { total: number } }>().meta.total).toBe(4);
    expect((await alice.get(releases())).body).toContain('Every release note of a tag is published or archived.');
    expect((await alice.post(bulk(), { action: 'unpublish', scope: 'history' })).status).toBe(400);
  });
});

describe('who may, and forged selections', () => {
  it('refuses an organization member without editor rights (403), page and actions, and changes nothing', async () => {
    const before = await statuses(app.id);
    expect((await carol.get(releases())).status).toBe(403);
    await carol.get('/dashboard');
    expect((await carol.post(bulk(), { action: 'unpublish', ids: await idOf(app.id, 'v1.1.0') })).status).toBe(403);
    expect((await carol.post(bulk(), { action: 'unpublish', scope: 'matching' })).status).toBe(403);
    expect(await statuses(app.id)).toEqual(before);
    // Nor is she sent there from the project page.
    expect((await carol.get(`/dashboard/projects/${app.slug}`)).body).not.toContain(releases());
  });

  it("another tenant's project is not found, its screen or its actions", async () => {
    expect((await alice.get(`/dashboard/projects/${other.slug}/releases`)).status).toBe(404);
    await alice.get(releases());
    const res = await alice.post(bulk(other.slug), { action: 'publish', scope: 'history' });
    expect(res.status).toBe(404);
    expect(allDrafts(await statuses(other.id))).toBe(true);
  });

  it("a forged id in a selection (another tenant's note, a made-up one) refuses the whole selection: nothing changes", async () => {
    await alice.post(bulk(), { action: 'unpublish', scope: 'matching', status: 'published' });
    const before = await statuses(app.id);
    expect(Object.values(before).every((s) => s === 'draft')).toBe(true);
    const mine = await idOf(app.id, 'v1.0.0');
    const theirs = await idOf(other.id, 'v1.0.0');
    await alice.get(releases());
    const forged = await alice.post(bulk(), { action: 'publish', ids: [mine, theirs] });
    expect(forged.status).toBe(404);
    expect(forged.body).toContain('not in this project; nothing was changed');
    const madeUp = await alice.post(bulk(), { action: 'publish', ids: [mine, '00000000-0000-4000-8000-000000000000', '<script>'] });
    expect(madeUp.status).toBe(404);
    expect(madeUp.body).not.toContain('<script>');
    expect(await statuses(app.id)).toEqual(before);
    expect(allDrafts(await statuses(other.id))).toBe(true);
    // Dave, in his own project, cannot reach alice's note either.
    await dave.get(`/dashboard/projects/${other.slug}/releases`);
    expect((await dave.post(bulk(other.slug), { action: 'publish', ids: mine })).status).toBe(404);
    expect(await statuses(app.id)).toEqual(before);
  });

  it('refuses a post without the form token, and an unknown action', async () => {
    const id = await idOf(app.id, 'v1.0.0');
    expect((await alice.post(bulk(), { _csrf: null, action: 'publish', ids: id })).status).toBe(403);
    await alice.get(releases());
    expect((await alice.post(bulk(), { action: 'archive', ids: id })).status).toBe(400);
    expect((await statuses(app.id))['v1.0.0']).toBe('draft');
  });
});

describe('the release policy set to auto in the generation settings', () => {
  it('publishes the drafts the policy held back (the Unreleased note here), not the notes alice unpublished, and says so', async () => {
    const before = await statuses(app.id);
    expect(Object.values(before).every((v) => v === 'draft')).toBe(true);
    const settings = `/dashboard/projects/${app.slug}/generation`;
    await alice.get(settings);
    const form = {
      entry_types: ['commit', 'weekly'], publish_commit: 'manual', publish_daily: 'manual', publish_weekly: 'manual', publish_monthly: 'manual',
      time_zone: 'UTC', exclude_authors: '', path_rules: '', releases: 'on', publish_release: 'auto',
    };
    const saved = await alice.post(settings, form);
    expect(saved.status, saved.body).toBe(303);
    expect(saved.location).toContain('notice=generation-saved-published');
    expect((await alice.get(saved.location!)).body).toContain('are published (not those a person unpublished or edited)');
    const after = await statuses(app.id);
    expect(after.unreleased).toBe('published');
    for (const tag of ['v1.0.0', 'v1.1.0', 'v1.1.0-beta.1', 'pkg@2.0.0']) expect(after[tag]).toBe('draft');
    // Saved again unchanged: nothing more is published, and the notice says only that it was saved.
    await alice.get(settings);
    expect((await alice.post(settings, form)).location).toContain('notice=generation-saved');
    expect((await alice.post(settings, form)).location).not.toContain('published');
  });
});
