// Publishing release notes (issue 23): linking publishes the release history under the history
// policy, a new tag follows the `release` policy, a policy that becomes `auto` publishes what it held
// back (not what an editor unpublished), and bulk publication by ids, tags or filter in one transaction.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { releaseHistory, storeCommits } from '../../test/helpers/releases.js';
import type { SettingsPatch } from '../generation/generation.service.js';

let ctx: TestContext;
let reposDir: string;
let ownerEmail: string;
const dirs: string[] = [];
const db = () => ctx.services.database.db;

const gitEnv = (date: string) => ({
  ...process.env,
  GIT_AUTHOR_DATE: date,
  GIT_COMMITTER_DATE: date,
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
});

function commitAt(dir: string, date: string, message: string, tag?: string): void {
  writeFileSync(join(dir, `file-${message.replace(/\W+/g, '-')}.txt`), `${message}\n`);
  execFileSync('git', ['-C', dir, 'add', '-A'], { env: gitEnv(date) });
  execFileSync('git', ['-C', dir, 'commit', '--quiet', '-m', message], { env: gitEnv(date) });
  if (tag) execFileSync('git', ['-C', dir, 'tag', tag], { env: gitEnv(date) });
}

/** A repository with three tagged releases and one change after the last, all long before any link. */
function taggedRepo(): string {
  const dir = tempDir('releases-repo');
  dirs.push(dir);
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', dir]);
  commitAt(dir, '2023-12-05T10:00:00Z', 'feat: december export', 'v1.0.0');
  commitAt(dir, '2024-03-12T10:00:00Z', 'fix: march login loop', 'v1.1.0');
  commitAt(dir, '2024-07-10T10:00:00Z', 'feat: july dashboard', 'v2.0.0');
  commitAt(dir, '2024-08-01T10:00:00Z', 'fix: august typo');
  return dir;
}

async function linkedProject(settings: SettingsPatch) {
  const project = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
  await ctx.services.generation.configure(project.slug, settings);
  const repo = taggedRepo();
  const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: repo, branch: 'main' });
  const sync = async () => {
    await ctx.services.ingest.ingestLink(link.id);
    return ctx.services.generation.generate(project.slug);
  };
  return { project, repo, sync };
}

const notes = async (projectId: string) =>
  new Map(
    (await db().selectFrom('release_notes').select(['id', 'key', 'tag', 'status', 'published_at', 'released_at', 'history_at', 'unpublished_at']).where('project_id', '=', projectId).execute()).map(
      (n) => [n.tag ?? 'unreleased', n],
    ),
  );
const publicReleases = async (slug: string) => {
  const body = (await ctx.app.inject({ method: 'GET', url: `/v1/changelog/${slug}/releases` })).json<{ meta: { total: number }; releases: Array<{ tag: string | null }> }>();
  return { total: body.meta.total, releases: body.releases };
};
/** The public total, once the response cache heard of the change. */
const publicTotal = (slug: string) => expect.poll(async () => (await publicReleases(slug)).total);

beforeAll(async () => {
  reposDir = tempDir('releases-mirrors');
  ctx = await createTestContext({ REPOS_DIR: reposDir });
  ownerEmail = (await buildUser(ctx.services)).email;
});

afterAll(async () => {
  await ctx?.close();
  for (const dir of [reposDir, ...dirs]) rmSync(dir, { recursive: true, force: true });
});

describe('linking publishes the release history under the history policy', () => {
  it('history=publish (the default): every release is published, dated when its tag reached the branch; Unreleased follows the release policy', async () => {
    const { project, sync } = await linkedProject({});
    await sync();
    const stored = await notes(project.id);
    for (const tag of ['v1.0.0', 'v1.1.0', 'v2.0.0']) {
      const note = stored.get(tag)!;
      expect(note.status).toBe('published');
      expect(note.published_at).toEqual(note.released_at);
      expect(note.history_at).toEqual(note.released_at);
    }
    expect(stored.get('v1.0.0')!.published_at!.toISOString()).toBe('2023-12-05T10:00:00.000Z');
    // Not released yet: new work, under the (default manual) release policy.
    expect(stored.get('unreleased')).toMatchObject({ status: 'draft', history_at: null });
    const listed = await publicReleases(project.slug);
    expect(listed.total).toBe(3);
    expect(listed.releases.map((r) => r.tag)).toEqual(['v2.0.0', 'v1.1.0', 'v1.0.0']);
  }, 90_000);

  it('history=draft keeps them for review, whatever the release policy; history=skip stores none', async () => {
    const drafted = await linkedProject({ history: 'draft', publish: { release: 'auto' } });
    await drafted.sync();
    const stored = await notes(drafted.project.id);
    for (const tag of ['v1.0.0', 'v1.1.0', 'v2.0.0']) expect(stored.get(tag)).toMatchObject({ status: 'draft', published_at: null });
    expect(stored.get('v2.0.0')!.history_at!.toISOString()).toBe('2024-07-10T10:00:00.000Z');
    // The Unreleased note is new work: the release policy (auto) publishes it.
    expect(stored.get('unreleased')!.status).toBe('published');
    expect((await publicReleases(drafted.project.slug)).releases.map((r) => r.tag)).toEqual([null]);

    const skipped = await linkedProject({ history: 'skip' });
    await skipped.sync();
    expect([...(await notes(skipped.project.id)).keys()]).toEqual(['unreleased']);
    await publicTotal(skipped.project.slug).toBe(0);
  }, 90_000);

  it("a tag after the link is new work: its note follows the release policy (a draft under manual, published under auto)", async () => {
    const { project, repo, sync } = await linkedProject({});
    await sync();
    const later = new Date(Date.now() + 2000).toISOString();
    commitAt(repo, later, 'feat: brand new search', 'v2.1.0');
    await sync();
    expect((await notes(project.id)).get('v2.1.0')).toMatchObject({ status: 'draft', history_at: null });
    expect((await publicReleases(project.slug)).releases.map((r) => r.tag)).not.toContain('v2.1.0');

    await ctx.services.generation.configure(project.slug, { publish: { release: 'auto' } });
    commitAt(repo, new Date(Date.now() + 4000).toISOString(), 'fix: search crash', 'v2.1.1');
    await sync();
    expect((await notes(project.id)).get('v2.1.1')!.status).toBe('published');
  }, 90_000);
});

