// History (changes that reached the branch before the link) under each history policy, dated by
// the change, and public ordering by that date when new work follows.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { untilListingDatePast } from '../../test/helpers/listing-date.js';
import type { SettingsPatch } from './generation.service.js';

let ctx: TestContext;
let reposDir: string;
let ownerEmail: string;
const dirs: string[] = [];

/** A working repository on `main` with commits at the given dates (ISO, UTC), oldest first. */
function datedRepo(commits: Array<[string, string]>): string {
  const dir = tempDir('history-repo');
  dirs.push(dir);
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', dir]);
  commits.forEach(([date, message], i) => commitAt(dir, date, message, i));
  return dir;
}

function commitAt(dir: string, date: string, message: string, i: number): void {
  writeFileSync(join(dir, `file-${i}.txt`), `${message}\n`);
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
  execFileSync('git', ['-C', dir, 'add', '-A'], { env });
  execFileSync('git', ['-C', dir, 'commit', '--quiet', '-m', message], { env });
}

const HISTORY: Array<[string, string]> = [
  ['2023-12-05T10:00:00Z', 'feat: december export'],
  ['2024-03-12T10:00:00Z', 'fix: march login loop'],
  ['2024-07-10T10:00:00Z', 'feat: july dashboard'],
];

async function linkedProject(settings: SettingsPatch) {
  const project = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
  await ctx.services.generation.configure(project.slug, settings);
  const repo = datedRepo(HISTORY);
  const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: repo, branch: 'main' });
  const sync = async () => {
    await ctx.services.ingest.ingestLink(link.id);
    return ctx.services.generation.generate(project.slug);
  };
  return { project, repo, link, sync };
}

const rows = (projectId: string) =>
  ctx.services.database.db
    .selectFrom('changelog_entries')
    .select(['id', 'entry_type', 'status', 'title', 'published_at', 'period_end', 'commit_shas'])
    .where('project_id', '=', projectId)
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

beforeAll(async () => {
  reposDir = tempDir('history-mirrors');
  ctx = await createTestContext({ REPOS_DIR: reposDir });
  ownerEmail = (await buildUser(ctx.services)).email;
});

afterAll(async () => {
  await ctx?.close();
  for (const dir of [reposDir, ...dirs]) rmSync(dir, { recursive: true, force: true });
});

describe('history policy', () => {
  it('publishes history by default, each entry dated when its change reached the branch (a rollup: its period end)', async () => {
    const { project, sync } = await linkedProject({});
    const summary = await sync();
    expect(summary.history).toEqual({ published: 6, drafts: 0, skipped: 0 });
    const stored = await rows(project.id);
    expect(stored.every((r) => r.status === 'published')).toBe(true);
    const commits = stored.filter((r) => r.entry_type === 'commit');
    expect(commits.map((r) => r.published_at?.toISOString())).toEqual([
      '2024-07-10T10:00:00.000Z',
      '2024-03-12T10:00:00.000Z',
      '2023-12-05T10:00:00.000Z',
    ]);
    const weeks = stored.filter((r) => r.entry_type === 'weekly');
    expect(weeks).toHaveLength(3);
    for (const w of weeks) expect(w.published_at?.toISOString()).toBe(w.period_end?.toISOString());
    // The week of 2024-07-10 (a Wednesday) ends on Monday 2024-07-15, UTC.
    expect(weeks[0]!.published_at?.toISOString()).toBe('2024-07-15T00:00:00.000Z');
  }, 60_000);

  it('drafts history for review when asked, whatever the publishing policy of new work', async () => {
    const { project, sync } = await linkedProject({ history: 'draft', publish: 'auto' });
    expect((await sync()).history).toEqual({ published: 0, drafts: 6, skipped: 0 });
    const stored = await rows(project.id);
    expect(stored).toHaveLength(6);
    expect(stored.every((r) => r.status === 'draft' && r.published_at === null)).toBe(true);
  }, 60_000);

  it('skips history when asked: nothing stored, and the next run stores nothing either', async () => {
    const { project, sync } = await linkedProject({ history: 'skip' });
    expect((await sync()).history).toEqual({ published: 0, drafts: 0, skipped: 6 });
    expect(await rows(project.id)).toEqual([]);
    expect((await ctx.services.generation.generate(project.slug)).history.skipped).toBe(6);
    expect(await rows(project.id)).toEqual([]);
  }, 60_000);

  it('skips history before --history-since and publishes the rest by date', async () => {
    const { project, sync } = await linkedProject({ historySince: '2024-01-01' });
    expect((await sync()).history).toEqual({ published: 4, drafts: 0, skipped: 2 });
    const stored = await rows(project.id);
    expect(stored.every((r) => r.published_at! >= new Date('2024-01-01T00:00:00Z'))).toBe(true);
    expect(stored.map((r) => r.title).join('\n')).not.toMatch(/december/i);
  }, 60_000);

  it('refuses a bad policy or start date, naming both', async () => {
    const project = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
    const error = await ctx.services.generation.configure(project.slug, { history: 'sometimes', historySince: 'last tuesday' }).catch((e: unknown) => e);
    const messages = (error as { details: Array<{ message: string }> }).details.map((d) => d.message).join('\n');
    expect(messages).toMatch(/history must be publish, draft, skip/);
    expect(messages).toMatch(/last tuesday/);
  });
});

