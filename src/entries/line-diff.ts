/**
 * A line diff of two texts, for an editor comparing a pending revision with what is public. Common
 * lines at both ends are matched first; the middle by longest common subsequence, unless it is too
 * large to compare in bounded time and memory, when it is shown as removed then added. Pure.
 */
export interface DiffLine {
  op: 'same' | 'removed' | 'added';
  text: string;
}

/**
 * Most cells of the middle's comparison table (800 kB; a few milliseconds). It runs in a dashboard
 * request, for up to a page of queued entries whose text comes from commits: bounded per diff, and
 * lines compared as numbers (each distinct line interned once), so a cell costs the same whatever
 * the lines hold.
 */
const MAX_CELLS = 200_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before ? before.split('\n') : [];
  const b = after ? after.split('\n') : [];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (lines: string[]) => lines.map((text): DiffLine => ({ op: 'same', text }));
  const head = same(a.slice(0, start));
  const tail = same(a.slice(endA));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) {
    return [...head, ...midA.map((text): DiffLine => ({ op: 'removed', text })), ...midB.map((text): DiffLine => ({ op: 'added', text })), ...tail];
  }
  const ids = new Map<string, number>();
  const intern = (lines: string[]) => Int32Array.from(lines, (line) => ids.get(line) ?? (ids.set(line, ids.size), ids.size - 1));
  const x = intern(midA);
  const y = intern(midB);
  // lcs[i * (m + 1) + j]: the longest common subsequence of midA[i..] and midB[j..].
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const middle: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      middle.push({ op: 'same', text: midA[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) middle.push({ op: 'removed', text: midA[i++]! });
    else middle.push({ op: 'added', text: midB[j++]! });
  }
  while (i < n) middle.push({ op: 'removed', text: midA[i++]! });
  while (j < m) middle.push({ op: 'added', text: midB[j++]! });
  return [...head, ...middle, ...tail];
}
