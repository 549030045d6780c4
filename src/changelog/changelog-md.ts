/**
 * A project's published release notes as one CHANGELOG.md: Keep a Changelog 1.1.0
 * (https://keepachangelog.com/en/1.1.0/) for `GET /v1/changelog/{slug}/changelog.md` and `changelog export`,
 * or the notes as published (`--format markdown`). Pure string work, linear in the notes' size.
 *
 * Each note's sections are its published `content` (the introduction, then generation's `### Label` blocks
 * with the release editor's edits applied), so what a reader sees is exactly the published revision; the
 * blocks are matched, in order, with `generated_json.sections` to know each one's kind.
 */
import semver from 'semver';
import type { PublishedRelease } from './changelog.repository.js';

/**
 * The notes in a document's order: the listing's (newest release first), except that releases which reached
 * the branch at the same instant (pre-releases tagged on a branch merged later: vue core's 3.5.0 alphas all
 * arrived with one merge) are ordered by version, highest first, root package first, as a changelog lists
 * them, instead of by their ids. Linear apart from sorting each tie.
 */
export function documentOrder<T extends { released_at: Date | string | null; package: string | null; version: string | null }>(notes: readonly T[]): T[] {
  const ordered: T[] = [];
  const at = (n: T) => (n.released_at === null ? null : new Date(n.released_at).getTime());
  for (let i = 0; i < notes.length;) {
    let j = i + 1;
    while (j < notes.length && at(notes[i]!) !== null && at(notes[j]!) === at(notes[i]!)) j++;
    const tie = notes.slice(i, j);
    if (tie.length > 1) {
      tie.sort((x, y) => {
        if (x.package !== y.package) return x.package === null ? -1 : y.package === null ? 1 : x.package < y.package ? -1 : 1;
        const [vx, vy] = [semver.valid(x.version ?? ''), semver.valid(y.version ?? '')];
        return vx && vy ? semver.rcompare(vx, vy) : vx ? -1 : vy ? 1 : 0;
      });
    }
    ordered.push(...tie);
    i = j;
  }
  return ordered;
}

/**
 * Our sections → Keep a Changelog's. Several of ours can share one (their items are merged, in the
 * note's order); a section with no equivalent keeps its own label, after the six. Breaking changes keep
 * theirs and lead: under "Changed" a reader would lose the one thing they must not miss. A section whose
 * label already is one of the six (a project renamed "Bug fixes" to "Fixed") is that one.
 */
export const KAC_SECTIONS: Readonly<Record<string, KacSection>> = {
  feature: 'Added',
  performance: 'Changed',
  refactor: 'Changed',
  dependencies: 'Changed',
  deprecation: 'Deprecated',
  fix: 'Fixed',
  security: 'Security',
};
const KAC_ORDER = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'] as const;
type KacSection = (typeof KAC_ORDER)[number];

export interface ChangelogDocument {
  /** Published notes, newest first (Unreleased on top when the project published it). */
  releases: readonly PublishedRelease[];
  /** `https://github.com/OWNER/REPO` when known: link references at the bottom. */
  repoUrl?: string | null;
  /** Older published notes left out (the route's cap), and where to read them. */
  omitted?: { count: number; url: string } | null;
}

const HEADER =
  '# Changelog\n\nAll notable changes to this project are documented in this file.\n\n' +
  'The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/).\n';

/** The heading's name of a note: `Unreleased`, the version of a root release, the tag of a package's (`pkg@2.0.0`). */
export function releaseName(note: Pick<PublishedRelease, 'tag' | 'version' | 'package'>): string {
  if (note.tag === null) return 'Unreleased';
  return note.package === null && note.version ? note.version : note.tag;
}

const day = (at: Date | string | null) => (at ? new Date(at).toISOString().slice(0, 10) : null);

