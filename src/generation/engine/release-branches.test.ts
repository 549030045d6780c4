// A maintained `5.x` line with its own tags beside main, on a real git repository built here: its tags
// get release notes whose ranges stay within their line, while Unreleased, entries and rollups stay main's.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datedRepository, maintainedLine, tempDir } from '../../../test/helpers/git-fixtures.js';
import { readRepository } from '../../git/local.js';
import type { CommitRecord } from '../../git/commit-record.js';
import { computeArrivals } from './arrival.js';
import { generate, prepareCommits } from './engine.js';
import { generateReleases, UNRELEASED_KEY, type ReleaseNote } from './releases.js';
import { resolveSettings } from '../settings.js';
import { buildVersionIndex } from './versions.js';

const settings = resolveSettings({});
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** main and 5.x read as ingestion stores them: main's commits, then what only 5.x reaches. */
async function history(work: string): Promise<{ main: CommitRecord[]; all: CommitRecord[]; releaseOnly: Set<string> }> {
  const main = (await readRepository(work, { rev: 'main' })).commits;
  const onMain = new Set(main.map((c) => c.sha));
  const branch = (await readRepository(work, { rev: '5.x' })).commits.filter((c) => !onMain.has(c.sha));
  return { main, all: [...main, ...branch], releaseOnly: new Set(branch.map((c) => c.sha)) };
}

function notesOf(commits: CommitRecord[], releaseOnly: Set<string>): Map<string, ReleaseNote> {
  const arrival = computeArrivals(commits, { releaseOnly });
  const versions = buildVersionIndex(commits, { arrival, releaseOnly });
  const tracked = commits.filter((c) => !releaseOnly.has(c.sha));
  const prepared = [
    ...prepareCommits(tracked, settings, [], arrival),
    ...prepareCommits(commits.filter((c) => releaseOnly.has(c.sha)), settings, [], arrival, undefined, tracked),
  ];
  return new Map(generateReleases(commits, settings, { prepared, versions }).map((n) => [n.key, n]));
}

