import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import { generate } from './engine.js';
import { headlineItems, nearDuplicateKey, prReferences, withReferences } from './headlines.js';
import { generateReleases } from './releases.js';
import { resolveSettings } from '../settings.js';
import type { CommitRecord } from '../../git/commit-record.js';
import type { Change } from './types.js';

const weekly = resolveSettings({ entryTypes: ['weekly'] });
const files = (n: number, dir = 'src'): Change[] => Array.from({ length: n }, (_, i) => ['M', `${dir}/f${i}.ts`] as Change);

/** A chain of commits on one day, in the order given. */
function chain(specs: Array<Partial<CommitRecord>>): CommitRecord[] {
  const out: CommitRecord[] = [];
  specs.forEach((spec, i) => {
    out.push(buildCommit({ parents: out.length ? [out.at(-1)!.sha] : [], date: `2024-03-05T10:${String(i).padStart(2, '0')}:00Z`, ...spec }));
  });
  return out;
}

const headlines = (commits: CommitRecord[], settings = weekly) =>
  generate(commits, settings).entries.find((e) => e.entry_type === 'weekly')!.generated_json.headline_items;

describe('near-duplicate titles', () => {
  it('match when they differ only by PR references, case, quotes or trailing punctuation', () => {
    expect(nearDuplicateKey('Update rolldown')).toBe(nearDuplicateKey('Update rolldown (#279)'));
    expect(nearDuplicateKey('Update `rolldown`.')).toBe(nearDuplicateKey('update rolldown (#279) (#301)'));
    expect(nearDuplicateKey('Update rolldown')).not.toBe(nearDuplicateKey('Update rolldown and vite'));
  });

  it('read and write the PR suffix', () => {
    expect(prReferences('Fix x (#12) (#15)')).toEqual([12, 15]);
    expect(prReferences('Fix #12 in the parser')).toEqual([]);
    expect(withReferences('Update rolldown', [279])).toBe('Update rolldown (#279)');
    expect(withReferences('Update rolldown (#279)', [279, 301])).toBe('Update rolldown (#279, #301)');
  });

  it('are one section item carrying both references', () => {
    const commits = chain([
      { message: 'feat: update rolldown', changes: [['M', 'src/bundle.ts']] },
      { message: 'feat: update rolldown (#279)', changes: [['M', 'src/bundle.ts']] },
      { message: 'fix: handle empty input (#12)' },
      { message: 'fix: Handle empty input. (#15)' },
      { message: 'fix: handle empty input with spaces (#16)' },
    ]);
    const entry = generate(commits, weekly).entries[0]!;
    const items = entry.generated_json.sections.flatMap((s) => s.items.map((i) => i.text));
    expect(items).toEqual(['Update rolldown (#279)', 'Handle empty input (#12, #15)', 'Handle empty input with spaces (#16)']);
    expect(entry.generated_json.headline_items).toEqual([{ section_type_key: 'feature', title: 'Update rolldown (#279)', body: null }]);
    // Both commits stay referenced by the entry.
    expect(entry.commit_shas).toHaveLength(5);
  });
});

