import { describe, expect, it } from 'vitest';
import { configVerdict, defaultLabelVerdict, normalizeLabel, parseReleaseConfig } from './release-config.js';

describe('labels → sections', () => {
  it('reads the labels projects commonly use, however they are spelled', () => {
    expect(normalizeLabel('  Type:Feature ')).toBe('type: feature');
    expect(normalizeLabel('breaking_change')).toBe('breaking change');
    const cases: Array<[string[], ReturnType<typeof defaultLabelVerdict>]> = [
      [['bug'], 'fix'],
      [['kind/bug'], 'fix'],
      [['🐛 bug'], 'fix'],
      [['Type: Enhancement'], 'feature'],
      [['semver-major', 'bug'], 'breaking'],
      [['dependencies', 'javascript'], 'dependencies'],
      [['skip-changelog', 'breaking change'], 'hidden'],
      [['ignore-for-release'], 'hidden'],
      // What a label says of the work to do, not of the change.
      [['needs docs'], null],
      [['no tests'], null],
      [['good first issue', 'help wanted'], null],
      [[], null],
    ];
    for (const [labels, verdict] of cases) expect([labels, defaultLabelVerdict(labels)]).toEqual([labels, verdict]);
  });
});

describe('.github/release.yml', () => {
  const config = parseReleaseConfig(
    [
      'changelog:',
      '  exclude:',
      '    labels: [ignore-for-release, "Dependencies"]',
      '    authors: [dependabot, "renovate*"]',
      '  categories:',
      '    - title: 🏕 Features',
      '      labels: ["*"]',
      '      exclude:',
      '        labels: [bug, docs]',
      '    - title: 👒 Dependencies',
      '      labels: [deps]',
      '    - title: 🐛 Bug Fixes',
      '      labels: [bug]',
      '    - title: 🎉 Goodies',
      '      labels: [enhancement]',
      '    - title: Internal',
      '      labels: [ci]',
      '    - title: Other',
      '      labels: [docs]',
    ].join('\n'),
  )!;

  it('maps categories to sections by their titles, else by their labels, else to none', () => {
    expect(config.categories.map((c) => [c.title, c.section])).toEqual([
      ['🏕 Features', 'feature'],
      ['👒 Dependencies', 'dependencies'],
      ['🐛 Bug Fixes', 'fix'],
      ['🎉 Goodies', 'feature'],
      ['Internal', 'internal'],
      // No word of ours in its title: its labels say.
      ['Other', 'documentation'],
    ]);
  });

  it('applies exclusions first, then the first category a PR fits, as GitHub does', () => {
    expect(configVerdict(config, ['dependencies'], 'someone')).toBe('hidden');
    expect(configVerdict(config, [], 'renovate-bot')).toBe('hidden');
    expect(configVerdict(config, [], 'Dependabot')).toBe('hidden');
    // The catch-all comes first here: everything not excluded from it is a feature.
    expect(configVerdict(config, ['anything'], 'someone')).toBe('feature');
    expect(configVerdict(config, ['bug'], 'someone')).toBe('fix');
    expect(configVerdict(config, ['docs'], 'someone')).toBe('documentation');
    // In no category: the commits decide.
    expect(configVerdict(parseReleaseConfig('changelog:\n  categories:\n    - title: Fixes\n      labels: [bug]\n')!, ['x'], 'someone')).toBe(null);
  });

  it('ignores what is not a configuration, with a warning for what is not YAML or has no changelog', () => {
    const warnings: string[] = [];
    expect(parseReleaseConfig('', warnings)).toBeNull();
    expect(parseReleaseConfig('changelog: [', warnings)).toBeNull();
    expect(parseReleaseConfig('other: 1', warnings)).toBeNull();
    expect(warnings).toHaveLength(2);
    // Wrong shapes inside are skipped, not trusted.
    expect(parseReleaseConfig('changelog:\n  categories:\n    - 12\n    - title: [a]\n    - title: Fixes\n      labels: 7\n')).toEqual({
      excludeLabels: [],
      excludeAuthors: [],
      categories: [{ title: 'Fixes', labels: [], excludeLabels: [], excludeAuthors: [], section: 'fix' }],
    });
  });
});
