import { describe, expect, it } from 'vitest';
import { branchNameProblem, OWNER_PATTERN, REPO_NAME_PATTERN } from './names.js';

describe('branchNameProblem', () => {
  it.each(['main', 'release/1.x', 'feature/ABC-12_x', 'v2.0', 'a@b', 'x'.repeat(255)])('accepts %s', (name) => {
    expect(branchNameProblem(name)).toBeNull();
  });

  it.each(['', '-x', '@', 'a b', 'a..b', 'a~1', 'a^', 'a:b', 'a?', 'a*', 'a[b', 'a\\b', 'a@{1}', '/a', 'a/', 'a//b', 'a.', '.a', 'a/.b', 'a.lock', 'a/b.lock/c', 'tab\t', 'x'.repeat(256)])(
    'rejects %j',
    (name) => {
      expect(branchNameProblem(name)).toEqual(expect.any(String));
    },
  );
});

describe('GitHub names', () => {
  const owner = new RegExp(OWNER_PATTERN);
  const repo = new RegExp(REPO_NAME_PATTERN);

  it('accepts GitHub account names and refuses the rest', () => {
    for (const ok of ['octocat', 'a', 'my-org', 'A1-b2', 'x'.repeat(39)]) expect(owner.test(ok)).toBe(true);
    for (const bad of ['', '-a', 'a-', 'a--b', 'a_b', 'a.b', 'x'.repeat(40)]) expect(owner.test(bad)).toBe(false);
  });

  it('accepts GitHub repository names and refuses the rest', () => {
    for (const ok of ['git-cliff', 'a', 'my.repo', '.github', 'a_b-c.d', 'x'.repeat(100)]) expect(repo.test(ok)).toBe(true);
    for (const bad of ['', '.', '..', 'a b', 'a/b', 'x'.repeat(101), 'é']) expect(repo.test(bad)).toBe(false);
  });
});
