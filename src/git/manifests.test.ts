// Made-up manifests: what a commit changes in them is runtime or development, by the manifest's own words.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, git } from '../../test/helpers/git.js';
import { readCommitFacts } from './manifest-log.js';
import { dependencyDelta, MAX_MANIFEST_BYTES, readManifest } from './manifests.js';

const pkg = (fields: Record<string, unknown>) => JSON.stringify({ name: 'lib', version: '1.0.0', ...fields }, null, 2);
const delta = (path: string, before: string | null, after: string | null, local?: Set<string>) =>
  dependencyDelta(before === null ? null : readManifest(path, before), after === null ? null : readManifest(path, after), local);

describe('package.json', () => {
  it('tells a devDependencies bump from a dependencies or peerDependencies one', () => {
    const base = { dependencies: { qs: '^6.0.0' }, peerDependencies: { react: '^18' }, devDependencies: { vitest: '^1.0.0' } };
    expect(delta('package.json', pkg(base), pkg({ ...base, devDependencies: { vitest: '^2.0.0' } }))).toEqual({ runtime: [], dev: ['vitest'] });
    expect(delta('package.json', pkg(base), pkg({ ...base, dependencies: { qs: '^6.1.0' } }))).toEqual({ runtime: ['qs'], dev: [] });
    expect(delta('package.json', pkg(base), pkg({ ...base, peerDependencies: { react: '^19' } }))).toEqual({ runtime: ['react'], dev: [] });
    // Removing a runtime dependency (`replace \`methods\` with the standard library`) changes what users install.
    expect(delta('package.json', pkg(base), pkg({ ...base, dependencies: {} }))).toEqual({ runtime: ['qs'], dev: [] });
    // A version field or a script alone changes no dependency.
    expect(delta('package.json', pkg(base), pkg({ ...base, version: '1.0.1', scripts: { test: 'vitest' } }))).toEqual({ runtime: [], dev: [] });
  });

  it('counts every dependency of a private package or of the website as development', () => {
    expect(delta('package.json', pkg({ private: true, dependencies: { a: '1' } }), pkg({ private: true, dependencies: { a: '2' } }))).toEqual({
      runtime: [],
      dev: ['a'],
    });
    expect(delta('website/package.json', pkg({ dependencies: { react: '18' } }), pkg({ dependencies: { react: '19' } }))).toEqual({
      runtime: [],
      dev: ['react'],
    });
  });

  it('leaves out requirements on the repository’s own packages (release commits bump them), but not on its own published name', () => {
    const local = new Set(['@acme/shared', 'lib']);
    expect(
      delta(
        'packages/a/package.json',
        pkg({ name: '@acme/a', dependencies: { '@acme/shared': '1.0.0' } }),
        pkg({ name: '@acme/a', dependencies: { '@acme/shared': '1.1.0' } }),
        local,
      ),
    ).toEqual({ runtime: [], dev: [] });
    expect(
      delta(
        'packages/a/package.json',
        pkg({ name: '@acme/a', dependencies: { x: 'workspace:^1' } }),
        pkg({ name: '@acme/a', dependencies: { x: 'workspace:^2' } }),
      ),
    ).toEqual({ runtime: [], dev: [] });
    // prettier formats itself with its last release: a devDependency on its own name is a real one.
    expect(delta('package.json', pkg({ devDependencies: { lib: '0.9.0' } }), pkg({ devDependencies: { lib: '1.0.0' } }), local)).toEqual({
      runtime: [],
      dev: ['lib'],
    });
  });

  it('moves between groups count for both kinds; unreadable, oversized or non-object manifests are ignored', () => {
    expect(delta('package.json', pkg({ devDependencies: { 'strip-bom': '1' } }), pkg({ dependencies: { 'strip-bom': '1' } }))).toEqual({
      runtime: ['strip-bom'],
      dev: ['strip-bom'],
    });
    expect(readManifest('package.json', '{ not json')).toBeNull();
    expect(readManifest('package.json', '[1, 2]')).toBeNull();
    expect(readManifest('package.json', pkg({ description: 'x'.repeat(MAX_MANIFEST_BYTES) }))).toBeNull();
  });
});

