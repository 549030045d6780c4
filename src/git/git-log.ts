import { coAuthorsOf, prNumberOf, type CommitRecord } from './commit-record.js';
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
      author: { name: an, email: ae, date: ad },
      committer: { name: cn, email: ce, date: cd },
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
  return parseGitLog(streamGitTokens(gitLogArgs(range), { ...options, gitDir }), tagsBySha);
}
