/**
 * Classification of one commit into a section: Conventional Commits first, then the rules for
 * unconventional styles (rules.ts). Also reads the PR number, the reverted commit, skip markers and
 * exclusions. Pure: the caller says whether a merge commit's branch commits are present.
 */
import { parseMessage } from './conventional.js';
import { coAuthors, isBot, matchesAuthor, type Author } from './people.js';
import { DEPENDENCY_SCOPED_TYPES, DEPENDENCY_SCOPES, TYPE_SECTIONS, classifyFreeText, stripGitmoji } from './rules.js';
import type { CommitRecord, SectionKey } from './types.js';

export type SkipReason = 'marker' | 'excluded-author' | 'bot' | 'merge' | 'empty';

export interface ClassifiedCommit {
  sha: string;
  section: SectionKey;
  /** From `!`, a BREAKING CHANGE footer, `Breaking:` or 💥. A breaking commit's section is `breaking`. */
  breaking: boolean;
  breakingDescription: string | null;
  /** Conventional scope, or the area prefix of `Area: subject`. */
  scope: string | null;
  /** Cleaned subject: prefix removed, first letter capitalised, `(#123)` kept. */
  title: string;
  pr: number | null;
  /** What this commit reverts, when it is a revert. */
  reverts: { shas: string[]; subject: string | null } | null;
  /** The subject as written (revert matching compares against it). */
  subject: string;
  /** Which rule decided (for tests and for explaining a classification). */
  rule: string;
  skip: SkipReason | null;
  author: Author;
  coAuthors: Author[];
  byBot: boolean;
}

export interface ClassifyOptions {
  excludeAuthors?: readonly string[];
  excludeBots?: boolean;
  /** For a merge commit: are the commits it brings in also in the history being generated? */
  mergedCommitsPresent?: boolean;
}

