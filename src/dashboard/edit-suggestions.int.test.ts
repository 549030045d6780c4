// Rules suggested by editors' edits (issue 24, calibration): hides of one section's items in the release
// editor, over several notes, become a suggestion on the generation page; one click fills the form, the
// preview says what it would change, and nothing is saved or changed until an editor saves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildCommit } from '../../test/helpers/commits.js';
import { dashboardCast, type DashboardCast } from '../../test/helpers/dashboard-cast.js';
import { storeCommits } from '../../test/helpers/releases.js';

let ctx: TestContext;
let cast: DashboardCast;

const generationPage = (slug: string, query = '') => `/dashboard/projects/${slug}/generation${query}`;
const editor = (slug: string, tag: string) => `/dashboard/projects/${slug}/releases/${encodeURIComponent(tag)}`;
/** The item keys on an editor page, by the text shown. */
const keysOn = (body: string) =>
  Object.fromEntries([...body.matchAll(/name="key" value="([^"]+)"\s*\/?>[\s\S]*?name="text" value="([^"]*)"/g)].map((m) => [m[2]!, m[1]!]));
/** The Documentation checkbox of the settings form: checked or not. */
const docsShown = (body: string) => /<input type="checkbox" name="visible_documentation" value="on"( checked)?>/.exec(body)?.[1] === ' checked';

/** Three releases, each with a fix and documentation changes. */
function history() {
  const a = buildCommit({ message: 'fix: crash on start', date: '2024-03-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], message: 'docs: explain the options', tags: ['v1.0.0'], date: '2024-03-02T10:00:00Z' });
  const c = buildCommit({ parents: [b.sha], message: 'fix: wrong exit code', date: '2024-03-03T10:00:00Z' });
  const d = buildCommit({ parents: [c.sha], message: 'docs: add an example', date: '2024-03-04T10:00:00Z' });
  const e = buildCommit({ parents: [d.sha], message: 'docs: reword the guide', tags: ['v1.1.0'], date: '2024-03-05T10:00:00Z' });
  const f = buildCommit({ parents: [e.sha], message: 'fix: leak in the watcher', date: '2024-03-06T10:00:00Z' });
  const g = buildCommit({ parents: [f.sha], message: 'docs: link the changelog', tags: ['v1.2.0'], date: '2024-03-07T10:00:00Z' });
  return [a, b, c, d, e, f, g];
}

beforeAll(async () => {
  ctx = await createTestContext({ SIGNUP_OPEN: 'true' });
  cast = await dashboardCast(ctx, 'dave-lib');
  await storeCommits(ctx.services, cast.app.id, history());
  await ctx.services.generation.generate(cast.app.slug);
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

async function hide(tag: string, text: string) {
  const keys = keysOn((await cast.alice.get(editor(cast.app.slug, tag))).body);
  expect(keys[text], `${tag}: ${Object.keys(keys).join(', ')}`).toBeDefined();
  const res = await cast.alice.post(`${editor(cast.app.slug, tag)}/edit`, { action: 'hide', key: keys[text]! });
  expect(res.status, res.body).toBe(303);
}

describe('rules suggested by editors’ edits', () => {
  it('suggests nothing before editors have shown a habit', async () => {
    await hide('v1.0.0', 'Explain the options');
    const page = await cast.alice.get(generationPage(cast.app.slug));
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('Suggested by your edits');
    expect(docsShown(page.body)).toBe(true);
  });

  it('suggests hiding Documentation once editors hid its items in several notes, fills the form on request, and saves nothing', async () => {
    await hide('v1.1.0', 'Add an example');
    await hide('v1.1.0', 'Reword the guide');
    const settingsBefore = await ctx.services.projects.generationSettings(cast.app.id);

    const page = await cast.alice.get(generationPage(cast.app.slug));
    expect(page.body).toContain('Suggested by your edits');
    expect(page.body).toMatch(/Hide <strong>Documentation<\/strong> <span class="muted">\(documentation\)<\/span>: editors hid 3 of its 3 items, in 2 release notes/);
    expect(page.body).toContain(`href="${generationPage(cast.app.slug, '?from_edits=1#gen-settings-h')}"`);
    expect(docsShown(page.body)).toBe(true);

    const filled = await cast.alice.get(generationPage(cast.app.slug, '?from_edits=1'));
    expect(filled.status).toBe(200);
    expect(filled.body).toContain('The sections in the form below follow this suggestion. Nothing is saved');
    expect(docsShown(filled.body)).toBe(false);
    // Every other section as saved: Bug fixes still shown.
    expect(filled.body).toMatch(/name="visible_fix" value="on" checked/);
    expect(await ctx.services.projects.generationSettings(cast.app.id)).toEqual(settingsBefore);
  });

  it('is no longer suggested once the settings hide the section', async () => {
    const settings = await ctx.services.generation.settings(cast.app.slug);
    await ctx.services.generation.configure(cast.app.slug, {
      sections: settings.resolved.sections.map((s) => (s.key === 'documentation' ? { ...s, visible: false } : s)),
    });
    const page = await cast.alice.get(generationPage(cast.app.slug));
    expect(page.body).not.toContain('Suggested by your edits');
    expect(docsShown(page.body)).toBe(false);
  });

  it("another tenant's project is not found and a member without editor rights is refused, with from_edits as without", async () => {
    expect((await cast.dave.get(generationPage(cast.app.slug, '?from_edits=1'))).status).toBe(404);
    expect((await cast.carol.get(generationPage(cast.app.slug, '?from_edits=1'))).status).toBe(403);
    // Another tenant's edits never reach this project's page: dave's own page suggests nothing.
    const own = await cast.dave.get(generationPage(cast.other.slug, '?from_edits=1'));
    expect(own.status).toBe(200);
    expect(own.body).not.toContain('Suggested by your edits');
  });
  it('skips a damaged stored note and one too large to read on a page request, and the page still answers', async () => {
    const note = await ctx.services.database.db
      .selectFrom('release_notes')
      .select('id')
      .where('project_id', '=', cast.app.id)
      .where('tag', '=', 'v1.2.0')
      .executeTakeFirstOrThrow();
    const store = (generated: unknown) =>
      ctx.services.database.db
        .insertInto('release_note_edits')
        .values({ release_id: note.id, project_id: cast.app.id, edits: JSON.stringify({ items: {} }), generated: JSON.stringify(generated) })
        .onConflict((oc) => oc.column('release_id').doUpdateSet({ generated: JSON.stringify(generated), edited_at: new Date() }))
        .execute();
    // The two notes edited above are read; the damaged one is not.
    await store({ generated_json: { sections: [{ section_type_key: 'documentation', items: [null] }] } });
    expect((await ctx.services.generation.editSuggestions(cast.app.id)).notes).toBe(2);
    const page = await cast.alice.get(generationPage(cast.app.slug));
    expect(page.status).toBe(200);
    expect(page.body).toContain('Save settings');
    // Well formed but large (random text, about 600 kB stored): left out by its size, not parsed.
    const random = () => Math.random().toString(36).slice(2);
    const items = Array.from({ length: 20_000 }, () => ({ text: `${random()}${random()}${random()}`, component: null }));
    await store({ generated_json: { sections: [{ section_type_key: 'documentation', label: 'Documentation', items }] } });
    expect((await ctx.services.generation.editSuggestions(cast.app.id)).notes).toBe(2);
    // The same note, small and well formed, is read.
    await store({ generated_json: { sections: [{ section_type_key: 'documentation', label: 'Documentation', items: items.slice(0, 3) }] } });
    expect((await ctx.services.generation.editSuggestions(cast.app.id)).notes).toBe(3);
  });
});