/** A project with the release history of test/helpers/releases.ts stored without a link: every note is new work, a draft. */
async function draftedProject() {
  const project = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
  await storeCommits(ctx.services, project.id, releaseHistory().commits);
  await ctx.services.generation.generate(project.slug);
  return project;
}

describe('a policy that becomes auto publishes what it held back', () => {
  it('publishes the existing release drafts, but not one an editor unpublished nor history drafts', async () => {
    const project = await draftedProject();
    // An editor published v1.0.0, then took it back: theirs to decide.
    await ctx.services.entries.publishRelease(project.slug, 'v1.0.0');
    await ctx.services.entries.unpublishRelease(project.slug, 'v1.0.0');
    // A history draft (as history=draft would have stored it).
    await db().updateTable('release_notes').set({ history_at: new Date('2024-03-05T10:00:00Z') }).where('project_id', '=', project.id).where('tag', '=', 'v1.1.0').execute();

    let heard: unknown;
    await ctx.services.generation.configure(project.slug, { publish: { release: 'auto' } }, { onPublished: (p) => (heard = p) });
    expect(heard).toEqual({ entries: 0, releases: 3, types: ['release'] });
    const stored = await notes(project.id);
    expect(stored.get('v1.0.0')).toMatchObject({ status: 'draft' });
    expect(stored.get('v1.0.0')!.unpublished_at).not.toBeNull();
    expect(stored.get('v1.1.0')!.status).toBe('draft');
    for (const tag of ['v1.1.0-beta.1', 'pkg@2.0.0', 'unreleased']) expect(stored.get(tag)!.status).toBe('published');

    // Setting auto again publishes nothing more: only a change of policy does.
    heard = undefined;
    await ctx.services.generation.configure(project.slug, { publish: { release: 'auto' } }, { onPublished: (p) => (heard = p) });
    expect(heard).toBeUndefined();
    expect((await notes(project.id)).get('v1.0.0')!.status).toBe('draft');
  });

  it('does the same for entry types: generated drafts of that type only, not edited or unpublished ones, nor other types', async () => {
    const project = await draftedProject();
    const entries = await db().selectFrom('changelog_entries').select(['id', 'entry_type', 'status']).where('project_id', '=', project.id).orderBy('occurred_at').execute();
    const commits = entries.filter((e) => e.entry_type === 'commit');
    expect(commits.length).toBeGreaterThan(3);
    expect(entries.every((e) => e.status === 'draft')).toBe(true);
    await ctx.services.entries.editText(commits[0]!.id, { title: 'Edited by a person', content: '' });
    await ctx.services.entries.publish(commits[1]!.id);
    await ctx.services.entries.unpublish(commits[1]!.id);

    let heard: { entries: number } | undefined;
    await ctx.services.generation.configure(project.slug, { publish: { commit: 'auto' } }, { onPublished: (p) => (heard = p) });
    expect(heard?.entries).toBe(commits.length - 2);
    const after = new Map((await db().selectFrom('changelog_entries').select(['id', 'status']).where('project_id', '=', project.id).execute()).map((e) => [e.id, e.status]));
    expect(after.get(commits[0]!.id)).toBe('draft');
    expect(after.get(commits[1]!.id)).toBe('draft');
    for (const c of commits.slice(2)) expect(after.get(c.id)).toBe('published');
    for (const e of entries.filter((x) => x.entry_type !== 'commit')) expect(after.get(e.id)).toBe('draft');
    expect((await notes(project.id)).get('v1.0.0')!.status).toBe('draft');
  });
});

