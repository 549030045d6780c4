/**
 * When each commit reached the tracked branch, read from the commit graph alone. A commit made on a
 * branch in March and merged in December arrived in December: it belongs to the moment of the
 * first-parent commit that brought it, not to its own committer date.
 *
 * The tracked branch is the first-parent chain from each head (a commit without children in the
 * set). Commits on that chain arrive at their own committer date. Every other commit arrives with
 * the first chain commit (oldest first) whose history contains it, that is through one of that
 * merge's other parents. Within what a merge brings, the same reading repeats one level down: the
 * branch's own first-parent chain belongs to the merge, and the merges on that chain bring what
 * they merged, which gives each merge the commits it brought (`broughtBy`).
 */
import type { CommitRecord } from '../../git/commit-record.js';

export interface Arrival {
  /** Epoch ms the commit reached the tracked branch. */
  at: number;
  /** The commit on the tracked branch's first-parent chain that brought it (itself for such a commit). */
  via: string;
  /** The merge that brought it directly (on the tracked branch or inside a merged branch), null on the chain. */
  mergedBy: string | null;
}

export interface ArrivalIndex {
  /** Arrival of a commit of the set; undefined for commits it does not hold. */
  get(sha: string): Arrival | undefined;
  /**
   * Merges on the tracked branch whose other parent was followed as the branch's continuation:
   * a `git pull` merge (`Merge branch 'main' of …`) or a merge of the trunk into a feature branch
   * that was then fast-forwarded onto it. The merged side is the branch as it was; what the merge
   * brought is the local work.
   */
  readonly swapped: ReadonlySet<string>;
}

export interface ArrivalOptions {
  /**
   * Names of the tracked branch(es). A first-parent merge whose message merges one of them
   * (`Merge branch 'main' into feature`, `Merge remote-tracking branch 'origin/main'`) came from a
   * pull or a fast-forward: its second parent is the tracked branch.
   */
  trunk?: readonly string[] | undefined;
  /**
   * Commits only release branches reach (a maintained `5.x` beside the tracked branch). The tracked
   * branch's commits arrive as if those were not there (adding a release branch moves no entry), and
   * each of these along its own branch's first-parent chain.
   */
  releaseOnly?: ReadonlySet<string> | undefined;
}

type GraphCommit = Pick<CommitRecord, 'sha' | 'parents' | 'committer' | 'message'>;

const DEFAULT_TRUNK = ['main', 'master', 'trunk'];
// Also behind a conventional prefix (`chore: Merge branch 'main' into minor`).
const MERGE_OF_BRANCH = /^(?:[a-z]+(?:\([^()]*\))?!?: ?)?Merge (remote-tracking )?branch ['"]?([^'"\s]+?)['"]?(?: of \S+)?(?: into ['"]?[^'"\s]+['"]?)?\s*$/i;

/** The branch a `Merge branch 'x' …` subject merges, without a remote prefix (`origin/main` → `main`). */
function mergedBranch(message: string): string | null {
  const subject = message.split('\n', 1)[0]!.trim();
  const m = MERGE_OF_BRANCH.exec(subject);
  if (!m) return null;
  const name = m[2]!;
  return m[1] ? name.slice(name.indexOf('/') + 1) : name;
}

export function computeArrivals(commits: readonly GraphCommit[], options: ArrivalOptions = {}): ArrivalIndex {
  const releaseOnly = options.releaseOnly;
  if (!releaseOnly?.size) return arrivalsOf(commits, options.trunk, true);
  const tracked = arrivalsOf(commits.filter((c) => !releaseOnly.has(c.sha)), options.trunk, true);
  // A release branch's `Merge branch 'main' into 5.x` is no pull of the tracked branch: no swapping there.
  const all = arrivalsOf(commits, options.trunk, false);
  return { get: (sha) => (releaseOnly.has(sha) ? all.get(sha) : tracked.get(sha)), swapped: tracked.swapped };
}