describe('other ecosystems', () => {
  it('Cargo.toml: [dependencies] is runtime, [dev-dependencies] and [build-dependencies] development, tables of one dependency too', () => {
    const before =
      '[package]\nname = "tool"\n\n[dependencies]\nserde = "1.0"\n\n[dev-dependencies]\ninsta = "1.30" # snapshots\n\n[dependencies.tokio]\nversion = "1"\n';
    const devBump = before.replace('insta = "1.30"', 'insta = "1.34"');
    const tableBump = before.replace('version = "1"', 'version = "1.2"');
    expect(delta('Cargo.toml', before, devBump)).toEqual({ runtime: [], dev: ['insta'] });
    expect(delta('Cargo.toml', before, tableBump)).toEqual({ runtime: ['tokio'], dev: [] });
    expect(readManifest('Cargo.toml', before)!.name).toBe('tool');
  });

  it('pyproject.toml: project.dependencies runtime, dev extras, dependency groups and Poetry dev groups development', () => {
    const before =
      '[project]\nname = "pkg"\ndependencies = [\n  "requests>=2.0",\n  "click",\n]\n\n[project.optional-dependencies]\ntest = ["pytest>=7"]\nyaml = ["pyyaml"]\n\n[tool.poetry.group.dev.dependencies]\nblack = "^24"\n';
    expect(delta('pyproject.toml', before, before.replace('requests>=2.0', 'requests>=2.31'))).toEqual({ runtime: ['requests'], dev: [] });
    expect(delta('pyproject.toml', before, before.replace('pytest>=7', 'pytest>=8'))).toEqual({ runtime: [], dev: ['pytest'] });
    expect(delta('pyproject.toml', before, before.replace('"pyyaml"', '"pyyaml>=6"'))).toEqual({ runtime: ['pyyaml'], dev: [] });
    expect(delta('pyproject.toml', before, before.replace('^24', '^25'))).toEqual({ runtime: [], dev: ['black'] });
  });

  it('go.mod: require is runtime (single lines and blocks), tool development', () => {
    const before =
      'module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.2.0\n\tgithub.com/c/d v0.1.0 // indirect\n)\n\nrequire github.com/e/f v1.0.0\n\ntool golang.org/x/tools/cmd/stringer\n';
    expect(delta('go.mod', before, before.replace('v1.2.0', 'v1.3.0'))).toEqual({ runtime: ['github.com/a/b'], dev: [] });
    expect(delta('go.mod', before, before.replace('github.com/e/f v1.0.0', 'github.com/e/f v1.1.0'))).toEqual({ runtime: ['github.com/e/f'], dev: [] });
    expect(readManifest('go.mod', before)!.deps.get('golang.org/x/tools/cmd/stringer')!.kind).toBe('dev');
  });

  it('reads a hostile manifest in linear time', () => {
    const lines = `[dependencies]\n${'a'.repeat(100_000)} = ${'"'.repeat(50_000)}\n${'['.repeat(50_000)}\n`;
    const started = performance.now();
    readManifest('Cargo.toml', lines);
    readManifest('pyproject.toml', `[project]\ndependencies = [${'"a", '.repeat(40_000)}`);
    readManifest('go.mod', `require (\n${'x '.repeat(100_000)}\n`);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('readCommitFacts (one git log for the whole history)', () => {
  let dir: string;
  const shas: Record<string, string> = {};
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'manifests-'));
    git(dir, ['init', '-q', '-b', 'main']);
    const root = (dev: string, qs: string) => pkg({ dependencies: { qs }, devDependencies: { vitest: dev, '@acme/util': '1.0.0' } });
    shas.init = commitFiles(dir, 'chore: init', {
      'package.json': root('1.0.0', '6.0.0'),
      'packages/util/package.json': pkg({ name: '@acme/util' }),
      'src/a.ts': 'a',
    });
    shas.dev = commitFiles(dir, 'chore(deps): update vitest to v2', { 'package.json': root('2.0.0', '6.0.0'), 'yarn.lock': 'x' });
    shas.runtime = commitFiles(dir, 'fix(deps): update qs to 6.1', { 'package.json': root('2.0.0', '6.1.0') });
    shas.code = commitFiles(dir, 'fix: a bug', { 'src/a.ts': 'b' });
    git(dir, ['checkout', '-q', '-b', 'topic']);
    shas.branch = commitFiles(dir, 'chore: bump vitest on a branch', { 'package.json': root('3.0.0', '6.1.0') });
    git(dir, ['checkout', '-q', 'main']);
    git(dir, ['merge', '-q', '--no-ff', '-m', 'Merge branch topic', 'topic']);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives each commit that changes a manifest its runtime and development changes, and no other commit any', async () => {
    const read = await readCommitFacts(['main'], { cwd: dir });
    const facts = new Map([...read].map(([sha, f]) => [sha, f.dependencies]));
    // `packages`: each changed manifest's directory and the name it declares ('' is the root).
    expect(facts.get(shas.dev!)).toEqual({ runtime: [], dev: ['vitest'], packages: [['', 'lib']] });
    expect(facts.get(shas.runtime!)).toEqual({ runtime: ['qs'], dev: [], packages: [['', 'lib']] });
    expect(facts.get(shas.branch!)).toEqual({ runtime: [], dev: ['vitest'], packages: [['', 'lib']] });
    expect(facts.has(shas.code!)).toBe(false);
    // Added manifests: everything they declare is new, the repository's own package left out.
    expect(facts.get(shas.init!)).toEqual({
      runtime: ['qs'],
      dev: ['vitest'],
      packages: [
        ['', 'lib'],
        ['packages/util', '@acme/util'],
      ],
    });
  });
});

