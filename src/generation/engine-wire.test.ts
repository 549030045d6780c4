import { describe, expect, it } from 'vitest';
import { generate } from './engine/engine.js';
import { entryToStore, packCommits, toCommitRecords, unpackCommits } from './engine-wire.js';
import { resolveSettings } from './settings.js';
import type { CommitRecord } from '../git/commit-record.js';

const commits: CommitRecord[] = [
  {
    sha: 'a'.repeat(40),
    parents: [],
    author: { name: 'Zoë ✨', email: 'z@example.com', date: '2024-01-01T10:00:00+01:00' },
    committer: { name: 'Ci', email: 'ci@example.com', date: '2024-01-01T10:00:05+01:00' },
    message: 'feat(core): émoji 🎉 (#2147483647)\n\nbody\u0000with a NUL\r\n\nCo-authored-by: Bó 🎉 <bo@example.com>',
    changes: [
      ['A', 'packages/core/ä.ts'],
      ['D', ''],
    ],
    tags: ['v1.0.0', ''],
    coAuthors: [
      { name: 'Bó 🎉', email: 'bo@example.com' },
      { name: '', email: '' },
    ],
    prNumber: 2_147_483_647,
    dependencies: { runtime: ['qs'], dev: ['@types/node', 'ä'] },
  },
  {
    sha: 'b'.repeat(40),
    parents: ['a'.repeat(40), 'c'.repeat(40)],
    author: { name: '', email: '', date: '' },
    committer: { name: '', email: '', date: '' },
    message: '',
    changes: [],
    tags: [],
    coAuthors: [],
    prNumber: null,
  },
  {
    sha: 'd'.repeat(40),
    parents: ['b'.repeat(40)],
    author: { name: 'A', email: 'a@example.com', date: '2024-01-02T10:00:00Z' },
    committer: { name: 'A', email: 'a@example.com', date: '2024-01-02T10:00:00Z' },
    message: 'ci: drop the release notes configuration, add a fragment',
    changes: [['D', '.github/release.yml']],
    tags: [],
    coAuthors: [],
    prNumber: null,
    // '' (deleted) is not "absent".
    releaseConfig: '',
    fragments: [{ path: 'changelog.d/1.feature.md', text: 'ä 🎉\n' }],
  },
  {
    sha: 'e'.repeat(40),
    parents: ['d'.repeat(40)],
    author: { name: 'A', email: 'a@example.com', date: '2024-01-03T10:00:00Z' },
    committer: { name: 'A', email: 'a@example.com', date: '2024-01-03T10:00:00Z' },
    message: 'ci: release notes configuration',
    changes: [['A', '.github/release.yml']],
    tags: [],
    coAuthors: [],
    prNumber: null,
    releaseConfig: 'changelog:\n  categories: []\n',
  },
];

describe('what crosses to the generation thread', () => {
  it('unpacks commits exactly as packed: empty fields, astral characters, NULs, co-authors, PR numbers, dependency changes, release configurations and fragments (or none) included', async () => {
    expect(unpackCommits(structuredClone(await packCommits(commits)))).toEqual(commits);
    expect(unpackCommits(await packCommits([]))).toEqual([]);
    // As storage hands them over: fragments still JSON text.
    const stored = commits.map((c) => (c.fragments ? { ...c, fragments: JSON.stringify(c.fragments) } : c));
    expect(unpackCommits(await packCommits(stored))).toEqual(commits);
    expect(toCommitRecords(stored)).toEqual(commits);
  });

  it('packs a history of many slices (the event loop turns between them) exactly as one', async () => {
    const many = Array.from({ length: 4_501 }, (_, i) => ({ ...commits[i % 2]!, sha: i.toString(16).padStart(40, '0'), prNumber: i || null }));
    expect(unpackCommits(await packCommits(many))).toEqual(many);
    // Slices by size too: a few commits with messages of megabytes.
    const large = Array.from({ length: 5 }, (_, i) => ({ ...commits[0]!, sha: String(i).padStart(40, '0'), message: `${i}`.repeat(3 * 1024 * 1024) }));
    expect(unpackCommits(await packCommits(large))).toEqual(large);
  });

  it('takes changes, co-authors and dependency changes as the JSON text storage holds, on the wire and inline', async () => {
    const stored = commits.map((c) => ({
      ...c,
      changes: JSON.stringify(c.changes),
      coAuthors: JSON.stringify(c.coAuthors),
      ...(c.dependencies ? { dependencies: JSON.stringify(c.dependencies) } : {}),
    }));
    expect(unpackCommits(await packCommits(stored))).toEqual(commits);
    expect(toCommitRecords(stored)).toEqual(commits);
  });

  it('refuses packed commits whose lengths do not add up', async () => {
    const packed = await packCommits(commits);
    expect(() => unpackCommits({ ...packed, text: `${packed.text}x` })).toThrow('packed commits do not match their lengths');
  });

  it('sends the stored JSON of an entry unless storage holds its fingerprint already', () => {
    const [entry] = generate(commits, resolveSettings({ entryTypes: ['commit'] })).entries;
    const fresh = entryToStore(entry!, undefined);
    expect(JSON.parse(fresh.record!)).toEqual({
      generation_key: entry!.key,
      entry_type: 'commit',
      title: entry!.title,
      content: entry!.content,
      generated_json: entry!.generated_json,
      version_label: entry!.version_label,
      team_attribution: entry!.team_attribution,
      component_tags: entry!.component_tags,
      commit_shas: entry!.commit_shas,
      period_start: null,
      period_end: null,
      fingerprint: entry!.fingerprint,
    });
    expect(entryToStore(entry!, 'stale').record).toBe(fresh.record);
    expect(entryToStore(entry!, entry!.fingerprint, 1_700_000_000_000)).toEqual({
      key: entry!.key,
      entry_type: 'commit',
      fingerprint: entry!.fingerprint,
      commit_sha: entry!.commit_sha,
      period_end: null,
      commit_shas: null,
      arrived_at: 1_700_000_000_000,
      record: null,
    });
  });
});
