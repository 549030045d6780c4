// Release notes stored by generation (migrations/0020): created in the entries' run under the
// project's release policy, rewritten by fingerprint, archived when no longer produced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildCommit } from '../../test/helpers/commits.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { releaseHistory, storeCommits } from '../../test/helpers/releases.js';
import { releaseKey } from '../entries/release-key.js';
import { UNRELEASED_KEY } from './engine/releases.js';

let ctx: TestContext;
let ownerEmail: string;
const db = () => ctx.services.database.db;

const notes = (projectId: string) =>
  db().selectFrom('release_notes').selectAll().where('project_id', '=', projectId).orderBy('sort_at', 'desc').orderBy('id', 'desc').execute();
const byKey = async (projectId: string) => new Map((await notes(projectId)).map((n) => [n.key, n]));

async function projectWith(commits = releaseHistory().commits, settings: Record<string, unknown> = {}) {
  const project = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
  await storeCommits(ctx.services, project.id, commits);
  if (Object.keys(settings).length) await ctx.services.generation.configure(project.slug, settings);
  return project;
}

beforeAll(async () => {
  ctx = await createTestContext();
  ownerEmail = (await buildUser(ctx.services)).email;
});
afterAll(async () => ctx?.close());

describe('release notes in storage', () => {
  it('names the Unreleased key the way the entries service addresses it', () => {
    expect(releaseKey('unreleased')).toBe(UNRELEASED_KEY);
    expect(releaseKey('v1.0.0')).toBe('release:v1.0.0');
  });

  it('stores one note per tag of each series and Unreleased, as drafts under the default (manual) policy', async () => {
    const h = releaseHistory();
    const project = await projectWith(h.commits);
    const summary = await ctx.services.generation.generate(project.slug);
    expect(summary.releases).toEqual({ created: 5, updated: 0, unchanged: 0, archived: 0, revised: 0 });
    const rows = await notes(project.id);
    // Newest first, Unreleased (no release date) on top.
    expect(rows.map((r) => r.key)).toEqual([UNRELEASED_KEY, 'release:v1.1.0', 'release:v1.1.0-beta.1', 'release:pkg@2.0.0', 'release:v1.0.0']);
    expect(rows.every((r) => r.status === 'draft' && r.published_at === null)).toBe(true);
    const note = new Map(rows.map((r) => [r.key, r]));
    // Series per package: pkg's note holds its own commit, the root's notes never do.
    expect(note.get('release:pkg@2.0.0')).toMatchObject({ tag: 'pkg@2.0.0', package: 'pkg', version: '2.0.0', previous_tag: null, commit_shas: [h.c.sha] });
    expect(note.get('release:v1.0.0')).toMatchObject({ package: null, version: '1.0.0', prerelease: false });
    expect(note.get('release:v1.0.0')!.released_at).toEqual(new Date('2024-03-02T10:00:00Z'));
    // Pre-releases: the beta goes back to v1.0.0; the final covers its pre-release too.
    expect(note.get('release:v1.1.0-beta.1')).toMatchObject({ prerelease: true, previous_tag: 'v1.0.0', commit_shas: [h.d.sha] });
    expect(note.get('release:v1.1.0')).toMatchObject({ prerelease: false, previous_tag: 'v1.0.0' });
    expect([...note.get('release:v1.1.0')!.commit_shas].sort()).toEqual([h.d.sha, h.e.sha].sort());
    expect(note.get('release:v1.1.0')!.content).toContain('Beta feature');
    expect(note.get(UNRELEASED_KEY)).toMatchObject({ tag: null, title: 'Unreleased', released_at: null, previous_tag: 'v1.1.0', commit_shas: [h.f.sha] });
    expect(note.get(UNRELEASED_KEY)!.generated_json.sections[0]!.section_type_key).toBe('feature');
  });

  it('publishes them at once under `publish.release = auto`, and a second run changes nothing', async () => {
    const project = await projectWith(undefined, { publish: { release: 'auto' } });
    await ctx.services.generation.generate(project.slug);
    const first = await notes(project.id);
    expect(first.every((r) => r.status === 'published' && r.published_at !== null)).toBe(true);
    const again = await ctx.services.generation.generate(project.slug);
    expect(again.releases).toEqual({ created: 0, updated: 0, unchanged: 5, archived: 0, revised: 0 });
    expect((await notes(project.id)).map((r) => r.updated_at.getTime())).toEqual(first.map((r) => r.updated_at.getTime()));
  });

  it('replaces Unreleased as tags arrive: a new tag gets its note and Unreleased, left empty, is archived; it comes back with new commits', async () => {
    const h = releaseHistory();
    const project = await projectWith(h.commits, { publish: 'auto' });
    await ctx.services.generation.generate(project.slug);
    await db().updateTable('commits').set({ tags: ['v1.2.0'] }).where('project_id', '=', project.id).where('sha', '=', h.f.sha).execute();
    const tagged = await ctx.services.generation.generate(project.slug);
    expect(tagged.releases).toMatchObject({ created: 1, archived: 1 });
    let rows = await byKey(project.id);
    expect(rows.get('release:v1.2.0')).toMatchObject({ status: 'published', previous_tag: 'v1.1.0', commit_shas: [h.f.sha] });
    expect(rows.get(UNRELEASED_KEY)).toMatchObject({ status: 'archived', published_at: null, fingerprint: null });

    const g = buildCommit({ parents: [h.f.sha], message: 'fix: after 1.2.0', changes: [['M', 'src/g.ts']], date: '2024-03-07T10:00:00Z' });
    await storeCommits(ctx.services, project.id, [g]);
    const later = await ctx.services.generation.generate(project.slug, { shas: [g.sha] });
    expect(later.releases).toMatchObject({ created: 0, updated: 1 });
    rows = await byKey(project.id);
    // Back under the release policy, with the new content.
    expect(rows.get(UNRELEASED_KEY)).toMatchObject({ status: 'published', previous_tag: 'v1.2.0', commit_shas: [g.sha] });
  });

  it('archives the note of a tag that was deleted, and keeps a person\'s unpublish across runs', async () => {
    const h = releaseHistory();
    const project = await projectWith(h.commits, { publish: { release: 'auto' } });
    await ctx.services.generation.generate(project.slug);
    const unpublished = await ctx.services.entries.unpublishRelease(project.slug, 'v1.0.0');
    expect(unpublished).toMatchObject({ status: 'draft', published_at: null });
    await db().updateTable('commits').set({ tags: [] }).where('project_id', '=', project.id).where('sha', '=', h.c.sha).execute();
    const summary = await ctx.services.generation.generate(project.slug);
    expect(summary.releases).toMatchObject({ archived: 1 });
    const rows = await byKey(project.id);
    expect(rows.get('release:pkg@2.0.0')!.status).toBe('archived');
    expect(rows.get('release:v1.0.0')!.status).toBe('draft');
    // With no package series left, c is the root's: v1.1.0-beta.1 and v1.1.0 now list it.
    expect(rows.get('release:v1.1.0-beta.1')!.commit_shas).toContain(h.c.sha);
  });

  it('publishes and archives a note by tag through the entries service; unknown tags and projects are 404', async () => {
    const project = await projectWith();
    await ctx.services.generation.generate(project.slug);
    await expect(ctx.services.entries.publishRelease(project.slug, 'unreleased')).resolves.toMatchObject({ key: UNRELEASED_KEY, status: 'published' });
    await expect(ctx.services.entries.archiveRelease(project.slug, 'v1.0.0')).resolves.toMatchObject({ status: 'archived', published_at: null });
    await expect(ctx.services.entries.publishRelease(project.slug, 'v9.9.9')).rejects.toMatchObject({ status: 404 });
    await expect(ctx.services.entries.publishRelease('no-such-project', 'v1.0.0')).rejects.toMatchObject({ status: 404 });
    const listed = await ctx.services.entries.listReleases(project.slug);
    expect(listed.map((r) => r.key)[0]).toBe(UNRELEASED_KEY);
  });

  it('stores none with `releases: false`', async () => {
    const project = await projectWith(undefined, { releases: false });
    const summary = await ctx.services.generation.generate(project.slug);
    expect(summary.releases).toBeNull();
    expect(await notes(project.id)).toEqual([]);
  });

  it('moves published_changed_at and announces the project when a published note changes, not for drafts alone', async () => {
    const project = await projectWith();
    const changedAt = async () =>
      (await db().selectFrom('projects').select('published_changed_at').where('id', '=', project.id).executeTakeFirstOrThrow()).published_changed_at;
    const before = await changedAt();
    await ctx.services.generation.generate(project.slug);
    expect(await changedAt()).toEqual(before);
    await ctx.services.entries.publishRelease(project.slug, 'v1.0.0');
    const published = await changedAt();
    expect(published.getTime()).toBeGreaterThan(before.getTime());
    await ctx.services.entries.unpublishRelease(project.slug, 'v1.0.0');
    expect((await changedAt()).getTime()).toBeGreaterThan(published.getTime());
  });

  it('keeps keys unique per project and deletes notes with their project', async () => {
    const project = await projectWith();
    await ctx.services.generation.generate(project.slug);
    await expect(
      db().insertInto('release_notes').values({ project_id: project.id, key: 'release:v1.0.0', tag: 'v1.0.0', title: 'x', generated_json: '{}' }).execute(),
    ).rejects.toThrow();
    await db().deleteFrom('projects').where('id', '=', project.id).execute();
    expect(await notes(project.id)).toEqual([]);
  });
});
