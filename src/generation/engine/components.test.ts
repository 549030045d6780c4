import { describe, expect, it } from 'vitest';
import { compilePathRules, detectPathRules, parsePathRule } from './components.js';

describe('path rules', () => {
  it('names components from glob captures ($1) or a fixed name, first rule wins', () => {
    const m = compilePathRules([
      { glob: 'packages/*/**', component: '$1' },
      { glob: 'docs/**', component: 'docs' },
      { glob: '**/*.md', component: 'markdown' },
    ]);
    expect(m.componentsOf([['M', 'packages/runtime-core/src/a.ts'], ['M', 'packages/compiler/x.ts'], ['A', 'docs/guide.md']])).toEqual([
      'compiler',
      'docs',
      'runtime-core',
    ]);
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
