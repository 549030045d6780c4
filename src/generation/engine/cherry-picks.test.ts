// Cherry-picks onto a maintenance branch, on real git repositories built here: the patch release lists
// the picked fix, and neither Unreleased, nor the next release, nor a later week lists it again.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { datedRepository, tempDir } from '../../../test/helpers/git-fixtures.js';
import { readRepository } from '../../git/local.js';
import { generate } from './engine.js';
import { generateReleases, UNRELEASED_KEY, type ReleaseNote } from './releases.js';
import { resolveSettings } from '../settings.js';
import { sameChanges } from './same-change.js';
import { buildCommit } from '../../../test/helpers/commits.js';

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A repository whose commits carry the dates given (2024, noon UTC); authors keep their date through a cherry-pick. */
function repository() {
  const work = tempDir('cherry');
  scratch.push(work);
  const repo = datedRepository(work, { extension: 'ts' });
  return {
    ...repo,
    /** `git cherry-pick` on `day`: the committer date is the day's, the author date stays the original's. */
    pick(day: string, sha: string, message?: string): string {
      repo.on(day);
      repo.git('cherry-pick', '--allow-empty', sha);
      // A backport PR retitles it (`[1.0.x] …`, another PR number); the author and author date stay.
      if (message) execFileSync('git', ['-C', work, 'commit', '--quiet', '--amend', '-m', message], { env: { ...process.env, GIT_COMMITTER_DATE: `2024-${day}T12:00:00Z` } });
      return repo.git('rev-parse', 'HEAD');
    },
    merge: (day: string, branch: string) => repo.merge(day, branch, '--no-ff'),
  };
}

/**
 * main: v1.0.0, then a feature (#10), a fix (#11), another fix (#12). Branch v1.0.x from v1.0.0 picks
 * #11 as it is and #12 retitled by its backport PR (#15), and is tagged v1.0.1.
 */
function maintenanceBranch() {
  const repo = repository();
  repo.commit('01-02', 'feat: first version');
  repo.git('tag', 'v1.0.0');
  const feature = repo.commit('01-09', 'feat: add a cache (#10)');
  const fix = repo.commit('01-10', 'fix: crash on empty input (#11)');
  const other = repo.commit('01-11', 'fix: wrong exit code (#12)');
  repo.git('checkout', '--quiet', '-b', 'v1.0.x', 'v1.0.0');
  const picked = repo.pick('01-17', fix);
  const backport = repo.pick('01-18', other, '[1.0.x] fix: wrong exit code (#12) (#15)');
  repo.git('tag', 'v1.0.1');
  repo.git('checkout', '--quiet', 'main');
  return { repo, feature, fix, other, picked, backport };
}

const settings = resolveSettings({ entryTypes: ['weekly'] });

/** Both branches' histories, as a project tracking main and its maintenance branch stores them. */
async function bothBranches(work: string) {
  const main = await readRepository(work);
  const maintenance = await readRepository(work, { rev: 'v1.0.x' });
  const known = new Set(main.commits.map((c) => c.sha));
  return [...main.commits, ...maintenance.commits.filter((c) => !known.has(c.sha))];
}
const note = (notes: ReleaseNote[], key: string) => notes.find((n) => n.key === key)!;
const texts = (n: ReleaseNote) => n.generated_json.sections.flatMap((s) => s.items.map((i) => i.text));

