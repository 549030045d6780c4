import { describe, expect, it } from 'vitest';
import { compareGenerations } from './compare.js';
import { generate } from './engine.js';
import { resolveSettings } from '../settings.js';
import type { CommitRecord } from '../../git/commit-record.js';
import { buildCommit } from '../../../test/helpers/commits.js';

// SHAs fall as time goes on: an order by SHA is not an order by time.
const shaOf = (n: number) => (0x100 - n).toString(16).padStart(40, '0');
const commit = (n: number, message: string, day: number, path = 'src/a.ts'): CommitRecord =>
  buildCommit({
    sha: shaOf(n), parents: n > 1 ? [shaOf(n - 1)] : [], name: 'Ada', email: 'ada@example.com',
    date: `2024-01-${String(day).padStart(2, '0')}T12:00:00Z`, message, changes: [['M', path]],
  });

const commits = [
  commit(1, 'feat: first feature', 1),
  commit(2, 'fix: first fix', 2),
  commit(3, 'feat: second feature', 9),
  commit(4, 'chore: tidy', 10),
  commit(5, 'fix: second fix', 16),
  commit(6, 'feat: newest feature', 17),
];

describe('comparing two settings', () => {
  it('counts entries added, removed, changed and unchanged per type, and lists the newest first', () => {
    const saved = resolveSettings({ entryTypes: ['commit', 'monthly'], sections: [{ key: 'feature', visible: true }, { key: 'fix', visible: false }] });
    const proposed = resolveSettings({ entryTypes: ['commit', 'weekly'], sections: [{ key: 'feature', visible: true }, { key: 'fix', label: 'Fixes', visible: true }] });
    const c = compareGenerations(generate(commits, saved), generate(commits, proposed), proposed, { samples: 2, newest: 2 });
    expect(c.byType.commit).toEqual({ current: 3, proposed: 5, added: 2, removed: 0, changed: 0, unchanged: 3 });
    expect(c.byType.monthly).toEqual({ current: 1, proposed: 0, added: 0, removed: 1, changed: 0, unchanged: 0 });
    expect(c.byType.weekly).toMatchObject({ current: 0, proposed: 3, added: 3 });
    expect(c.samples.added.map((e) => e.title)).toEqual(['Week 2024-W03 (15–21 January 2024)', 'Week 2024-W02 (8–14 January 2024)']);
    expect(c.samples.removed.map((e) => e.title)).toEqual(['January 2024']);
    // Newest: the latest rollups, then the latest commit entries (commit entries have no period).
    expect(c.newest.map((e) => e.title)).toEqual(['Week 2024-W03 (15–21 January 2024)', 'Week 2024-W02 (8–14 January 2024)', 'Newest feature', 'Second fix']);
    expect(c.sections.find((s) => s.key === 'fix')).toEqual({ key: 'fix', label: 'Fixes', visible: true, commits: 2 });
    expect(c.sections.find((s) => s.key === 'chore')).toMatchObject({ visible: false, commits: 1 });
  });

  it('finds nothing to change between equal settings, and sees a relabelled section as a change', () => {
    const s = resolveSettings({ entryTypes: ['commit', 'weekly'] });
    const same = compareGenerations(generate(commits, s), generate(commits, s), s);
    expect(same.samples).toEqual({ added: [], removed: [], changed: [] });
    const relabelled = resolveSettings({ entryTypes: ['commit', 'weekly'], sections: [{ key: 'feature', label: 'New' }] });
    const c = compareGenerations(generate(commits, s), generate(commits, relabelled), relabelled);
    expect(c.byType.commit).toMatchObject({ changed: 3, unchanged: 2 });
    expect(c.samples.changed.map((x) => x.after.title)).toEqual(['Week 2024-W03 (15–21 January 2024)', 'Week 2024-W02 (8–14 January 2024)', 'Week 2024-W01 (1–7 January 2024)', 'Newest feature', 'Second feature']);
  });
});
