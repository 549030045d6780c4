/**
 * The maintainer's own words: change fragments a commit adds (changesets, towncrier), the
 * "Release notes" section of a pull request's description and a `Changelog:` trailer. Every input is
 * untrusted text of bounded size; each reader is one pass over lines (indexOf scans and anchored
 * patterns with no nested quantifier), so a description of 64 KiB of `#` and spaces costs a pass.
 */
import type { FragmentFile } from '../../git/commit-record.js';
import { fragmentType, isFragmentPath, type TOWNCRIER_TYPES as TownCrierTypes } from '../../git/manifest-paths.js';
import type { SectionKey } from './types.js';

/** What an item shows at most of the maintainer's words: a line or a short paragraph. */
export const MAX_ITEM_CHARS = 300;
/** Text read of a description or fragment at most. */
const MAX_TEXT = 64 * 1024;

export interface Fragment {
  /** What a reader is told, one line (whitespace collapsed, capped); '' for none. */
  text: string;
  /** The section its type declares; null when it declares none we know. */
  section: SectionKey | null;
  /** A changeset's packages (its front matter); [] otherwise. */
  packages: string[];
  /** Its type says readers need not be told (towncrier's `misc`, `trivial`). */
  hidden: boolean;
}

const CHANGESET = /^\.changeset\/[^/]+\.md$/i;

/** What each towncrier type means for readers. */
const TOWNCRIER_TYPES: Readonly<Record<(typeof TownCrierTypes)[number], SectionKey | 'hidden'>> = {
  feature: 'feature',
  features: 'feature',
  added: 'feature',
  bugfix: 'fix',
  bugfixes: 'fix',
  fix: 'fix',
  fixed: 'fix',
  doc: 'documentation',
  docs: 'documentation',
  documentation: 'documentation',
  removal: 'breaking',
  breaking: 'breaking',
  deprecation: 'deprecation',
  deprecated: 'deprecation',
  security: 'security',
  performance: 'performance',
  perf: 'performance',
  misc: 'hidden',
  trivial: 'hidden',
  internal: 'hidden',
  chore: 'chore',
  changed: 'other',
  change: 'other',
};

const BUMPS: Readonly<Record<string, SectionKey>> = { major: 'breaking', minor: 'feature', patch: 'fix' };

/** A fragment file read; null when it is none (a README, an unknown type) or says nothing. */
export function parseFragment(file: FragmentFile): Fragment | null {
  const text = file.text.slice(0, MAX_TEXT).replace(/\r\n?/g, '\n');
  if (CHANGESET.test(file.path)) {
    if (!isFragmentPath(file.path)) return null;
    const { front, rest } = frontMatter(text);
    const packages: string[] = [];
    let section: SectionKey | null = null;
    for (const line of front) {
      // `"@scope/pkg": minor` or `pkg: patch`
      const m = /^\s*(["']?)([^"':\s][^"':]{0,213})\1\s*:\s*["']?(major|minor|patch|none)["']?\s*$/i.exec(line);
      if (!m) continue;
      if (packages.length < 20) packages.push(m[2]!.trim());
      const bump = BUMPS[m[3]!.toLowerCase()];
      if (bump && (section === null || rank(bump) < rank(section))) section = bump;
    }
    const line = firstParagraph(rest);
    return line || packages.length ? { text: line, section, packages, hidden: false } : null;
  }
  const type = fragmentType(file.path);
  if (type === null) return null;
  const verdict = TOWNCRIER_TYPES[type as keyof typeof TOWNCRIER_TYPES];
  const line = firstParagraph(text);
  if (!line) return null;
  return verdict === 'hidden' ? { text: '', section: null, packages: [], hidden: true } : { text: line, section: verdict, packages: [], hidden: false };
}

const rank = (s: SectionKey) => ['breaking', 'feature', 'fix'].indexOf(s);

/** YAML front matter between `---` lines (its lines), and what follows. */
function frontMatter(text: string): { front: string[]; rest: string } {
  if (!text.startsWith('---')) return { front: [], rest: text };
  const firstEnd = text.indexOf('\n');
  if (firstEnd < 0) return { front: [], rest: '' };
  const close = text.indexOf('\n---', firstEnd);
  if (close < 0) return { front: [], rest: text };
  const after = text.indexOf('\n', close + 4);
  return { front: text.slice(firstEnd + 1, close).split('\n', 200), rest: after < 0 ? '' : text.slice(after + 1) };
}

/**
 * The first paragraph (or the first run of bullets) of Markdown/reST text, as one line: whitespace
 * collapsed, list markers joined with "; ", capped at MAX_ITEM_CHARS on a word.
 */
export function firstParagraph(text: string): string {
  const lines = text.slice(0, MAX_TEXT).split('\n');
  const parts: string[] = [];
  let length = 0;
  let started = false;
  let bullets = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) {
      if (started) break;
      continue;
    }
    // A heading ends the paragraph, and before one an empty section (`## Release notes` then `## Testing`).
    if (isHeading(line) !== null) break;
    const bullet = /^(?:[-*+]|\d{1,3}[.)])\s+/.exec(line);
    if (!started) bullets = bullet !== null;
    else if (bullets !== (bullet !== null) && bullet !== null) break;
    started = true;
    const content = bullet ? line.slice(bullet[0].length) : line;
    if (bullets && bullet) parts.push(content);
    else if (parts.length) parts[parts.length - 1] += ` ${content}`;
    else parts.push(content);
    length += content.length + 2;
    if (length > MAX_ITEM_CHARS) break;
  }
  return cap(parts.join('; ').replace(/\s+/g, ' ').trim());
}

