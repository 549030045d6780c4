/**
 * The commit graph as integer arrays, built once per generation: version labels and release notes
 * walk it many times (once per tag), and walks over typed arrays with a stamp per visit cost no
 * allocation per walk. Parents outside the given commits (a shallow or partial history) are dropped.
 */
import type { CommitRecord } from '../../git/commit-record.js';

type GraphCommit = Pick<CommitRecord, 'sha' | 'parents'>;

export interface CommitGraph {
  readonly size: number;
  readonly shas: readonly string[];
  indexOf(sha: string): number | undefined;
  /** Parents of commit `i` (indices). */
  parentsOf(i: number): readonly number[];
  /**
   * Generation number: 1 + the highest of the parents' (roots are 1). An ancestor's is always lower,
   * which lets an ancestry test stop early.
   */
  readonly generation: Uint32Array;
  /**
   * Visits everything reachable from `from` (inclusive), skipping — and not walking past — commits
   * for which `stop` is true. Returns the visited indices.
   */
  walk(from: number, stop?: (i: number) => boolean): number[];
  /** Marks everything reachable from `from` with `stamp` in `marks` (a caller-owned array of graph size). */
  mark(from: number, marks: Uint32Array, stamp: number): void;
  /** Whether `ancestor` is reachable from `descendant` (a commit is its own ancestor). */
  isAncestor(ancestor: number, descendant: number): boolean;
  /**
   * What is reachable from `from` and not from `exclude` (`git rev-list exclude..from`). Walks in
   * decreasing generation and stops once nothing left to visit could be new, so it costs the
   * commits between the two, not the whole history below them.
   */
  between(exclude: number | undefined, from: number): number[];
}

export function buildCommitGraph(commits: readonly GraphCommit[]): CommitGraph {
  const size = commits.length;
  const index = new Map<string, number>();
  const shas: string[] = new Array<string>(size);
  commits.forEach((c, i) => {
    index.set(c.sha, i);
    shas[i] = c.sha;
  });
  const parents: number[][] = commits.map((c) => {
    const out: number[] = [];
    for (const p of c.parents) {
      const j = index.get(p);
      if (j !== undefined) out.push(j);
    }
    return out;
  });

  // Generation numbers without recursion (histories are deeper than the call stack).
  const generation = new Uint32Array(size);
  const stack: number[] = [];
  for (let i = 0; i < size; i++) {
    if (generation[i]) continue;
    stack.push(i);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      let pending = false;
      for (const p of parents[top]!) {
        if (!generation[p]) {
          stack.push(p);
          pending = true;
        }
      }
      if (pending) continue;
      stack.pop();
      if (generation[top]) continue;
      let g = 0;
      for (const p of parents[top]!) if (generation[p]! > g) g = generation[p]!;
      generation[top] = g + 1;
    }
  }

  const seen = new Uint32Array(size);
  const flags = new Uint8Array(size);
  const heap: number[] = [];
  const push = (i: number) => {
    heap.push(i);
    let k = heap.length - 1;
    while (k > 0) {
      const up = (k - 1) >> 1;
      if (generation[heap[up]!]! >= generation[i]!) break;
      heap[k] = heap[up]!;
      k = up;
    }
    heap[k] = i;
  };
  const pop = (): number => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length) {
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        if (l >= heap.length) break;
        const r = l + 1;
        const c = r < heap.length && generation[heap[r]!]! > generation[heap[l]!]! ? r : l;
        if (generation[heap[c]!]! <= generation[last]!) break;
        heap[k] = heap[c]!;
        k = c;
      }
      heap[k] = last;
    }
    return top;
  };
  let stampCounter = 0;
  const nextStamp = () => {
    if (++stampCounter === 0xffffffff) {
      seen.fill(0);
      stampCounter = 1;
    }
    return stampCounter;
  };

  return {
    size,
    shas,
    indexOf: (sha) => index.get(sha),
    parentsOf: (i) => parents[i]!,
    generation,
    walk(from, stop) {
      const stamp = nextStamp();
      const out: number[] = [];
      const todo = [from];
      while (todo.length) {
        const i = todo.pop()!;
        if (seen[i] === stamp) continue;
        seen[i] = stamp;
        if (stop?.(i)) continue;
        out.push(i);
        for (const p of parents[i]!) if (seen[p] !== stamp) todo.push(p);
      }
      return out;
    },
    mark(from, marks, stamp) {
      const todo = [from];
      while (todo.length) {
        const i = todo.pop()!;
        if (marks[i] === stamp) continue;
        marks[i] = stamp;
        for (const p of parents[i]!) if (marks[p] !== stamp) todo.push(p);
      }
    },
    between(exclude, from) {
      if (exclude === undefined) return this.walk(from);
      // Flags: 1 reachable from `from`, 2 reachable from `exclude`. A commit is popped after all its
      // children (higher generation), so its flags are final then.
      const NEW = 1;
      const OLD = 2;
      const touched: number[] = [];
      const out: number[] = [];
      let pendingNew = 0;
      const reach = (i: number, flag: number) => {
        const before = flags[i]!;
        if ((before | flag) === before) return;
        if (!before) {
          touched.push(i);
          push(i);
        } else if (before === NEW) pendingNew--;
        flags[i] = before | flag;
        if (flags[i] === NEW) pendingNew++;
      };
      reach(from, NEW);
      reach(exclude, OLD);
      while (heap.length && pendingNew > 0) {
        const i = pop();
        const f = flags[i]!;
        if (f === NEW) {
          pendingNew--;
          out.push(i);
        }
        for (const p of parents[i]!) reach(p, f);
      }
      heap.length = 0;
      for (const i of touched) flags[i] = 0;
      return out;
    },
    isAncestor(ancestor, descendant) {
      const floor = generation[ancestor]!;
      const stamp = nextStamp();
      const todo = [descendant];
      while (todo.length) {
        const i = todo.pop()!;
        if (i === ancestor) return true;
        if (seen[i] === stamp || generation[i]! <= floor) continue;
        seen[i] = stamp;
        for (const p of parents[i]!) todo.push(p);
      }
      return false;
    },
  };
}
