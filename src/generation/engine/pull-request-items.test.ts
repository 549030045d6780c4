import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import type { CommitRecord } from '../../git/commit-record.js';
import { resolveSettings } from '../settings.js';
import type { PullRequestInfo } from './pull-requests.js';
import { generateReleases, type ReleaseNote } from './releases.js';

const settings = resolveSettings({ pullRequestUrl: 'https://github.com/acme/app/pull/{number}' });

function pr(number: number, overrides: Partial<PullRequestInfo> = {}): PullRequestInfo {
  return {
    number,
    title: `Change ${number}`,
    body: '',
    labels: [],
    author: { login: `dev${number}`, isBot: false },
    mergedAt: '2024-01-01T00:00:00Z',
    mergeCommitSha: null,
    commitShas: [],
    ...overrides,
  };
}

let day = 0;
/** A linear history helper: each commit a day after the last, on top of `parent`. */
function next(parent: CommitRecord | null, overrides: Parameters<typeof buildCommit>[0] = {}): CommitRecord {
  day++;
  const date = new Date(Date.UTC(2024, 0, 1) + day * 3_600_000).toISOString().replace('.000Z', 'Z');
  return buildCommit({ parents: parent ? [parent.sha] : [], date, ...overrides });
}

/** A root commit tagged v1.0.0, then `build` adds commits, the last tagged v1.1.0. */
function release(build: (root: CommitRecord) => CommitRecord[], tag = 'v1.1.0'): CommitRecord[] {
  const root = next(null, { message: 'chore: initial', tags: ['v1.0.0'], name: 'Founder', email: 'founder@example.com' });
  const rest = build(root);
  rest[rest.length - 1] = { ...rest[rest.length - 1]!, tags: [...rest[rest.length - 1]!.tags, tag] };
  return [root, ...rest];
}

const noteOf = (notes: ReleaseNote[], tag: string) => notes.find((n) => n.tag === tag)!;
const items = (note: ReleaseNote) => note.generated_json.sections.flatMap((s) => s.items.map((i) => `${s.section_type_key}: ${i.text}`));

/** A PR merged with a merge commit: its branch's commits off `base`, then the merge onto `base`. */
function merged(base: CommitRecord, number: number, subjects: string[], extra: Partial<CommitRecord> = {}): CommitRecord[] {
  const branch: CommitRecord[] = [];
  let tip = base;
  for (const s of subjects) branch.push((tip = next(tip, { message: s, name: 'Branch Dev', email: 'branch@example.com' })));
  const merge = next(base, { parents: [base.sha, tip.sha], message: `Merge pull request #${number} from acme/topic\n\nThe title`, ...extra });
  return [...branch, merge];
}

