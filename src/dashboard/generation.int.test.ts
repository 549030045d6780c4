// The dashboard's generation page: settings form, its link to the review queue, regenerate.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { buildProject, linkPredatesHistory } from '../../test/helpers/factories.js';
import { datasetRepoCopy, removeRepoCopy, tempDir } from '../../test/helpers/git-fixtures.js';
import { generate } from '../generation/engine/engine.js';
import { resolveSettings } from '../generation/settings.js';
import { SECTION_KEYS } from '../generation/engine/types.js';
import { toCommitRecord } from '../repos/commits.repository.js';

let ctx: TestContext;
let reposDir: string;
let origin: string;
let browser: DashboardClient;
let project: { id: string; slug: string };

const db = () => ctx.services.database.db;
const page = () => `/dashboard/projects/${project.slug}/generation`;

beforeAll(async () => {
  reposDir = tempDir('gen-dash');
  // Generating 1,500 commits in-process on PGlite lags the event loop past the load-shedding
  // threshold; shedding is not what this file tests.
  ctx = await createTestContext({ REPOS_DIR: reposDir, UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' });
  origin = datasetRepoCopy();
  browser = new DashboardClient(ctx.app);
  // The installation's first account, through a setup link.
  expect((await browser.setUp(ctx.services, { email: 'lead@example.com' })).status).toBe(303);
  project = await buildProject(ctx.services, { type: 'user', email: 'lead@example.com' });
  const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: origin, branch: 'main' });
  // The review queue holds new work: the dataset's commits must not be history (published by default).
  await linkPredatesHistory(ctx.services, link.id);
  await ctx.services.ingest.ingestLink(link.id);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  if (origin) removeRepoCopy(origin);
  rmSync(reposDir, { recursive: true, force: true });
});

describe('generation page', () => {
  it('generates on request and lists the drafts for review', async () => {
    expect((await browser.get(`/dashboard/projects/${project.slug}`)).body).toContain(`href="${page()}"`);
    expect((await browser.get(page())).body).toContain('Nothing to review.');
    const res = await browser.post(`/dashboard/projects/${project.slug}/generate`);
    expect(res.location).toBe(`${page()}?notice=generated`);
    expect((await browser.get(page())).body).toMatch(/[\d,]+ drafts to review/);
    const body = (await browser.get(`/dashboard/projects/${project.slug}/review`)).body;
    expect(body).toMatch(/Week \d{4}-W\d{2}/);
    expect(body).toContain('name="ids"');
  }, 60_000);

  it('publishes the selected drafts only, and refuses a post without the CSRF token', async () => {
    const drafts = await db().selectFrom('changelog_entries').select('id').where('project_id', '=', project.id).where('entry_type', '=', 'weekly').limit(2).execute();
    const ids = drafts.map((d) => d.id);
    expect((await browser.post(`/dashboard/projects/${project.slug}/review/bulk`, { _csrf: null, action: 'publish', ids })).status).toBe(403);
    expect((await db().selectFrom('changelog_entries').select('id').where('status', '=', 'published').execute()).length).toBe(0);

    await browser.get(page());
    const res = await browser.post(`/dashboard/projects/${project.slug}/review/bulk`, { action: 'publish', ids });
    expect(res.status).toBe(303);
    const published = await db().selectFrom('changelog_entries').select('id').where('project_id', '=', project.id).where('status', '=', 'published').execute();
    expect(published.map((p) => p.id).sort()).toEqual([...ids].sort());
  });

  it('saves settings from the form, and shows every problem of a bad one without saving', async () => {
    const form = {
      entry_types: ['commit', 'monthly'], publish_commit: 'manual', publish_daily: 'manual', publish_weekly: 'manual', publish_monthly: 'auto',
      time_zone: 'Mars/Base', exclude_authors: '', path_rules: 'no-equals-sign', visible_feature: 'on', label_feature: 'New', order_feature: '1',
    };
    await browser.get(page());
    const bad = await browser.post(page(), form);
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('Mars/Base');
    expect((await ctx.services.generation.settings(project.slug)).input).toEqual({});

    await browser.get(page());
    const ok = await browser.post(page(), { ...form, time_zone: 'Europe/Berlin', path_rules: 'crates/*/**=$1', exclude_authors: 'bot@example.com\n*[bot]*' });
    expect(ok.status).toBe(303);
    const { resolved } = await ctx.services.generation.settings(project.slug);
    expect(resolved).toMatchObject({ entryTypes: ['commit', 'monthly'], timeZone: 'Europe/Berlin', excludeAuthors: ['bot@example.com', '*[bot]*'] });
    expect(resolved.publish.monthly).toBe('auto');
    expect(resolved.sections[0]).toEqual({ key: 'feature', label: 'New', visible: true });
    expect(resolved.sections.filter((s) => s.visible).map((s) => s.key)).toEqual(['feature']);
    expect((await browser.get(page())).body).toContain('value="Europe/Berlin"');
    // Release notes: the form's checkbox and policy (left unchecked above: off).
    expect(resolved.releases).toBe(false);
    await browser.get(page());
    expect((await browser.post(page(), { ...form, time_zone: 'Europe/Berlin', path_rules: '', releases: 'on', publish_release: 'auto' })).status).toBe(303);
    const next = (await ctx.services.generation.settings(project.slug)).resolved;
    expect(next).toMatchObject({ releases: true, publish: { release: 'auto', monthly: 'auto' } });
    const form2 = (await browser.get(page())).body;
    expect(form2).toMatch(/name="releases" value="on" checked/);
    expect(form2).toMatch(/<option value="auto" selected>publish at once<\/option><\/select><\/div>\s*<\/fieldset>/);
  });

  it('regenerates an edited entry that newer commits touched', async () => {
    const week = await db().selectFrom('changelog_entries').select(['id', 'title']).where('project_id', '=', project.id).where('entry_type', '=', 'weekly').where('status', '=', 'draft')
      // The oldest week, as the table's physical order gave before an index began to serve this query.
      .orderBy('period_start').orderBy('id').executeTakeFirstOrThrow();
    await ctx.services.entries.editText(week.id, { title: 'Edited', content: 'Mine' });
    await db().updateTable('changelog_entries').set({ pending_regeneration: true }).where('id', '=', week.id).execute();
    expect((await browser.get(`/dashboard/projects/${project.slug}/review?pending=1`)).body).toContain('newer commits');
    const res = await browser.post(`/dashboard/entries/${week.id}/regenerate`);
    expect(res.status).toBe(303);
    const row = await db().selectFrom('changelog_entries').select(['title', 'pending_regeneration', 'edited_at']).where('id', '=', week.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ title: week.title, pending_regeneration: false, edited_at: null });
  }, 60_000);
});

