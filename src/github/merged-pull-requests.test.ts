// What the client keeps of a merged pull request GitHub's GraphQL API lists: every field untrusted,
// checked and capped before it is stored or reaches the engine.
import { describe, expect, it } from 'vitest';
import { capUtf8, PULL_REQUEST_LIMITS, toMergedPullRequest } from './github.client.js';

const sha = (c: string) => c.repeat(40);

describe('capUtf8', () => {
  it('keeps a text within the limit as it is, and cuts a longer one at a character boundary', () => {
    expect(capUtf8('short', 10)).toBe('short');
    // é is 2 bytes, 😀 is 4 (a surrogate pair): never half of either.
    expect(capUtf8('éééé', 5)).toBe('éé');
    expect(capUtf8('a😀b', 4)).toBe('a');
    expect(capUtf8('a😀b', 5)).toBe('a😀');
    const cut = capUtf8('😀'.repeat(20_000), PULL_REQUEST_LIMITS.bodyBytes);
    expect(Buffer.byteLength(cut)).toBe(PULL_REQUEST_LIMITS.bodyBytes);
    expect(cut).not.toContain('\uFFFD');
  });
});

describe('toMergedPullRequest', () => {
  const node = {
    number: 12,
    title: 'feat: search',
    body: null,
    updatedAt: '2026-02-01T10:00:00Z',
    mergedAt: '2026-01-31T10:00:00Z',
    author: { __typename: 'Bot', login: 'renovate' },
    labels: { nodes: [{ name: 'dependencies' }, null, { name: 42 }] },
    mergeCommit: { oid: sha('a') },
    commits: { nodes: [{ commit: { oid: sha('b') } }, { commit: { oid: 'not-a-sha' } }, null] },
  };

  it('takes what the engine reads: a bot by its type, an empty body for none, only well-formed SHAs and label names', () => {
    expect(toMergedPullRequest(node)).toEqual({
      number: 12,
      title: 'feat: search',
      body: '',
      labels: ['dependencies'],
      author: { login: 'renovate', isBot: true },
      mergedAt: '2026-01-31T10:00:00.000Z',
      updatedAt: '2026-02-01T10:00:00.000Z',
      mergeCommitSha: sha('a'),
      commitShas: [sha('b')],
    });
  });

  it('gives a deleted account (ghost) as no author, and drops a node that is not a merged pull request', () => {
    expect(toMergedPullRequest({ ...node, author: null })?.author).toBeNull();
    expect(toMergedPullRequest({ ...node, mergedAt: null })).toBeNull();
    expect(toMergedPullRequest({ ...node, number: -1 })).toBeNull();
    expect(toMergedPullRequest(null)).toBeNull();
  });
});