function arrivalsOf(commits: readonly GraphCommit[], trunkNames: readonly string[] | undefined, swaps: boolean): ArrivalIndex {
  const trunk = new Set((trunkNames?.length ? trunkNames : DEFAULT_TRUNK).map((b) => b.toLowerCase()));
  const bySha = new Map<string, GraphCommit>();
  const time = new Map<string, number>();
  const hasChild = new Set<string>();
  for (const c of commits) {
    bySha.set(c.sha, c);
    time.set(c.sha, Date.parse(c.committer.date));
    for (const p of c.parents) hasChild.add(p);
  }
  const ownTime = (sha: string) => time.get(sha)!;
  const byTime = (a: string, b: string) => ownTime(a) - ownTime(b) || (a < b ? -1 : a > b ? 1 : 0);

  const arrivals = new Map<string, Arrival>();
  const swapped = new Set<string>();

  // First-parent chains from the heads, newest head first; a chain stops where an earlier one runs.
  const heads = commits.map((c) => c.sha).filter((sha) => !hasChild.has(sha)).sort((a, b) => byTime(b, a));
  const chains: string[][] = [];
  for (const head of heads) {
    const chain: string[] = [];
    for (let sha: string | undefined = head; sha !== undefined && bySha.has(sha) && !arrivals.has(sha); ) {
      const c: GraphCommit = bySha.get(sha)!;
      arrivals.set(sha, { at: ownTime(sha), via: sha, mergedBy: null });
      chain.push(sha);
      let next = c.parents[0];
      const merged = c.parents.length === 2 ? mergedBranch(c.message) : null;
      if (swaps && merged && trunk.has(merged.toLowerCase())) {
        swapped.add(sha);
        next = c.parents[1];
      }
      sha = next;
    }
    chains.push(chain.reverse());
  }

  // Each chain commit, oldest first (chains interleaved by time), claims the commits its other
  // parents bring that no earlier one did. Depth first with an explicit stack: a merged branch's
  // own chain is claimed before the merges on it claim what they merged.
  type Task = { kind: 'merge'; sha: string } | { kind: 'side'; merge: string; parent: string };
  const claim = (chainCommit: string) => {
    const at = ownTime(chainCommit);
    const stack: Task[] = [{ kind: 'merge', sha: chainCommit }];
    while (stack.length) {
      const task = stack.pop()!;
      if (task.kind === 'merge') {
        const c = bySha.get(task.sha)!;
        const others = swapped.has(task.sha) ? [c.parents[0]!] : c.parents.slice(1);
        for (let i = others.length - 1; i >= 0; i--) stack.push({ kind: 'side', merge: task.sha, parent: others[i]! });
        continue;
      }
      const branch: string[] = [];
      for (let sha: string | undefined = task.parent; sha !== undefined && bySha.has(sha) && !arrivals.has(sha); sha = bySha.get(sha)!.parents[0]) {
        arrivals.set(sha, { at, via: chainCommit, mergedBy: task.merge });
        branch.push(sha);
      }
      // Oldest merge of the branch popped first.
      for (const sha of branch) if (bySha.get(sha)!.parents.length > 1) stack.push({ kind: 'merge', sha });
    }
  };
  const next = chains.map(() => 0);
  for (;;) {
    let pick = -1;
    for (let i = 0; i < chains.length; i++) {
      if (next[i]! < chains[i]!.length && (pick < 0 || byTime(chains[i]![next[i]!]!, chains[pick]![next[pick]!]!) < 0)) pick = i;
    }
    if (pick < 0) break;
    const sha = chains[pick]![next[pick]!++]!;
    if (bySha.get(sha)!.parents.length > 1) claim(sha);
  }
  // Unreachable only with a skewed graph; such a commit keeps its own date.
  for (const c of commits) if (!arrivals.has(c.sha)) arrivals.set(c.sha, { at: ownTime(c.sha), via: c.sha, mergedBy: null });

  return { get: (sha) => arrivals.get(sha), swapped };
}

/**
 * For each merge, the given commits it brought, directly or through the merges on its branch, in
 * the order given. Only merges that brought at least one of them appear.
 */
export function broughtBy<T>(commits: readonly T[], shaOf: (commit: T) => string, arrivals: ArrivalIndex): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const c of commits) {
    const seen = new Set<string>();
    for (let m = arrivals.get(shaOf(c))?.mergedBy ?? null; m !== null && !seen.has(m); m = arrivals.get(m)?.mergedBy ?? null) {
      seen.add(m);
      let list = out.get(m);
      if (!list) out.set(m, (list = []));
      list.push(c);
    }
  }
  return out;
}
