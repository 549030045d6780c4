/**
 * Commits that are one change: a fix cherry-picked onto a maintenance branch (`git cherry-pick` keeps
 * the author, the author date and the message), or a squash-merged PR landed twice (the same PR
 * number and title). A release that already shipped one of them should not list the other again,
 * and a rollup should not list a change a second time when its copy reaches the branch later (a
 * maintenance branch merged back into main).
 *
 * Two commits are one change when they have the same title (near-duplicate key) and either the same
 * PR number or the same author and author date. Git's patch-id would need the diffs, which the
 * stored commits do not carry; the author date of a cherry-pick is the original's to the second.
 */
import { titleKey } from './headlines.js';

/** What this reads of a prepared commit (the engine's PreparedCommit). */
export interface ChangeCandidate {
  record: { sha: string; author: { email: string; date: string } };
  classified: { title: string; pr: number | null; skip: string | null };
}

/**
 * The groups of two or more commits that are one change, by commit. Skipped commits (merges,
 * excluded authors) are in none. Linear in the number of commits.
 */
// generate() and generateReleases() read the same prepared commits (`result.commits`): grouped once.
const cache = new WeakMap<readonly ChangeCandidate[], ReadonlyMap<ChangeCandidate, readonly ChangeCandidate[]>>();

export function sameChanges<T extends ChangeCandidate>(commits: readonly T[]): ReadonlyMap<T, readonly T[]> {
  // The cache holds what `group` made from this very array: its keys and values are its `T`s.
  let groups = cache.get(commits) as ReadonlyMap<T, readonly T[]> | undefined;
  if (!groups) cache.set(commits, (groups = group(commits)));
  return groups;
}

function group<T extends ChangeCandidate>(commits: readonly T[]): Map<T, readonly T[]> {
  const parent: number[] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const firstByKey = new Map<string, number>();
  // joined[root]: a root that another commit joined (a group of two or more).
  const joined: number[] = [];
  let linked = false;
  const link = (key: string, i: number) => {
    const first = firstByKey.get(key);
    if (first === undefined) return void firstByKey.set(key, i);
    const a = find(i);
    const b = find(first);
    if (a === b) return;
    parent[a] = b;
    joined[b] = 1;
    linked = true;
  };
  const candidates: T[] = [];
  for (const c of commits) {
    if (c.classified.skip) continue;
    const i = candidates.push(c) - 1;
    parent.push(i);
    joined.push(0);
    const title = titleKey(c.classified);
    if (c.classified.pr !== null) link(`pr\u0000${c.classified.pr}\u0000${title}`, i);
    link(`author\u0000${c.record.author.email.toLowerCase()}\u0000${c.record.author.date}\u0000${title}`, i);
  }
  const out = new Map<T, readonly T[]>();
  if (!linked) return out;
  // Most histories have a handful of such groups: only commits that joined one get an array.
  const groups = new Map<number, T[]>();
  for (let i = 0; i < candidates.length; i++) {
    const root = find(i);
    if (root === i && !joined[i]) continue;
    let group = groups.get(root);
    if (!group) groups.set(root, (group = []));
    group.push(candidates[i]!);
  }
  for (const group of groups.values()) for (const c of group) out.set(c, group);
  return out;
}
