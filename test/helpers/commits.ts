import type { CommitRecord } from '../../src/generation/types.js';

let counter = 0;

/** A commit record with sensible defaults; `sha` is unique per call unless given. */
export function buildCommit(overrides: Partial<CommitRecord> & { date?: string; name?: string; email?: string } = {}): CommitRecord {
  counter++;
  const { date = '2024-01-10T12:00:00Z', name = 'Ada Lovelace', email = 'ada@example.com', ...rest } = overrides;
  return {
    sha: counter.toString(16).padStart(40, 'a'),
    parents: [],
    author: { name, email, date },
    committer: { name, email, date },
    message: 'chore: something',
    changes: [['M', 'src/index.ts']],
    tags: [],
    ...rest,
  };
}
