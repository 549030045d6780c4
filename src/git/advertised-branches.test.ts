import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitFiles, git } from '../../test/helpers/git.js';
import { releaseBranches } from './mirror.js';

// A remote advertises whatever its refs files hold, names git itself would never create among them.
// As a fetch refspec `refs/heads/*.x` would be a glob (every `N.x` branch, past the cap) and `a:b`
// would break the fetch: only names a branch may have are taken.
const dir = mkdtempSync(join(tmpdir(), 'advertised-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('release branches a remote advertises', () => {
  it('are taken only when a branch may have that name', async () => {
    const work = join(dir, 'work');
    git(dir, ['init', '--quiet', '-b', 'main', work]);
    const sha = commitFiles(work, 'first', { 'a.txt': 'a' });
    git(work, ['branch', '5.x']);
    const bare = join(dir, 'bare.git');
    git(dir, ['clone', '--quiet', '--bare', work, bare]);
    git(bare, ['pack-refs', '--all']);
    appendFileSync(join(bare, 'packed-refs'), `${sha} refs/heads/*.x\n${sha} refs/heads/6.x:refs/heads/7.x\n`);
    const advertised = git(dir, ['ls-remote', '--heads', bare]);
    expect(advertised).toContain('refs/heads/*.x');
    const found = await releaseBranches({ url: bare }, ['*.x'], 'main');
    expect(found.branches).toEqual(['5.x']);
    expect(found.matched).toBe(1);
  });
});