const SKIP_MARKER = /\[(skip[ _-]?changelog|changelog[ _-]?skip|no[ _-]?changelog|skip[ _-]?release[ _-]?notes|ignore[ _-]?changelog)\]/i;
// No `\s*` around it: a leading `\s*` rescans a run of spaces from every position in it (quadratic);
// every use collapses whitespace afterwards anyway.
const CI_MARKERS = /\[(skip ci|ci skip|skip actions|actions skip|no ci)\]/gi;
const PR_SUFFIX = /\(#(\d+)\)\s*$/;
const MERGE_PR = /^Merge pull request #(\d+) from \S+/i;
const MERGE_ANY = /^Merge (branch|remote-tracking branch|tag|pull request|commit|'[^']*'|"[^"]*")/i;
const BRACKET_TAG = /^\[([A-Za-z][\w-]*)\]\s*:?\s*/;
const REVERT_SUBJECT = /^Revert "(.+)"\s*(\(#\d+\))?$/;
const REVERTS_SHA = /This reverts commit ([0-9a-f]{7,40})/gi;

export function classifyCommit(commit: CommitRecord, options: ClassifyOptions = {}): ClassifiedCommit {
  const parsed = parseMessage(commit.message);
  const author: Author = { name: commit.author.name, email: commit.author.email };
  const byBot = isBot(author);

  let skip: SkipReason | null = null;
  if (SKIP_MARKER.test(commit.message)) skip = 'marker';
  else if (matchesAuthor(author, options.excludeAuthors ?? [])) skip = 'excluded-author';
  else if (byBot && options.excludeBots) skip = 'bot';

  let subject = parsed.subject;
  let footerSource = parsed;
  let pr: number | null = null;

  if (commit.parents.length > 1) {
    if (options.mergedCommitsPresent !== false) skip ??= 'merge';
    // A merge whose branch is not in the history stands for its pull request: its title is the
    // first body line ("Merge pull request #4 from x/y" + "feat: the PR title").
    const mergePr = MERGE_PR.exec(subject);
    if (mergePr) pr = Number(mergePr[1]);
    if (MERGE_ANY.test(subject)) {
      // Everything after the merge line, footers included, is the pull request's own message.
      const prMessage = commit.message.replace(/\r\n?/g, '\n').trim().split('\n').slice(1).join('\n').trim();
      if (prMessage) {
        footerSource = parseMessage(prMessage);
        subject = footerSource.subject;
      }
    }
  }
  if (!subject.trim()) skip ??= 'empty';

  const prMatch = PR_SUFFIX.exec(subject);
  if (prMatch) pr = Number(prMatch[1]);
  else if (pr === null) {
    const pullMerge = /^chore\(pull\): merge #(\d+)/i.exec(subject);
    if (pullMerge) pr = Number(pullMerge[1]);
  }

  subject = subject.replace(CI_MARKERS, ' ').replace(SKIP_MARKER, '').replace(/\s+/g, ' ').trim();

  const reverts = readReverts(commit.message, subject, footerSource.header?.type, footerSource.header?.description);
  let section: SectionKey;
  let scope: string | null = null;
  let breaking = footerSource.breaking;
  let text = subject;
  let rule: string;

  const header = footerSource.header;
  const typeSection = header ? TYPE_SECTIONS[header.type.toLowerCase()] : undefined;
  if (header && typeSection) {
    // Conventional Commits (and legacy `Fix:`/`Update:`/`New:`… tags, which share the shape).
    scope = header.scope;
    text = header.description;
    const type = header.type.toLowerCase();
    section = typeSection;
    if (scope && DEPENDENCY_SCOPED_TYPES.has(type) && DEPENDENCY_SCOPES.has(scope.toLowerCase())) section = 'dependencies';
    rule = `conventional:${type}`;
  } else {
    let rest = subject;
    const emoji = stripGitmoji(rest);
    rest = emoji.rest;
    const bracket = BRACKET_TAG.exec(rest);
    let tagSection: SectionKey | undefined;
    if (bracket) {
      // `[fix] …` is a legacy tag; `[JSX] …` names an area, which becomes the scope.
      tagSection = TYPE_SECTIONS[bracket[1]!.toLowerCase()];
      if (!tagSection) scope = bracket[1]!;
      rest = rest.slice(bracket[0].length);
    }
    const legacy = /^([A-Za-z]+)\s*:\s*(\S.*)$/.exec(rest);
    if (!tagSection && legacy && TYPE_SECTIONS[legacy[1]!.toLowerCase()]) {
      // `Fix:something` / `Docs :x`: a legacy tag without the space Conventional Commits requires.
      tagSection = TYPE_SECTIONS[legacy[1]!.toLowerCase()];
      rest = legacy[2]!;
    } else if (!tagSection && header) {
      // `TypeScript: print modifiers` — an area prefix, not a type: the area becomes the scope.
      scope = header.scope ? `${header.type}(${header.scope})` : header.type;
      rest = header.description;
    }
    text = rest;
    if (emoji.section) {
      section = emoji.section;
      rule = 'gitmoji';
    } else if (tagSection) {
      section = tagSection;
      rule = 'legacy-tag';
    } else {
      const free = classifyFreeText(rest, commit.changes, byBot);
      section = free.section;
      rule = free.rule;
    }
  }
  if (section === 'breaking') breaking = true;
  // Renovate marks updates that fix a vulnerability: they belong with security fixes.
  if (section === 'dependencies' && /\[security\]/i.test(subject)) section = 'security';
  if (reverts && section !== 'revert' && /^revert\b/i.test(subject)) section = 'revert';
  if (breaking) section = 'breaking';

  // One literal with every field (no spread): V8 keeps it a fast object, and this runs per commit.
  return {
    sha: commit.sha,
    section,
    breaking,
    breakingDescription: footerSource.breakingDescription,
    scope,
    title: cleanTitle(text),
    pr,
    reverts,
    subject: parsed.subject,
    rule,
    skip,
    author,
    coAuthors: coAuthors(commit.message),
    byBot,
  };
}

function readReverts(message: string, subject: string, type: string | undefined, description: string | undefined): ClassifiedCommit['reverts'] {
  const shas = [...message.matchAll(REVERTS_SHA)].map((m) => m[1]!.toLowerCase());
  const quoted = REVERT_SUBJECT.exec(subject);
  if (quoted) return { shas, subject: quoted[1]! };
  if (type?.toLowerCase() === 'revert') {
    const refs = /^Refs:\s*(.+)$/im.exec(message)?.[1]?.match(/[0-9a-f]{7,40}/gi) ?? [];
    return { shas: [...shas, ...refs.map((s) => s.toLowerCase())], subject: description ?? null };
  }
  if (shas.length) return { shas, subject: null };
  return null;
}

/** First letter capitalised, whitespace collapsed, a trailing period dropped; `(#123)` stays. */
export function cleanTitle(text: string): string {
  let title = text.replace(CI_MARKERS, ' ').replace(SKIP_MARKER, ' ').replace(/\s+/g, ' ').trim();
  title = title.replace(/\.(\s*\(#\d+\))?$/, '$1');
  return title.charAt(0).toUpperCase() + title.slice(1);
}
