import { describe, expect, it } from 'vitest';
import { coAuthorsOf, isoWithOffset, offsetMinutes, prNumberOf } from './commit-record.js';
import { parseGitLog } from './git-log.js';

describe('coAuthorsOf', () => {
  it('reads Co-authored-by trailers, once per e-mail, any case', () => {
    const message = 'feat: x\n\nbody\n\nCo-authored-by: Ada Lovelace <ada@example.com>\nco-authored-by: Linus <linus@example.com>\nCo-Authored-By: Ada L. <ADA@example.com>\n';
    expect(coAuthorsOf(message)).toEqual([
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      { name: 'Linus', email: 'linus@example.com' },
    ]);
    expect(coAuthorsOf('fix: y\n\nCo-authored-by: nobody\n')).toEqual([]);
    // GitHub credits no one without an e-mail (vue-core has `Co-authored-by: webfansplz <>` beside the same author).
    expect(coAuthorsOf('fix: y\n\nCo-authored-by: webfansplz <>\n')).toEqual([]);
  });
});

describe('prNumberOf', () => {
  it.each([
    ['feat: add thing (#123)\n\nbody', 123],
    ['Merge pull request #45 from acme/feature\n\nAdd feature', 45],
    ['feat(git): support x (#804) (#1121)', 1121],
    // The merge names the pull request; the `(#2593)` of its body is the issue it fixes (prettier's history).
    ['Merge pull request #2888 from motiz88/fix-2593\n\nUse semicolons in Flow interface-like bodies (#2593)', 2888],
    ['fix: (#1) in the middle', null],
    ['chore: release', null],
    ['Update dependency (#99999999999)', null],
  ])('%j → %s', (message, expected) => {
    expect(prNumberOf(message)).toBe(expected);
  });
});

describe('dates', () => {
  it('keeps the UTC offset of git dates', () => {
    expect(offsetMinutes('2026-08-05T01:37:26+03:00')).toBe(180);
    expect(offsetMinutes('2026-08-05T01:37:26-05:30')).toBe(-330);
    expect(offsetMinutes('2026-08-05T01:37:26Z')).toBe(0);
    const date = new Date('2026-08-05T01:37:26+03:00');
    expect(isoWithOffset(date, 180)).toBe('2026-08-05T01:37:26+03:00');
    expect(isoWithOffset(date, -330)).toBe('2026-08-04T17:07:26-05:30');
  });
});

/** The tokens of `text` in batches of `size` (git's output arrives in chunks of any size). */
async function* tokens(text: string, size = 1) {
  const all = text.split('\x00');
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}

describe('parseGitLog', () => {
  it('parses headers, messages with any characters, and name-status pairs, commit by commit', async () => {
    const header = (sha: string, parents: string, message: string) =>
      `\x1e${sha}\x00${parents}\x00Ada\x00ada@example.com\x002026-01-01T00:00:00+01:00\x00Bob\x00bob@example.com\x00` +
      `2026-01-02T00:00:00Z\x00${message}\x00`;
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    const output =
      header(a, b, 'feat: tabs\tand "quotes" (#7)\n\nnew\nlines\n\nCo-authored-by: Cy <cy@example.com>\n') + '\x00\nM\x00src/a b.ts\x00D\x00\x1eweird-path\x00' +
      header(b, '', 'initial\n') + '\x00\nA\x00README.md\x00';
    const parse = async (size: number) => {
      const commits = [];
      for await (const commit of parseGitLog(tokens(output, size), new Map([[b, ['v1.0.0']]]))) commits.push(commit);
      return commits;
    };
    const commits = await parse(1);
    // Batches cut anywhere give the same commits.
    for (const size of [2, 3, 7, 1000]) expect(await parse(size)).toEqual(commits);
    expect(commits).toHaveLength(2);
    expect(commits[0]).toMatchObject({
      sha: a,
      parents: [b],
      author: { name: 'Ada', email: 'ada@example.com', date: '2026-01-01T00:00:00+01:00' },
      committer: { name: 'Bob', email: 'bob@example.com', date: '2026-01-02T00:00:00Z' },
      changes: [['M', 'src/a b.ts'], ['D', '\x1eweird-path']],
      coAuthors: [{ name: 'Cy', email: 'cy@example.com' }],
      prNumber: 7,
      tags: [],
    });
    expect(commits[1]).toMatchObject({ sha: b, parents: [], changes: [['A', 'README.md']], tags: ['v1.0.0'], prNumber: null });
  });

  it('refuses output that ends inside a header', async () => {
    const run = async () => {
      for await (const commit of parseGitLog(tokens(`\x1e${'a'.repeat(40)}\x00\x00Ada`))) void commit;
    };
    await expect(run()).rejects.toThrow(/inside a commit header/);
  });
});
