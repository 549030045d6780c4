// The release editor page (issue 23): edit, hide, move, reorder, headline and introduce a release
// note with plain forms, preview it as the public page shows it, publish it; who may, and forged input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildCommit } from '../../test/helpers/commits.js';
import { dashboardCast, type DashboardCast } from '../../test/helpers/dashboard-cast.js';
import { storeCommits } from '../../test/helpers/releases.js';

let ctx: TestContext;
/** alice and carol of acme, dave of another tenant, and a project of each (dashboardCast). */
let cast: DashboardCast;

const db = () => ctx.services.database.db;
const editor = (tag: string, slug = cast.app.slug) => `/dashboard/projects/${slug}/releases/${encodeURIComponent(tag)}`;
const row = (projectId: string, tag: string) =>
  db()
    .selectFrom('release_notes')
    .select(['status', 'content', 'generated_json', 'introduction'])
    .where('project_id', '=', projectId)
    .where('tag', '=', tag)
    .executeTakeFirstOrThrow();
const edits = async (projectId: string) => (await db().selectFrom('release_note_edits').select('edits').where('project_id', '=', projectId).execute()).length;
/** The item keys on an editor page, by the text shown. */
const keysOn = (body: string) =>
  Object.fromEntries(
    [...body.matchAll(/name="key" value="([^"]+)"\s*\/?>[\s\S]*?name="text" value="([^"]*)"/g)].map((m) => [m[2]!.replace(/&#39;|&quot;/g, ''), m[1]!]),
  );
const publicNote = async (slug: string, tag: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/v1/changelog/${slug}/releases/${encodeURIComponent(tag)}` });
  return res.statusCode === 200
    ? res.json<{
        release: {
          introduction: string | null;
          content: string;
          generated_json: { sections: Array<{ section_type_key: string; items: Array<{ text: string }> }>; headline_items: Array<{ title: string }> };
        };
      }>().release
    : null;
};

/** v1.0.0, then v1.1.0 with four changes in two sections, and a scoped package's tag (with a slash). */
function history() {
  const a = buildCommit({ message: 'feat: first feature', tags: ['v1.0.0'], date: '2024-03-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], message: 'feat: search box', date: '2024-03-02T10:00:00Z' });
  const c = buildCommit({ parents: [b.sha], message: 'fix: crash on start (#12)', date: '2024-03-03T10:00:00Z' });
  const d = buildCommit({ parents: [c.sha], message: 'feat: dark mode', date: '2024-03-04T10:00:00Z' });
  const e = buildCommit({ parents: [d.sha], message: 'fix: typo in footer', tags: ['v1.1.0'], date: '2024-03-05T10:00:00Z' });
  const f = buildCommit({
    parents: [e.sha],
    message: 'feat(ui): buttons',
    changes: [['M', 'packages/ui/b.ts']],
    tags: ['@acme/ui@1.0.0'],
    date: '2024-03-06T10:00:00Z',
  });
  return [a, b, c, d, e, f];
}

beforeAll(async () => {
  ctx = await createTestContext({ SIGNUP_OPEN: 'true' });
  cast = await dashboardCast(ctx, 'dave-lib');
  for (const p of [cast.app, cast.other]) {
    await storeCommits(ctx.services, p.id, history());
    await ctx.services.generation.generate(p.slug);
  }
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

describe('the release editor', () => {
  it('is linked from the Releases screen and addresses tags with slashes and @ as the public page does', async () => {
    const list = await cast.alice.get(`/dashboard/projects/${cast.app.slug}/releases`);
    expect(list.body).toContain(`href="${editor('v1.1.0')}"`);
    expect(list.body).toContain(`href="${editor('@acme/ui@1.0.0')}"`);
    const scoped = await cast.alice.get(editor('@acme/ui@1.0.0'));
    expect(scoped.status).toBe(200);
    expect(scoped.body).toContain('Buttons');
    expect((await cast.alice.get(editor('v9.9.9'))).status).toBe(404);
  });

  it('without a language model configured shows no summary and asks nobody (docs/summaries.md)', async () => {
    expect(ctx.services.summarizer).toBeNull();
    expect((await cast.alice.get(editor('v1.1.0'))).body).not.toContain('Machine-written summary');
    expect((await cast.alice.get(`/dashboard/projects/${cast.app.slug}/generation`)).body).toContain('No language model is configured on this server');
  });

  it('edits text, hides, moves, reorders, picks headlines and writes an introduction with plain forms; publishing shows exactly that', async () => {
    const page = await cast.alice.get(editor('v1.1.0'));
    expect(page.status).toBe(200);
    const keys = keysOn(page.body);
    expect(Object.keys(keys).sort()).toEqual(['Crash on start (#12)', 'Dark mode', 'Search box', 'Typo in footer']);
    const post = (form: Record<string, string>) => cast.alice.post(`${editor('v1.1.0')}/edit`, form);
    for (const form of <Array<Record<string, string>>>[
      { action: 'text', key: keys['Search box']!, text: 'A `search` box on every page' },
      { action: 'hide', key: keys['Typo in footer']! },
      { action: 'move', key: keys['Crash on start (#12)']!, section: 'feature' },
      { action: 'up', key: keys['Dark mode']! },
      { action: 'headline', key: keys['Crash on start (#12)']! },
      { action: 'introduction', introduction: 'The **search** release.' },
    ]) {
      const res = await post(form);
      expect(res.status, `${form.action}: ${res.body}`).toBe(303);
      expect(res.location).toContain(`${editor('v1.1.0')}?done=edit`);
    }
    const draft = await row(cast.app.id, 'v1.1.0');
    expect(draft.status).toBe('draft');
    expect(draft.generated_json.sections).toEqual([
      {
        section_type_key: 'feature',
        label: expect.any(String),
        items: [
          { text: 'Dark mode', component: null },
          { text: 'A `search` box on every page', component: null },
          { text: 'Crash on start (#12)', component: null },
        ],
      },
    ]);
    // A draft: nothing public yet.
    expect(await publicNote(cast.app.slug, 'v1.1.0')).toBeNull();

    // The preview is the public page's rendering, under its no-script policy.
    const preview = await cast.alice.get(`${editor('v1.1.0')}/preview`);
    expect(preview.status).toBe(200);
    expect(String(preview.headers['content-security-policy'])).toContain("default-src 'none'");
    expect(preview.body).toContain('<strong>search</strong> release.');
    expect(preview.body).toContain('<code>search</code> box on every page');
    expect(preview.body).not.toContain('Typo in footer');

    await cast.alice.get(editor('v1.1.0'));
    const published = await cast.alice.post(`${editor('v1.1.0')}/status`, { action: 'publish' });
    expect(published.status).toBe(303);
    await expect.poll(async () => (await publicNote(cast.app.slug, 'v1.1.0'))?.introduction).toBe('The **search** release.');
    const note = (await publicNote(cast.app.slug, 'v1.1.0'))!;
    expect(note.generated_json.sections.map((s) => [s.section_type_key, s.items.map((i) => i.text)])).toEqual([
      ['feature', ['Dark mode', 'A `search` box on every page', 'Crash on start (#12)']],
    ]);
    expect(note.generated_json.headline_items.map((h) => h.title)).toContain('Crash on start (#12)');
    const pageHtml = (await ctx.app.inject({ method: 'GET', url: `/c/${cast.app.slug}?view=releases` })).body;
    expect(pageHtml).toContain('<strong>search</strong> release.');
    expect(pageHtml).not.toContain('Typo in footer');
    // The release feed carries the published note's content: introduction in, hidden item out.
    const atom = (await ctx.app.inject({ method: 'GET', url: `/v1/changelog/${cast.app.slug}/releases.atom` })).body;
    expect(atom).toContain('<strong>search</strong> release.');
    expect(atom).not.toContain('Typo in footer');
    // Exactly the preview's article.
    const article = (body: string) => /<article id="release-[^"]+"[\s\S]*?<\/article>/.exec(body)![0].replace(/<h[12][^>]*>[\s\S]*?<\/h[12]>/, '');
    const permalink = (await ctx.app.inject({ method: 'GET', url: `/c/${cast.app.slug}/releases/v1.1.0` })).body;
    expect(article(permalink)).toBe(article((await cast.alice.get(`${editor('v1.1.0')}/preview`)).body));
  });

  it('an edit of a published note waits until the editor publishes it; unpublish takes it off', async () => {
    const before = await publicNote(cast.app.slug, 'v1.1.0');
    const keys = keysOn((await cast.alice.get(editor('v1.1.0'))).body);
    const res = await cast.alice.post(`${editor('v1.1.0')}/edit`, { action: 'text', key: keys['Dark mode']!, text: 'Dark mode for night owls' });
    expect(res.location).toContain('done=editPublished');
    expect((await cast.alice.get(res.location!)).body).toContain('changes waiting');
    expect(await publicNote(cast.app.slug, 'v1.1.0')).toEqual(before);
    await cast.alice.post(`${editor('v1.1.0')}/status`, { action: 'publish' });
    await expect.poll(async () => (await publicNote(cast.app.slug, 'v1.1.0'))?.generated_json.sections[0]!.items[0]!.text).toBe('Dark mode for night owls');
    await cast.alice.get(editor('v1.1.0'));
    await cast.alice.post(`${editor('v1.1.0')}/status`, { action: 'unpublish' });
    await expect.poll(() => publicNote(cast.app.slug, 'v1.1.0')).toBeNull();
    expect((await row(cast.app.id, 'v1.1.0')).status).toBe('draft');
  });
});

describe('who may, and bad input', () => {
  it('refuses an organization member without editor rights (403), page, preview and actions, and changes nothing', async () => {
    const before = await row(cast.app.id, 'v1.0.0');
    expect((await cast.carol.get(editor('v1.0.0'))).status).toBe(403);
    expect((await cast.carol.get(`${editor('v1.0.0')}/preview`)).status).toBe(403);
    await cast.carol.get('/dashboard');
    expect((await cast.carol.post(`${editor('v1.0.0')}/edit`, { action: 'introduction', introduction: 'hi' })).status).toBe(403);
    expect((await cast.carol.post(`${editor('v1.0.0')}/status`, { action: 'publish' })).status).toBe(403);
    expect(await row(cast.app.id, 'v1.0.0')).toEqual(before);
  });

  it("another tenant's note is not found, to read, preview or change", async () => {
    const before = await row(cast.other.id, 'v1.1.0');
    expect((await cast.alice.get(editor('v1.1.0', cast.other.slug))).status).toBe(404);
    expect((await cast.alice.get(`${editor('v1.1.0', cast.other.slug)}/preview`)).status).toBe(404);
    await cast.alice.get(editor('v1.1.0'));
    expect((await cast.alice.post(`${editor('v1.1.0', cast.other.slug)}/edit`, { action: 'introduction', introduction: 'mine now' })).status).toBe(404);
    expect((await cast.alice.post(`${editor('v1.1.0', cast.other.slug)}/status`, { action: 'publish' })).status).toBe(404);
    expect(await row(cast.other.id, 'v1.1.0')).toEqual(before);
    expect(await edits(cast.other.id)).toBe(0);
  });

  it("refuses forged item keys (another note's too), sections the note lacks, too long or huge text and a missing form token: 4xx, nothing changed", async () => {
    const page = await cast.alice.get(editor('v1.0.0'));
    const [key] = Object.values(keysOn(page.body));
    const otherKeys = keysOn((await cast.alice.get(editor('v1.1.0'))).body);
    const before = await row(cast.app.id, 'v1.0.0');
    const post = (form: Record<string, string | null>) => cast.alice.post(`${editor('v1.0.0')}/edit`, form);
    const forged = await post({ action: 'hide', key: otherKeys['Dark mode']! });
    expect(forged.status).toBe(404);
    expect(forged.body).toContain('No such item in this release note; nothing was changed');
    expect((await post({ action: 'hide', key: '<script>alert(1)</script>' })).body).not.toContain('<script>alert');
    expect((await post({ action: 'move', key: key!, section: 'breaking' })).status).toBe(400);
    const long = await post({ action: 'text', key: key!, text: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body).toContain('must be at most 500 characters');
    expect((await post({ action: 'text', key: key!, text: 'x'.repeat(150_000) })).status).toBe(400);
    expect((await post({ action: 'introduction', introduction: 'y'.repeat(20_001) })).status).toBe(400);
    expect((await post({ action: 'introduction', introduction: 'z'.repeat(3 * 1024 * 1024) })).status).toBe(413);
    expect((await post({ action: 'explode', key: key! })).status).toBe(400);
    expect((await post({ _csrf: null, action: 'hide', key: key! })).status).toBe(403);
    expect((await cast.alice.post(`${editor('v1.0.0')}/status`, { action: 'archive' })).status).toBe(400);
    expect(await row(cast.app.id, 'v1.0.0')).toEqual(before);
    const stored = await db()
      .selectFrom('release_note_edits as e')
      .innerJoin('release_notes as n', 'n.id', 'e.release_id')
      .select('n.tag')
      .where('n.project_id', '=', cast.app.id)
      .execute();
    expect(stored.map((s) => s.tag)).not.toContain('v1.0.0');
  });
});

describe('pathological notes and addresses', () => {
  it('a tag with a control character is a 404 page, not a failing query', async () => {
    for (const tag of ['%00', 'v1.0.0%00', '%1B%5B2J']) {
      expect((await cast.alice.get(`/dashboard/projects/${cast.app.slug}/releases/${tag}`)).status).toBe(404);
      expect((await cast.alice.get(`/dashboard/projects/${cast.app.slug}/releases/${tag}/preview`)).status).toBe(404);
    }
    await cast.alice.get(editor('v1.0.0'));
    expect((await cast.alice.post(`/dashboard/projects/${cast.app.slug}/releases/%00/status`, { action: 'publish' })).status).toBe(404);
  });

  it('shows a note of 10,000 items a page at a time, and an edit on a later page comes back to it', async () => {
    const note = await db()
      .selectFrom('release_notes')
      .select(['id', 'generated_json'])
      .where('project_id', '=', cast.other.id)
      .where('tag', '=', 'v1.0.0')
      .executeTakeFirstOrThrow();
    const many = (prefix: string, n: number, pr = false) =>
      Array.from({ length: n }, (_, i) => ({ text: `${prefix} ${i}${pr ? ` (#${i + 1})` : ''}`, component: null }));
    const json = {
      ...note.generated_json,
      sections: [
        { section_type_key: 'feature', label: 'Features', items: many('Feature', 5000) },
        { section_type_key: 'fix', label: 'Fixes', items: many('Fix', 5000, true) },
      ],
    };
    await db()
      .updateTable('release_notes')
      .set({ generated_json: JSON.stringify(json) as never })
      .where('id', '=', note.id)
      .execute();
    const url = `/dashboard/projects/${cast.other.slug}/releases/v1.0.0`;
    const first = await cast.dave.get(url);
    expect(first.status).toBe(200);
    // 14 MB of forms before pages; a page is a few hundred kilobytes.
    expect(first.body.length).toBeLessThan(600_000);
    expect(first.body).toContain('Items 1–200 of 10,000');
    expect(first.body).toContain(`href="${url}?page=2#items-h"`);
    const third = await cast.dave.get(`${url}?page=30`);
    expect(third.body).toContain('Items 5,801–6,000 of 10,000');
    expect(third.body).toContain('Fix 800 (#801)');
    expect(third.body).not.toContain('Feature 4999<');
    expect(third.body).toContain(`action="${url}/edit?page=30"`);
    const hidden = await cast.dave.post(`${url}/edit?page=30`, { action: 'hide', key: 'pr:801' });
    expect(hidden.status).toBe(303);
    expect(hidden.location).toBe(`${url}?done=edit&page=30#item-pr_801`);
    // Past the last page: the last page.
    expect((await cast.dave.get(`${url}?page=999`)).body).toContain('Items 9,801–10,000 of 10,000');
    expect((await cast.dave.get(`${url}?page=0`)).status).toBe(400);
  });

  it('the Releases list marks notes an editor changed', async () => {
    const list = await cast.alice.get(`/dashboard/projects/${cast.app.slug}/releases`);
    const rowOf = (tag: string) => list.body.split('<tr data-entry>').find((r) => r.includes(`aria-label="Select ${tag}"`))!;
    expect(rowOf('v1.1.0')).toContain('>edited</span>');
    expect(rowOf('v1.0.0')).not.toContain('>edited</span>');
  });
});

