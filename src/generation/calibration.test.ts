import { describe, expect, it } from 'vitest';
import { calibrate, proposeSections, sectionOfTitle } from './calibration.js';
import { resolveSettings } from './settings.js';

const defaults = resolveSettings({}).sections;
const visibleOf = (p: ReturnType<typeof proposeSections>) => p!.sections.filter((s) => s.visible).map((s) => `${s.key}=${s.label}`);

// The habits of four real styles, made up here: Keep a Changelog, conventional-changelog, jest's hand-written
// sections, rollup's curated sections above a full pull-request list, and prettier's items as headings.
const keepAChangelog = `# Changelog

## [Unreleased]

### Added
- A new flag

## [1.2.0] - 2024-05-01

### Added
- Export as JSON
- Dark mode

### Fixed
- Crash on empty input

### Security
- Escape titles

## [1.1.0] - 2024-04-01

### Fixed
- Wrong date

### Removed
- The v0 endpoints
`;

const jestLike = `## main

### Features

- \`[jest-runtime]\` Something new (#1)

### Fixes

- \`[expect]\` A fix (#2)

### Chore & Maintenance

- \`[*]\` Update deps (#3)

## 30.1.0

### Fixes

- \`[jest-circus]\` Another fix (#4)

### Chore & Maintenance

- \`[docs]\` Typo (#5)

## 30.0.0

### Features

- \`[jest-config]\` A feature (#6)
`;

const rollupLike = `# rollup changelog

## 4.2.0

_2024-01-02_

### Features

- Support X (#10)

### Pull Requests

- [#10](https://github.com/r/r/pull/10): feat: support X (@a)
- [#11](https://github.com/r/r/pull/11): chore(deps): lock file maintenance (@renovate[bot])

## 4.1.1

### Bug Fixes

- Fix Y (#12)

### Pull Requests

- [#12](https://github.com/r/r/pull/12): fix: Y (@b)
`;

const prettierLike = `# 3.1.1

[diff](https://github.com/p/p/compare/3.1.0...3.1.1)

#### TypeScript: keep quotes ([#1](https://github.com/p/p/pull/1) by @a)

\`\`\`ts
### not a heading: inside a code block
- not an item
\`\`\`

# 3.1.0

#### Fix the parser (#2 by @b)
`;

describe('reading a changelog (calibration)', () => {
  it('names the sections of Keep a Changelog, conventional-changelog, jest and rollup as ours', () => {
    expect(
      ['Added', 'Fixed', 'Removed', 'Security', 'Bug Fixes', 'Features', 'Performance Improvements', 'Reverts', 'Chore & Maintenance', 'Fixes', 'Pull Requests', 'Dependencies', 'Deprecated', 'BREAKING CHANGES', 'Patch Changes', 'Minor Changes', 'Major Changes'].map(
        (t) => [t, sectionOfTitle(t)],
      ),
    ).toEqual([
      ['Added', 'feature'],
      ['Fixed', 'fix'],
      ['Removed', 'breaking'],
      ['Security', 'security'],
      ['Bug Fixes', 'fix'],
      ['Features', 'feature'],
      ['Performance Improvements', 'performance'],
      ['Reverts', 'revert'],
      ['Chore & Maintenance', 'chore'],
      ['Fixes', 'fix'],
      ['Pull Requests', null],
      ['Dependencies', 'dependencies'],
      ['Deprecated', 'deprecation'],
      ['BREAKING CHANGES', 'breaking'],
      ['Patch Changes', 'fix'],
      ['Minor Changes', 'feature'],
      ['Major Changes', 'breaking'],
    ]);
  });

  it('counts the releases, the sections each uses and their items', () => {
    const c = calibrate(keepAChangelog, 'CHANGELOG.md')!;
    expect(c).toMatchObject({ path: 'CHANGELOG.md', releases: 3, sectioned: 3 });
    expect(c.sections).toEqual([
      { title: 'Added', key: 'feature', releases: 2, items: 3 },
      { title: 'Fixed', key: 'fix', releases: 2, items: 2 },
      { title: 'Security', key: 'security', releases: 1, items: 1 },
      { title: 'Removed', key: 'breaking', releases: 1, items: 1 },
    ]);
  });

  it('offers the sections a changelog uses under its names and in its order, hides the rest, and never hides what readers are owed', () => {
    const jest = proposeSections(calibrate(jestLike, 'CHANGELOG.md')!, defaults)!;
    expect(jest.mapped).toEqual([
      { key: 'feature', title: 'Features' },
      { key: 'fix', title: 'Fixes' },
      { key: 'chore', title: 'Chore & Maintenance' },
    ]);
    expect(visibleOf(jest)).toEqual([
      'breaking=Breaking changes',
      'feature=Features',
      'fix=Fixes',
      'chore=Chore & Maintenance',
      'performance=Performance',
      'security=Security',
      'deprecation=Deprecations',
    ]);
    expect(jest.sections.find((s) => s.key === 'documentation')).toMatchObject({ visible: false });
    // Every section of ours, once.
    expect(new Set(jest.sections.map((s) => s.key)).size).toBe(defaults.length);

    const rollup = proposeSections(calibrate(rollupLike, 'CHANGELOG.md')!, defaults)!;
    expect(rollup.mapped.map((m) => m.title)).toEqual(['Features', 'Bug Fixes']);
    // The full list of pull requests is no section of ours: said, not mapped.
    expect(rollup.unmapped).toEqual(['Pull Requests']);
    expect(rollup.sections.find((s) => s.key === 'dependencies')).toMatchObject({ visible: false });
  });

  it('offers nothing for a changelog that lists items straight under each release; code blocks are not read', () => {
    const c = calibrate(prettierLike, 'CHANGELOG.md')!;
    expect(c).toMatchObject({ releases: 2, sectioned: 0, sections: [] });
    expect(proposeSections(c, defaults)).toBeNull();
    expect(calibrate('# Our project\n\nNo releases yet.\n', 'CHANGELOG.md')).toBeNull();
  });

  it('reads a pathological changelog in linear time', () => {
    const junk = `### ${'#'.repeat(100_000)}\n- ${' '.repeat(100_000)}x\n${'**'.repeat(50_000)}\n${'*'.repeat(100_000)}\n`;
    const hostile = `${'## 1.0.0\n### A\n- x\n'.repeat(10)}${junk}${'## 1.0.0\n### A\n- x\n'.repeat(20_000)}`;
    const started = performance.now();
    const c = calibrate(hostile, 'CHANGELOG.md')!;
    expect(performance.now() - started).toBeLessThan(500);
    expect(c.releases).toBe(30);
    // A heading of a word and thousands of spaces, 250 times: once quadratic (about a second in all).
    const spaced = `## 1.0.0\n${`# a${' '.repeat(2_000)}x\n`.repeat(250)}`;
    const at = performance.now();
    calibrate(spaced, 'CHANGELOG.md');
    expect(performance.now() - at).toBeLessThan(100);
    // A thousand made-up sections keep a hundred titles.
    const many = `## 1.0.0\n${Array.from({ length: 1_000 }, (_, i) => `### Section ${i}\n- x\n`).join('')}`;
    expect(calibrate(many, 'CHANGELOG.md')!.sections).toHaveLength(100);
  });
});