/** The note's `### Label` blocks (and a closing `_By …_` line), after its introduction. */
export function noteBlocks(note: Pick<PublishedRelease, 'content' | 'introduction'>): {
  introduction: string | null;
  blocks: { label: string; body: string }[];
  tail: string | null;
} {
  let body = note.content;
  const intro = note.introduction?.trim() ? note.introduction : null;
  if (intro && body.startsWith(intro)) body = body.slice(intro.length);
  const blocks: { label: string; body: string }[] = [];
  let tail: string | null = null;
  // Generated lines never start with `### ` inside a block: item text is one line, items start with `-`.
  for (const chunk of `\n${body}`.split(/\n(?=### )/).slice(1)) {
    const newline = chunk.indexOf('\n');
    const label = (newline < 0 ? chunk : chunk.slice(0, newline)).slice(4).trim();
    let rest = newline < 0 ? '' : chunk.slice(newline + 1).trim();
    const by = tailStart(rest);
    if (by >= 0) {
      tail = rest.slice(by + 2).trim();
      rest = rest.slice(0, by).trim();
    }
    blocks.push({ label, body: rest });
  }
  if (!blocks.length && tailStart(`\n\n${body.trim()}`) === 0) tail = body.trim();
  return { introduction: intro ? intro.trim() : null, blocks, tail };
}

/**
 * How generation's Markdown of a note made with pull requests closes (generation/engine/render.ts, which this
 * module may not import: note-blocks.test.ts holds the two to the same text).
 */
const NEW_CONTRIBUTORS = '**New contributors**';
const FULL_CHANGELOG = '**Full changelog:**';

/**
 * Where a block's closing lines start (`\n\n` before them), or -1: the `_By …_` attribution, and a note's
 * new contributors and compare link (engine/render.ts). Item text is escaped, so none of them starts an item.
 */
function tailStart(text: string): number {
  let start = text.lastIndexOf('\n\n_By ');
  for (const marker of [`\n\n${NEW_CONTRIBUTORS}`, `\n\n${FULL_CHANGELOG}`]) {
    const at = text.indexOf(marker);
    if (at >= 0 && (start < 0 || at < start)) start = at;
  }
  return start;
}

/** One note's sections in Keep a Changelog's words and order. */
function kacSections(note: PublishedRelease): { introduction: string | null; sections: { heading: string; body: string }[]; tail: string | null } {
  const { introduction, blocks, tail } = noteBlocks(note);
  const generated = note.generated_json?.sections ?? [];
  // Matched by position only when the counts agree (they always do for content the service wrote).
  const keys = blocks.length === generated.length ? generated.map((s) => s.section_type_key) : blocks.map(() => null);
  const breaking: string[] = [];
  const kac = new Map<KacSection, string[]>();
  const others = new Map<string, string[]>();
  blocks.forEach((block, i) => {
    if (!block.body) return;
    const key = keys[i];
    const named = KAC_ORDER.find((k) => k.toLowerCase() === block.label.toLowerCase());
    const target = named ?? (key ? KAC_SECTIONS[key] : undefined);
    if (target) kac.set(target, [...(kac.get(target) ?? []), block.body]);
    else if (key === 'breaking') breaking.push(block.body);
    else others.set(block.label, [...(others.get(block.label) ?? []), block.body]);
  });
  const breakingLabel = blocks.find((_, i) => keys[i] === 'breaking')?.label ?? 'Breaking changes';
  const sections = [
    ...(breaking.length ? [{ heading: breakingLabel, body: breaking.join('\n') }] : []),
    ...KAC_ORDER.filter((k) => kac.has(k)).map((k) => ({ heading: k, body: kac.get(k)!.join('\n') })),
    ...[...others].map(([heading, bodies]) => ({ heading, body: bodies.join('\n') })),
  ];
  return { introduction, sections, tail };
}

/** Keep a Changelog: `# Changelog`, `## [Unreleased]`, `## [1.2.3] - YYYY-MM-DD` newest first, `### Added`…, link references. */
export function renderKeepAChangelog(doc: ChangelogDocument): string {
  const parts = [HEADER];
  const links: string[] = [];
  for (const note of doc.releases) {
    const name = releaseName(note);
    const date = day(note.released_at);
    const { introduction, sections, tail } = kacSections(note);
    const lines = [`## [${name}]${date ? ` - ${date}` : ''}`];
    if (introduction) lines.push('', introduction);
    for (const s of sections) lines.push('', `### ${s.heading}`, '', s.body);
    if (tail) lines.push('', tail);
    if (!introduction && !sections.length && !tail) lines.push('', '_No notable changes._');
    parts.push(lines.join('\n') + '\n');
    const link = doc.repoUrl ? referenceUrl(doc.repoUrl, note) : null;
    if (link) links.push(`[${name}]: ${link}`);
  }
  if (doc.omitted && doc.omitted.count > 0) {
    parts.push(
      `_${doc.omitted.count.toLocaleString('en')} older ${doc.omitted.count === 1 ? 'release is' : 'releases are'} not listed here: see <${doc.omitted.url}>._\n`,
    );
  }
  if (links.length) parts.push(links.join('\n') + '\n');
  return parts.join('\n');
}

/** Where a heading's `[name]` points: the compare view from the previous tag, else the tag's release page. */
function referenceUrl(repoUrl: string, note: PublishedRelease): string {
  const enc = (tag: string) => encodeURIComponent(tag).replace(/%40/g, '@');
  if (note.tag === null) return note.previous_tag ? `${repoUrl}/compare/${enc(note.previous_tag)}...HEAD` : `${repoUrl}/commits/HEAD`;
  return note.previous_tag ? `${repoUrl}/compare/${enc(note.previous_tag)}...${enc(note.tag)}` : `${repoUrl}/releases/tag/${enc(note.tag)}`;
}

/** The notes as published (our section labels, the note's own title), one after another. */
export function renderPublishedMarkdown(doc: ChangelogDocument & { title: string }): string {
  const parts = [`# ${doc.title}\n`];
  for (const note of doc.releases) {
    const date = day(note.released_at);
    parts.push(`## ${note.title}\n\n${date ? `_Released ${date}_` : '_Not released yet_'}\n\n${note.content.trim() || '_No notable changes._'}\n`);
  }
  if (doc.omitted && doc.omitted.count > 0) parts.push(`_${doc.omitted.count.toLocaleString('en')} older releases: see <${doc.omitted.url}>._\n`);
  return parts.join('\n');
}

/** The GitHub repository a project's pull-request URL setting names (`https://github.com/o/r/pull/{number}`), if any. */
export function githubRepoUrl(pullRequestUrl: string | null | undefined): string | null {
  const m = pullRequestUrl ? /^https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\/pull\/\{number\}$/.exec(pullRequestUrl) : null;
  return m ? `https://github.com/${m[1]}/${m[2]}` : null;
}
