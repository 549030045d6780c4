import { describe, expect, it } from 'vitest';
import { byNewestLine, checkReleasePatterns, matchesReleasePattern, releasePatternProblem } from './release-branches.js';

describe('release-branch patterns', () => {
  it('takes the patterns people write', () => {
    for (const p of ['*.x', 'release/*', '5.x', 'v*-maintenance', 'stable', 'lts/v1.2+']) expect(releasePatternProblem(p), p).toBeNull();
  });

  it('matches as git refspecs do: one * for any run of characters, / included', () => {
    expect(matchesReleasePattern('5.x', '*.x')).toBe(true);
    expect(matchesReleasePattern('next/5.x', '*.x')).toBe(true);
    expect(matchesReleasePattern('5.xy', '*.x')).toBe(false);
    expect(matchesReleasePattern('release/2024', 'release/*')).toBe(true);
    expect(matchesReleasePattern('release/', 'release/*')).toBe(true);
    expect(matchesReleasePattern('releases/1', 'release/*')).toBe(false);
    // Prefix and suffix may not overlap: `a*a` needs two a's.
    expect(matchesReleasePattern('a', 'a*a')).toBe(false);
    expect(matchesReleasePattern('5.x', '5.x')).toBe(true);
    expect(matchesReleasePattern('5.x.y', '5.x')).toBe(false);
  });

  it('refuses what git would not take, refs outside refs/heads and more than one *', () => {
    expect(releasePatternProblem('')).toContain('empty');
    expect(releasePatternProblem('a'.repeat(101))).toContain('at most 100');
    expect(releasePatternProblem('**')).toContain('at most one "*"');
    expect(releasePatternProblem('*.*')).toContain('at most one "*"');
    expect(releasePatternProblem('*')).toContain('every branch');
    expect(releasePatternProblem('../*')).toContain('".."');
    expect(releasePatternProblem('release/../../tags/*')).toContain('".."');
    expect(releasePatternProblem('refs/tags/*')).toContain('not a ref');
    expect(releasePatternProblem('REFS/remotes/*')).toContain('not a ref');
    expect(releasePatternProblem('/abs/*')).toContain('"/"');
    expect(releasePatternProblem('x//*')).toContain('"//"');
    expect(releasePatternProblem('.hidden/*')).toContain('"."');
    expect(releasePatternProblem('*.lock')).toContain('.lock');
    expect(releasePatternProblem('-upload-pack*')).toContain('"-"');
    expect(releasePatternProblem('a b*')).toContain('only letters');
    expect(releasePatternProblem('x@{1}*')).toContain('only letters');
    expect(releasePatternProblem('[0-9]*')).toContain('only letters');
  });

  it('checks a list: trimmed, duplicates dropped, every problem named, the count bounded', () => {
    expect(checkReleasePatterns([' *.x', '*.x', 'release/*'])).toEqual({ patterns: ['*.x', 'release/*'], problems: [] });
    const bad = checkReleasePatterns(['**', 42, '5.x']);
    expect(bad.patterns).toEqual(['5.x']);
    expect(bad.problems).toHaveLength(2);
    expect(bad.problems[0]).toContain('"**"');
    const many = checkReleasePatterns(Array.from({ length: 100_000 }, (_, i) => `${i}.x`));
    expect(many.problems[0]).toContain('at most 10');
    // A huge pattern is named by its start: the message stays small.
    expect(checkReleasePatterns(['y'.repeat(1_000_000)]).problems[0]!.length).toBeLessThan(200);
  });

  it('matches in time linear in the name, whatever the pattern or the pushed branch name', () => {
    const name = `${'a'.repeat(200_000)}b`;
    const started = performance.now();
    for (let i = 0; i < 100; i++) matchesReleasePattern(name, 'a*a');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('orders lines newest first, numbers as numbers', () => {
    expect(['4.x', '10.x', '9.x', 'release/2023', 'release/2024'].sort(byNewestLine)).toEqual(['release/2024', 'release/2023', '10.x', '9.x', '4.x']);
  });
});
