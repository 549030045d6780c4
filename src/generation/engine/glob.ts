/**
 * Path globs matched in time proportional to path length × pattern length, whatever the pattern.
 *
 * Patterns come from repositories (CODEOWNERS) and from project settings, so a backtracking regex
 * (picomatch compiles `*a*a*a*b` to one that takes minutes on a 40-character name) is not an
 * option. A glob is compiled to a token list and matched by dynamic programming over
 * (token, position): O(n·m) time and memory, no backtracking.
 *
 * Syntax (picomatch's, with `dot: true`): `?` one character but `/`; `*` any run without `/`; `**`
 * as a whole segment any number of segments (`a/**` also matches `a`, `**\/b` also `b`), elsewhere
 * like `*`; `[abc]`, `[a-z]`, `[!x]`/`[^x]` one character but `/`; `{a,b}` plain alternatives;
 * `\x` a literal x. Captures are numbered as picomatch numbers its groups: each brace group and
 * each `*`/`**` run, left to right. Extglobs (`+(…)`, `!(…)`, …) and a leading `!` are refused.
 */

/** A glob this matcher refuses (too long, too many alternatives, unsupported syntax). */
export class GlobError extends Error {
  constructor(readonly pattern: string, reason: string) {
    super(`glob "${pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern}" ${reason}`);
    this.name = 'GlobError';
  }
}

/** Longest accepted glob, and most alternatives its braces may expand to. */
export const MAX_GLOB_LENGTH = 512;
const MAX_EXPANSIONS = 64;

const enum K {
  Char,
  One,
  Class,
  Star,
  Any,
  Dirs,
  Sub,
  Open,
  Close,
}

type Token =
  | { k: K.Char; c: number }
  | { k: K.One }
  | { k: K.Class; ranges: number[]; negated: boolean }
  /** `[^/]*` */
  | { k: K.Star; g: number }
  /** Anything: the whole pattern is a globstar. */
  | { k: K.Any; g: number }
  /** Empty, or anything ending in a slash: a leading or inner globstar segment with its slash. */
  | { k: K.Dirs; g: number; inner: boolean }
  /** Empty, or a slash and anything: a trailing globstar segment with the slash before it. */
  | { k: K.Sub; g: number }
  /** A group opens; `alt` is the brace alternative chosen (absent for a wildcard's own group). */
  | { k: K.Open; g: number; alt?: number }
  | { k: K.Close; g: number };

type Atom = { k: 'char'; c: number } | { k: 'one' } | { k: 'class'; ranges: number[]; negated: boolean } | { k: 'wild'; stars: number; g: number };
type Part = Atom | { k: 'brace'; alts: string[]; g: number };

const SLASH = 47;

/** Reads the glob into atoms and brace groups, numbering capture groups as picomatch does. */
function parse(glob: string): { parts: Part[]; groups: number } {
  if (glob.length > MAX_GLOB_LENGTH) throw new GlobError(glob, `is longer than ${MAX_GLOB_LENGTH} characters`);
  if (glob.startsWith('!')) throw new GlobError(glob, 'is a negation (!), which is not supported');
  const parts: Part[] = [];
  let groups = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '\\' && i + 1 < glob.length) {
      parts.push({ k: 'char', c: glob.charCodeAt(++i) });
    } else if ((ch === '+' || ch === '@' || ch === '!' || ch === '*' || ch === '?') && glob[i + 1] === '(') {
      throw new GlobError(glob, `uses an extglob (${ch}(…)), which is not supported`);
    } else if (ch === '*') {
      let stars = 1;
      while (glob[i + 1] === '*') {
        stars++;
        i++;
      }
      parts.push({ k: 'wild', stars, g: ++groups });
    } else if (ch === '?') {
      parts.push({ k: 'one' });
    } else if (ch === '[') {
      const cls = parseClass(glob, i);
      if (!cls) parts.push({ k: 'char', c: 91 });
      else {
        parts.push({ k: 'class', ranges: cls.ranges, negated: cls.negated });
        i = cls.end;
      }
    } else if (ch === '{') {
      const close = glob.indexOf('}', i + 1);
      const inner = close > 0 ? glob.slice(i + 1, close) : '';
      if (close < 0 || !inner.includes(',')) {
        parts.push({ k: 'char', c: 123 });
        continue;
      }
      if (/[*?[\]{\\]/.test(inner)) throw new GlobError(glob, 'has braces holding more than plain names, which is not supported');
      parts.push({ k: 'brace', alts: inner.split(','), g: ++groups });
      i = close;
    } else {
      parts.push({ k: 'char', c: glob.charCodeAt(i) });
    }
  }
  return { parts, groups };
}

