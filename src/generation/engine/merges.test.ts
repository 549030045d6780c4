// Rollups read commits by when they reached the tracked branch: merged branches, merge items,
// reverts across releases, and the periods an incremental run rebuilds. Made-up commits.
import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import { computeArrivals } from './arrival.js';
import { generate, touchedPeriods } from './engine.js';
import { resolveSettings } from '../settings.js';
import type { CommitRecord } from '../../git/commit-record.js';
import type { GeneratedEntry } from './types.js';

const weekly = resolveSettings({ entryTypes: ['commit', 'weekly', 'monthly'] });

function at(date: string, parents: CommitRecord[], message: string, extra: Partial<CommitRecord> = {}): CommitRecord {
  return buildCommit({ parents: parents.map((p) => p.sha), message, date: `${date}T12:00:00Z`, ...extra });
}
const rollups = (entries: GeneratedEntry[], type: string) => entries.filter((e) => e.entry_type === type);
/** Commits made one after another on `date`, the first on top of `from`. */
function chain(from: CommitRecord, date: string, messages: string[]): CommitRecord[] {
  const out: CommitRecord[] = [];
  for (const message of messages) out.push(at(date, [out.at(-1) ?? from], message));
  return out;
}

/**
 * A trunk from January, a branch with five commits made in February–September, merged on 2 December
 * (a Monday): a branch of many commits, so even a bare merge of it gets an item.
 */
function longLivedBranch(mergeMessage: string) {
  const base = at('2024-01-03', [], 'feat: first release', { tags: ['v1.0.0'] });
  const b1 = at('2024-02-06', [base], 'feat(parser): new parser (#11)');
  const b2 = at('2024-03-12', [b1], 'fix(parser): handle empty input (#12)');
  const b3 = at('2024-05-14', [b2], 'feat!: drop Node 16 (#13)');
  const b4 = at('2024-07-09', [b3], 'fix(parser): keep comments (#14)');
  const b5 = at('2024-09-17', [b4], 'fix: read the config on Windows (#15)');
  const t1 = at('2024-03-13', [base], 'fix: trunk fix', { tags: ['v1.0.1'] });
  const merge = at('2024-12-02', [t1, b5], mergeMessage);
  return { base, b1, b2, b3, b4, b5, t1, merge, commits: [base, b1, b2, b3, b4, b5, t1, merge] };
}