describe('readCommitFacts: the release files maintainers write', () => {
  let dir: string;
  const shas: Record<string, string> = {};
  const config = 'changelog:\n  exclude:\n    labels: [skip]\n';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'release-files-'));
    git(dir, ['init', '-q', '-b', 'main']);
    shas.init = commitFiles(dir, 'chore: init', { 'src/a.ts': 'a', '.changeset/README.md': '# Changesets\n', 'changes/README.md': 'not a fragment' });
    shas.config = commitFiles(dir, 'ci: release notes config', { '.github/release.yml': config });
    shas.fragments = commitFiles(dir, 'feat: things', {
      '.changeset/brave-dogs.md': '---\n"@acme/core": minor\n---\n\nAdd things\n',
      'changelog.d/12.feature.md': 'Things are added.\n',
      'pkg/newsfragments/13.bugfix': 'A bug is gone.\n',
      'src/changes/notes.ts': 'code, not a fragment',
      'src/a.ts': 'b',
    });
    shas.large = commitFiles(dir, 'ci: a large config', { '.github/release.yml': `${config}#${'x'.repeat(70 * 1024)}\n` });
    shas.release = commitFiles(dir, 'chore: release', { '.changeset/brave-dogs.md': null, 'changelog.d/12.feature.md': null, CHANGELOG: 'x' });
    shas.removed = commitFiles(dir, 'ci: no config', { '.github/release.yml': null });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the release configuration as each commit left it (capped, empty when deleted) and the fragments a commit adds', async () => {
    const facts = await readCommitFacts(['main'], { cwd: dir });
    expect(facts.has(shas.init!)).toBe(false);
    expect(facts.get(shas.config!)).toEqual({ releaseConfig: config.trimEnd() });
    expect(facts.get(shas.fragments!)?.fragments?.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: '.changeset/brave-dogs.md', text: '---\n"@acme/core": minor\n---\n\nAdd things' },
      { path: 'changelog.d/12.feature.md', text: 'Things are added.' },
      { path: 'pkg/newsfragments/13.bugfix', text: 'A bug is gone.' },
    ]);
    expect(facts.get(shas.large!)?.releaseConfig).toHaveLength(64 * 1024);
    // Deleting the fragments it consumed says nothing of the release.
    expect(facts.has(shas.release!)).toBe(false);
    expect(facts.get(shas.removed!)).toEqual({ releaseConfig: '' });
  });
});
