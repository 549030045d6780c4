// The git-cliff history (Conventional Commits, squash merges, merge commits, 98 tags) made into a
// real repository with the shared history-to-git tool, read back with git, and generated in full.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { datasetFile, ensureDatasetRepo } from '../../../scripts/dataset-repo.js';
import { generate, type GenerationResult } from './engine.js';
import { readRepository } from '../../git/local.js';
import { resolveSettings } from '../settings.js';
import { coAuthorsOf, prNumberOf, type CommitRecord } from '../../git/commit-record.js';
import { SECTION_KEYS, type GeneratedEntry } from './types.js';
import { tagVersion } from './versions.js';
import fixture from './fixtures/git-cliff-weekly.json' with { type: 'json' };

// The test's own reading of Conventional Commits, independent of the engine's parser.
const HEADER = /^([A-Za-z]+)(?:\(([^()]*)\))?(!)?: \S/;
const SECTION_OF_TYPE: Record<string, string> = {
  feat: 'feature',
  fix: 'fix',
  perf: 'performance',
  docs: 'documentation',
  doc: 'documentation',
  refactor: 'refactor',
  build: 'build',
  ci: 'build',
  test: 'test',
  chore: 'chore',
  style: 'chore',
  revert: 'revert',
};
const DEPENDENCY_SCOPES = ['deps', 'dep', 'deps-dev', 'dev-deps', 'dependencies'];
// Issue 14: a scope naming a non-code area beats the type (`fix(ci)` is build, `style(readme)` documentation).
const AREA_OF_SCOPE: Record<string, string> = {
  docs: 'documentation',
  doc: 'documentation',
  readme: 'documentation',
  typo: 'documentation',
  ci: 'build',
  workflow: 'build',
  build: 'build',
  test: 'test',
  tests: 'test',
};
// Issue 14: what the description says beats a maintenance type: dependency updates written as
// `chore(npm): bump git-cliff to 2.9.1`, and raising the MSRV (the minimum Rust version) is breaking.
// (Everything under `.github/` but prose and test fixtures is the repository's configuration; `codecov.yml` too.)
const PIPELINE = /^(\.github\/(?!fixtures\/|.*\.md$)|Dockerfile$|\.dockerignore$|\.editorconfig$|\.gitignore$|codecov\.yml$)/;
// Issue 14: a fix or refactoring touching only tests and their fixtures is a test change.
const TESTS = /^(tests?\/|\.github\/fixtures\/)|(^|\/)(tests|fixtures)\//;
// Issue 14: a commit touching only the changelog is release housekeeping, whatever its type.
const CHANGELOG = /^CHANGELOG\.md$/;
const BY_DESCRIPTION: Array<[RegExp, string]> = [
  [/^chore\([\w-]+\): (set|update|bump|raise) MSRV to /, 'breaking'],
  [/^chore: set node engine to v16/, 'breaking'],
  [/^chore(\([\w-]+\))?: ((upgrade|bump|update) (?!MSRV)\S+ to v?\d|upgrade |update yarn\.lock|bump (dev )?dependencies)/i, 'dependencies'],
];

let commits: CommitRecord[];
/** The dataset's commits: what git records, without the facts ingestion derives from the message. */
type DatasetCommit = Omit<CommitRecord, 'coAuthors' | 'prNumber'>;
let original: Map<string, DatasetCommit>;
let full: GenerationResult;
let byDefault: GenerationResult;
let codeowners: string | null;

