// Security issue #21: what a pushed repository can put in front of the `git log` reader.
// - Finding 3: a 40 MB commit message. The reader concatenated and copied the whole pending token
//   for every 64 KiB chunk until a NUL came: quadratic, about a minute of event loop for one message.
// - Suspected: a NUL byte desynchronising the NUL-separated parser. Ruled out for messages (git
//   prints %B up to the NUL), but a NUL in an author line makes git print the placeholder "%aI" as
//   the date, and other hand-made dates (a year past 9999, a "+99:99" offset) are as unstorable.
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createGiantMessageRepo, createRawCommitRepo, type HostileRepo } from '../../test/helpers/hostile-repos.js';
import { MAX_MESSAGE_LENGTH, readCommits } from './git-log.js';
import { TokenSplitter } from './git.js';

const made: HostileRepo[] = [];
afterAll(() => {
  for (const repo of made) repo.remove();
});

const readAll = async (dir: string) => {
  const commits = [];
  for await (const commit of readCommits(join(dir, '.git'), ['main'])) commits.push(commit);
  return commits;
};

/** The longest the event loop went unserved while `work` ran, sampled every 10 ms. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number; elapsedMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  const started = performance.now();
  try {
    const result = await work();
    return { result, stallMs, elapsedMs: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

describe('a 40 MB commit message', () => {
  it('is read in one pass: cut at the cap, its neighbours in step, the event loop never held', async () => {
    const repo = createGiantMessageRepo();
    made.push(repo);
    const { result: commits, stallMs, elapsedMs } = await longestStall(() => readAll(repo.dir));

    expect(commits.map((c) => c.sha)).toEqual(repo.commits.map((c) => c.sha).reverse());
    expect(commits.map((c) => c.message.split('\n', 1)[0])).toEqual(repo.commits.map((c) => c.subject).reverse());
    const giant = commits[1]!;
    expect(giant.message.length).toBe(MAX_MESSAGE_LENGTH);
    expect(giant.message.startsWith(`${repo.giantSubject}\n\nAll work and no play`)).toBe(true);
    expect(giant.changes).toEqual([['A', 'giant.txt']]);
    expect(commits[0]!.changes).toEqual([['A', 'after.txt']]);
    // Generous bounds (a shared, busy machine): the quadratic reader took about a minute, with the
    // event loop held up to 2 s at a time; the linear one takes a fraction of a second.
    expect(elapsedMs).toBeLessThan(10_000);
    expect(stallMs).toBeLessThan(250);
  }, 120_000);
});

describe('TokenSplitter', () => {
  it('keeps the first bytes of a huge token and drops the rest as it comes: work and memory linear', () => {
    const cap = 4 * MAX_MESSAGE_LENGTH + 4;
    const splitter = new TokenSplitter(0, cap);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const kept = (splitter as unknown as { kept: number }).kept;
    expect(kept).toBe(0);
    let tokens: string[] = [];
    const started = performance.now();
    // 40 MB in 64 KiB chunks, then the end of the token and a small one.
    for (let i = 0; i < 640; i++) {
      expect(splitter.push(chunk)).toEqual([]);
      expect((splitter as unknown as { kept: number }).kept).toBeLessThanOrEqual(cap);
    }
    tokens = splitter.push(Buffer.from('yy\0small\0tail'));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).toBe('x'.repeat(cap));
    expect(tokens[1]).toBe('small');
    expect(splitter.end()).toBe('tail');
    expect(splitter.end()).toBeNull();
  });

  it('splits any chunking of any bytes exactly as decoding and splitting the whole output would, when nothing reaches the cap', () => {
    fc.assert(
      fc.property(
        // Any bytes but NUL: invalid UTF-8 and characters cut by a chunk's end included.
        fc.array(fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes.map((b) => b || 0xe2))), { maxLength: 30 }),
        fc.array(fc.nat({ max: 100 }), { maxLength: 20 }),
        fc.boolean(),
        (tokens, cuts, separatorEnds) => {
          const parts = tokens.flatMap((token, i) => (i > 0 ? [Buffer.from([0]), token] : [token]));
          const whole = Buffer.concat([...parts, Buffer.from(separatorEnds ? [0] : [])]);
          const splitter = new TokenSplitter(0, 1_000);
          const out: string[] = [];
          let at = 0;
          for (const cut of [...cuts, whole.length]) {
            const end = Math.min(whole.length, at + cut);
            out.push(...splitter.push(whole.subarray(at, end)));
            at = end;
          }
          const last = splitter.end();
          if (last !== null) out.push(last);
          const expected = whole.toString('utf8').split('\0');
          if (expected.at(-1) === '') expected.pop();
          expect(out).toEqual(expected);
        },
      ),
    );
  });

  it('cuts a token at the cap wherever the chunks end, a split character included', () => {
    const text = 'é'.repeat(10); // two bytes each
    for (let chunkSize = 1; chunkSize <= 21; chunkSize++) {
      const splitter = new TokenSplitter(0, 7);
      const bytes = Buffer.from(`${text}\0ok\0`);
      const out: string[] = [];
      for (let i = 0; i < bytes.length; i += chunkSize) out.push(...splitter.push(bytes.subarray(i, i + chunkSize)));
      expect(out).toEqual(['ééé\ufffd', 'ok']);
    }
  });
});

describe('hand-made commit objects', () => {
  it('keeps the reader in step past NUL bytes and stores every date git prints, a placeholder included', async () => {
    const repo = createRawCommitRepo([
      { author: 'Mallory\0Evil <mallory\0@example.com> 1700000000 +0000', message: 'feat: a NUL in the author line\n' },
      { author: 'Mallory <mallory@example.com> 1700000000 +0000', message: 'feat: a NUL\0 in the message\n\nthe body after it\n' },
      { author: 'Mallory <mallory@example.com> 99999999999999 +0000', message: 'feat: a date past the year 9999\n' },
      { author: 'Mallory <mallory@example.com> 1700000000 +9999', message: 'feat: an offset of 99 hours\n' },
      { author: 'Mallory <mallory@example.com>', message: 'feat: no date at all\n' },
    ]);
    made.push(repo);
    const commits = (await readAll(repo.dir)).reverse();
    expect(commits.map((c) => c.sha)).toEqual(repo.commits.map((c) => c.sha));
    // git prints a message up to its NUL: nothing after it reaches the parser.
    expect(commits.map((c) => c.message.trimEnd())).toEqual([
      'feat: an ordinary first commit',
      'feat: a NUL in the author line',
      'feat: a NUL',
      'feat: a date past the year 9999',
      'feat: an offset of 99 hours',
      'feat: no date at all',
      'fix: an ordinary commit after them',
    ]);
    // An author line git cannot split: no name, no e-mail, and (instead of "%aI") the epoch.
    expect(commits[1]!.author).toEqual({ name: '', email: '', date: '1970-01-01T00:00:00+00:00' });
    expect(commits[2]!.author.date).toBe('2023-11-14T22:13:20+00:00');
    expect(commits[3]!.author.date).toBe('1970-01-01T00:00:00+00:00');
    // The instant kept, in UTC, when only the offset is impossible.
    expect(commits[4]!.author.date).toBe('2023-11-14T22:13:20+00:00');
    expect(commits[5]!.author.date).toBe('1970-01-01T00:00:00+00:00');
    for (const commit of commits) {
      for (const date of [commit.author.date, commit.committer.date]) {
        expect(date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d([+-](0\d|1[0-5]):[0-5]\d|Z)$/);
        expect(Number.isNaN(Date.parse(date))).toBe(false);
      }
      expect(commit.changes.every(([status, path]) => /^[AMDT]$/.test(status) && path === 'file.txt')).toBe(true);
    }
  });
});