describe('cherry-picked changes', () => {
  it('are listed by the patch release that shipped them, not again as Unreleased once the branch is merged back', async () => {
    const { repo, feature, fix, other, picked, backport } = maintenanceBranch();
    repo.merge('01-24', 'v1.0.x');
    const later = repo.commit('01-25', 'fix: late fix (#13)');
    const { commits } = await readRepository(repo.work);
    const notes = generateReleases(commits, settings);

    expect([...note(notes, 'release:v1.0.1').commit_shas].sort()).toEqual([picked, backport].sort());
    expect(texts(note(notes, 'release:v1.0.1')).sort()).toEqual(['Crash on empty input (#11)', 'Wrong exit code (#12) (#15)']);
    const unreleased = note(notes, UNRELEASED_KEY);
    expect(unreleased.previous_tag).toBe('v1.0.1');
    expect(unreleased.commit_shas).toEqual([feature, later]);
    expect(unreleased.commit_shas).not.toContain(fix);
    expect(unreleased.commit_shas).not.toContain(other);

    // The next release from main, whose previous tag is now v1.0.1, does not list them either.
    repo.git('tag', 'v1.1.0');
    const tagged = note(generateReleases((await readRepository(repo.work)).commits, settings), 'release:v1.1.0');
    expect(tagged.previous_tag).toBe('v1.0.1');
    expect(texts(tagged)).toEqual(['Add a cache (#10)', 'Late fix (#13)']);
  });

  it('are not listed again by a later release of the series even when the maintenance branch was never merged back', async () => {
    const { repo, feature } = maintenanceBranch();
    const later = repo.commit('01-25', 'fix: late fix (#13)');
    repo.git('tag', 'v1.1.0');
    const notes = generateReleases(await bothBranches(repo.work), settings);
    const minor = note(notes, 'release:v1.1.0');
    // v1.0.1 is not in v1.1.0's history, but it shipped the two fixes a week before v1.1.0.
    expect(minor.previous_tag).toBe('v1.0.0');
    expect(minor.commit_shas).toEqual([feature, later]);
    expect(note(notes, 'release:v1.0.1').commit_shas).toHaveLength(2);
  });

  it('are listed by both releases when the later version was released first', async () => {
    const { repo, fix, picked } = maintenanceBranch();
    // v1.1.0 on main's 11 January commit: it shipped the fix before v1.0.1 (18 January) picked it.
    repo.git('tag', 'v1.1.0', 'main');
    const notes = generateReleases(await bothBranches(repo.work), settings);
    expect(note(notes, 'release:v1.1.0').commit_shas).toContain(fix);
    expect(note(notes, 'release:v1.0.1').commit_shas).toContain(picked);
  });

  it('are not repeated by a later week when the maintenance branch is merged back, nor named by that merge', async () => {
    const { repo, fix, other, picked, backport } = maintenanceBranch();
    const merge = repo.merge('01-24', 'v1.0.x');
    const { commits } = await readRepository(repo.work);
    const result = generate(commits, settings);
    const weeks = result.entries.map((e) => [e.key, e.commit_shas]);
    expect(weeks).toContainEqual(['weekly:2024-01-08', expect.arrayContaining([fix, other])]);
    // The picks arrive on main with the merge (week of 22 January): already listed two weeks before.
    expect(result.entries.find((e) => e.key === 'weekly:2024-01-22')).toBeUndefined();
    expect(result.stats.listedBefore.weekly).toBe(2);
    for (const e of result.entries) expect(e.commit_shas).not.toContain(merge);
    expect(result.entries.flatMap((e) => e.commit_shas)).not.toContain(picked);
    expect(result.entries.flatMap((e) => e.commit_shas)).not.toContain(backport);
  });
});

describe('one change, two commits', () => {
  const at = (message: string, date: string, extra: Parameters<typeof buildCommit>[0] = {}) => buildCommit({ message, date, ...extra });
  const prepared = (commits: ReturnType<typeof buildCommit>[]) => generate(commits, resolveSettings({ entryTypes: ['commit'] })).commits;

  it('is the same title with the same PR number, or with the same author and author date', () => {
    const a = at('Fix crash (#11)', '2024-01-10T12:00:00Z');
    const samePr = at('[1.0.x] Fix crash (#11)', '2024-01-17T12:00:00Z');
    const backport = { ...at('Fix crash (#11) (#15)', '2024-01-18T12:00:00Z'), author: a.author };
    const groups = sameChanges(prepared([a, samePr, backport]));
    expect(groups.get(groups.keys().next().value!)!.map((p) => p.record.sha).sort()).toEqual([a.sha, samePr.sha, backport.sha].sort());
  });

  it('is not a different title under one PR, nor one title by other authors or at other times', () => {
    const first = at('Update changelog (#20)', '2024-01-10T12:00:00Z');
    const followUp = at('Fix the changelog link (#20)', '2024-01-10T13:00:00Z');
    const again = at('Update changelog', '2024-02-10T12:00:00Z');
    const bot = at('Update changelog', '2024-02-10T12:00:00Z', { email: 'other@example.com' });
    expect(sameChanges(prepared([first, followUp, again, bot])).size).toBe(0);
  });
});