describe('a long-lived branch merged months later', () => {
  it('lands in the week and month of its merge, not spread over the months its commits were made in', () => {
    const h = longLivedBranch("Merge branch 'next'");
    const { entries } = generate(h.commits, weekly);
    const weeks = rollups(entries, 'weekly');
    expect(weeks.map((e) => e.key)).toEqual(['weekly:2024-01-01', 'weekly:2024-03-11', 'weekly:2024-12-02']);
    expect(weeks.find((e) => e.key === 'weekly:2024-03-11')!.commit_shas).toEqual([h.t1.sha]);
    const december = weeks.find((e) => e.key === 'weekly:2024-12-02')!;
    expect(december.commit_shas).toEqual([h.b1.sha, h.b2.sha, h.b3.sha, h.b4.sha, h.b5.sha, h.merge.sha]);
    expect(rollups(entries, 'monthly').map((e) => e.key)).toEqual(['monthly:2024-01-01', 'monthly:2024-03-01', 'monthly:2024-12-01']);
    // Commit entries are per commit: each branch commit keeps its own entry, with the release that first holds it.
    expect(entries.filter((e) => e.entry_type === 'commit').map((e) => e.commit_sha)).toEqual([h.base.sha, h.t1.sha, h.b1.sha, h.b2.sha, h.b3.sha, h.b4.sha, h.b5.sha]);
  });

  it('gives a bare merge of many commits an item that groups them, in the section of its most important commit', () => {
    const h = longLivedBranch("Merge branch 'next'");
    const december = generate(h.commits, weekly).entries.find((e) => e.key === 'weekly:2024-12-02')!;
    const breaking = december.generated_json.sections.find((s) => s.section_type_key === 'breaking')!;
    expect(breaking.items).toEqual([
      { text: 'Drop Node 16 (#13)', component: null },
      {
        text: "Merge branch 'next'",
        component: null,
        commits: 5,
        items: [
          { text: 'Drop Node 16 (#13)', component: null },
          { text: 'New parser (#11)', component: 'parser' },
          { text: 'Handle empty input (#12)', component: 'parser' },
          { text: 'Keep comments (#14)', component: 'parser' },
          { text: 'Read the config on Windows (#15)', component: null },
        ],
      },
    ]);
    // The branch's commits are still listed in their own sections.
    expect(december.generated_json.sections.map((s) => s.section_type_key)).toEqual(['breaking', 'feature', 'fix']);
    // A bare merge message is no headline.
    expect(december.generated_json.headline_items.map((h) => h.title)).toEqual(['Drop Node 16 (#13)', 'New parser (#11)']);
    expect(december.content).toContain("- Merge branch 'next' — 5 commits\n  - Drop Node 16 (#13)\n  - **parser:** New parser (#11)\n");
  });

  it('makes a merge whose own message is a breaking change the headline, with its commits under it', () => {
    const h = longLivedBranch('feat!: version 2\n\nBREAKING CHANGE: the parser is new');
    const december = generate(h.commits, weekly).entries.find((e) => e.key === 'weekly:2024-12-02')!;
    expect(december.generated_json.headline_items[0]).toEqual({ section_type_key: 'breaking', title: 'Version 2', body: 'the parser is new' });
    const item = december.generated_json.sections[0]!.items.find((i) => i.text === 'Version 2')!;
    expect(item.commits).toBe(5);
    expect(december.content).toContain('- Version 2 — 5 commits\n  the parser is new\n  - Drop Node 16');
  });

  it('reads a pull request merge by the PR title in its body', () => {
    const h = longLivedBranch('Merge pull request #40 from o/next\n\nfeat: the next major version');
    const december = generate(h.commits, weekly).entries.find((e) => e.key === 'weekly:2024-12-02')!;
    const features = december.generated_json.sections.find((s) => s.section_type_key === 'feature')!;
    expect(features.items.map((i) => [i.text, i.commits])).toEqual([
      ['New parser (#11)', undefined],
      ['The next major version', 5],
    ]);
  });

  it('is dated by its merge in an incremental run too: the merge touches its own period, not its commits\' old ones', () => {
    const h = longLivedBranch("Merge branch 'next'");
    const arrival = computeArrivals(h.commits);
    const fresh = [h.b1, h.b2, h.b3, h.b4, h.b5, h.merge];
    expect(touchedPeriods(fresh, ['weekly'], 'UTC', arrival).map((p) => p.key)).toEqual(['weekly:2024-12-02']);
    // Without the graph: each commit's own date, as before.
    expect(touchedPeriods(fresh, ['weekly'], 'UTC').map((p) => p.key)).toHaveLength(6);
    const touched = generate(h.commits, weekly, { types: ['weekly'], touched: fresh.map((c) => c.sha) });
    expect(touched.entries.map((e) => e.key)).toEqual(['weekly:2024-12-02']);
  });
});

