import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import { computeArrivals } from './arrival.js';
import { touchedCommits, touchedKeys } from './touched.js';
import { buildVersionIndex } from './versions.js';

// a ← b(v1.0.0) ← c ← d: c and d came after the tag.
const a = buildCommit({ date: '2024-01-01T10:00:00Z' });
const b = buildCommit({ parents: [a.sha], tags: ['v1.0.0'], date: '2024-01-02T10:00:00Z' });
const c = buildCommit({ parents: [b.sha], date: '2024-01-10T10:00:00Z' });
const d = buildCommit({ parents: [c.sha], date: '2024-01-11T10:00:00Z' });
const commits = [a, b, c, d];
const arrival = computeArrivals(commits);
const versions = buildVersionIndex(commits, { arrival });
const label = (sha: string, stored: string | null) => ({ sha, components: [], periodStart: null, periodEnd: null, label: stored });

describe('what an incremental run touches', () => {
  it('the named commits, those that arrived since an instant, and those whose stored label the tags no longer give', () => {
    expect(touchedCommits(commits, { shas: [a.sha], labels: [] }, arrival, versions)).toEqual(new Set([a.sha]));
    expect(touchedCommits(commits, { shas: [], arrivedSince: Date.parse('2024-01-10T00:00:00Z'), labels: [] }, arrival, versions)).toEqual(new Set([c.sha, d.sha]));
    // b's entry is labelled as the tag says; a's was stored before the tag was pushed.
    expect(touchedCommits(commits, { shas: [], labels: [label(a.sha, null), label(b.sha, 'v1.0.0')] }, arrival, versions)).toEqual(new Set([a.sha]));
    // A rollup's label: the best release tagged in its period.
    const week = { sha: a.sha, components: [], periodStart: new Date('2024-01-01T00:00:00Z'), periodEnd: new Date('2024-01-08T00:00:00Z') };
    expect(touchedCommits(commits, { shas: [], labels: [{ ...week, label: 'v1.0.0' }] }, arrival, versions).size).toBe(0);
    expect(touchedCommits(commits, { shas: [], labels: [{ ...week, label: null }] }, arrival, versions)).toEqual(new Set([a.sha]));
  });

  it('every revert when tags moved (a release window can split a change from its revert under the same label)', () => {
    const revert = buildCommit({ parents: [d.sha], message: `Revert "chore: something"\n\nThis reverts commit ${c.sha}.`, date: '2024-01-12T10:00:00Z' });
    const withRevert = [...commits, revert];
    const arrivals = computeArrivals(withRevert);
    const index = buildVersionIndex(withRevert, { arrival: arrivals });
    expect(touchedCommits(withRevert, { shas: [], labels: [] }, arrivals, index).size).toBe(0);
    expect(touchedCommits(withRevert, { shas: [], labels: [], windowsMoved: true }, arrivals, index)).toEqual(new Set([revert.sha]));
  });

  it('speaks for the touched commits\' entries and the rollups of their periods', () => {
    expect(touchedKeys(commits, new Set([c.sha, d.sha]), ['commit', 'weekly', 'monthly'], 'UTC', arrival).sort()).toEqual(
      [`commit:${c.sha}`, `commit:${d.sha}`, 'monthly:2024-01-01', 'weekly:2024-01-08'].sort(),
    );
  });
});