describe('release notes with pull requests', () => {
  it('folds a PR of four branch commits and its merge commit into one item', () => {
    const history = release((root) => merged(root, 12, ['wip', 'feat: add the export', 'fix review comments', 'Update eslint to version 7.24.0']));
    const branch = history.slice(1, 5);
    const mergeCommit = history[5]!;
    const info = pr(12, { title: 'feat: export to CSV', mergeCommitSha: mergeCommit.sha, commitShas: branch.map((c) => c.sha) });
    const note = noteOf(generateReleases(history, settings, { pullRequests: [info] }), 'v1.1.0');
    expect(items(note)).toEqual(['feature: Export to CSV (#12)']);
    expect(note.commit_shas.sort()).toEqual([...branch, mergeCommit].map((c) => c.sha).sort());
    expect(note.content).toContain('[#12](https://github.com/acme/app/pull/12)');
  });

  it('finds a squashed PR by the number its title ends with', () => {
    const history = release((root) => [next(root, { message: 'Add the widget (#30)' })]);
    const note = noteOf(generateReleases(history, settings, { pullRequests: [pr(30, { title: 'Add the widget', labels: ['bug'] })] }), 'v1.1.0');
    expect(items(note)).toEqual(['fix: Add the widget (#30)']);
  });

  it("joins a commit to a pull request by number only within the PR's own repository when the host says which commits name it", () => {
    // Two repositories in one project: `(#30)` of the other one is not this repository's pull request #30.
    let ours!: CommitRecord;
    const history = release((root) => {
      ours = next(root, { message: 'Add the widget (#30)' });
      return [ours, next(ours, { message: 'fix: their own change (#30)' })];
    });
    const info = pr(30, { title: 'Add the widget', labels: ['bug'], citedBy: [ours.sha] });
    const note = noteOf(generateReleases(history, settings, { pullRequests: [info] }), 'v1.1.0');
    expect(items(note).sort()).toEqual(['fix: Add the widget (#30)', 'fix: Their own change (#30)']);
    expect(note.content.match(/Add the widget/g)).toHaveLength(1);
  });

  it('files PRs by the common labels, and leaves out what they mark as not for the notes', () => {
    const history = release((root) => {
      const a = next(root, { message: 'Something (#1)' });
      const b = next(a, { message: 'Other thing (#2)' });
      const c = next(b, { message: 'Third thing (#3)' });
      const d = next(c, { message: 'Fourth thing (#4)' });
      const e = next(d, { message: 'Fifth thing (#5)' });
      return [a, b, c, d, e];
    });
    const prs = [
      pr(1, { title: 'Something', labels: ['Type: Feature'] }),
      pr(2, { title: 'Other thing', labels: ['bug', 'semver-major'] }),
      pr(3, { title: 'Third thing', labels: ['skip-changelog', 'enhancement'] }),
      pr(4, { title: 'Fourth thing', labels: ['dependencies'] }),
      pr(5, { title: 'Fifth thing', labels: ['kind/bug'] }),
    ];
    const note = noteOf(generateReleases(history, settings, { pullRequests: prs }), 'v1.1.0');
    expect(items(note).sort()).toEqual(
      ['breaking: Other thing (#2)', 'dependencies: Fourth thing (#4)', 'feature: Something (#1)', 'fix: Fifth thing (#5)'].sort(),
    );
  });

  it("honours the repository's release.yml: categories by title, excluded labels and authors, the * catch-all", () => {
    const config = [
      'changelog:',
      '  exclude:',
      '    labels: [ignore-for-release]',
      '    authors: [octocat]',
      '  categories:',
      '    - title: Breaking Changes 🛠',
      '      labels: [Semver-Major]',
      '    - title: Exciting New Features 🎉',
      '      labels: [Semver-Minor]',
      '      exclude:',
      '        labels: [experimental]',
      '    - title: Other Changes',
      '      labels: ["*"]',
    ].join('\n');
    const history = release((root) => {
      const cfg = next(root, { message: 'ci: release notes config', changes: [['A', '.github/release.yml']], releaseConfig: config });
      const a = next(cfg, { message: 'A (#1)' });
      const b = next(a, { message: 'B (#2)' });
      const c = next(b, { message: 'C (#3)' });
      const d = next(c, { message: 'fix: D (#4)' });
      const e = next(d, { message: 'E (#5)' });
      const f = next(e, { message: 'feat: F (#6)' });
      return [cfg, a, b, c, d, e, f];
    });
    const prs = [
      pr(1, { title: 'A', labels: ['semver-minor'] }),
      pr(2, { title: 'B', labels: ['semver-major', 'semver-minor'] }),
      pr(3, { title: 'C', labels: ['ignore-for-release', 'semver-major'] }),
      pr(4, { title: 'fix: D', labels: ['whatever'] }),
      pr(5, { title: 'E', author: { login: 'OctoCat', isBot: false } }),
      // Excluded from Features: the catch-all takes it, and its commit says what it is.
      pr(6, { title: 'feat: F', labels: ['semver-minor', 'experimental'] }),
    ];
    const warnings: string[] = [];
    const note = noteOf(generateReleases(history, settings, { pullRequests: prs, warnings }), 'v1.1.0');
    expect(warnings).toEqual([]);
    expect(items(note).sort()).toEqual(['breaking: B (#2)', 'feature: A (#1)', 'feature: F (#6)', 'fix: D (#4)'].sort());
  });

  it('uses the release.yml the history held at each release, never a later one', () => {
    const early = 'changelog:\n  exclude:\n    labels: [hidden-early]\n';
    const late = 'changelog:\n  exclude:\n    labels: [hidden-late]\n';
    const root = next(null, { message: 'chore: initial', tags: ['v1.0.0'] });
    const cfg1 = next(root, { message: 'ci: config', releaseConfig: early });
    const a = next(cfg1, { message: 'A (#1)', tags: ['v1.1.0'] });
    const cfg2 = next(a, { message: 'ci: config again', releaseConfig: late });
    const b = next(cfg2, { message: 'B (#2)', tags: ['v1.2.0'] });
    const prs = [pr(1, { title: 'feat: A', labels: ['hidden-late'] }), pr(2, { title: 'feat: B', labels: ['hidden-early'] })];
    const notes = generateReleases([root, cfg1, a, cfg2, b], settings, { pullRequests: prs });
    // Dates that say otherwise (a clock set wrong) do not change which file a release's history held last.
    const skewed = generateReleases([root, cfg1, a, { ...cfg2, committer: { ...cfg2.committer, date: '2023-01-01T00:00:00Z' } }, b], settings, {
      pullRequests: prs,
    });
    expect(items(noteOf(skewed, 'v1.2.0'))).toEqual(['feature: B (#2)']);
    // v1.1.0 was cut under the early file: hidden-late meant nothing yet.
    expect(items(noteOf(notes, 'v1.1.0'))).toEqual(['feature: A (#1)']);
    expect(items(noteOf(notes, 'v1.2.0'))).toEqual(['feature: B (#2)']);
  });

  it("takes the maintainer's words: the description's section over a trailer over the title; `Changelog: none` hides", () => {
    const history = release((root) => {
      const a = next(root, { message: 'Refactor parser internals (#1)' });
      const b = next(a, { message: 'Tweak things (#2)' });
      const c = next(b, { message: 'Bump internal thing (#3)\n\nChangelog: none' });
      const d = next(c, { message: 'feat: new flag (#4)' });
      return [a, b, c, d];
    });
    const prs = [
      pr(1, {
        title: 'Refactor parser internals',
        labels: ['enhancement'],
        body: '<!-- describe your change -->\n## Summary\nLots of internals.\n\n## Release notes\n\n- Parsing is **twice** as fast on large files\n- `--strict` reports every error\n\n## Testing\nran it',
      }),
      pr(2, { title: 'Tweak things', labels: ['bug'], body: 'Fixes #9\n\nChangelog: The date picker keeps the chosen month' }),
      pr(3, { title: 'Bump internal thing', labels: ['bug'] }),
      pr(4, { title: 'feat: new flag', body: '**Changelog**\nN/A' }),
    ];
    const note = noteOf(generateReleases(history, settings, { pullRequests: prs }), 'v1.1.0');
    expect(items(note)).toEqual([
      'feature: Parsing is **twice** as fast on large files; `--strict` reports every error (#1)',
      'fix: The date picker keeps the chosen month (#2)',
    ]);
    // Rendered safely, like any title: emphasis escaped, the code span kept.
    expect(note.content).toContain('Parsing is \\*\\*twice\\*\\* as fast on large files; `--strict` reports every error');
  });

  it("renders the maintainer's words as safely as any title: no HTML, link or image gets through", () => {
    const history = release((root) => [next(root, { message: 'Thing (#1)' })]);
    const body = '## Release notes\n\n<img src=x onerror=alert(1)> [click](javascript:alert(1)) ![i](https://evil.example/i.png)\u202e';
    const note = noteOf(generateReleases(history, settings, { pullRequests: [pr(1, { body })] }), 'v1.1.0');
    expect(note.content).toContain('\\<img src=x onerror=alert(1)\\> \\[click\\](javascript:alert(1)) !\\[i\\](https://evil.example/i.png) ([#1](');
    expect(note.content).not.toContain('\u202e');
  });

  it('reads changeset and towncrier fragments a PR or a commit adds as the words, their type as the section', () => {
    const changeset = '---\n"@acme/core": minor\n"@acme/cli": patch\n---\n\nAdd a `--json` output to every command\n';
    const history = release((root) => {
      const a = next(root, { message: 'wip (#1)', fragments: [{ path: '.changeset/brave-dogs-sing.md', text: changeset }] });
      const b = next(a, {
        message: 'fix crash',
        fragments: [{ path: 'changelog.d/123.bugfix.md', text: 'No crash when the cache directory is read-only.\n' }],
      });
      const c = next(b, { message: 'tidy', fragments: [{ path: 'newsfragments/124.misc', text: 'internal' }] });
      const d = next(c, { message: 'remove old api', fragments: [{ path: 'changes/125.removal.rst', text: 'The ``old()`` function is gone.' }] });
      return [a, b, c, d];
    });
    const note = noteOf(generateReleases(history, settings, { pullRequests: [pr(1, { title: 'wip' })] }), 'v1.1.0');
    expect(items(note)).toEqual([
      'breaking: The ``old()`` function is gone.',
      'feature: Add a `--json` output to every command (#1)',
      'fix: No crash when the cache directory is read-only.',
    ]);
    const feature = note.generated_json.sections.find((s) => s.section_type_key === 'feature')!.items[0]!;
    expect(feature.component).toBe('@acme/core');
  });

  it('leaves out bot PRs when bots are excluded, and keeps them when not', () => {
    const history = release((root) => [next(root, { message: 'Bump lodash from 4.17.20 to 4.17.21 (#8)' })]);
    const bot = pr(8, { title: 'Bump lodash from 4.17.20 to 4.17.21', author: { login: 'dependabot[bot]', isBot: true }, labels: ['dependencies'] });
    expect(items(noteOf(generateReleases(history, settings, { pullRequests: [bot] }), 'v1.1.0'))).toEqual([]);
    const keep = resolveSettings({ excludeBots: false });
    expect(items(noteOf(generateReleases(history, keep, { pullRequests: [bot] }), 'v1.1.0'))).toEqual([
      'dependencies: Bump lodash from 4.17.20 to 4.17.21 (#8)',
    ]);
  });

  it('names new contributors (never bots, excluded authors or e-mail addresses) and links the compare page', () => {
    const root = next(null, { message: 'feat: start (#1)', tags: ['v1.0.0'] });
    const a = next(root, { message: 'fix: a (#2)' });
    const b = next(a, { message: 'fix: b (#3)' });
    const c = next(b, { message: 'fix: c (#4)' });
    const d = next(c, { message: 'fix: d', name: 'someone@example.com', email: 'someone@example.com' });
    const e = next(d, { message: 'fix: e', name: 'Grace Hopper', email: 'grace@example.com' });
    const f = next(e, { message: 'fix: f (#5)', tags: ['v1.1.0'] });
    const prs = [
      pr(1, { author: { login: 'ada', isBot: false } }),
      pr(2, { author: { login: 'ada', isBot: false } }),
      pr(3, { author: { login: 'linus', isBot: false } }),
      pr(4, { author: { login: 'renovate[bot]', isBot: true } }),
      pr(5, { author: { login: 'mallory', isBot: false } }),
    ];
    const excluding = resolveSettings({ ...settings, excludeAuthors: ['mallory'], pullRequestUrl: settings.pullRequestUrl });
    const notes = generateReleases([root, a, b, c, d, e, f], excluding, { pullRequests: prs });
    const note = noteOf(notes, 'v1.1.0');
    expect(note.generated_json.new_contributors).toEqual([
      { name: '@linus', pr: 3 },
      { name: 'Grace Hopper', pr: null },
    ]);
    expect(noteOf(notes, 'v1.0.0').generated_json.new_contributors).toEqual([{ name: '@ada', pr: 1 }]);
    expect(note.generated_json.compare_url).toBe('https://github.com/acme/app/compare/v1.0.0...v1.1.0');
    expect(note.content).toContain('**New contributors**\n\n- @linus made their first contribution in [#3](https://github.com/acme/app/pull/3)');
    expect(note.content).toContain('- Grace Hopper made their first contribution\n');
    expect(note.content).toContain('**Full changelog:** [v1.0.0...v1.1.0](https://github.com/acme/app/compare/v1.0.0...v1.1.0)');
    expect(note.content).not.toContain('someone@example.com');
    // The first release has no previous tag: nothing to compare.
    expect(noteOf(notes, 'v1.0.0').generated_json.compare_url).toBeUndefined();
  });

  it('encodes tags in the compare link so that no tag can break out of it', () => {
    const root = next(null, { message: 'feat: start', tags: ['v1.0.0'] });
    const a = next(root, { message: 'fix: a', tags: ['v1.1.0'] });
    const note = noteOf(generateReleases([root, a], settings, { pullRequests: [] }), 'v1.1.0');
    expect(note.generated_json.compare_url).toMatch(/^https:\/\/github\.com\/acme\/app\/compare\/v1\.0\.0\.\.\.v1\.1\.0$/);
    const scoped = generateReleases(
      [
        { ...root, tags: ['@acme/core@1.0.0'] },
        { ...a, tags: ['@acme/core@1.1.0'] },
      ],
      settings,
      { pullRequests: [] },
    ).find((n) => n.tag === '@acme/core@1.1.0')!;
    expect(scoped.generated_json.compare_url).toBe('https://github.com/acme/app/compare/%40acme%2Fcore%401.0.0...%40acme%2Fcore%401.1.0');
  });

  it('keeps what labels or a commit type declare in a patch release, where a feature guessed from words is a fix', () => {
    const root = next(null, { message: 'chore: initial', tags: ['v1.0.0'] });
    const a = next(root, { message: 'Support nested values (#1)' });
    const b = next(a, { message: 'Support flat values (#2)' });
    const c = next(b, { message: 'feat: support deep values (#3)', tags: ['v1.0.1'] });
    const prs = [
      pr(1, { title: 'Support nested values', labels: ['enhancement'] }),
      pr(2, { title: 'Support flat values' }),
      pr(3, { title: 'Support deep values' }),
    ];
    const note = noteOf(generateReleases([root, a, b, c], settings, { pullRequests: prs }), 'v1.0.1');
    // #3's commit declares its type (`feat:`): it stands, as a declared commit's does.
    expect(items(note)).toEqual(['feature: Support nested values (#1)', 'feature: Support deep values (#3)', 'fix: Support flat values (#2)']);
  });

  it('files a PR without labels by its most significant commit, and a lone merge commit by its title', () => {
    const history = release((root) => {
      const branch = merged(root, 3, ['refactor: tidy', 'feat!: drop the v1 API\n\nBREAKING CHANGE: use v2', 'test: cover it']);
      // #4's branch is not in the history (a shallow ingest): its merge commit stands for it.
      const last = branch[branch.length - 1]!;
      const lone = next(last, { parents: [last.sha, 'f'.repeat(40)], message: 'Merge pull request #4 from acme/x\n\nfix: handle empty input' });
      return [...branch, lone];
    });
    const prs = [
      pr(3, { title: 'Version 2', mergeCommitSha: history[4]!.sha, commitShas: history.slice(1, 4).map((c) => c.sha) }),
      pr(4, { title: 'fix: handle empty input' }),
    ];
    const note = noteOf(generateReleases(history, settings, { pullRequests: prs }), 'v1.1.0');
    expect(items(note)).toEqual(['breaking: Version 2 (#3)', 'fix: Handle empty input (#4)']);
    expect(note.generated_json.headline_items[0]).toMatchObject({ section_type_key: 'breaking', title: 'Version 2 (#3)', body: 'use v2' });
  });

  it('reads only the first 50 labels of a PR', () => {
    const history = release((root) => [next(root, { message: 'feat: thing (#1)' })]);
    const labels = [...Array.from({ length: 9_999 }, (_, i) => `area ${i}`), 'skip-changelog'];
    expect(items(noteOf(generateReleases(history, settings, { pullRequests: [pr(1, { title: 'Thing', labels })] }), 'v1.1.0'))).toEqual([
      'feature: Thing (#1)',
    ]);
  });

  it('takes the newest release.yml of the tracked branch for Unreleased', () => {
    const root = next(null, { message: 'chore: initial', tags: ['v1.0.0'] });
    const cfg = next(root, { message: 'ci: config', releaseConfig: 'changelog:\n  exclude:\n    labels: [wip]\n' });
    const a = next(cfg, { message: 'feat: a (#1)' });
    const b = next(a, { message: 'feat: b (#2)' });
    const prs = [pr(1, { labels: ['wip'] }), pr(2)];
    const unreleased = generateReleases([root, cfg, a, b], settings, { pullRequests: prs }).find((n) => n.tag === null)!;
    expect(items(unreleased)).toEqual(['feature: Change 2 (#2)']);
    expect(unreleased.generated_json.compare_url).toBe('https://github.com/acme/app/compare/v1.0.0...HEAD');
  });

  it("leaves out a deleted account's PR when its commits are all by bots or excluded authors", () => {
    const history = release((root) => [next(root, { message: 'Update things (#1)', name: 'renovate[bot]', email: 'bot@renovateapp.com' })]);
    expect(items(noteOf(generateReleases(history, settings, { pullRequests: [pr(1, { author: null })] }), 'v1.1.0'))).toEqual([]);
  });

  it('makes the same notes as before when no pull requests are given', () => {
    const history = release((root) => merged(root, 12, ['wip', 'feat: add the export', 'fix review comments']));
    const plain = generateReleases(history, settings);
    const again = generateReleases(history, settings, {});
    expect(again).toEqual(plain);
    const note = noteOf(plain, 'v1.1.0');
    expect(note.generated_json).not.toHaveProperty('new_contributors');
    expect(note.generated_json).not.toHaveProperty('compare_url');
    expect(items(note)).toEqual(['feature: Add the export', 'fix: Fix review comments']);
  });
});