describe('teams in the settings form', () => {
  it('saves team rules by path and author, refuses a malformed one, and clears them', async () => {
    const base = { entry_types: ['commit', 'weekly'], time_zone: 'UTC', exclude_authors: '', path_rules: '', visible_feature: 'on', visible_fix: 'on' };
    await browser.get(page());
    const bad = await browser.post(page(), { ...base, team_paths: 'git-cliff-core/**=Core\nno-team-here', team_authors: '' });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('no-team-here');
    const before = await ctx.services.generation.settings(project.slug);

    await browser.get(page());
    const ok = await browser.post(page(), { ...base, team_paths: 'git-cliff-core/**=Core\nwebsite/**=Docs', team_authors: 'orhun*=Core', headline_limit: '2' });
    expect(ok.status).toBe(303);
    const { resolved } = await ctx.services.generation.settings(project.slug);
    expect(before.resolved.teams).toEqual([]);
    expect(resolved.teams).toEqual([{ team: 'Core', paths: ['git-cliff-core/**'], authors: ['orhun*'] }, { team: 'Docs', paths: ['website/**'] }]);
    expect(resolved.headlineLimit).toBe(2);
    const body = (await browser.get(page())).body;
    expect(body).toContain('git-cliff-core/**=Core\nwebsite/**=Docs</textarea>');
    expect(body).toContain('orhun*=Core</textarea>');
    // The git-cliff repository has one (.github/CODEOWNERS), read when it was ingested.
    expect(body).toContain('The repository has a CODEOWNERS file: its owners name the teams of commits no rule below covers.');

    // The project's own CODEOWNERS text instead of the repository's; empty goes back to the repository's.
    await browser.get(page());
    expect((await browser.post(page(), { ...base, team_paths: '', team_authors: '', codeowners: '/website/ @acme/docs\r\n' })).status).toBe(303);
    expect((await ctx.services.generation.settings(project.slug)).resolved.codeowners).toBe('/website/ @acme/docs\n');
    expect((await browser.get(page())).body).toContain('name="codeowners">/website/ @acme/docs\n</textarea>');

    await browser.get(page());
    expect((await browser.post(page(), { ...base, team_paths: '', team_authors: '', codeowners: '' })).status).toBe(303);
    const cleared = (await ctx.services.generation.settings(project.slug)).resolved;
    expect(cleared.teams).toEqual([]);
    expect(cleared.codeowners).toBeNull();
    // A preview shows the form as submitted: the repository's file does not appear as the project's own.
    await browser.get(page());
    const previewed = await browser.post(`/dashboard/projects/${project.slug}/generation/preview`, { ...base, codeowners: '' });
    expect(previewed.status).toBe(200);
    expect(previewed.body).toContain('name="codeowners"></textarea>');
  });
});