describe('headline items', () => {
  it('rank breaking changes first, then features by component spread, changed files and mentions, not by time', () => {
    const commits = chain([
      { message: 'feat: small tweak (#1)', changes: files(1) },
      {
        message: 'feat: wide feature (#2)',
        changes: [
          ['M', 'packages/a/src/x.ts'],
          ['M', 'packages/b/src/y.ts'],
          ['M', 'packages/c/src/z.ts'],
        ],
      },
      { message: 'feat: big feature (#3)', changes: files(12) },
      { message: 'feat: medium feature (#4)', changes: files(3) },
      { message: 'feat: another medium feature (#5)', changes: files(3) },
      { message: 'fix: follow-up to #5 (#6)', changes: files(1) },
      { message: 'feat!: drop the legacy API (#7)\n\nBREAKING CHANGE: use v2', changes: files(1) },
    ]);
    expect(headlines(commits).map((h) => h.title)).toEqual([
      'Drop the legacy API (#7)',
      'Wide feature (#2)', // three packages
      'Big feature (#3)', // twelve files
      'Another medium feature (#5)', // mentioned by #6
      'Medium feature (#4)',
    ]);
    expect(headlines(commits)[0]).toMatchObject({ section_type_key: 'breaking', body: 'use v2' });
  });

  it('never lists a dependency bump, even a breaking one or a feature-typed one', () => {
    const commits = chain([
      { message: 'feat(deps)!: update vite to v6', changes: files(40) },
      { message: 'feat: bump lodash from 4.17.20 to 4.17.21', changes: files(30) },
      { message: 'feat: add dark mode (#9)', changes: files(2) },
    ]);
    expect(headlines(commits).map((h) => h.title)).toEqual(['Add dark mode (#9)']);
  });

  it('keeps the limit and lists a change landed twice once, with both references', () => {
    const commits = chain([{ message: 'feat: a (#1)' }, { message: 'feat: a (#2)' }, { message: 'feat: b' }]);
    expect(headlineItems([], 5)).toEqual([]);
    expect(generate(commits, resolveSettings({ entryTypes: ['weekly'], headlineLimit: 1 })).entries[0]!.generated_json.headline_items).toEqual([
      { section_type_key: 'feature', title: 'A (#1, #2)', body: null },
    ]);
  });

  it('lead a release without features with what users notice: security, then performance, then fixes; never tests, CI or docs only', () => {
    const commits = chain([
      { message: 'fix: typo in the README (#1)', changes: [['M', 'README.md']] },
      { message: 'fix: flaky test (#2)', changes: [['M', 'test/a.test.ts']] },
      { message: 'fix(ci): pin the runner (#3)', changes: [['M', '.github/workflows/ci.yml']] },
      { message: 'fix: crash on empty input (#4)', changes: files(2) },
      { message: 'perf: parse twice as fast (#5)', changes: files(1) },
      { message: 'fix(deps): update acorn to v9 (#6)', changes: [['M', 'package.json']] },
      { message: 'v1.0.1', changes: [['M', 'package.json']], tags: ['v1.0.1'] },
    ]);
    const note = generateReleases(commits, weekly).find((n) => n.tag === 'v1.0.1')!;
    expect(note.generated_json.headline_items).toEqual([
      { section_type_key: 'performance', title: 'Parse twice as fast (#5)', body: null },
      { section_type_key: 'fix', title: 'Crash on empty input (#4)', body: null },
    ]);
  });

  it('do not fill a release that has features with its fixes, nor name a feature that only touches docs', () => {
    const commits = chain([
      { message: 'feat: document the new flag (#1)', changes: [['M', 'docs/flags.md']] },
      { message: 'feat: add --watch (#2)', changes: files(3) },
      { message: 'fix: crash on empty input (#3)', changes: files(2) },
    ]);
    expect(headlines(commits)).toEqual([{ section_type_key: 'feature', title: 'Add --watch (#2)', body: null }]);
  });

  it('rank release notes the same way', () => {
    const commits = chain([
      { message: 'feat: first in time (#1)', changes: files(1) },
      { message: 'feat: the big one (#2)', changes: files(20), tags: ['v1.0.0'] },
    ]);
    const note = generateReleases(commits, weekly).find((n) => n.tag === 'v1.0.0')!;
    expect(note.generated_json.headline_items.map((h) => h.title)).toEqual(['The big one (#2)', 'First in time (#1)']);
  });

  it('give every release note with items a headline: a lone fix is one, a commit entry of it is not', () => {
    const commits = chain([
      { message: 'feat: first (#1)', changes: files(1), tags: ['v1.0.0'] },
      { message: 'fix: crash on empty input (#2)', changes: files(1), tags: ['v1.0.1'] },
    ]);
    const note = generateReleases(commits, weekly).find((n) => n.tag === 'v1.0.1')!;
    expect(note.generated_json.headline_items).toEqual([{ section_type_key: 'fix', title: 'Crash on empty input (#2)', body: null }]);
    const entry = generate(commits, resolveSettings({ entryTypes: ['commit'] })).entries.find((e) => e.commit_sha === commits[1]!.sha)!;
    expect(entry.generated_json.headline_items).toEqual([]);
  });

  it('lead a release note with nothing users notice with what it shows: code changes before documentation and dependencies', () => {
    const commits = chain([
      { message: 'feat: first (#1)', changes: files(1), tags: ['v1.0.0'] },
      { message: 'Update dependencies (#2)', changes: [['M', 'package.json']] },
      { message: 'docs: fix some links (#3)', changes: [['M', 'README.md']] },
      { message: 'Use primitive string type in TransformHook (#4)', changes: files(1) },
      { message: 'test: cover the hook (#5)', changes: [['M', 'test/hook.test.ts']] },
      { message: '-> v1.0.1', changes: [['M', 'package.json']], tags: ['v1.0.1'] },
    ]);
    const note = generateReleases(commits, weekly).find((n) => n.tag === 'v1.0.1')!;
    expect(note.generated_json.headline_items.map((h) => `${h.section_type_key}: ${h.title}`)).toEqual([
      'refactor: Use primitive string type in TransformHook (#4)',
      'documentation: Fix some links (#3)',
      'dependencies: Update dependencies (#2)',
    ]);
    // The release commit (`-> v1.0.1`) is housekeeping, no item of the note.
    expect(JSON.stringify(note.generated_json.sections)).not.toContain('v1.0.1');
  });

  it('never take a headline from a hidden section: a note that shows nothing has none', () => {
    const commits = chain([
      { message: 'feat: first (#1)', changes: files(1), tags: ['v1.0.0'] },
      { message: 'test: cover the hook (#2)', changes: [['M', 'test/hook.test.ts']] },
      { message: 'chore: tidy the scripts (#3)', changes: [['M', 'scripts/release.js']], tags: ['v1.0.1'] },
    ]);
    const note = generateReleases(commits, weekly).find((n) => n.tag === 'v1.0.1')!;
    expect(note.generated_json.sections).toEqual([]);
    expect(note.generated_json.headline_items).toEqual([]);
  });
});
