import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../test/helpers/commits.js';
import { buildVersionIndex, tagVersion } from './versions.js';

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