describe('publishing what the editor saw', () => {
  it('refuses (409) to publish a note a generation run changed after the editor opened it, and publishes once they look again', async () => {
    const tag = 'v1.1.0';
    const versionOn = (body: string) => /name="version" value="([^"]+)"/.exec(body)![1]!;
    const opened = await cast.alice.get(editor(tag));
    expect((await row(cast.app.id, tag)).status).toBe('draft');
    const seen = versionOn(opened.body);
    // Meanwhile new settings and a run: every item with a pull request now links to it.
    await ctx.services.generation.configure(cast.app.slug, { pullRequestUrl: 'https://example.com/pr/{number}' });
    await ctx.services.generation.generate(cast.app.slug);
    expect((await row(cast.app.id, tag)).content).toContain('https://example.com/pr/12');
    const refused = await cast.alice.post(`${editor(tag)}/status`, { action: 'publish', version: seen });
    expect(refused.status).toBe(409);
    expect(refused.body).toContain('This note changed since you opened it');
    expect((await row(cast.app.id, tag)).status).toBe('draft');
    expect(await publicNote(cast.app.slug, tag)).toBeNull();
    // The page they are shown is the note as it is now; publishing from it publishes that.
    const published = await cast.alice.post(`${editor(tag)}/status`, { action: 'publish', version: versionOn(refused.body) });
    expect(published.status).toBe(303);
    await expect.poll(async () => (await publicNote(cast.app.slug, tag))?.content).toContain('https://example.com/pr/12');
  });
});