describe('public ordering', () => {
  it('lists history by its date and new work above it, newest first, and Last-Modified only moves forward', async () => {
    const { project, repo, link, sync } = await linkedProject({ publish: { commit: 'auto' } });
    const before = await untilListingDatePast(ctx.services, project.id);
    const empty = await ctx.app.inject({ method: 'GET', url: `/c/${project.slug}?view=commit` });
    await sync();

    // New work: committed after the link was made.
    const linkedAt = (await ctx.services.database.db.selectFrom('repo_links').select('created_at').where('id', '=', link.id).executeTakeFirstOrThrow()).created_at;
    commitAt(repo, new Date(Math.max(Date.now(), linkedAt.getTime()) + 1000).toISOString(), 'feat: brand new search', 99);
    await sync();
    const stored = await rows(project.id);
    const fresh = stored.find((r) => r.title?.match(/search/i) && r.entry_type === 'commit')!;
    expect(fresh.status).toBe('published');
    // Published now, under the publishing policy of new work.
    expect(fresh.published_at!.getTime()).toBeGreaterThan(linkedAt.getTime());
    // Its week is new work too: a draft (weekly is manual).
    expect(stored.filter((r) => r.entry_type === 'weekly' && r.status === 'draft')).toHaveLength(1);

    const res = await ctx.app.inject({ method: 'GET', url: `/v1/changelog/${project.slug}?limit=100` });
    const listed = res.json<{ entries: Array<{ title: string; entry_type: string; published_at: string }> }>().entries;
    const commits = listed.filter((e) => e.entry_type === 'commit').map((e) => e.title);
    expect(commits).toHaveLength(4);
    expect(commits[0]).toMatch(/search/i);
    expect(commits[1]).toMatch(/july/i);
    expect(commits[2]).toMatch(/march/i);
    expect(commits[3]).toMatch(/december/i);
    const dates = listed.map((e) => Date.parse(e.published_at));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);

    // The page in the "every change" view, in the same order.
    const page = (await ctx.app.inject({ method: 'GET', url: `/c/${project.slug}?view=commit` })).body;
    const at = (re: RegExp) => page.search(re);
    expect(at(/search/i)).toBeLessThan(at(/july/i));
    expect(at(/july/i)).toBeLessThan(at(/march/i));
    expect(at(/march/i)).toBeLessThan(at(/december/i));

    // Backdated entries did not take the listing's date backwards: a client holding the page from
    // before the sync gets the new one, not a 304.
    const after = (await ctx.services.database.db.selectFrom('projects').select('published_changed_at').where('id', '=', project.id).executeTakeFirstOrThrow())
      .published_changed_at;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/c/${project.slug}?view=commit`,
      headers: { 'if-modified-since': empty.headers['last-modified'] as string },
    });
    expect(again.statusCode).toBe(200);
  }, 90_000);
});
