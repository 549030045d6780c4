import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import { broughtBy, computeArrivals } from './arrival.js';
import type { CommitRecord } from '../../git/commit-record.js';

/** A commit on `parents` at a day of 2024 (noon UTC). */
function at(day: string, parents: CommitRecord[], message = 'fix: something'): CommitRecord {
  return buildCommit({ parents: parents.map((p) => p.sha), message, date: `2024-${day}T12:00:00Z` });
}
const ms = (day: string) => Date.parse(`2024-${day}T12:00:00Z`);

describe('arrival on the tracked branch', () => {
  it('dates a linear history by its own commits', () => {
    const a = at('01-01', []);
    const b = at('01-02', [a]);
    const arrivals = computeArrivals([a, b]);
    expect(arrivals.get(a.sha)).toEqual({ at: ms('01-01'), via: a.sha, mergedBy: null });
    expect(arrivals.get(b.sha)).toEqual({ at: ms('01-02'), via: b.sha, mergedBy: null });
  });

  it('dates a long-lived branch by its merge, not by when its commits were made', () => {
    const base = at('01-01', []);
    const f1 = at('02-01', [base]);
    const f2 = at('05-01', [f1]);
    const m1 = at('03-01', [base]);
    const merge = at('12-01', [m1, f2], "Merge branch 'next'");
    const arrivals = computeArrivals([base, f1, m1, f2, merge]);
    for (const c of [f1, f2]) expect(arrivals.get(c.sha)).toEqual({ at: ms('12-01'), via: merge.sha, mergedBy: merge.sha });
    expect(arrivals.get(m1.sha)!.at).toBe(ms('03-01'));
    expect(arrivals.get(merge.sha)).toEqual({ at: ms('12-01'), via: merge.sha, mergedBy: null });
    expect(arrivals.swapped.size).toBe(0);
  });

  it('keeps the trunk commits a feature branch merged in where they were, and dates the feature by its merge back', () => {
    const base = at('01-01', []);
    const f1 = at('01-02', [base]);
    const m1 = at('01-03', [base]);
    const intoFeature = at('01-04', [f1, m1], "Merge branch 'main' into feature");
    const f2 = at('01-05', [intoFeature]);
    const m2 = at('01-06', [m1]);
    const back = at('01-20', [m2, f2], 'Merge pull request #7 from o/feature\n\nfeat: the feature');
    const arrivals = computeArrivals([base, f1, m1, intoFeature, f2, m2, back]);
    for (const c of [base, m1, m2]) expect(arrivals.get(c.sha)!.at).toBe(Date.parse(c.committer.date));
    for (const c of [f1, intoFeature, f2]) expect(arrivals.get(c.sha)).toMatchObject({ at: ms('01-20'), via: back.sha });
    // The feature's own merge of main brought nothing: main's commits were already there.
    const brought = broughtBy([base, f1, m1, f2, m2], (c) => c.sha, arrivals);
    expect(brought.get(back.sha)).toEqual([f1, f2]);
    expect(brought.has(intoFeature.sha)).toBe(false);
  });

  it('follows the trunk through a merge of it into a feature branch that was then fast-forwarded', () => {
    const base = at('01-01', []);
    const f1 = at('01-02', [base]);
    const m1 = at('01-03', [base]);
    const m2 = at('01-04', [m1]);
    const foxtrot = at('01-10', [f1, m2], "Merge branch 'main' into feature");
    const arrivals = computeArrivals([base, f1, m1, m2, foxtrot]);
    for (const c of [m1, m2]) expect(arrivals.get(c.sha)).toMatchObject({ at: Date.parse(c.committer.date), mergedBy: null });
    expect(arrivals.get(f1.sha)).toMatchObject({ at: ms('01-10'), via: foxtrot.sha, mergedBy: foxtrot.sha });
    expect([...arrivals.swapped]).toEqual([foxtrot.sha]);
  });

  it('reads a `git pull` merge as local work arriving on top of the remote branch', () => {
    const base = at('01-01', []);
    const remote = at('01-02', [base]);
    const local = at('01-01', [base]); // made before the pull, pushed with it
    const pull = at('01-03', [local, remote], "Merge branch 'master' of github.com:o/r");
    const arrivals = computeArrivals([base, remote, local, pull]);
    expect(arrivals.get(remote.sha)!.at).toBe(ms('01-02'));
    expect(arrivals.get(local.sha)!.at).toBe(ms('01-03'));
  });

  it('reads such a merge behind a conventional prefix too (`chore: Merge branch \'main\' into minor`)', () => {
    const base = at('01-01', []);
    const minor = at('01-02', [base]);
    const fix = at('01-03', [base]);
    const merge = at('01-10', [minor, fix], "chore: Merge branch 'main' into minor");
    const arrivals = computeArrivals([base, minor, fix, merge]);
    expect([...arrivals.swapped]).toEqual([merge.sha]);
    expect(arrivals.get(fix.sha)!.at).toBe(ms('01-03'));
    expect(arrivals.get(minor.sha)!.at).toBe(ms('01-10'));
  });

  it('uses the given trunk names', () => {
    const base = at('01-01', []);
    const side = at('01-02', [base]);
    const merge = at('01-03', [base, side], "Merge branch 'develop' into release");
    expect(computeArrivals([base, side, merge]).swapped.size).toBe(0);
    expect(computeArrivals([base, side, merge], { trunk: ['develop'] }).swapped.size).toBe(1);
  });

  it('gives a commit reachable through two merges the first one, and nested merges what they merged', () => {
    const base = at('01-01', []);
    const a = at('01-02', [base]);
    const b = at('01-03', [base]);
    const inner = at('01-04', [a, b], 'Merge pull request #2 from o/b\n\nfeat: b');
    const c = at('01-05', [inner]);
    const m1 = at('01-10', [base, a], "Merge branch 'a'");
    const m2 = at('01-20', [m1, c], "Merge branch 'next'");
    const arrivals = computeArrivals([base, a, b, inner, c, m1, m2]);
    expect(arrivals.get(a.sha)).toMatchObject({ at: ms('01-10'), via: m1.sha });
    for (const x of [b, inner, c]) expect(arrivals.get(x.sha)).toMatchObject({ at: ms('01-20'), via: m2.sha });
    expect(arrivals.get(b.sha)!.mergedBy).toBe(inner.sha);
    const brought = broughtBy([a, b, c], (x) => x.sha, arrivals);
    expect(brought.get(m2.sha)).toEqual([b, c]);
    expect(brought.get(inner.sha)).toEqual([b]);
    expect(brought.get(m1.sha)).toEqual([a]);
  });

  it('dates each head of several tracked branches along its own chain', () => {
    const base = at('01-01', []);
    const main = at('01-05', [base]);
    const release = at('01-03', [base]);
    const arrivals = computeArrivals([base, main, release]);
    expect(arrivals.get(release.sha)!.at).toBe(ms('01-03'));
    expect(arrivals.get(main.sha)!.at).toBe(ms('01-05'));
  });

  it('works on a part of a history (commits whose parents are missing) and on a long one', () => {
    const lone = at('01-02', [buildCommit()]);
    expect(computeArrivals([lone]).get(lone.sha)!.at).toBe(ms('01-02'));
    // 20,000 commits: a trunk with a merged two-commit branch every third commit.
    const commits: CommitRecord[] = [at('01-01', [])];
    let tip = commits[0]!;
    for (let i = 0; i < 5000; i++) {
      const x = buildCommit({ parents: [tip.sha], date: new Date(ms('01-01') + i * 60_000).toISOString() });
      const y = buildCommit({ parents: [x.sha], date: new Date(ms('01-01') + i * 60_000 + 10).toISOString() });
      const side = buildCommit({ parents: [tip.sha], date: new Date(ms('01-01') + i * 60_000 + 20).toISOString() });
      tip = buildCommit({ parents: [y.sha, side.sha], message: "Merge branch 'x'", date: new Date(ms('01-01') + i * 60_000 + 30).toISOString() });
      commits.push(x, y, side, tip);
    }
    const arrivals = computeArrivals(commits);
    expect(arrivals.get(commits[3]!.sha)).toMatchObject({ via: commits[4]!.sha });
    expect(arrivals.get(commits.at(-2)!.sha)).toMatchObject({ via: commits.at(-1)!.sha, at: Date.parse(commits.at(-1)!.committer.date) });
  });
});