describe('merges that get no item', () => {
  it('drops a one-commit pull request merge whose title is its commit\'s', () => {
    const base = at('2024-01-08', [], 'feat: base');
    const branch = at('2024-01-09', [base], 'feat(logs): set up logging');
    const merge = at('2024-01-10', [base, branch], 'Merge pull request #4 from o/logs\n\nfeat(logs): set up logging');
    const week = rollups(generate([base, branch, merge], weekly).entries, 'weekly')[0]!;
    expect(week.commit_shas).toEqual([base.sha, branch.sha]);
  });

  it('gives a one-commit pull request with a title of its own an item', () => {
    const base = at('2024-01-08', [], 'feat: base');
    const branch = at('2024-01-09', [base], 'Tweak the response cache');
    const merge = at('2024-01-10', [base, branch], 'Merge pull request #5 from o/cache\n\nfeat: cache responses');
    const week = rollups(generate([base, branch, merge], weekly).entries, 'weekly')[0]!;
    expect(week.generated_json.sections.find((s) => s.section_type_key === 'feature')!.items).toEqual([
      { text: 'Base', component: null },
      { text: 'Cache responses', component: null, commits: 1, items: [{ text: 'Tweak the response cache', component: null }] },
    ]);
    expect(week.commit_shas).toEqual([base.sha, branch.sha, merge.sha]);
  });

  it('names a merge by its merge line when its body is only git\'s conflict note', () => {
    const base = at('2024-01-08', [], 'feat: base');
    const branch = chain(base, '2024-01-09', ['feat: one', 'fix: two', 'fix: three', 'fix: four', 'fix: five']);
    const merge = at('2024-01-10', [base, branch.at(-1)!], "Merge branch 'topic'\n\n# Conflicts:\n#\tsrc/a.ts");
    const week = rollups(generate([base, ...branch, merge], weekly).entries, 'weekly')[0]!;
    expect(week.generated_json.sections[0]!.items.at(-1)).toMatchObject({ text: "Merge branch 'topic'", commits: 5 });
    expect(week.generated_json.headline_items.map((h) => h.title)).toEqual(['Base', 'One']);
  });

  it('shows a pull request whose commits are all hidden as its title alone', () => {
    const base = at('2024-01-08', [], 'feat: base');
    const chore = at('2024-01-09', [base], 'chore: tidy');
    const merge = at('2024-01-10', [base, chore], 'Merge pull request #8 from o/x\n\nfix: crash on start');
    const week = rollups(generate([base, chore, merge], weekly).entries, 'weekly')[0]!;
    expect(week.generated_json.sections.find((s) => s.section_type_key === 'fix')!.items).toEqual([{ text: 'Crash on start', component: null, commits: 0, items: [] }]);
    expect(week.content).toContain('### Bug fixes\n\n- Crash on start\n');
  });

  it('drops a bare merge of one commit and a merge-queue batch of independent PRs', () => {
    const base = at('2024-01-08', [], 'feat: base');
    const one = at('2024-01-09', [base], 'fix: one');
    const bare = at('2024-01-09', [base, one], "Merge branch 'fix-one'");
    const d1 = at('2024-01-10', [bare], 'chore(deps): bump a from 1 to 2');
    const d2 = at('2024-01-10', [d1], 'chore(deps): bump b from 1 to 2');
    const batch = at('2024-01-10', [bare, d2], 'chore(pull): merge #186 #187\n\n186: chore(deps): bump a r=o a=bot');
    const week = rollups(generate([base, one, bare, d1, d2, batch], weekly).entries, 'weekly')[0]!;
    expect(week.commit_shas).toEqual([base.sha, one.sha, d1.sha, d2.sha]);
  });

  it('drops a bare merge of a few commits: each is listed once, in its section, in the week of the merge', () => {
    const base = at('2024-01-02', [], 'docs: describe the configuration');
    const fixes = ['fix(export): quote commas', 'fix(export): keep the header order'];
    for (const extra of [[], fixes]) {
      // Made the week before, merged on Wednesday 10 January: a branch of 2, then of 4 commits.
      const branch = chain(base, '2024-01-03', ['feat(export): CSV export', 'docs: fixed a typo in the export header', ...extra]);
      const merge = at('2024-01-10', [base, branch.at(-1)!], "Merge branch 'feature/export'");
      const weeks = rollups(generate([base, ...branch, merge], weekly).entries, 'weekly');
      // The merge is counted nowhere; its commits arrive with it.
      expect(weeks.map((e) => [e.key, e.commit_shas])).toEqual([
        ['weekly:2024-01-01', [base.sha]],
        ['weekly:2024-01-08', branch.map((p) => p.sha)],
      ]);
      const week = weeks[1]!;
      expect(week.generated_json.sections.map((s) => [s.section_type_key, s.items])).toEqual([
        ['feature', [{ text: 'CSV export', component: 'export' }]],
        ...(extra.length ? [['fix', [{ text: 'Quote commas', component: 'export' }, { text: 'Keep the header order', component: 'export' }]]] : []),
        ['documentation', [{ text: 'Fixed a typo in the export header', component: null }]],
      ]);
      expect(week.content).not.toContain('Merge branch');
    }
  });

  it('gives a maintenance line merged back into main no item: its commits are listed in their sections', () => {
    const base = at('2024-01-08', [], 'feat: base', { tags: ['v1.0.0'] });
    // Five commits: a branch that long would get its line if it were not a maintenance line.
    const [p1, p2, p3, p4] = chain(base, '2024-01-09', ['fix: patch-only fix (#20)', 'feat: patch-only option (#21)', 'fix: patch-only parse (#22)', 'fix: patch-only path (#23)']);
    const p5 = at('2024-01-09', [p4!], 'fix: patch-only exit code (#24)', { tags: ['v1.0.1'] });
    const patches = [p1!, p2!, p3!, p4!, p5];
    for (const line of ["Merge branch 'v1.0.x'", "Merge branch '3.x'", "Merge branch 'patch-release'", "Merge remote-tracking branch 'remotes/upstream/release/1.0'", "Merge branch 'stable'"]) {
      const back = at('2024-01-10', [base, p5], line);
      const week = rollups(generate([base, ...patches, back], weekly).entries, 'weekly')[0]!;
      expect(week.commit_shas, line).toEqual([base.sha, ...patches.map((p) => p.sha)]);
      expect(week.generated_json.sections.flatMap((s) => s.items).filter((i) => i.commits !== undefined), line).toEqual([]);
    }
    // A feature branch named like a version is not common, but one named otherwise still gets its line.
    const topic = at('2024-01-10', [base, p5], "Merge branch 'release-notes-page'");
    const week = rollups(generate([base, ...patches, topic], weekly).entries, 'weekly')[0]!;
    expect(week.generated_json.sections[0]!.items.at(-1)).toMatchObject({ text: "Merge branch 'release-notes-page'", commits: 5 });
  });

  it('keeps main\'s commits where they were when main is merged into a feature branch, and lists nothing twice', () => {
    const base = at('2024-01-01', [], 'feat: base');
    const f1 = at('2024-01-02', [base], 'feat: feature part one');
    const m1 = at('2024-01-03', [base], 'fix: on main');
    const intoFeature = at('2024-01-04', [f1, m1], "Merge branch 'main' into feature");
    // Five feature commits, so that the merge back gets an item counting what it brought.
    const later = chain(intoFeature, '2024-01-05', ['feat: feature part two', 'feat: feature part three', 'fix: feature fix', 'fix: feature fix two']);
    const m2 = at('2024-01-09', [m1], 'fix: later on main');
    const back = at('2024-01-16', [m2, later.at(-1)!], "Merge branch 'feature'");
    const { entries } = generate([base, f1, m1, intoFeature, ...later, m2, back], weekly);
    const weeks = rollups(entries, 'weekly');
    expect(weeks.map((e) => [e.key, e.commit_shas])).toEqual([
      ['weekly:2024-01-01', [base.sha, m1.sha]],
      ['weekly:2024-01-08', [m2.sha]],
      ['weekly:2024-01-15', [f1.sha, ...later.map((p) => p.sha), back.sha]],
    ]);
    // The merge brought the feature's five commits, not main's fix that came in through the branch.
    const item = weeks[2]!.generated_json.sections[0]!.items.at(-1)!;
    expect(item).toMatchObject({ text: "Merge branch 'feature'", commits: 5 });
  });

  it('follows main through a merge of main into a feature branch that main was fast-forwarded to', () => {
    const base = at('2024-01-01', [], 'feat: base');
    const f1 = at('2024-01-02', [base], 'feat: feature work');
    const m1 = at('2024-01-03', [base], 'fix: on main');
    const foxtrot = at('2024-01-10', [f1, m1], "Merge branch 'main' into feature");
    const weeks = rollups(generate([base, f1, m1, foxtrot], weekly).entries, 'weekly');
    expect(weeks.map((e) => [e.key, e.commit_shas])).toEqual([
      ['weekly:2024-01-01', [base.sha, m1.sha]],
      ['weekly:2024-01-08', [f1.sha]],
    ]);
  });
});

describe('reverts and releases', () => {
  it('cancel out inside one release window', () => {
    const feat = at('2024-01-08', [], 'feat: add cache');
    const revert = at('2024-01-09', [feat], `Revert "feat: add cache"\n\nThis reverts commit ${feat.sha}.`);
    const result = generate([feat, revert], weekly, { types: ['weekly'] });
    expect(result.entries).toEqual([]);
    expect(result.stats.cancelledReverts.weekly).toBe(1);
  });

  it('show as a revert when what they revert was already released', () => {
    const feat = at('2024-01-08', [], 'feat: add cache', { tags: ['v1.2.0'] });
    const revert = at('2024-01-09', [feat], `Revert "feat: add cache"\n\nThis reverts commit ${feat.sha}.`);
    const result = generate([feat, revert], weekly, { types: ['weekly'] });
    expect(result.stats.cancelledReverts.weekly).toBe(0);
    expect(result.entries[0]!.generated_json.sections.map((s) => s.section_type_key)).toEqual(['feature', 'revert']);
  });
});
