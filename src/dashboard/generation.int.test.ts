// The dashboard's generation page: settings form, review queue with bulk publish, regenerate.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { buildProject } from '../../test/helpers/factories.js';
import { datasetRepoCopy, removeRepoCopy, tempDir } from '../../test/helpers/git-fixtures.js';

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
  // The first account of an installation may sign up.
  expect((await browser.signUp({ email: 'lead@example.com' })).status).toBe(303);
  project = await buildProject(ctx.services, { type: 'user', email: 'lead@example.com' });
  const { link } = await ctx.services.scm.linkLocalRepo({ projectSlug: project.slug, source: origin, branch: 'main' });
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
    const body = (await browser.get(page())).body;
    expect(body).toMatch(/Week \d{4}-W\d{2}/);
    expect(body).toContain('name="ids"');
  }, 60_000);

  it('publishes the selected drafts only, and refuses a post without the CSRF token', async () => {
    const drafts = await db().selectFrom('changelog_entries').select('id').where('project_id', '=', project.id).where('entry_type', '=', 'weekly').limit(2).execute();
    const ids = drafts.map((d) => d.id);
    expect((await browser.post(`/dashboard/projects/${project.slug}/publish`, { _csrf: null, ids })).status).toBe(403);
    expect((await db().selectFrom('changelog_entries').select('id').where('status', '=', 'published').execute()).length).toBe(0);

    await browser.get(page());
    const res = await browser.post(`/dashboard/projects/${project.slug}/publish`, { ids });
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
  });

  it('regenerates an edited entry that newer commits touched', async () => {
    const week = await db().selectFrom('changelog_entries').select(['id', 'title']).where('project_id', '=', project.id).where('entry_type', '=', 'weekly').where('status', '=', 'draft').executeTakeFirstOrThrow();
    await ctx.services.entries.editText(week.id, { title: 'Edited', content: 'Mine' });
    await db().updateTable('changelog_entries').set({ pending_regeneration: true }).where('id', '=', week.id).execute();
    expect((await browser.get(page())).body).toContain('newer commits');
    const res = await browser.post(`/dashboard/entries/${week.id}/regenerate`);
    expect(res.status).toBe(303);
    const row = await db().selectFrom('changelog_entries').select(['title', 'pending_regeneration', 'edited_at']).where('id', '=', week.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ title: week.title, pending_regeneration: false, edited_at: null });
  }, 60_000);
});
