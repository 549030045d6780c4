/**
 * Repeated updates of one dependency inside one rollup or release note, read as one change: Renovate's
 * "Update dependency postcss to v8.5.17", "… to v8.5.19", "… to v8.5.22" become "Update dependency
 * postcss to v8.5.22 (#1, #2, #3)" (the version last reached, every reference), and Dependabot's
 * "Bump debian from `a` to `b`", "… from `b` to `c`" become "Bump debian from `a` to `c`".
 *
 * Titles are untrusted: they are read as space-separated words (cleanTitle collapsed whitespace),
 * with a bounded number of words and no regular expression over the whole title.
 */
import { prReferences, withReferences } from './headlines.js';

/** A title read as a dependency update: `<verb> <name…> to <version> <rest…>` or `<verb> <name…> from <a> to <b> <rest…>`. */
export interface ParsedBump {
  /** Same package, same form, same verb and same trailing words (`in /website`): one change. */
  key: string;
  words: readonly string[];
  /** Index of the version reached (the word after `to`). */
  to: number;
  /** Index of the version left (the word after `from`); -1 for the `to` form. */
  from: number;
  refs: number[];
}

// No title of a dependency update is longer; past this a title is not read as one.
const MAX_LENGTH = 300;
const MAX_WORDS = 24;
// The package's name is at most this many words (`Yuku parser`, `dependency @angular/compiler`).
const MAX_NAME_WORDS = 5;
const VERBS = new Set(['update', 'updates', 'updated', 'upgrade', 'upgrades', 'upgraded', 'bump', 'bumps', 'bumped']);
// Renovate's note on a major update: the same package either way.
const UPDATE_KIND = new Set(['(major)', '(minor)', '(patch)']);

const cache = new WeakMap<object, ParsedBump | null>();

/** `parseBump` of a commit's title, remembered with its classification (it is read in several rollups and a release note). */
export function bumpOf(classified: { title: string }): ParsedBump | null {
  let bump = cache.get(classified);
  if (bump === undefined) cache.set(classified, (bump = parseBump(classified.title)));
  return bump;
}

/** A version as bots and people write it: `v8.5.22`, `8.5`, `^7.29.8`, `~10.2.0`, `>=2`, `` `e899040` ``. */
function isVersion(word: string): boolean {
  let i = 0;
  if (word.charCodeAt(0) === 96 /* ` */) return word.length > 2 && word.endsWith('`');
  while (i < word.length && '^~<>=v'.includes(word[i]!)) i++;
  const c = word.charCodeAt(i);
  return c >= 48 && c <= 57;
}

export function parseBump(title: string): ParsedBump | null {
  if (title.length > MAX_LENGTH) return null;
  const space = title.indexOf(' ');
  if (space < 0 || !VERBS.has(title.slice(0, space).toLowerCase())) return null;
  const refs = prReferences(title);
  const words = withReferences(title, []).split(' ');
  if (words.length > MAX_WORDS) return null;
  for (let i = 2; i <= MAX_NAME_WORDS + 1 && i + 1 < words.length; i++) {
    const word = words[i]!.toLowerCase();
    if (word === 'from' && words[i + 2]?.toLowerCase() === 'to' && words[i + 3] !== undefined && isVersion(words[i + 1]!) && isVersion(words[i + 3]!)) {
      return { key: keyOf('from', words, i, i + 4), words, from: i + 1, to: i + 3, refs };
    }
    if (word === 'to' && isVersion(words[i + 1]!)) {
      return { key: keyOf('to', words, i, i + 2), words, from: -1, to: i + 1, refs };
    }
  }
  return null;
}

/** The verb, the name (words before `nameEnd`) and the words after the versions (`rest`), lower case. */
function keyOf(form: string, words: readonly string[], nameEnd: number, rest: number): string {
  const tail = words.slice(rest).filter((w) => !UPDATE_KIND.has(w.toLowerCase()));
  return [form, words[0], ...words.slice(1, nameEnd), '\u0001', ...tail].join('\u0000').toLowerCase();
}

/** One item per package updated several times: the first update's place, the last update's version. */
export class Bumps<T extends { text: string; component: string | null }> {
  private readonly groups = new Map<string, { item: T; first: ParsedBump; refs: number[] }>();

  /** Adds an update under `scope` (a section); false when it joined an earlier update of the same package. */
  add(scope: string, item: T, bump: ParsedBump): boolean {
    const key = `${scope}\u0000${bump.key}`;
    const group = this.groups.get(key);
    if (!group) {
      this.groups.set(key, { item, first: bump, refs: [...bump.refs] });
      return true;
    }
    for (const n of bump.refs) if (!group.refs.includes(n)) group.refs.push(n);
    const words = [...bump.words];
    // "from" the version the first update left, "to" the one the last reached.
    if (bump.from >= 0) words[bump.from] = group.first.words[group.first.from]!;
    group.item.text = withReferences(words.join(' '), group.refs);
    // Updates of one package in two components' manifests: no single component any more.
    if (group.item.component !== item.component) group.item.component = null;
    return false;
  }
}