describe('release branches', () => {
  // main:  a [v5.11.3] ← b ← c [v6.0.0-alpha.0] ← e ← g
  // 5.x:           b ← d [v5.12.0] ← f [v5.12.1]          (forked from main at b)
  const sha: Record<string, string> = {};
  let repo: { main: CommitRecord[]; all: CommitRecord[]; releaseOnly: Set<string> };
  beforeAll(async () => {
    const work = tempDir('release-branches');
    scratch.push(work);
    const r = datedRepository(work);
    Object.assign(sha, maintainedLine(r));
    r.git('checkout', '--quiet', 'main');
    sha.e = r.commit('01-05', 'feat: typed routes');
    r.git('checkout', '--quiet', '5.x');
    sha.f = r.commit('01-06', 'fix: a security fix for 5.x');
    r.git('tag', 'v5.12.1');
    r.git('checkout', '--quiet', 'main');
    sha.g = r.commit('01-07', 'fix: next fix on main');
    repo = await history(work);
  });

  it('gives the tags of 5.x notes whose previous tag is on 5.x, not the newer tag of main', () => {
    const notes = notesOf(repo.all, repo.releaseOnly);
    expect(notes.get('release:v5.12.1')).toMatchObject({ previous_tag: 'v5.12.0', released_at: '2024-01-06T12:00:00.000Z' });
    expect(notes.get('release:v5.12.1')!.commit_shas).toEqual([sha.f]);
    // The first tag of the line ranges from the tag it reaches (where 5.x forked): main's fix b shipped in it.
    expect(notes.get('release:v5.12.0')).toMatchObject({ previous_tag: 'v5.11.3' });
    expect(notes.get('release:v5.12.0')!.commit_shas.sort()).toEqual([sha.b, sha.d].sort());
    expect(notes.get('release:v6.0.0-alpha.0')).toMatchObject({ previous_tag: 'v5.11.3' });
    expect(notes.get('release:v6.0.0-alpha.0')!.commit_shas.sort()).toEqual([sha.b, sha.c].sort());
  });

  it("keeps Unreleased main's: its commits only, after main's newest tag even when 5.x tagged later", () => {
    const unreleased = notesOf(repo.all, repo.releaseOnly).get(UNRELEASED_KEY)!;
    expect(unreleased.previous_tag).toBe('v6.0.0-alpha.0');
    expect(unreleased.commit_shas.sort()).toEqual([sha.e, sha.g].sort());
  });

  it('makes the same notes for main as before when no release branch is tracked', () => {
    const before = notesOf(repo.main, new Set());
    expect([...before.keys()].sort()).toEqual(['release:unreleased', 'release:v5.11.3', 'release:v6.0.0-alpha.0']);
    const after = notesOf(repo.all, repo.releaseOnly);
    for (const key of before.keys()) expect(after.get(key)!.fingerprint, key).toBe(before.get(key)!.fingerprint);
  });

  it('leaves entries, rollups, their labels and arrivals to main', () => {
    const mainArrival = computeArrivals(repo.main);
    const arrival = computeArrivals(repo.all, { releaseOnly: repo.releaseOnly });
    for (const c of repo.main) expect(arrival.get(c.sha)).toEqual(mainArrival.get(c.sha));
    expect(arrival.get(sha.f!)!.at).toBe(Date.parse('2024-01-06T12:00:00Z'));

    const versions = buildVersionIndex(repo.all, { arrival, releaseOnly: repo.releaseOnly });
    const tracked = repo.all.filter((c) => !repo.releaseOnly.has(c.sha));
    const { entries } = generate(tracked, settings, { versions, arrival });
    const shas = new Set(entries.flatMap((e) => e.commit_shas));
    expect(shas.has(sha.d!) || shas.has(sha.f!)).toBe(false);
    // The week of 1–7 January holds v5.12.0 and v5.12.1 (5.x), v5.11.3 and v6.0.0-alpha.0 (main): main's best
    // final labels it, not the higher final made on 5.x.
    const week = entries.find((e) => e.entry_type === 'weekly')!;
    expect(week.version_label).toBe('v5.11.3');
    expect(buildVersionIndex(repo.all, { arrival }).highestIn(new Date('2024-01-01'), new Date('2024-01-08'))).toBe('v5.12.1');
    // An entry's label stays the first release containing its commit: b's is v6.0.0-alpha.0 (3 January), before v5.12.0.
    expect(entries.find((e) => e.key === `commit:${sha.b}`)!.version_label).toBe('v6.0.0-alpha.0');
    expect(entries.find((e) => e.key === `commit:${sha.e}`)!.version_label).toBeNull();
  });
});

describe('a backport on a release branch', () => {
  it("counts as shipped: main's Unreleased leaves out the fix that v1.0.1 on 1.x already shipped", async () => {
    const work = tempDir('release-backport');
    scratch.push(work);
    const r = datedRepository(work);
    r.commit('01-01', 'feat: first');
    r.git('tag', 'v1.0.0');
    r.git('branch', '1.x');
    const fix = r.commit('01-02', 'fix: crash on empty input (#12)');
    const other = r.commit('01-03', 'feat: something new (#13)');
    r.git('checkout', '--quiet', '1.x');
    r.on('01-04');
    r.git('cherry-pick', fix);
    r.git('tag', 'v1.0.1');
    const picked = r.git('rev-parse', 'HEAD');
    r.git('checkout', '--quiet', 'main');
    const main = (await readRepository(work, { rev: 'main' })).commits;
    const branch = (await readRepository(work, { rev: '1.x' })).commits.filter((c) => !main.some((m) => m.sha === c.sha));
    const notes = notesOf([...main, ...branch], new Set(branch.map((c) => c.sha)));
    expect(notes.get('release:v1.0.1')).toMatchObject({ previous_tag: 'v1.0.0', commit_shas: [picked] });
    expect(notes.get(UNRELEASED_KEY)!.commit_shas).toEqual([other]);
  });
});