describe('pathological pull requests and repository files', () => {
  const timed = <T>(f: () => T): [T, number] => {
    const start = performance.now();
    const out = f();
    return [out, performance.now() - start];
  };

  it('reads a 64 KiB description of `#` and spaces, 10k labels and many trailers in linear time', () => {
    const history = release((root) => [next(root, { message: 'Thing (#1)' }), next(root, { message: 'Other (#2)' })].slice(0, 1));
    const bodies = [
      '# '.repeat(32 * 1024),
      '#'.repeat(64 * 1024),
      `## Release notes\n${':'.repeat(64 * 1024)}x`,
      'changelog:'.repeat(6 * 1024),
      ` ${'\n'.repeat(64 * 1024)}`,
    ];
    for (const body of bodies) {
      const labels = Array.from({ length: 10_000 }, (_, i) => `label ${'-'.repeat(i % 50)} ${i}`);
      const [notes, ms] = timed(() => generateReleases(history, settings, { pullRequests: [pr(1, { title: 'Thing', body, labels })] }));
      expect(ms).toBeLessThan(1_000);
      expect(items(noteOf(notes, 'v1.1.0')).length).toBe(1);
    }
  });

  it('ignores a malformed or hostile release.yml with a warning, and parses a large one quickly', () => {
    const bad = [
      'changelog: [unclosed',
      'changelog:\n  categories: 12\n',
      '- just\n- a list\n',
      `a: &a [${'x,'.repeat(1000)}x]\nb: [${'*a,'.repeat(1000)}*a]\n`,
    ];
    for (const text of bad) {
      const history = release((root) => {
        const cfg = next(root, { message: 'ci: config', releaseConfig: text });
        return [cfg, next(cfg, { message: 'fix: thing (#1)' })];
      });
      const warnings: string[] = [];
      const note = noteOf(generateReleases(history, settings, { pullRequests: [pr(1, { title: 'fix: thing', labels: ['bug'] })], warnings }), 'v1.1.0');
      expect(items(note)).toEqual(['fix: Thing (#1)']);
      if (text !== 'changelog:\n  categories: 12\n') expect(warnings.length).toBeGreaterThan(0);
    }
    const big = `changelog:\n  categories:\n${Array.from({ length: 2_000 }, (_, i) => `    - title: Category ${i}\n      labels: [l${i}]\n`).join('')}`.slice(
      0,
      64 * 1024,
    );
    const history = release((root) => {
      const cfg = next(root, { message: 'ci: config', releaseConfig: big });
      return [cfg, next(cfg, { message: 'fix: thing (#1)' })];
    });
    const [, ms] = timed(() => generateReleases(history, settings, { pullRequests: [pr(1, { labels: ['l10'] })] }));
    expect(ms).toBeLessThan(2_000);
  });

  it('ignores fragments that are not fragments and caps what a fragment says', () => {
    const history = release((root) => [
      next(root, {
        message: 'docs: changesets readme',
        fragments: [
          { path: '.changeset/README.md', text: '# Changesets\n\nHello' },
          { path: 'changelog.d/notes.txt', text: 'not a fragment' },
        ],
      }),
      next(root, { message: 'fix: long (#1)', fragments: [{ path: 'changelog.d/1.bugfix', text: 'word '.repeat(20_000) }] }),
    ]);
    history.splice(1, 1);
    const note = noteOf(generateReleases(history, settings, { pullRequests: [pr(1)] }), 'v1.1.0');
    const [item] = items(note);
    expect(item!.length).toBeLessThan(340);
    expect(item).toMatch(/^fix: (word ){10,}.*… \(#1\)$/);
  });
});