describe('bulk publication of release notes', () => {
  it('publishes and unpublishes by tag, by id and by filter, each in one transaction, counting what was already there', async () => {
    const project = await draftedProject();
    const byTag = await ctx.services.entries.bulkReleaseStatus(project.id, 'publish', { tags: ['v1.0.0', 'v1.1.0'] });
    expect(byTag).toEqual({ selected: 2, changed: 2, unchanged: 0 });
    const rootFinals = await ctx.services.entries.bulkReleaseStatus(project.id, 'publish', { filter: { package: null, prerelease: false, tagged: true } });
    expect(rootFinals).toEqual({ selected: 2, changed: 0, unchanged: 2 });
    const all = await ctx.services.entries.bulkReleaseStatus(project.id, 'publish', { filter: { tagged: true } });
    expect(all).toEqual({ selected: 4, changed: 2, unchanged: 2 });
    await publicTotal(project.slug).toBe(4);
    expect((await notes(project.id)).get('unreleased')!.status).toBe('draft');

    const ids = [(await notes(project.id)).get('pkg@2.0.0')!.id];
    expect(await ctx.services.entries.bulkReleaseStatus(project.id, 'unpublish', { ids })).toEqual({ selected: 1, changed: 1, unchanged: 0 });
    expect((await notes(project.id)).get('pkg@2.0.0')!.unpublished_at).not.toBeNull();
    await publicTotal(project.slug).toBe(3);
  });

  it('refuses the whole selection when one id is another project\'s or made up, or a tag is unknown: nothing changes', async () => {
    const mine = await draftedProject();
    const theirs = await draftedProject();
    const theirId = (await notes(theirs.id)).get('v1.0.0')!.id;
    const myId = (await notes(mine.id)).get('v1.0.0')!.id;
    const forged = await ctx.services.entries.bulkReleaseStatus(mine.id, 'publish', { ids: [myId, theirId] }).catch((e: unknown) => e);
    expect(forged).toMatchObject({ code: 'not_found', status: 404 });
    const madeUp = await ctx.services.entries.bulkReleaseStatus(mine.id, 'publish', { ids: [myId, 'not-a-uuid'] }).catch((e: unknown) => e);
    expect(madeUp).toMatchObject({ code: 'not_found' });
    const unknownTag = await ctx.services.entries.bulkReleaseStatus(mine.id, 'publish', { tags: ['v1.0.0', 'v9.9.9'] }).catch((e: unknown) => e);
    expect(unknownTag).toMatchObject({ code: 'not_found', message: expect.stringContaining('v9.9.9') });
    // Their project's id through my project: not theirs to reach either.
    const through = await ctx.services.entries.bulkReleaseStatus(theirs.id, 'publish', { ids: [myId] }).catch((e: unknown) => e);
    expect(through).toMatchObject({ code: 'not_found' });
    for (const p of [mine, theirs]) expect([...(await notes(p.id)).values()].every((n) => n.status === 'draft')).toBe(true);
  });

  it('refuses a filter matching more than confirmed, and a since tag that is no release', async () => {
    const project = await draftedProject();
    const more = await ctx.services.entries.bulkReleaseStatus(project.id, 'publish', { filter: { status: 'draft' }, expected: 2 }).catch((e: unknown) => e);
    expect(more).toMatchObject({ code: 'conflict' });
    const badSince = await ctx.services.entries.bulkReleaseStatus(project.id, 'publish', { filter: { sinceTag: 'v7.0.0' } }).catch((e: unknown) => e);
    expect(badSince).toMatchObject({ code: 'not_found' });
    // Since a tag: the releases after it (Unreleased, never released, counts as newest).
    const since = await ctx.services.entries.bulkReleaseStatus(project.id, 'publish', { filter: { sinceTag: 'v1.1.0-beta.1' } });
    expect(since.changed).toBe(2);
    const stored = await notes(project.id);
    expect(stored.get('v1.1.0')!.status).toBe('published');
    expect(stored.get('unreleased')!.status).toBe('published');
    expect(stored.get('v1.1.0-beta.1')!.status).toBe('draft');
  });

  it('lists a page at a time, newest first with Unreleased on top, and says when there is more', async () => {
    const project = await draftedProject();
    const seen: Array<string | null> = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await ctx.services.entries.releases(project.id, {}, { limit: 2, ...(after ? { after } : {}) });
      seen.push(...page.releases.map((r) => r.tag));
      after = page.next ?? undefined;
      pages++;
    } while (after && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([null, 'v1.1.0', 'v1.1.0-beta.1', 'pkg@2.0.0', 'v1.0.0']);
    const counts = await ctx.services.entries.releaseCounts(project.id, { status: 'published' });
    expect(counts).toEqual({ total: 0, byStatus: { draft: 5, published: 0, archived: 0 } });
    const pkg = await ctx.services.entries.releases(project.id, { package: 'pkg' });
    expect(pkg.releases.map((r) => r.tag)).toEqual(['pkg@2.0.0']);
    expect(pkg.releases[0]!.items).toBe(1);
    await expect(ctx.services.entries.releases(project.id, {}, { after: 'garbage' })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
