/**
 * GeneratedJson → Markdown, deterministically. Commit text is untrusted: control and bidi characters
 * are stripped, and everything outside code spans is escaped so that no HTML, link, image or
 * emphasis trick in a commit message reaches a consumer's page.
 */
import type { GeneratedJson } from './types.js';

// C0/C1 controls (newlines and tabs become spaces first) and bidirectional overrides.
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
const SPECIAL = /[\\`*_[\]<>&|~]/g;

// Whatever plainText would change; most text (a commit's title) has none of it and is returned as is.
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const NOT_PLAIN = /[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]| {2}|^\s|\s$/;

/** One line of plain text: whitespace runs collapsed, controls removed. */
export function plainText(text: string): string {
  if (!NOT_PLAIN.test(text)) return text;
  return text
    .replace(/[\t\n\r\f\v]+/g, ' ')
    .replace(CONTROL, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/**
 * Escapes untrusted text for inline Markdown. Balanced code spans are kept (their content is shown
 * literally by every CommonMark renderer, HTML included); all other Markdown and HTML syntax is
 * backslash-escaped.
 */
const escapeCache = new Map<string, string>();

export function escapeMarkdown(text: string): string {
  // A commit's title is rendered in its commit entry and in three rollups: escape it once.
  let escaped = escapeCache.get(text);
  if (escaped === undefined) {
    escaped = escapeUncached(text);
    if (escapeCache.size > 50_000) escapeCache.clear();
    escapeCache.set(text, escaped);
  }
  return escaped;
}

const escapeSpecial = (text: string) => text.replace(SPECIAL, '\\$&');

/**
 * Code spans as CommonMark finds them: a backtick run closed by the next run of the same length.
 * One pass over the runs (each knows the next run of its length), so unclosed runs of many lengths
 * stay linear; the regex this replaces rescanned to the end from every backtick.
 */
function escapeUncached(text: string): string {
  const clean = plainText(text);
  const runs: Array<{ start: number; end: number }> = [];
  for (let i = clean.indexOf('`'); i !== -1; i = clean.indexOf('`', i)) {
    let end = i;
    while (clean.charCodeAt(end) === 96) end++;
    runs.push({ start: i, end });
    i = end;
  }
  const closedBy = new Array<number>(runs.length);
  const nextOfLength = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    const length = runs[k]!.end - runs[k]!.start;
    closedBy[k] = nextOfLength.get(length) ?? -1;
    nextOfLength.set(length, k);
  }
  let out = '';
  let last = 0;
  for (let k = 0; k < runs.length; k++) {
    const close = closedBy[k]!;
    if (close < 0) continue; // an unclosed run is literal text, escaped with the rest
    out += escapeSpecial(clean.slice(last, runs[k]!.start)) + clean.slice(runs[k]!.start, runs[close]!.end);
    last = runs[close]!.end;
    k = close;
  }
  return out + escapeSpecial(clean.slice(last));
}

/** How a release note's closing blocks begin (after its sections and `_By …_`), for those who read content back. */
export const NEW_CONTRIBUTORS = '**New contributors**';
export const FULL_CHANGELOG = '**Full changelog:**';

/** A link destination Markdown cannot be tricked by: http(s), no space, bracket, quote or angle bracket. */
const SAFE_URL = /^https?:\/\/[^\s()<>"'`\\]+$/;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface RenderOptions {
  /** `https://github.com/o/r/pull/{number}`: turns a trailing `(#123)` into a link. */
  pullRequestUrl?: string | null;
}

function linkPullRequest(escaped: string, options: RenderOptions): string {
  const template = options.pullRequestUrl;
  if (!template) return escaped;
  const start = trailingPullRequests(escaped);
  if (start < 0) return escaped;
  return escaped.slice(0, start) + escaped.slice(start).replace(/#(\d+)/g, (_m, n: string) => `[#${n}](${template.replace('{number}', n)})`);
}

/**
 * Where the trailing `(#1) (#2)` run starts, or -1. Scanned back from the end: the regex
 * `\(#\d+\)(?: \(#\d+\))*$` retried from every `(#` was quadratic in their number.
 */
function trailingPullRequests(text: string): number {
  let start = -1;
  let end = text.length;
  for (;;) {
    if (text[end - 1] !== ')') return start;
    let i = end - 2;
    while (i >= 0 && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i--;
    if (i === end - 2 || text[i] !== '#' || text[i - 1] !== '(') return start;
    start = i - 1;
    if (text[start - 1] !== ' ') return start;
    end = start - 1;
  }
}

/** The Markdown body of an entry (its title is a separate field, so it is not repeated here). */
export function renderMarkdown(json: GeneratedJson, options: RenderOptions = {}): string {
  const blocks: string[] = [];
  const breakingBodies = new Map<string, string>();
  for (const h of json.headline_items) if (h.section_type_key === 'breaking' && h.body) breakingBodies.set(h.title, h.body);
  for (const section of json.sections) {
    const lines = [`### ${escapeMarkdown(section.label)}`, ''];
    for (const item of section.items) {
      const component = item.component ? `**${escapeMarkdown(item.component)}:** ` : '';
      // A PR whose commits are all hidden shows as its title alone.
      const count = item.commits ? ` — ${item.commits} commit${item.commits === 1 ? '' : 's'}` : '';
      lines.push(`- ${component}${linkPullRequest(escapeMarkdown(item.text), options)}${count}`);
      const body = section.section_type_key === 'breaking' ? breakingBodies.get(item.text) : undefined;
      if (body) lines.push(`  ${escapeMarkdown(body)}`);
      // A merge's most important commits, under it.
      for (const sub of item.items ?? []) {
        const subComponent = sub.component ? `**${escapeMarkdown(sub.component)}:** ` : '';
        lines.push(`  - ${subComponent}${linkPullRequest(escapeMarkdown(sub.text), options)}`);
      }
    }
    blocks.push(lines.join('\n'));
  }
  if (json.team_attribution) blocks.push(`_By ${escapeMarkdown(json.team_attribution)}_`);
  // A release note made with the host's pull requests ends as GitHub's own notes do. Bold lines, not `###`
  // headings: a `###` block is a section to whoever reads the content back (changelog-md.ts `noteBlocks`).
  if (json.new_contributors?.length) {
    const lines = [NEW_CONTRIBUTORS, ''];
    for (const c of json.new_contributors) {
      // As GitHub's own notes say it: "… made their first contribution in #12", the number linked when it can be.
      const template = options.pullRequestUrl;
      const first = c.pr === null ? '' : ` in ${template ? `[#${c.pr}](${template.replace('{number}', String(c.pr))})` : `#${c.pr}`}`;
      lines.push(`- ${escapeMarkdown(c.name)} made their first contribution${first}`);
    }
    blocks.push(lines.join('\n'));
  }
  if (json.compare_url && SAFE_URL.test(json.compare_url)) {
    const range = json.compare_url.slice(json.compare_url.lastIndexOf('/compare/') + '/compare/'.length);
    blocks.push(`${FULL_CHANGELOG} [${escapeMarkdown(safeDecode(range))}](${json.compare_url})`);
  }
  return blocks.length ? `${blocks.join('\n\n')}\n` : '';
}
