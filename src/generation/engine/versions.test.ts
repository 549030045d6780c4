import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import { buildVersionIndex, parseReleaseTag, ROOT_SERIES, tagVersion } from './versions.js';

describe('release tags', () => {
  it('recognises semantic versions at the end of a tag name', () => {
    expect(tagVersion('v1.2.3')?.version).toBe('1.2.3');
    expect(tagVersion('1.0.0-rc.1')?.version).toBe('1.0.0-rc.1');
    expect(tagVersion('@scope/pkg@2.0.1')?.version).toBe('2.0.1');
    expect(tagVersion('release-3.4.5')?.version).toBe('3.4.5');
    expect(tagVersion('latest')).toBeNull();
    expect(tagVersion('v1.2')).toBeNull();
  });
});

describe('version labels', () => {
  // a ← b ← c(v1.0.0) ← d ← e(v1.1.0-rc.1, v1.1.0) ← f;  g branches off b and merges into d
  const a = buildCommit({ date: '2024-01-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], date: '2024-01-02T10:00:00Z' });
  const c = buildCommit({ parents: [b.sha], tags: ['v1.0.0'], date: '2024-01-03T10:00:00Z' });
  const g = buildCommit({ parents: [b.sha], date: '2024-01-03T11:00:00Z' });
  const d = buildCommit({ parents: [c.sha, g.sha], date: '2024-01-10T10:00:00Z' });
  const e = buildCommit({ parents: [d.sha], tags: ['v1.1.0-rc.1', 'v1.1.0', 'nightly'], date: '2024-01-11T10:00:00Z' });
  const f = buildCommit({ parents: [e.sha], date: '2024-01-12T10:00:00Z' });
  const index = buildVersionIndex([a, b, c, g, d, e, f]);

  it('labels a commit with the first release tag that contains it', () => {
    expect(index.labelOf(a.sha)).toBe('v1.0.0');
    expect(index.labelOf(c.sha)).toBe('v1.0.0');
    expect(index.labelOf(g.sha)).toBe('v1.1.0'); // merged after v1.0.0 was tagged
    expect(index.labelOf(d.sha)).toBe('v1.1.0'); // a final release wins over its pre-release on the same commit
  });

  it('leaves unreleased commits without a label', () => {
    expect(index.labelOf(f.sha)).toBeNull();
  });

  it('gives a window the highest semver tag created in it', () => {
    expect(index.highestIn(new Date('2024-01-08T00:00:00Z'), new Date('2024-01-15T00:00:00Z'))).toBe('v1.1.0');
    expect(index.highestIn(new Date('2024-01-01T00:00:00Z'), new Date('2024-01-08T00:00:00Z'))).toBe('v1.0.0');
    expect(index.highestIn(new Date('2024-01-03T10:00:00Z'), new Date('2024-01-03T10:00:00Z'))).toBeNull();
    expect(index.highestIn(new Date('2024-02-01T00:00:00Z'), new Date('2024-03-01T00:00:00Z'))).toBeNull();
  });
});

describe('tag series', () => {
  it('groups tags by package: v* and bare versions are the root package', () => {
    const series = (tag: string) => parseReleaseTag(tag)?.series;
    expect(series('v8.0.0')).toBe(ROOT_SERIES);
    expect(series('8.0.0-beta.1')).toBe(ROOT_SERIES);
    expect(series('release-3.4.5')).toBe(ROOT_SERIES);
    expect(series('create-app@9.0.3')).toBe('create-app');
    expect(series('@scope/plugin-x@8.2.3')).toBe('@scope/plugin-x');
    expect(series('plugin-x/v1.2.3')).toBe('plugin-x');
    expect(series('plugin-x-v1.2.3')).toBe('plugin-x');
    expect(parseReleaseTag('nightly')).toBeNull();
  });
});

describe('versions in a monorepo', () => {
  // A root package (v*) and two packages with their own tags, released in the same weeks.
  // a(app) ← b(create-app) ← c(plugin-x) [create-app@9.0.3] ← d(app) [v8.0.0, @scope/plugin-x@8.2.3] ← e(create-app) [create-app@9.1.0] ← f(app)
  const a = buildCommit({ message: 'feat(app): a', changes: [['M', 'packages/app/a.ts']], date: '2024-03-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], changes: [['M', 'packages/create-app/b.ts']], date: '2024-03-02T10:00:00Z' });
  const c = buildCommit({ parents: [b.sha], changes: [['M', 'packages/plugin-x/c.ts']], tags: ['create-app@9.0.3'], date: '2024-03-03T10:00:00Z' });
  const d = buildCommit({ parents: [c.sha], changes: [['M', 'packages/app/d.ts']], tags: ['v8.0.0', '@scope/plugin-x@8.2.3'], date: '2024-03-04T10:00:00Z' });
  const e = buildCommit({ parents: [d.sha], changes: [['M', 'packages/create-app/e.ts']], tags: ['create-app@9.1.0'], date: '2024-03-05T10:00:00Z' });
  const f = buildCommit({ parents: [e.sha], changes: [['M', 'packages/app/f.ts']], date: '2024-03-06T10:00:00Z' });
  const index = buildVersionIndex([a, b, c, d, e, f]);

  it('finds one series per package', () => {
    expect([...index.series.keys()].sort()).toEqual(['', '@scope/plugin-x', 'create-app']);
    expect(index.rootSeries).toBe(ROOT_SERIES);
    expect(index.seriesOfComponent('plugin-x')).toBe('@scope/plugin-x');
    expect(index.seriesOfComponent('app')).toBeNull();
  });

  it('gives a commit the first release of its own component, else the root package', () => {
    expect(index.labelOf(b.sha, ['create-app'])).toBe('create-app@9.0.3');
    expect(index.labelOf(c.sha, ['plugin-x'])).toBe('@scope/plugin-x@8.2.3');
    expect(index.labelOf(a.sha, ['app'])).toBe('v8.0.0');
    expect(index.labelOf(a.sha)).toBe('v8.0.0');
    expect(index.labelOf(e.sha, [null, 'create-app'])).toBe('create-app@9.1.0');
    expect(index.labelOf(e.sha)).toBeNull(); // not in a root release yet
    expect(index.labelOf(f.sha, ['app'])).toBeNull();
  });

  it('gives a rollup the root package release of its period, else any package release', () => {
    const march = [new Date('2024-03-01T00:00:00Z'), new Date('2024-04-01T00:00:00Z')] as const;
    expect(index.highestIn(...march)).toBe('v8.0.0'); // not create-app@9.1.0, the highest and newest
    expect(index.highestIn(new Date('2024-03-05T00:00:00Z'), new Date('2024-03-06T00:00:00Z'))).toBe('create-app@9.1.0');
  });

  it('uses the only series as the root when there is no v* series', () => {
    const x = buildCommit({ tags: ['tool@1.0.0'], date: '2024-03-01T10:00:00Z' });
    const only = buildVersionIndex([x]);
    expect(only.rootSeries).toBe('tool');
    expect(only.labelOf(x.sha)).toBe('tool@1.0.0');
  });
});

describe('pre-releases', () => {
  // a ← b [v2.0.0-rc.1] ← c [v1.9.1 on the same line] ← d [v2.0.0] ← e [v2.1.0-beta.1];  x is a side branch tagged v3.0.0-alpha.1 only
  const a = buildCommit({ date: '2024-05-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], tags: ['v2.0.0-rc.1'], date: '2024-05-02T10:00:00Z' });
  const c = buildCommit({ parents: [b.sha], tags: ['v1.9.1'], date: '2024-05-03T10:00:00Z' });
  const d = buildCommit({ parents: [c.sha], tags: ['v2.0.0'], date: '2024-05-10T10:00:00Z' });
  const e = buildCommit({ parents: [d.sha], tags: ['v2.1.0-beta.1'], date: '2024-05-11T10:00:00Z' });
  const x = buildCommit({ parents: [a.sha], tags: ['v3.0.0-alpha.1'], date: '2024-05-11T11:00:00Z' });
  const index = buildVersionIndex([a, b, c, d, e, x]);

  it('label a commit with the final release of the same version once that final contains it', () => {
    expect(index.labelOf(a.sha)).toBe('v2.0.0');
    expect(index.labelOf(b.sha)).toBe('v2.0.0');
    expect(index.labelOf(c.sha)).toBe('v1.9.1');
    expect(index.labelOf(e.sha)).toBe('v2.1.0-beta.1'); // no final 2.1.0 yet
    expect(index.labelOf(x.sha)).toBe('v3.0.0-alpha.1');
  });

  it('never hide a final release in a rollup period', () => {
    expect(index.highestIn(new Date('2024-05-06T00:00:00Z'), new Date('2024-05-13T00:00:00Z'))).toBe('v2.0.0');
    expect(index.highestIn(new Date('2024-05-11T00:00:00Z'), new Date('2024-05-12T00:00:00Z'))).toBe('v3.0.0-alpha.1');
  });
});

describe('a release is dated by its arrival on the tracked branch', () => {
  // main: a [v1.0.0] ← c [v1.0.1] (Jan 10) ← m (Jan 20, merges b);  b [v1.1.0] branches off a, committed Jan 5.
  const a = buildCommit({ tags: ['v1.0.0'], date: '2024-01-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], tags: ['v1.1.0'], date: '2024-01-05T10:00:00Z' });
  const c = buildCommit({ parents: [a.sha], tags: ['v1.0.1'], date: '2024-01-10T10:00:00Z' });
  const m = buildCommit({ parents: [c.sha, b.sha], message: "Merge branch 'release-1.1'", date: '2024-01-20T10:00:00Z' });
  const index = buildVersionIndex([a, b, c, m]);

  it('orders and dates a tag on a merged branch commit by the merge that brought it', () => {
    expect(index.releases.map((r) => [r.tag, new Date(r.at).toISOString()])).toEqual([
      ['v1.0.0', '2024-01-01T10:00:00.000Z'],
      ['v1.0.1', '2024-01-10T10:00:00.000Z'],
      ['v1.1.0', '2024-01-20T10:00:00.000Z'],
    ]);
  });

  it('labels a rollup with the release that reached the branch in its window', () => {
    // v1.1.0 was committed on Jan 5 but reached main with the merge on Jan 20.
    expect(index.highestIn(new Date('2024-01-01T00:00:00Z'), new Date('2024-01-08T00:00:00Z'))).toBe('v1.0.0');
    expect(index.highestIn(new Date('2024-01-15T00:00:00Z'), new Date('2024-01-22T00:00:00Z'))).toBe('v1.1.0');
  });

  it('takes the committer date when told there is no merge to wait for (arrivals given)', () => {
    const own = buildVersionIndex([a, b, c, m], { arrival: { get: () => undefined, swapped: new Set() } });
    expect(own.releases.map((r) => r.tag)).toEqual(['v1.0.0', 'v1.1.0', 'v1.0.1']);
  });
});