describe('git-cliff history', () => {
  beforeAll(async () => {
    const dir = ensureDatasetRepo('git-cliff-history');
    const repo = await readRepository(dir);
    codeowners = repo.codeowners;
    // history-to-git gives commits new SHAs; map them back so that "This reverts commit <sha>"
    // and the fixture's SHAs mean what they meant upstream.
    const toOriginal = new Map(
      readFileSync(`${dir}/.history-map.tsv`, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split('\t').reverse() as [string, string]),
    );
    commits = repo.commits.map((c) => ({ ...c, sha: toOriginal.get(c.sha)!, parents: c.parents.map((p) => toOriginal.get(p)!) }));
    original = new Map(
      gunzipSync(readFileSync(datasetFile('git-cliff-history')))
        .toString('utf8')
        .trim()
        .split('\n')
        .map((l) => {
          const c = JSON.parse(l) as DatasetCommit;
          return [c.sha, c];
        }),
    );
    const everything = SECTION_KEYS.map((key) => ({ key, visible: true }));
    full = generate(
      commits,
      resolveSettings({ entryTypes: ['commit', 'daily', 'weekly', 'monthly'], sections: everything, excludeBots: false, codeowners: repo.codeowners }),
    );
    byDefault = generate(commits, resolveSettings({ entryTypes: ['weekly'], codeowners: repo.codeowners }));
  }, 120_000);

  it('reads back from git exactly the commits the dataset holds', () => {
    expect(commits).toHaveLength(original.size);
    for (const c of commits) {
      // `files` (the kept manifests' contents) is the dataset's, not a field of a commit record; what the
      // record keeps of them is `dependencies` (checked below).
      const { files: _files, ...stored } = original.get(c.sha)! as DatasetCommit & { files?: unknown };
      const { dependencies: _dependencies, ...record } = c;
      expect(record).toEqual({ ...stored, coAuthors: coAuthorsOf(stored.message), prNumber: prNumberOf(stored.message) });
    }
    // Every commit that changes a Cargo.toml got its manifest facts from the one extra git log.
    const manifestCommits = commits.filter((c) => c.changes.some(([, p]) => /(^|\/)Cargo\.toml$/.test(p)));
    expect(manifestCommits.length).toBeGreaterThan(0);
    expect(manifestCommits.every((c) => c.dependencies)).toBe(true);
  });

  it('puts every conventional commit in the section its type implies', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const p of full.commits) {
      if (p.classified.skip) continue;
      const m = HEADER.exec(p.classified.subject);
      if (!m) continue;
      const type = m[1]!.toLowerCase();
      let expected = SECTION_OF_TYPE[type];
      if (!expected) continue;
      const scope = (m[2] ?? '').toLowerCase();
      // `fix(deps)` is Renovate's runtime dependency update, which projects ship as a fix; `fix(deps-dev)` is not.
      if (type === 'fix' && ['deps', 'dep', 'dependencies'].includes(scope)) expected = 'fix';
      else if (['chore', 'build', 'ci', 'fix', 'style', 'refactor'].includes(type) && DEPENDENCY_SCOPES.includes(scope)) expected = 'dependencies';
      else if (AREA_OF_SCOPE[scope] && type !== 'revert') expected = AREA_OF_SCOPE[scope]!;
      for (const [re, section] of BY_DESCRIPTION) if (re.test(p.classified.subject)) expected = section;
      // Issue 14: a fix or refactoring that only touches the pipeline (`fix(cd): …`, `fix(docker): …`) is build.
      const only = (re: RegExp) => p.record.changes.length > 0 && p.record.changes.every(([, path]) => re.test(path));
      if (['fix', 'refactor', 'perf'].includes(type) && !scope.startsWith('dep') && only(PIPELINE)) expected = 'build';
      if (['fix', 'refactor', 'perf'].includes(type) && !scope.startsWith('dep') && only(TESTS)) expected = 'test';
      if (type !== 'revert' && only(CHANGELOG)) expected = 'chore';
      if (m[3] || /^BREAKING[ -]CHANGE: /m.test(p.record.message)) expected = 'breaking';
      checked++;
      // Issue 24: a dependency update is runtime, development or CI by what it changes (its manifests).
      const dependencyUpdate = expected === 'dependencies' || (type === 'fix' && ['deps', 'dep', 'dependencies'].includes(scope));
      if (dependencyUpdate && ['dependencies', 'dev-dependencies', 'build'].includes(p.classified.section)) continue;
      // …the website's content and governance documents have sections of their own (issue 24)…
      if (['documentation', 'chore', 'fix', 'refactor'].includes(expected) && ['website', 'governance'].includes(p.classified.section)) continue;
      // …a feature of the website alone is the website's (`feat(website): add search bar to the website`)…
      if (expected === 'feature' && p.classified.section === 'website' && only(/^website\//)) continue;
      // …and maintenance naming a runtime dependency it changes (`chore(args): update arg parsing to clap v3`) is one.
      if (['chore', 'build'].includes(expected) && p.classified.section === 'dependencies' && p.record.dependencies?.runtime.length) continue;
      // …and a refactoring the project types as one (`refactor:`) is internal, hidden by default.
      if (expected === 'refactor' && type === 'refactor' && p.classified.section === 'internal') continue;
      if (p.classified.section !== expected) wrong.push(`${p.classified.subject} → ${p.classified.section}, expected ${expected}`);
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(1521); // every non-merge commit but the handful that are not conventional
  });

  it('flags breaking changes and puts them first', () => {
    const breaking = full.commits.filter((p) => !p.classified.skip && /^\w+(\([^)]*\))?!: /.test(p.classified.subject));
    expect(breaking.length).toBeGreaterThanOrEqual(20);
    for (const p of breaking) expect(p.classified).toMatchObject({ breaking: true, section: 'breaking' });
    const week = full.entries.find((e) => e.key === 'weekly:2022-04-04')!;
    expect(week.generated_json.headline_items[0]).toMatchObject({
      section_type_key: 'breaking',
      title: 'Prefix environment variables with `GIT_CLIFF_` (#76)',
    });
  });

  it('counts a merge commit only as the item of its pull request, and no commit twice', () => {
    const merges = new Set(commits.filter((c) => c.parents.length > 1).map((c) => c.sha));
    expect(merges.size).toBe(41);
    for (const type of ['daily', 'weekly', 'monthly'] as const) {
      const rollups = full.entries.filter((e) => e.entry_type === type);
      const shas = rollups.flatMap((e) => e.commit_shas);
      expect(new Set(shas).size, type).toBe(shas.length);
      // A merge is listed only as the item of a pull request of several commits (#3, #7, #9 with CI shown).
      const listedMerges = shas.filter((s) => merges.has(s));
      const mergeItems = rollups.flatMap((e) => e.generated_json.sections.flatMap((s) => s.items)).filter((i) => i.commits !== undefined);
      expect(
        mergeItems.map((i) => [i.text, i.commits]),
        type,
      ).toEqual([
        ['Add parser powered by structopt', 2],
        ['Custom Errors', 2],
        ['Fix CI', 2],
      ]);
      expect(listedMerges, type).toHaveLength(mergeItems.length);
      // Every other commit is in exactly one rollup, except revert pairs cancelled in their period.
      expect(shas.length - listedMerges.length, type).toBe(commits.length - merges.size - 2 * full.stats.cancelledReverts[type]);
    }
    const commitEntries = full.entries.filter((e) => e.entry_type === 'commit');
    expect(commitEntries).toHaveLength(commits.length - merges.size);
  });

  it('turns tags into version labels', () => {
    const commitEntry = new Map(full.entries.filter((e) => e.entry_type === 'commit').map((e) => [e.commit_sha, e]));
    const tagged = commits.filter((c) => c.tags.some((t) => tagVersion(t)));
    expect(tagged.length).toBeGreaterThanOrEqual(90);
    // A tagged commit carries its own tag, or, for a pre-release, the final release of that version
    // (every pre-release of this history was followed by its final release).
    const finalOf = (tag: string) => tag.replace(/-(alpha|beta|rc)\.\d+$/, '');
    for (const c of tagged) expect(commitEntry.get(c.sha)!.version_label).toBe(finalOf(c.tags[0]!));
    // A commit between v1.1.2 and the next release carries the next release's tag.
    const after = commitEntry.get(findSha('fix(config): set max of `limit_commits`'))!;
    expect(after.version_label).toBe('v1.2.0');
    // Each weekly rollup carries the highest tag created in its week, and only such weeks carry one.
    const weekly = full.entries.filter((e) => e.entry_type === 'weekly');
    for (const e of weekly) {
      const inWeek = tagged.filter(
        (c) => Date.parse(c.committer.date) >= Date.parse(e.period_start!) && Date.parse(c.committer.date) < Date.parse(e.period_end!),
      );
      expect(e.version_label === null, e.key).toBe(inWeek.length === 0);
    }
    expect(weekly.find((e) => e.key === 'weekly:2021-06-28')?.version_label).toBe('v0.1.0-rc.21');
  });

  // 2021-W19 lists pull requests #3 and #7 as merges of two commits each (#3 standing for its commit of the same title).
  it('produces the hand-checked weekly rollups', () => {
    const actual = fixture.map((expected) => strip(byDefault.entries.find((e) => e.key === expected.key)));
    expect(actual).toEqual(fixture);
  });

  it('is deterministic: a second run gives the same entries', () => {
    const again = generate(structuredClone(commits), resolveSettings({ entryTypes: ['weekly'], codeowners }));
    expect(again.entries.map((e) => e.fingerprint)).toEqual(byDefault.entries.map((e) => e.fingerprint));
  });
});

function findSha(subjectStart: string): string {
  return commits.find((c) => c.message.startsWith(subjectStart))!.sha;
}

function strip(entry: GeneratedEntry | undefined) {
  if (!entry) return undefined;
  const { fingerprint: _f, commit_sha: _c, ...rest } = entry;
  return rest;
}