function parseClass(glob: string, start: number): { ranges: number[]; negated: boolean; end: number } | null {
  let i = start + 1;
  const negated = glob[i] === '!' || glob[i] === '^';
  if (negated) i++;
  const ranges: number[] = [];
  let first = true;
  for (; i < glob.length; i++) {
    let c = glob.charCodeAt(i);
    if (glob[i] === ']' && !first) return { ranges, negated, end: i };
    first = false;
    if (glob[i] === '\\' && i + 1 < glob.length) c = glob.charCodeAt(++i);
    if (glob[i + 1] === '-' && i + 2 < glob.length && glob[i + 2] !== ']') {
      let hi = glob.charCodeAt(i + 2);
      i += 2;
      if (glob[i] === '\\' && i + 1 < glob.length) hi = glob.charCodeAt(++i);
      ranges.push(Math.min(c, hi), Math.max(c, hi));
    } else ranges.push(c, c);
  }
  return null;
}

/** One token list per brace alternative combination. */
function expand(glob: string, parts: Part[]): Atom[][] {
  let lists: Array<Array<Atom | { k: 'open' | 'close'; g: number; alt?: number }>> = [[]];
  for (const part of parts) {
    if (part.k !== 'brace') {
      for (const list of lists) list.push(part);
      continue;
    }
    if (lists.length * part.alts.length > MAX_EXPANSIONS) throw new GlobError(glob, `expands to more than ${MAX_EXPANSIONS} alternatives`);
    lists = lists.flatMap((list) =>
      part.alts.map((alt, index) => [
        ...list,
        { k: 'open' as const, g: part.g, alt: index },
        ...[...alt].map((ch) => ({ k: 'char' as const, c: ch.charCodeAt(0) })),
        { k: 'close' as const, g: part.g },
      ]),
    );
  }
  return lists as Atom[][];
}

/** Turns `*` runs into their segment-aware meaning (`**` alone in a segment spans segments). */
function tokenize(atoms: Array<Atom | { k: 'open' | 'close'; g: number; alt?: number }>): Token[] {
  const out: Token[] = [];
  // The previous and next characters that are not zero-width markers.
  const isChar = (a: Atom | { k: string } | undefined, c: number) => a?.k === 'char' && (a as { c: number }).c === c;
  const realNeighbour = (from: number, step: 1 | -1) => {
    for (let j = from; j >= 0 && j < atoms.length; j += step) if (atoms[j]!.k !== 'open' && atoms[j]!.k !== 'close') return { atom: atoms[j], j };
    return { atom: undefined, j: -1 };
  };
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i]!;
    if (a.k === 'open') out.push({ k: K.Open, g: a.g, alt: a.alt });
    else if (a.k === 'close') out.push({ k: K.Close, g: a.g });
    else if (a.k === 'char') out.push({ k: K.Char, c: a.c });
    else if (a.k === 'one') out.push({ k: K.One });
    else if (a.k === 'class') out.push({ k: K.Class, ranges: a.ranges, negated: a.negated });
    else if (a.k === 'wild') {
      const prev = realNeighbour(i - 1, -1);
      const next = realNeighbour(i + 1, 1);
      const segmentStart = prev.atom === undefined || isChar(prev.atom, SLASH);
      const segmentEnd = next.atom === undefined || isChar(next.atom, SLASH);
      if (a.stars < 2 || !segmentStart || !segmentEnd) {
        if (segmentStart && next.atom === undefined) {
          // A last segment that is only `*` is not empty (picomatch's `(?=.)`): `a/*` does not match `a/`.
          out.push({ k: K.Open, g: a.g }, { k: K.One }, { k: K.Star, g: 0 }, { k: K.Close, g: a.g });
        } else out.push({ k: K.Star, g: a.g });
      }
      else if (prev.atom === undefined && next.atom === undefined) out.push({ k: K.Any, g: a.g });
      else if (next.atom !== undefined) {
        // `**/`: the slash belongs to the token (zero segments leave no slash behind).
        out.push({ k: K.Dirs, g: a.g, inner: prev.atom !== undefined });
        atoms.splice(next.j, 1);
      } else {
        // `/**` at the end: after a literal segment the slash belongs to the token (`a/**` matches
        // `a`); after a segment ending in `*` picomatch requires the slash (`a*\/**` needs one).
        const slashAt = out.map((t) => t.k === K.Char).lastIndexOf(true);
        let segment = slashAt - 1;
        while (segment >= 0 && !(out[segment]!.k === K.Char && (out[segment] as { c: number }).c === SLASH)) segment--;
        // Ending in `*` itself: a brace group after the star (`*{,a}/**`, even an empty alternative)
        // makes the slash optional again in picomatch, as after a literal.
        const before = out.slice(segment + 1, slashAt);
        const wildSegment = before.length > 0 && before[before.length - 1]!.k === K.Star;
        if (wildSegment) out.push({ k: K.Any, g: a.g });
        else {
          out.splice(slashAt, 1);
          out.push({ k: K.Sub, g: a.g });
        }
      }
    }
  }
  return out;
}

