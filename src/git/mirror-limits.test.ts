// Security issue #21 (suspected): millions of refs or tags were buffered whole (`mirrorRefs`,
// `remoteBranches`) and every semver tag became a release note. Tags are read newest first up to
// MAX_TAGS (git sorts and counts them; only those reach us), and a remote's branch listing is
// streamed, keeping MAX_LISTED_BRANCHES names (and the ones that matter) whatever its size.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { createManyRefsRepo, type HostileRepo } from '../../test/helpers/hostile-repos.js';
import { rmSync } from 'node:fs';
import { MAX_LISTED_BRANCHES, MAX_TAGS, mirrorRefs, remoteBranches, syncMirror, tagsByCommit } from './mirror.js';

const tagName = (i: number) => `v0.${Math.floor(i / 1000)}.${i % 1000}`;

describe('a repository with more tags and branches than are read', () => {
  let repo: HostileRepo & { tags: number; branches: number };
  let scratch: string;

  // A cap of 100 here (the ingest test reads past the real one); the listing's cap is the real one.
  const CAP = 100;

  beforeAll(() => {
    // 300 tags over 30 commits (10 a commit), 1,500 branches besides main.
    repo = createManyRefsRepo({ tags: 300, commits: 30, branches: 1_500 });
    scratch = tempDir('mirror-limits');
  }, 60_000);

  afterAll(() => {
    repo?.remove();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('reads the newest tags into the mirror up to the cap, and says more were left', async () => {
    const dir = join(scratch, 'main.git');
    await syncMirror(dir, { url: repo.dir }, 'main');
    const { tip, tags, tagsCut } = await mirrorRefs(dir, 'main', CAP);
    expect(tip).toBe(repo.commits.at(-1)!.sha);
    expect(tagsCut).toBe(true);
    const names = [...tags.values()].flat();
    expect(names).toHaveLength(CAP);
    // The newest ten commits' tags, none of the older ones.
    expect(names).toContain(tagName(299));
    expect(names).toContain(tagName(200));
    expect(names).not.toContain(tagName(199));
    expect(tags.get(repo.commits.at(-1)!.sha)).toEqual(Array.from({ length: 10 }, (_, k) => tagName(290 + k)).sort());
    // Under the cap: everything, and nothing said.
    const all = await mirrorRefs(dir, 'main', 300);
    expect([[...all.tags.values()].flat().length, all.tagsCut]).toEqual([300, false]);
    // What `changelog preview` reads from a checkout: the same cap.
    expect([...(await tagsByCommit({ cwd: repo.dir }, CAP)).values()].flat()).toHaveLength(CAP);
    expect(MAX_TAGS).toBe(10_000);
  });

  it('finds the tracked branch when newer tags fill the listing', async () => {
    const dir = join(scratch, 'old.git');
    // The clone brings the branch's own tags; the fetch after it brings every tag.
    await syncMirror(dir, { url: repo.dir }, 'branch-000001');
    await syncMirror(dir, { url: repo.dir }, 'branch-000001');
    const { tip, tags, tagsCut } = await mirrorRefs(dir, 'branch-000001', CAP);
    expect(tip).toBe(repo.commits[0]!.sha);
    expect(tagsCut).toBe(true);
    expect([...tags.values()].flat()).toHaveLength(CAP);
  });

  it("keeps a bounded list of a remote's branches, with its default branch and the one asked for", async () => {
    const remote = await remoteBranches({ url: repo.dir }, { branch: 'branch-001499' });
    expect(remote.total).toBe(1_501);
    expect(remote.defaultBranch).toBe('main');
    expect(remote.branches.length).toBeLessThanOrEqual(MAX_LISTED_BRANCHES + 2);
    expect(remote.branches).toContain('main');
    expect(remote.branches).toContain('branch-001499');
    expect(remote.branches).toContain('branch-000001');
    expect(remote.branches).not.toContain('branch-001200');
    expect([...remote.branches].sort()).toEqual(remote.branches);
  });
});
