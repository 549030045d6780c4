import { coAuthorsOf, prNumberOf, type CommitRecord } from '../../src/git/commit-record.js';

let counter = 0;

/**
 * A commit record with sensible defaults; `sha` is unique per call unless given. Co-authors and the
 * PR number are derived from the message as ingestion derives them, unless given.
 */
export function buildCommit(overrides: Partial<CommitRecord> & { date?: string; name?: string; email?: string } = {}): CommitRecord {
  counter++;
  const { date = '2024-01-10T12:00:00Z', name = 'Ada Lovelace', email = 'ada@example.com', ...rest } = overrides;
  const message = rest.message ?? 'chore: something';
  return {
    sha: counter.toString(16).padStart(40, 'a'),
    parents: [],
    author: { name, email, date },
    committer: { name, email, date },
    message,
    changes: [['M', 'src/index.ts']],
    tags: [],
    coAuthors: coAuthorsOf(message),
    prNumber: prNumberOf(message),
    ...rest,
  };
}
