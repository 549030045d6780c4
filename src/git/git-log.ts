import { coAuthorsOf, isoWithOffset, prNumberOf, type CommitRecord } from './commit-record.js';
import { streamGitTokens, type GitOptions } from './git.js';

const RECORD = '\x1e';
// Fields NUL-separated; a record separator marks each commit so the changed-path tokens that
// follow it can be told apart from the next commit's header.
const FORMAT = `--format=${RECORD}%H%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x00`;
const HEADER_FIELDS = 9;

/**
 * Longest commit message stored (UTF-16 code units; 64 Ki). Messages come from whoever can push:
 * everything after ingest reads them, so they are bounded once, here. Real messages are far
 * shorter (the Linux kernel's longest are around 20 kB); a longer one keeps its first 64 Ki.
 */
export const MAX_MESSAGE_LENGTH = 65_536;
/** Longest author or committer name and e-mail stored. */
export const MAX_IDENTITY_LENGTH = 1_024;

/**
 * Longest token read from `git log`, in bytes: enough for MAX_MESSAGE_LENGTH code units of any
 * UTF-8 text (three bytes at most per code unit, plus a character cut in two), so every field is cut
 * exactly as before, while a 40 MB message costs 256 KiB of memory and one pass over its bytes.
 */
export const LOG_TOKEN_MAX_BYTES = 4 * MAX_MESSAGE_LENGTH + 4;

/** `text` cut to at most `max` code units, never between the two halves of a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * `git log` arguments that list commits with their changed paths against the first parent.
 * Renames are off: detecting them needs file contents, which a blobless mirror does not have.
 */
export function gitLogArgs(range: string[], options: { since?: Date } = {}): string[] {
  return [
    'log', '--no-renames', '--name-status', '-z', '--diff-merges=first-parent', '--no-abbrev', FORMAT,
    ...(options.since ? [`--since=${options.since.toISOString()}`] : []),
    ...range, '--',
  ];
}

const ISO_DATE = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:Z|([+-])(\d\d):(\d\d))$/;
/** What git prints for a date too large to show (and a commit with no date at all): the epoch. */
const EPOCH = '1970-01-01T00:00:00+00:00';

/**
 * A date as `%aI`/`%cI` printed it, made storable. git prints what a commit object holds, and an
 * object written by hand can hold anything: an author line git cannot split (a NUL byte in it, no
 * date) leaves the placeholder itself ("%aI"), a huge timestamp a year past 9999, a bogus offset
 * "+99:99". Such a date would fail the database insert of its batch, and every retry of the link's
 * ingest with it; it is kept as the same instant in UTC when the offset alone is wrong, and as the
 * epoch (git's own fallback) otherwise.
 */
export function storableDate(date: string): string {
  const match = ISO_DATE.exec(date);
  if (!match) return EPOCH;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [1, 2, 3, 4, 5, 6, 8, 9].map((i) => Number(match[i]));
  // setUTCFullYear, not Date.UTC: that reads years below 100 as 19xx.
  const fields = new Date(0);
  fields.setUTCFullYear(year!, month! - 1, day!);
  fields.setUTCHours(hour!, minute!, second!, 0);
  const local = fields.getTime();
  // Date.UTC rolls over (Feb 30 → Mar 2): such a date is not one git printed from a timestamp.
  if (year! < 1 || fields.getUTCMonth() !== month! - 1 || fields.getUTCDate() !== day! || hour! > 23 || minute! > 59 || second! > 59) return EPOCH;
  // PostgreSQL takes offsets up to 15:59 (`Z` reads as 0).
  if (match[7] === undefined || (offsetHours! < 16 && offsetMinutes! < 60)) return date;
  const offset = (match[7] === '-' ? -1 : 1) * (offsetHours! * 60 + offsetMinutes!);
  return isoWithOffset(new Date(local - offset * 60_000), 0);
}

/**
 * Parses the token stream of `gitLogArgs` (in batches, as `streamGitTokens` reads them) into
 * commits, newest first as git lists them.
 */
export async function* parseGitLog(batches: AsyncIterable<string[]>, tagsBySha: Map<string, string[]> = new Map()): AsyncGenerator<CommitRecord> {
  let current: CommitRecord | null = null;
  let header: string[] | null = null;
  let pendingStatus: string | null = null;

  const finish = (fields: string[]): CommitRecord => {
    const [sha, parents, rawAn, rawAe, ad, rawCn, rawCe, cd, rawMessage] = fields as [string, string, string, string, string, string, string, string, string];
    const message = truncate(rawMessage, MAX_MESSAGE_LENGTH);
    const [an, ae, cn, ce] = [rawAn, rawAe, rawCn, rawCe].map((s) => truncate(s, MAX_IDENTITY_LENGTH)) as [string, string, string, string];
    return {
      sha,
      parents: parents ? parents.split(' ') : [],
      author: { name: an, email: ae, date: storableDate(ad) },
      committer: { name: cn, email: ce, date: storableDate(cd) },
      message,
      changes: [],
      tags: tagsBySha.get(sha) ?? [],
      coAuthors: coAuthorsOf(message),
      prNumber: prNumberOf(message),
    };
  };

  for await (const batch of batches) {
    // The commits this batch completes, yielded after it: one await per batch, not per token.
    const done: CommitRecord[] = [];
    for (const raw of batch) {
      if (header) {
        header.push(raw);
        if (header.length === HEADER_FIELDS) {
          current = finish(header);
          header = null;
        }
        continue;
      }
      if (pendingStatus !== null) {
        current?.changes.push([pendingStatus, raw]);
        pendingStatus = null;
        continue;
      }
      const token = raw.startsWith('\n') ? raw.slice(1) : raw;
      if (token === '') continue;
      if (token.startsWith(RECORD)) {
        if (current) done.push(current);
        current = null;
        header = [token.slice(1)];
        continue;
      }
      pendingStatus = token;
    }
    yield* done;
  }
  if (header) throw new Error('git log output ended inside a commit header');
  if (current) yield current;
}

/** Streams the commits of `range` (e.g. `['main']` or `['old..main']`) from a git directory. */
export function readCommits(gitDir: string, range: string[], tagsBySha?: Map<string, string[]>, options: GitOptions = {}) {
  return parseGitLog(streamLogTokens(gitLogArgs(range), { ...options, gitDir }), tagsBySha);
}

/** `git log` output (`gitLogArgs`) as tokens, each cut to LOG_TOKEN_MAX_BYTES while it streams. */
export function streamLogTokens(args: string[], options: GitOptions): AsyncGenerator<string[]> {
  return streamGitTokens(args, { ...options, maxTokenBytes: LOG_TOKEN_MAX_BYTES });
}
