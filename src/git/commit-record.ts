import type { DependencyChanges } from './manifests.js';

/** A person and the moment as git recorded them; `date` is ISO 8601 with the original UTC offset. */
export interface Signature {
  name: string;
  email: string;
  date: string;
}

export type ChangeStatus = 'A' | 'M' | 'D' | 'T' | string;

/** `[status, path]` against the first parent: A, M or D (other letters are kept as given). */
export type Change = [status: ChangeStatus, path: string];

/** A person named in a commit's trailers. */
export interface CoAuthor {
  name: string;
  email: string;
}

/**
 * One commit as ingestion stores it, `changelog preview` reads it from a checkout, and the changelog
 * generator consumes it: the only commit shape. `coAuthors` and `prNumber` are derived from the
 * message once, here (`coAuthorsOf`, `prNumberOf`), and stored; generation reads them, never the
 * message, for these facts.
 */
export interface CommitRecord {
  sha: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  /** Full message: subject, body and trailers. */
  message: string;
  changes: Change[];
  /** Tag names pointing at this commit. */
  tags: string[];
  coAuthors: CoAuthor[];
  prNumber: number | null;
  /**
   * What the commit changes in the dependencies its package manifests declare (manifests.ts), read at
   * ingest with the manifests' contents; absent when they were not read (the engine then goes by words and paths).
   */
  dependencies?: DependencyChanges;
  /**
   * `.github/release.yml` (or `.github/release.yaml`) as this commit left it: the raw text, at most
   * MAX_RELEASE_CONFIG_BYTES, '' when the commit deletes it. Absent when the commit does not change it
   * (or it was not read): the engine parses it (engine/release-config.ts) for the releases whose tip holds it.
   */
  releaseConfig?: string;
  /**
   * Change fragments the commit adds (`.changeset/*.md`, towncrier's `changelog.d/`, `newsfragments/`,
   * `changes/`): raw text, parsed by the engine (engine/fragments.ts); absent when it adds none.
   */
  fragments?: FragmentFile[];
}

/** A change fragment as a commit added it: its path and raw text (at most MAX_FRAGMENT_BYTES). */
export interface FragmentFile {
  path: string;
  text: string;
}

/** The release configuration kept per commit: GitHub's own limit for such files is far below. */
export const MAX_RELEASE_CONFIG_BYTES = 64 * 1024;
/** A fragment's text kept: a changelog line or paragraph, never a document. */
export const MAX_FRAGMENT_BYTES = 8 * 1024;
/** Fragments kept per commit (a release commit that adds hundreds is a bulk import, not a change). */
export const MAX_FRAGMENTS = 20;

/** People named in `Co-authored-by: Name <email>` trailers, once each (by e-mail). */
export function coAuthorsOf(message: string): CoAuthor[] {
  const seen = new Set<string>();
  const result: CoAuthor[] = [];
  for (const { name, email } of coAuthorTrailers(message)) {
    // GitHub credits no co-author without an e-mail; nor does the changelog.
    if (!email || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    result.push({ name, email });
  }
  return result;
}

const CO_AUTHOR_PREFIX = 'co-authored-by:';

/**
 * Every `Co-authored-by: Name <email>` line, read with string scans: the regex this replaces
 * (`\s*(.+?)\s*<`) was quadratic on a line of many spaces. The e-mail is the last `<…>` on the
 * line; the name, what comes before it, must not be empty.
 */
function coAuthorTrailers(message: string): CoAuthor[] {
  const out: CoAuthor[] = [];
  let from = 0;
  while (from <= message.length) {
    let end = message.indexOf('\n', from);
    if (end < 0) end = message.length;
    const line = message.slice(from, end).replace(/\r$/, '');
    from = end + 1;
    if (line.length <= CO_AUTHOR_PREFIX.length || line.slice(0, CO_AUTHOR_PREFIX.length).toLowerCase() !== CO_AUTHOR_PREFIX) continue;
    const rest = line.slice(CO_AUTHOR_PREFIX.length).trimEnd();
    if (!rest.endsWith('>')) continue;
    const open = rest.lastIndexOf('<');
    const email = rest.slice(open + 1, -1);
    if (open < 1 || email.includes('>')) continue;
    out.push({ name: rest.slice(0, open).trim(), email: email.trim() });
  }
  return out;
}

/**
 * The pull request a commit came from: GitHub's merge message ("Merge pull request #12 from …")
 * or a squash title ending in "(#12)". Null when the message names none.
 */
export function prNumberOf(message: string): number | null {
  const subject = message.split('\n', 1)[0]!.trim();
  const merge = /^Merge pull request #(\d+) from /.exec(subject);
  const squash = /\(#(\d+)\)$/.exec(subject);
  const value = merge?.[1] ?? squash?.[1];
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}

/** Minutes east of UTC in an ISO 8601 date ("…+05:30" → 330, "…Z" → 0). */
export function offsetMinutes(isoDate: string): number {
  const match = /([+-])(\d\d):?(\d\d)$/.exec(isoDate);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The instant `date` written in the UTC offset `offset` (minutes), as git's %aI would print it. */
export function isoWithOffset(date: Date, offset: number): string {
  const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
