import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import type { CommitRecord } from '../../git/commit-record.js';
import { compilePathRules, componentSource, detectPathRules, isJunkComponent, packageSource, parsePathRule, workspacePackages } from './components.js';

/** A commit that changed manifests: `[directory, name]` as ingest records them. */
const manifests = (packages: Array<[string, string | null]>, date = '2024-01-10T12:00:00Z'): CommitRecord =>
  buildCommit({
    message: 'chore: manifests',
    date,
    changes: packages.map(([dir]) => ['M', `${dir ? `${dir}/` : ''}package.json`]),
    dependencies: { runtime: [], dev: [], packages },
  });

describe('workspace packages from the manifests', () => {
  it("names a path's component from the package whose directory encloses it, the nearest one, never the root", () => {
    const history = [
      manifests([
        ['', 'vite-monorepo'],
        ['packages/vite', 'vite'],
        ['packages/plugin-legacy', '@vitejs/plugin-legacy'],
        ['packages/plugin-legacy/nested', '@vitejs/nested'],
        ['packages/vite/src/node/__tests__/fixture', 'fixture-pkg'],
        ['playground/ssr', '@vitejs/test-ssr'],
        ['tests_integration/cli/rc', 'rc-fixture'],
        ['tests_config/plugins/upper', 'prettier-plugin-upper'],
        ['packages/vite/src/template', 'vite-starter'],
      ]),
    ];
    const source = packageSource(workspacePackages(history));
    expect(source.componentsOf([['M', 'packages/plugin-legacy/src/index.ts']])).toEqual(['@vitejs/plugin-legacy']);
    expect(
      source.componentsOf([
        ['M', 'packages/plugin-legacy/nested/a.ts'],
        ['M', 'packages/vite/src/node/build.ts'],
      ]),
    ).toEqual(['@vitejs/nested', 'vite']);
    // Root files, a test fixture's and a playground's manifests: no package.
    expect(
      source.componentsOf([
        ['M', 'README.md'],
        ['M', 'packages/vite/src/node/__tests__/fixture/a.ts'],
        ['M', 'playground/ssr/a.ts'],
      ]),
    ).toEqual(['vite']);
    expect(
      source.componentsOf([
        ['M', 'package.json'],
        ['M', 'playground/ssr/a.ts'],
      ]),
    ).toEqual([]);
  });

  it("keeps a directory's latest name, and its last one after the manifest is deleted", () => {
    const history = [
      manifests([['packages/compat', 'vue-compat']], '2024-01-01T00:00:00Z'),
      manifests([['packages/compat', '@vue/compat']], '2024-02-01T00:00:00Z'),
      manifests([['packages/old', '@vue/old']], '2024-01-01T00:00:00Z'),
      manifests([['packages/old', null]], '2024-03-01T00:00:00Z'),
    ];
    // Order-independent: the newest by date wins, whatever order the history comes in.
    for (const h of [history, [...history].reverse()]) {
      expect([...workspacePackages(h)].sort()).toEqual([
        ['packages/compat', '@vue/compat'],
        ['packages/old', '@vue/old'],
      ]);
    }
  });

  it('lets a scope name a package only in a spelling of its name: case, @org/ prefix, - or _', () => {
    const source = packageSource(
      new Map([
        ['packages/runtime-core', '@vue/runtime-core'],
        ['packages/vue-compat', '@vue/compat'],
        ['packages/jest-cli', 'jest-cli'],
      ]),
    );
    for (const scope of ['runtime-core', 'Runtime-Core', 'runtime_core', '@vue/runtime-core', '@other/runtime-core'])
      expect(source.named(scope), scope).toBe('@vue/runtime-core');
    expect(source.named('compat')).toBe('@vue/compat');
    expect(source.named('vue-compat')).toBe('@vue/compat'); // its folder's name
    expect(source.named('JEST_CLI')).toBe('jest-cli');
    for (const scope of ['runtime', 'cli', 'core', 'types', '#4774', 'signed-off-by', 'minor', 're-enable', 'x'.repeat(10_000)])
      expect(source.named(scope), scope).toBeNull();
  });

  it('without manifest names, falls back to path rules; a scope still names only what they name', () => {
    const paths = ['packages/api/a.ts', 'packages/web/b.ts', 'src/c.ts'];
    const source = componentSource([], [buildCommit()], paths);
    expect(source.componentsOf([['M', 'packages/api/x.ts']])).toEqual(['api']);
    expect(source.named('API')).toBe('api');
    expect(source.named('parser')).toBeNull();
    // Configured rules are the project's word, even where manifests name packages.
    const ruled = componentSource([{ glob: 'packages/api/**', component: 'server' }], [manifests([['packages/api', '@acme/api']])], paths);
    expect(ruled.componentsOf([['M', 'packages/api/x.ts']])).toEqual(['server']);
    expect(ruled.named('server')).toBe('server');
    expect(ruled.named('api')).toBeNull();
  });

  it('lets a scope name a package the project tags releases of, and nothing else the tags say', () => {
    const history = [buildCommit({ tags: ['pkg@2.0.0'] }), buildCommit({ tags: ['v1.0.0', 'release-1.1.0', 'minor-1.0.0'] })];
    const source = componentSource([], history, ['src/a.ts']);
    expect(source.named('pkg')).toBe('pkg');
    for (const scope of ['v', 'release', 'minor', 'core']) expect(source.named(scope), scope).toBeNull();
    expect(source.componentsOf([['M', 'src/a.ts']])).toEqual([]);
  });

  it('tells junk from names', () => {
    for (const junk of ['#4774', '4774', 'GH-12', 'signed-off-by', 'Co-authored-by', 'minor', 'major', 'patch', 're-enable', 'wip', 'new feature', ''])
      expect(isJunkComponent(junk), junk).toBe(true);
    for (const name of ['compiler-sfc', '@vitejs/plugin-legacy', 'jest-each', 'reactivity']) expect(isJunkComponent(name), name).toBe(false);
  });

  it('reads hostile paths and names in linear time', () => {
    const deep = 'a/'.repeat(200_000);
    const packages = new Map([
      [deep.slice(0, -1), 'deep'],
      ['packages/x', 'x'],
    ]);
    const started = performance.now();
    const source = packageSource(packages);
    expect(
      source.componentsOf([
        ['M', `${deep}file.ts`],
        ['M', `${'b/'.repeat(200_000)}c`],
        ['M', 'packages/x/' + '/'.repeat(200_000)],
      ]),
    ).toEqual(['deep', 'x']);
    expect(source.named(`@${'/'.repeat(200)}`)).toBeNull();
    expect(workspacePackages([manifests([[`${'p/'.repeat(100_000)}q`, 'y'.repeat(100_000)]])]).size).toBe(0);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('path rules', () => {
  it('names components from glob captures ($1) or a fixed name, first rule wins', () => {
    const m = compilePathRules([
      { glob: 'packages/*/**', component: '$1' },
      { glob: 'docs/**', component: 'docs' },
      { glob: '**/*.md', component: 'markdown' },
    ]);
    expect(
      m.componentsOf([
        ['M', 'packages/runtime-core/src/a.ts'],
        ['M', 'packages/compiler/x.ts'],
        ['A', 'docs/guide.md'],
      ]),
    ).toEqual(['compiler', 'docs', 'runtime-core']);
    expect(m.componentsOf([['M', 'README.md']])).toEqual(['markdown']);
    expect(m.componentsOf([['M', 'src/a.ts']])).toEqual([]);
  });

  it('parses GLOB=COMPONENT and rejects rules that cannot name a component', () => {
    expect(parsePathRule('apps/*/**=app-$1')).toEqual({ glob: 'apps/*/**', component: 'app-$1' });
    expect(parsePathRule('packages/*/**')).toEqual({ glob: 'packages/*/**', component: '' });
    expect(() => parsePathRule('src/**')).toThrow(/names no component/);
    expect(() => parsePathRule('=x')).toThrow(/no glob/);
    expect(compilePathRules([parsePathRule('packages/*/**')]).componentsOf([['M', 'packages/vue/index.js']])).toEqual(['vue']);
  });
});

describe('monorepo detection', () => {
  it('detects packages/* (and apps, libs, crates) with at least two members', () => {
    expect(detectPathRules(['packages/a/src/x.ts', 'packages/b/index.ts', 'README.md'])).toEqual([{ glob: 'packages/*/**', component: '$1' }]);
    expect(detectPathRules(['packages/a/src/x.ts', 'packages/a/index.ts'])).toEqual([]);
    expect(detectPathRules(['apps/web/a', 'apps/api/b', 'libs/ui/c', 'libs/db/d'])).toEqual([
      { glob: 'apps/*/**', component: '$1' },
      { glob: 'libs/*/**', component: '$1' },
    ]);
  });

  it('detects top-level folders that have their own manifest (a workspace at the root)', () => {
    expect(detectPathRules(['core/Cargo.toml', 'core/src/lib.rs', 'cli/Cargo.toml', 'Cargo.toml'])).toEqual([
      { glob: 'cli/**', component: 'cli' },
      { glob: 'core/**', component: 'core' },
    ]);
    expect(detectPathRules(['src/index.ts', 'package.json', 'website/package.json'])).toEqual([]);
  });
});