describe('preview of a settings change', () => {
  const preview = () => `/dashboard/projects/${project.slug}/generation/preview`;
  const saved = { entry_types: ['commit', 'monthly'], time_zone: 'UTC', exclude_authors: '', path_rules: '', visible_feature: 'on', order_feature: '1' };
  const entryState = () =>
    db().selectFrom('changelog_entries').select(['id', 'status', 'title', 'updated_at', 'fingerprint']).where('project_id', '=', project.id).orderBy('id').execute();

  it('shows what the submitted settings would generate from the stored commits, against the saved ones, and stores nothing', async () => {
    await browser.get(page());
    expect((await browser.post(page(), saved)).status).toBe(303);
    const settingsBefore = await ctx.services.generation.settings(project.slug);
    const entriesBefore = await entryState();

    // What the engine makes of the stored commits with each settings, computed here independently of the page.
    const rows = await db().selectFrom('commits').selectAll().where('project_id', '=', project.id).where('reachable', '=', true).orderBy('committed_at').orderBy('sha').execute();
    const commits = rows.map(toCommitRecord);
    const proposedInput = { ...saved, entry_types: ['commit', 'weekly', 'monthly'], visible_fix: 'on', label_fix: 'Fixes', order_fix: '2' };
    const current = generate(commits, settingsBefore.resolved);
    const proposed = generate(commits, resolveSettings({
      entryTypes: ['commit', 'weekly', 'monthly'],
      sections: [{ key: 'feature', visible: true }, { key: 'fix', label: 'Fixes', visible: true }, ...SECTION_KEYS.filter((k) => k !== 'feature' && k !== 'fix').map((key) => ({ key, visible: false }))],
    }));
    const count = (entries: { entry_type: string }[], type: string) => entries.filter((e) => e.entry_type === type).length;
    const weekly = count(proposed.entries, 'weekly');
    const commitsNow = count(current.entries, 'commit');
    const commitsThen = count(proposed.entries, 'commit');
    expect(weekly).toBeGreaterThan(10);
    expect(commitsThen).toBeGreaterThan(commitsNow);

    await browser.get(page());
    const res = await browser.post(preview(), proposedInput);
    expect(res.status).toBe(200);
    expect(res.body).toContain('Preview of these settings');
    expect(res.body).toContain('Nothing has been saved or stored.');
    const row = (type: string) => new RegExp(`<th scope="row">${type}</th>((?:<td>\\d+</td>){6})`).exec(res.body)?.[1]?.match(/\d+/g)?.map(Number);
    // saved, these, added, removed, changed, unchanged
    expect(row('weekly')).toEqual([0, weekly, weekly, 0, 0, 0]);
    expect(row('commit')).toEqual([commitsNow, commitsThen, commitsThen - commitsNow, 0, 0, commitsNow]);
    expect(row('monthly')![0]).toBe(count(current.entries, 'monthly'));
    expect(res.body).toContain(`Generated from the ${commits.length.toLocaleString('en')} stored commits`);
    // Monthly rollups gain their fixes (changed), months with only fixes appear (added), none go.
    const [monthsNow, monthsThen, monthsAdded, monthsRemoved, monthsChanged, monthsUnchanged] = row('monthly')!;
    expect(monthsRemoved).toBe(0);
    expect(monthsChanged).toBeGreaterThan(0);
    expect(monthsThen).toBe(count(proposed.entries, 'monthly'));
    expect(monthsAdded).toBe(monthsThen! - monthsNow!);
    expect(monthsChanged! + monthsUnchanged!).toBe(monthsNow);
    expect(res.body).toMatch(/<th scope="row">Fixes <span class="muted">\(fix\)<\/span><\/th><td>\d+<\/td><td>yes<\/td>/);
    expect(res.body).toMatch(/<th scope="row">Maintenance <span class="muted">\(chore\)<\/span><\/th><td>\d+<\/td><td>hidden<\/td>/);
    expect(res.body).toContain('<h4>Added (newest 5)</h4>');
    // The newest rollups rendered from Markdown, then the newest commit entries.
    expect(res.body).toMatch(/<article class="preview-entry"><h4><span class="badge">monthly<\/span> \w+ \d{4}/);
    expect(res.body).toMatch(/<div class="preview"><h3>Fixes<\/h3>|<div class="preview">[\s\S]*?<h\d>Fixes<\/h\d>/);
    // The form shows the submitted values, ready to save.
    expect(res.body).toContain('name="label_fix" value="Fixes"');
    expect(res.body).toMatch(/name="entry_types" value="weekly" checked/);

    expect(await ctx.services.generation.settings(project.slug)).toEqual(settingsBefore);
    expect(await entryState()).toEqual(entriesBefore);
  }, 60_000);

  it('says so when nothing would change, refuses bad settings and a post without the CSRF token', async () => {
    await browser.get(page());
    const same = await browser.post(preview(), saved);
    expect(same.status).toBe(200);
    expect(same.body).toContain('These settings generate exactly what the saved ones do.');

    await browser.get(page());
    const bad = await browser.post(preview(), { ...saved, time_zone: 'Mars/Base', team_paths: 'oops' });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('oops');
    expect(bad.body).not.toContain('Preview of these settings');
    await browser.get(page());
    const bad2 = await browser.post(preview(), { ...saved, time_zone: 'Mars/Base' });
    expect(bad2.status).toBe(400);
    expect(bad2.body).toContain('Mars/Base');

    expect((await browser.post(preview(), { ...saved, _csrf: null })).status).toBe(403);
  }, 60_000);
});