function inClass(t: { ranges: number[]; negated: boolean }, c: number): boolean {
  let hit = false;
  for (let r = 0; r < t.ranges.length; r += 2) {
    if (c >= t.ranges[r]! && c <= t.ranges[r + 1]!) {
      hit = true;
      break;
    }
  }
  return hit !== t.negated;
}

// One table reused by every match (the engine is single-threaded per isolate).
let table = new Uint8Array(1024);

/**
 * ok[j*(n+1)+i] = tokens j… match text i…; filled from the last token back, each cell from cells
 * already filled, so the whole table costs O(n·m).
 */
function fill(tokens: Token[], text: string): Uint8Array {
  const n = text.length;
  const w = n + 1;
  const size = (tokens.length + 1) * w;
  if (table.length < size) table = new Uint8Array(Math.max(size, table.length * 2));
  const ok = table;
  const last = tokens.length * w;
  ok.fill(0, last, last + w);
  ok[last + n] = 1;
  for (let j = tokens.length - 1; j >= 0; j--) {
    const t = tokens[j]!;
    const row = j * w;
    const next = row + w;
    switch (t.k) {
      case K.Char:
        for (let i = 0; i <= n; i++) ok[row + i] = i < n && text.charCodeAt(i) === t.c ? ok[next + i + 1]! : 0;
        break;
      case K.One:
        for (let i = 0; i <= n; i++) ok[row + i] = i < n && text.charCodeAt(i) !== SLASH ? ok[next + i + 1]! : 0;
        break;
      case K.Class:
        for (let i = 0; i <= n; i++) {
          const c = text.charCodeAt(i);
          ok[row + i] = i < n && c !== SLASH && inClass(t, c) ? ok[next + i + 1]! : 0;
        }
        break;
      case K.Star:
        ok[row + n] = ok[next + n]!;
        for (let i = n - 1; i >= 0; i--) ok[row + i] = ok[next + i] || (text.charCodeAt(i) !== SLASH ? ok[row + i + 1]! : 0);
        break;
      case K.Any:
        ok[row + n] = ok[next + n]!;
        for (let i = n - 1; i >= 0; i--) ok[row + i] = ok[next + i] || ok[row + i + 1]!;
        break;
      case K.Dirs: {
        // Empty, or anything ending in "/" followed by the rest.
        let after = 0;
        for (let i = n; i >= 0; i--) {
          if (i < n && text.charCodeAt(i) === SLASH && ok[next + i + 1]) after = 1;
          ok[row + i] = ok[next + i] || after;
        }
        break;
      }
      case K.Sub: {
        // Empty, or "/" and anything, followed by the rest.
        let anyFrom = 0;
        for (let i = n; i >= 0; i--) {
          ok[row + i] = ok[next + i] || (i < n && text.charCodeAt(i) === SLASH ? anyFrom : 0);
          anyFrom = anyFrom || ok[next + i]!;
        }
        break;
      }
      default:
        ok.copyWithin(row, next, next + w);
    }
  }
  return ok;
}

export interface CompiledGlob {
  readonly glob: string;
  /** The literal start of every alternative (paths not starting with one are ruled out cheaply). */
  readonly prefixes: readonly string[];
  test(path: string): boolean;
  /** Captures as picomatch's regex gives them (index 0 the whole path), or null when no match. */
  exec(path: string): Array<string | undefined> | null;
}

function literalPrefix(tokens: Token[]): string {
  let prefix = '';
  for (const t of tokens) {
    if (t.k === K.Char) prefix += String.fromCharCode(t.c);
    else if (t.k !== K.Open && t.k !== K.Close) break;
  }
  return prefix;
}

