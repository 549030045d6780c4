// The release editor's rules (issue 23): an editor's edits of a release note are kept apart from
// generated content and applied again after a regeneration, item by item; items generated after an
// edit are marked new; a published note changes for readers only when the editor publishes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildCommit } from '../../test/helpers/commits.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { storeCommits } from '../../test/helpers/releases.js';
import type { CommitRecord } from '../git/commit-record.js';
import { entriesRepository } from './entries.repository.js';
import type { ReleaseEditorView } from './entries.service.js';
import { storedEdits } from './release-edits.js';

const storedEditsOf = (value: unknown) => storedEdits(value)!;

let ctx: TestContext;
let ownerEmail: string;

/** v1.0.0, then four unreleased changes in two sections, one with a pull request. */
function history() {
  const a = buildCommit({ message: 'feat: first feature', tags: ['v1.0.0'], date: '2024-03-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], message: 'feat: search box', date: '2024-03-02T10:00:00Z' });
  const c = buildCommit({ parents: [b.sha], message: 'fix: crash on start (#12)', date: '2024-03-03T10:00:00Z' });
  const d = buildCommit({ parents: [c.sha], message: 'feat: dark mode', date: '2024-03-04T10:00:00Z' });
  const e = buildCommit({ parents: [d.sha], message: 'fix: typo in footer', date: '2024-03-05T10:00:00Z' });
  return [a, b, c, d, e];
}

async function project(commits: CommitRecord[]) {
  const p = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
  await storeCommits(ctx.services, p.id, commits);
  await ctx.services.generation.generate(p.slug);
  return p;
}

const keyOf = (view: ReleaseEditorView, text: string) => view.sections.flatMap((s) => s.items).find((i) => i.generatedText === text)!.key;
const items = (view: ReleaseEditorView) =>
  view.sections.flatMap((s) => s.items.map((i) => ({ section: s.key, text: i.text, hidden: i.hidden, isNew: i.isNew })));
const publicNote = async (slug: string, tag: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/v1/changelog/${slug}/releases/${encodeURIComponent(tag)}` });
  return res.statusCode === 200
    ? res.json<{
        release: {
          content: string;
          introduction: string | null;
          generated_json: { sections: Array<{ section_type_key: string; items: Array<{ text: string }> }>; headline_items: Array<{ title: string }> };
        };
      }>().release
    : null;
};
const sectionsOf = (note: NonNullable<Awaited<ReturnType<typeof publicNote>>>) =>
  Object.fromEntries(note.generated_json.sections.map((s) => [s.section_type_key, s.items.map((i) => i.text)]));

/** Text, hide, move, headline and introduction edits of the Unreleased note. */
async function editUnreleased(projectId: string) {
  const entries = ctx.services.entries;
  const view = await entries.releaseEditor(projectId, 'unreleased');
  await entries.editRelease(projectId, 'unreleased', { action: 'text', key: keyOf(view, 'Search box'), text: 'A `search` box on every page' });
  await entries.editRelease(projectId, 'unreleased', { action: 'hide', key: keyOf(view, 'Typo in footer') });
  await entries.editRelease(projectId, 'unreleased', { action: 'move', key: keyOf(view, 'Crash on start (#12)'), section: 'feature' });
  await entries.editRelease(projectId, 'unreleased', { action: 'headline', key: keyOf(view, 'Dark mode') });
  await entries.editRelease(projectId, 'unreleased', { action: 'introduction', text: 'A **big** one.' });
}

beforeAll(async () => {
  ctx = await createTestContext();
  ownerEmail = (await buildUser(ctx.services)).email;
});

afterAll(async () => {
  await ctx?.close();
});

describe('edits of a draft note', () => {
  it('apply to the note at once and survive a regeneration that adds items, which are marked new', async () => {
    const commits = history();
    const p = await project(commits);
    await editUnreleased(p.id);
    const edited = await ctx.services.entries.releaseEditor(p.id, 'unreleased');
    expect(items(edited)).toEqual([
      { section: 'feature', text: 'A `search` box on every page', hidden: false, isNew: false },
      { section: 'feature', text: 'Dark mode', hidden: false, isNew: false },
      { section: 'feature', text: 'Crash on start (#12)', hidden: false, isNew: false },
      { section: 'fix', text: 'Typo in footer', hidden: true, isNew: false },
    ]);
    const row = await ctx.services.entries.release(p.id, 'unreleased');
    expect(row.introduction).toBe('A **big** one.');
    expect(row.content.startsWith('A **big** one.\n\n### ')).toBe(true);
    expect(row.content).not.toContain('Typo in footer');
    expect(row.generated_json.sections.map((s) => s.section_type_key)).toEqual(['feature']);
    expect(row.generated_json.headline_items.map((h) => h.title)).toContain('Dark mode');

    // New commits: a feature and a fix; the run regenerates the note and applies the edits onto it.
    const f = buildCommit({ parents: [commits[4]!.sha], message: 'feat: export to CSV', date: '2024-03-06T10:00:00Z' });
    const g = buildCommit({ parents: [f.sha], message: 'fix: slow start', date: '2024-03-07T10:00:00Z' });
    await storeCommits(ctx.services, p.id, [f, g]);
    await ctx.services.generation.generate(p.slug);
    const after = await ctx.services.entries.releaseEditor(p.id, 'unreleased');
    expect(after.newItems).toBe(2);
    expect(items(after)).toEqual([
      { section: 'feature', text: 'A `search` box on every page', hidden: false, isNew: false },
      { section: 'feature', text: 'Dark mode', hidden: false, isNew: false },
      { section: 'feature', text: 'Crash on start (#12)', hidden: false, isNew: false },
      { section: 'feature', text: 'Export to CSV', hidden: false, isNew: true },
      { section: 'fix', text: 'Slow start', hidden: false, isNew: true },
      { section: 'fix', text: 'Typo in footer', hidden: true, isNew: false },
    ]);
    const regenerated = await ctx.services.entries.release(p.id, 'unreleased');
    expect(regenerated.introduction).toBe('A **big** one.');
    expect(regenerated.content).toContain('A `search` box on every page');
    expect(regenerated.content).toContain('Export to CSV');
    expect(regenerated.content).not.toContain('Typo in footer');
    // Reviewed: nothing is new any more.
    await ctx.services.entries.editRelease(p.id, 'unreleased', { action: 'reviewed-all' });
    expect((await ctx.services.entries.releaseEditor(p.id, 'unreleased')).newItems).toBe(0);
  });

  it('refuses an unknown item, a section the note lacks and too long text, changing nothing', async () => {
    const p = await project(history());
    const view = await ctx.services.entries.releaseEditor(p.id, 'unreleased');
    const before = await ctx.services.entries.release(p.id, 'unreleased');
    const key = keyOf(view, 'Dark mode');
    const tries = [
      ctx.services.entries.editRelease(p.id, 'unreleased', { action: 'hide', key: 't:0000000000000000' }),
      ctx.services.entries.editRelease(p.id, 'unreleased', { action: 'move', key, section: 'breaking' }),
      ctx.services.entries.editRelease(p.id, 'unreleased', { action: 'text', key, text: 'x'.repeat(501) }),
      ctx.services.entries.editRelease(p.id, 'unreleased', { action: 'text', key, text: 'two\nlines' }),
      ctx.services.entries.editRelease(p.id, 'unreleased', { action: 'introduction', text: 'y'.repeat(20_001) }),
      ctx.services.entries.editRelease(p.id, 'v9.9.9', { action: 'hide', key }),
    ];
    const codes = await Promise.all(
      tries.map((t) =>
        t.then(
          () => 'ok',
          (e: { code?: string }) => e.code,
        ),
      ),
    );
    expect(codes).toEqual(['not_found', 'invalid_request', 'invalid_request', 'invalid_request', 'invalid_request', 'not_found']);
    const after = await ctx.services.entries.release(p.id, 'unreleased');
    expect(after.content).toBe(before.content);
    expect((await ctx.services.entries.releaseEditor(p.id, 'unreleased')).edits).toBeNull();
  });
});

describe('edits of a published note', () => {
  it('reach readers only when the editor publishes; new content then waits as a pending revision with the edits applied', async () => {
    const commits = history();
    const p = await project(commits);
    await ctx.services.entries.publishRelease(p.slug, 'unreleased');
    const original = await publicNote(p.slug, 'unreleased');
    expect(sectionsOf(original!)).toEqual({ feature: ['Search box', 'Dark mode'], fix: ['Crash on start (#12)', 'Typo in footer'] });

    await editUnreleased(p.id);
    // Saved, not published: readers see what was published.
    expect((await ctx.services.entries.releaseEditor(p.id, 'unreleased')).waiting).toBe(true);
    expect(await publicNote(p.slug, 'unreleased')).toEqual(original);

    await ctx.services.entries.publishRelease(p.slug, 'unreleased');
    await expect.poll(async () => (await publicNote(p.slug, 'unreleased'))?.introduction).toBe('A **big** one.');
    const published = (await publicNote(p.slug, 'unreleased'))!;
    expect(sectionsOf(published)).toEqual({ feature: ['A `search` box on every page', 'Dark mode', 'Crash on start (#12)'] });
    expect(published.content).toContain('A **big** one.');
    expect(published.content).not.toContain('Typo in footer');
    expect((await ctx.services.entries.releaseEditor(p.id, 'unreleased')).waiting).toBe(false);

    // A new commit under the default `manual` policy: a pending revision, readers keep the published note.
    const f = buildCommit({ parents: [commits[4]!.sha], message: 'feat: export to CSV', date: '2024-03-06T10:00:00Z' });
    await storeCommits(ctx.services, p.id, [f]);
    await ctx.services.generation.generate(p.slug);
    const waiting = await ctx.services.entries.releaseEditor(p.id, 'unreleased');
    expect(waiting.waiting).toBe(true);
    expect(waiting.newItems).toBe(1);
    expect(await publicNote(p.slug, 'unreleased')).toEqual(published);
    const preview = await ctx.services.entries.releasePreview(p.id, 'unreleased');
    expect(preview.content).toContain('Export to CSV');
    expect(preview.content).not.toContain('Typo in footer');

    await ctx.services.entries.publishRelease(p.slug, 'unreleased');
    await expect
      .poll(async () => sectionsOf((await publicNote(p.slug, 'unreleased'))!).feature)
      .toEqual(['A `search` box on every page', 'Dark mode', 'Crash on start (#12)', 'Export to CSV']);
  });

  it('under the `auto` policy too, new content of an edited note waits for its editor', async () => {
    const commits = history();
    const p = await project(commits);
    await ctx.services.generation.configure(p.slug, { publish: { release: 'auto' } });
    await ctx.services.entries.publishRelease(p.slug, 'unreleased');
    await editUnreleased(p.id);
    const before = await publicNote(p.slug, 'unreleased');
    const f = buildCommit({ parents: [commits[4]!.sha], message: 'feat: export to CSV', date: '2024-03-06T10:00:00Z' });
    await storeCommits(ctx.services, p.id, [f]);
    await ctx.services.generation.generate(p.slug);
    expect(await publicNote(p.slug, 'unreleased')).toEqual(before);
    expect((await ctx.services.entries.releaseEditor(p.id, 'unreleased')).waiting).toBe(true);
  });

  it('discarding the edits brings generated content back as a pending revision', async () => {
    const p = await project(history());
    await ctx.services.entries.publishRelease(p.slug, 'unreleased');
    const original = await publicNote(p.slug, 'unreleased');
    await editUnreleased(p.id);
    await ctx.services.entries.resetReleaseEdits(p.id, 'unreleased');
    const view = await ctx.services.entries.releaseEditor(p.id, 'unreleased');
    expect(view.edits).toBeNull();
    // What waits is what is public: nothing waits.
    expect(view.waiting).toBe(false);
    expect(await publicNote(p.slug, 'unreleased')).toEqual(original);
  });
});

describe('a change to nothing readers see', () => {
  it('leaves nothing waiting when generation changes only an item the editor hid (the same change again, under its hidden item)', async () => {
    const commits = history();
    const p = await project(commits);
    await ctx.services.entries.publishRelease(p.slug, 'unreleased');
    const view = await ctx.services.entries.releaseEditor(p.id, 'unreleased');
    await ctx.services.entries.editRelease(p.id, 'unreleased', { action: 'hide', key: keyOf(view, 'Crash on start (#12)') });
    await ctx.services.entries.publishRelease(p.slug, 'unreleased');
    const published = await publicNote(p.slug, 'unreleased');
    const fingerprint = (await ctx.services.entries.release(p.id, 'unreleased')).fingerprint;
    // Another commit of pull request #12, same title: the hidden item lists one more commit, nothing shown changes.
    const again = buildCommit({ parents: [commits[4]!.sha], message: 'fix: crash on start (#12)', date: '2024-03-06T10:00:00Z' });
    await storeCommits(ctx.services, p.id, [again]);
    await ctx.services.generation.generate(p.slug);
    const after = await ctx.services.entries.releaseEditor(p.id, 'unreleased');
    expect(after.edits).not.toBeNull();
    // Generation did produce new content for the note (its fingerprint moved), all of it under the hidden item.
    const [stored] = await ctx.services.database.db.selectFrom('release_note_edits').select('generated').where('project_id', '=', p.id).execute();
    expect((stored!.generated as { fingerprint: string }).fingerprint).not.toBe(fingerprint);
    expect(after.waiting).toBe(false);
    const { releases } = await ctx.services.entries.releases(p.id, {});
    expect(releases.find((r) => r.tag === null)).toMatchObject({ revision: false, edited: true });
    expect(await publicNote(p.slug, 'unreleased')).toEqual(published);
  });
});

describe('an editor and a generation run at once', () => {
  it("an edit waits for the run holding the project's content lock and is made on what the run wrote, never lost under it", async () => {
    const p = await project(history());
    const { entries, database } = ctx.services;
    await entries.publishRelease(p.slug, 'unreleased');
    const view = await entries.releaseEditor(p.id, 'unreleased');
    await entries.editRelease(p.id, 'unreleased', { action: 'hide', key: keyOf(view, 'Typo in footer') });
    const note = await entries.release(p.id, 'unreleased');
    let edited = false;
    let edit: Promise<void> | undefined;
    // A run's writes as storeGenerated makes them for an edited, published note: the lock first, the
    // edits read, then (a moment later) the new generated base and a pending revision built on those edits.
    await database.db.transaction().execute(async (tx) => {
      await entriesRepository.lockContent(tx, p.id);
      const [row] = await entriesRepository.releaseEdits(tx, p.id, [note.id]);
      edit = entries.editRelease(p.id, 'unreleased', { action: 'introduction', text: 'Written during the run.' }).then(() => void (edited = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(edited).toBe(false);
      const base = { ...row!.generated, title: 'Regenerated title' };
      await entriesRepository.setEditsGenerated(tx, [{ id: note.id, record: JSON.stringify(base) }]);
      const record = { ...base, introduction: storedEditsOf(row!.edits).introduction };
      await entriesRepository.reviseReleases(tx, p.id, [{ id: note.id, record: JSON.stringify(record), fingerprint: 'run' }]);
    });
    await edit;
    // Both: the run's new content and the editor's introduction, in what waits and in the edits' base.
    const preview = await entries.releasePreview(p.id, 'unreleased');
    expect(preview.title).toBe('Regenerated title');
    expect(preview.introduction).toBe('Written during the run.');
    const [stored] = await database.db.selectFrom('release_note_edits').select('generated').where('release_id', '=', note.id).execute();
    expect((stored!.generated as { title: string }).title).toBe('Regenerated title');
  });

  it('a tag with a control character is no release (404), never a failing query', async () => {
    const p = await project(history());
    for (const tag of ['v1.0.0\u0000', '\u0000', 'v1\u001b[2J']) {
      await expect(ctx.services.entries.release(p.id, tag)).rejects.toMatchObject({ code: 'not_found' });
      await expect(ctx.services.entries.editRelease(p.id, tag, { action: 'reviewed-all' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(ctx.services.entries.publishRelease(p.slug, tag)).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  it('refuses text that reads otherwise than stored: bidirectional marks and overrides, line separators, noncharacters', async () => {
    const p = await project(history());
    const key = keyOf(await ctx.services.entries.releaseEditor(p.id, 'unreleased'), 'Dark mode');
    for (const text of ['Dark \u202Eedom', 'Dark\u200F mode', 'Dark\u2028mode', 'Dark\u2029mode', 'Dark\uFFFEmode', 'Dark\u2066mode']) {
      await expect(ctx.services.entries.editRelease(p.id, 'unreleased', { action: 'text', key, text })).rejects.toMatchObject({ code: 'invalid_request' });
    }
    await expect(ctx.services.entries.editRelease(p.id, 'unreleased', { action: 'introduction', text: 'An \u202Eoverride' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    // Paragraph and line separators in an introduction are line breaks of its Markdown.
    await ctx.services.entries.editRelease(p.id, 'unreleased', { action: 'introduction', text: 'One\u2029Two' });
    expect((await ctx.services.entries.releaseEditor(p.id, 'unreleased')).introduction).toBe('One\nTwo');
  });
});