function cap(text: string): string {
  if (text.length <= MAX_ITEM_CHARS) return text;
  const cut = text.lastIndexOf(' ', MAX_ITEM_CHARS - 1);
  return `${text.slice(0, cut > MAX_ITEM_CHARS / 2 ? cut : MAX_ITEM_CHARS - 1)}…`;
}

/**
 * A Markdown heading's text (`## Release notes ##`), a bold line's (`**Changelog**`, `**Changelog:**`)
 * or a plain `Release notes:` line's; null when the line is none of them. Trailing `#`s and colons
 * are dropped by scanning back, never by a pattern that can backtrack.
 */
function isHeading(line: string): string | null {
  if (line.charCodeAt(0) === 35 /* # */) {
    let i = 0;
    while (i < line.length && line.charCodeAt(i) === 35) i++;
    if (i > 6 || (i < line.length && line[i] !== ' ' && line[i] !== '\t')) return null;
    let end = line.length;
    while (end > i && (line[end - 1] === '#' || line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
    return line.slice(i, end).trim();
  }
  if (line.startsWith('**') && line.endsWith('**') && line.length > 4) return line.slice(2, -2).trim();
  if (line.startsWith('__') && line.endsWith('__') && line.length > 4) return line.slice(2, -2).trim();
  return null;
}

const NOTE_HEADINGS = new Set(['release notes', 'release note', 'changelog', 'change log', 'changes', 'changelog entry', 'release notes entry']);
/** What maintainers write for "no entry". */
const NOTHING = /^(none|no|n\/?a|skip|-+|nothing|no changelog|not applicable|na)\.?$/i;

/** A heading's words without trailing colons or periods (scanned back: `[:.]+$` backtracks on a run of them). */
function headingName(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === ':' || text[end - 1] === '.' || text[end - 1] === ' ')) end--;
  return end > 40 ? '' : text.slice(0, end).toLowerCase();
}

/** The result of reading a description or messages for the maintainer's words. */
export type MaintainerWords = { text: string } | { hidden: true } | null;

/**
 * The description's "Release notes" / "Changelog" / "Changes" section (a Markdown heading, a bold
 * line or `Release notes:` on a line of its own): its first paragraph or bullets. `{ hidden }` when
 * it says none; null when there is no such section or it is empty.
 */
export function bodySection(body: string): MaintainerWords {
  const text = stripComments(body.slice(0, MAX_TEXT)).replace(/\r\n?/g, '\n');
  let from = 0;
  while (from < text.length) {
    let end = text.indexOf('\n', from);
    if (end < 0) end = text.length;
    const line = text.slice(from, end).trim();
    from = end + 1;
    const heading = isHeading(line) ?? (line.endsWith(':') && line.length < 40 ? line : null);
    if (heading === null || !NOTE_HEADINGS.has(headingName(heading))) continue;
    const paragraph = firstParagraph(text.slice(from));
    if (!paragraph) return null;
    return NOTHING.test(paragraph) ? { hidden: true } : { text: paragraph };
  }
  return null;
}

/**
 * A `Changelog: …` trailer line in any of the texts (the first found): `none`/`skip` hides the item.
 * A line with nothing after the colon is a heading (bodySection), not a trailer.
 */
export function changelogTrailer(texts: readonly string[]): MaintainerWords {
  for (const raw of texts) {
    const text = raw.slice(0, MAX_TEXT);
    let from = 0;
    while (from < text.length) {
      const at = indexOfInsensitive(text, 'changelog:', from);
      if (at < 0) break;
      const lineStart = text.lastIndexOf('\n', at - 1) + 1;
      let end = text.indexOf('\n', at);
      if (end < 0) end = text.length;
      from = end + 1;
      if (text.slice(lineStart, at).trim() !== '') continue;
      const value = text
        .slice(at + 'changelog:'.length, end)
        .replace(/\s+/g, ' ')
        .trim();
      if (!value) continue;
      if (NOTHING.test(value)) return { hidden: true };
      return { text: cap(value) };
    }
  }
  return null;
}

/** `indexOf` ignoring ASCII case (the needle is lower case), without lower-casing a 64 KiB haystack per call. */
function indexOfInsensitive(haystack: string, needle: string, from: number): number {
  const first = needle.charCodeAt(0);
  for (let i = from; i <= haystack.length - needle.length; i++) {
    if ((haystack.charCodeAt(i) | 32) !== first) continue;
    let j = 1;
    while (j < needle.length && (haystack.charCodeAt(i + j) | (needle.charCodeAt(j) >= 97 ? 32 : 0)) === needle.charCodeAt(j)) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/** HTML comments (a PR template's hints) removed; an unclosed one runs to the end. */
function stripComments(text: string): string {
  if (!text.includes('<!--')) return text;
  let out = '';
  let at = 0;
  for (;;) {
    const open = text.indexOf('<!--', at);
    if (open < 0) return out + text.slice(at);
    out += text.slice(at, open);
    const close = text.indexOf('-->', open + 4);
    if (close < 0) return out;
    at = close + 3;
  }
}