/** Compiles a glob; throws GlobError naming it when it is refused. */
export function compileGlob(glob: string): CompiledGlob {
  const { parts, groups } = parse(glob);
  const alternatives = expand(glob, parts).map((atoms) => tokenize(atoms));
  const prefixes = alternatives.map(literalPrefix);
  const test = (path: string) => {
    for (let a = 0; a < alternatives.length; a++) {
      if (!path.startsWith(prefixes[a]!)) continue;
      if (fill(alternatives[a]!, path)[0]) return true;
    }
    return false;
  };
  // picomatch's regex backtracks through the pattern left to right, so among the brace expansions
  // the match it reports is the one whose choices (brace alternative, wildcard length), read in
  // pattern order, come first: not simply the first expansion that matches.
  const exec = (path: string) => {
    let best: { out: Array<string | undefined>; choices: number[] } | null = null;
    for (let a = 0; a < alternatives.length; a++) {
      if (!path.startsWith(prefixes[a]!)) continue;
      const tokens = alternatives[a]!;
      const ok = fill(tokens, path);
      if (!ok[0]) continue;
      const found = captures(tokens, path, ok, groups);
      if (!best || comesFirst(found.choices, best.choices)) best = found;
    }
    return best ? best.out : null;
  };
  return { glob, prefixes, test, exec };
}

function comesFirst(a: number[], b: number[]): boolean {
  for (let k = 0; k < a.length && k < b.length; k++) if (a[k] !== b[k]) return a[k]! < b[k]!;
  return false;
}

/**
 * Walks the filled table from the start, taking at every wildcard the shortest run that still lets
 * the rest match (picomatch's wildcards are lazy), and records each group's span, and every choice
 * made, in pattern order, ranked as the regex would try it (lower first).
 */
function captures(tokens: Token[], text: string, ok: Uint8Array, groups: number): { out: Array<string | undefined>; choices: number[] } {
  const w = text.length + 1;
  const out: Array<string | undefined> = new Array(groups + 1).fill(undefined);
  out[0] = text;
  const choices: number[] = [];
  const opened = new Map<number, number>();
  let i = 0;
  for (let j = 0; j < tokens.length; j++) {
    const t = tokens[j]!;
    const next = (j + 1) * w;
    switch (t.k) {
      case K.Char:
      case K.One:
      case K.Class:
        i++;
        break;
      case K.Open:
        opened.set(t.g, i);
        if (t.alt !== undefined) choices.push(t.alt);
        break;
      case K.Close:
        out[t.g] = text.slice(opened.get(t.g) ?? i, i);
        break;
      case K.Star:
      case K.Any: {
        let end = i;
        while (!ok[next + end]) end++;
        if (t.g) out[t.g] = text.slice(i, end);
        // A group-less star is the rest of a lone `*` segment, whose first character its `?` took:
        // ranked by the whole run, as a plain star in another expansion is.
        choices.push(end - i + (t.g ? 0 : 1));
        i = end;
        break;
      }
      case K.Dirs: {
        // picomatch tries a leading `**\/` empty first, an inner one with at least one segment first.
        let end = -1;
        if (t.inner || !ok[next + i]) {
          for (let e = i + 1; e <= text.length; e++) {
            if (text.charCodeAt(e - 1) === SLASH && ok[next + e]) {
              end = e;
              break;
            }
          }
        }
        // An inner one tries every non-empty run before the empty one.
        choices.push(end < 0 ? (t.inner ? Number.MAX_SAFE_INTEGER : 0) : end - i);
        if (end < 0) break;
        out[t.g] = text.slice(i, end - 1);
        i = end;
        break;
      }
      case K.Sub: {
        if (ok[next + i]) {
          choices.push(0);
          break;
        }
        let end = i + 1;
        while (!ok[next + end]) end++;
        out[t.g] = text.slice(i + 1, end);
        choices.push(end - i);
        i = end;
        break;
      }
    }
  }
  return { out, choices };
}

/** Matches when any of the globs does (each compiled once). */
export function compileGlobs(globs: readonly string[]): (path: string) => boolean {
  const compiled = globs.map(compileGlob);
  return (path) => compiled.some((g) => g.test(path));
}

/** The problem with a glob, or null when compileGlob accepts it. */
export function globProblem(glob: string): string | null {
  try {
    compileGlob(glob);
    return null;
  } catch (error) {
    if (error instanceof GlobError) return error.message;
    throw error;
  }
}

/**
 * `*`-only wildcard match (author patterns like `bob*`), by the classic two-pointer walk that
 * backtracks only to the last `*`: O(n·m) at worst, never exponential.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
