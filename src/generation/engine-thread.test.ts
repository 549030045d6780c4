import { afterAll, describe, expect, it } from 'vitest';
import { createThreadEngine, GenerationBusy, GenerationTimeout, inlineEngine } from './engine-thread.js';
import { resolveSettings } from './settings.js';
import type { CommitRecord } from '../git/commit-record.js';
import { buildCommit } from '../../test/helpers/commits.js';
import type { EntryToStore } from './engine-wire.js';

const commit = (i: number, message: string): CommitRecord =>
  buildCommit({
    sha: i.toString(16).padStart(40, '0'), name: 'A', email: 'a@example.com', date: `2024-01-0${(i % 9) + 1}T10:00:00+00:00`,
    message, changes: [['M', `packages/p${i % 3}/index.ts`]],
  });

const engine = createThreadEngine({ budgetMs: 60_000 });
afterAll(() => engine.close());

describe('generation in a worker thread', () => {
  it('produces what the engine produces in the calling thread, warnings included', async () => {
    const commits = [commit(1, 'feat: one'), commit(2, 'fix(core): two (#3)'), commit(3, 'docs: three')];
    const settings = { ...resolveSettings({ entryTypes: ['commit', 'weekly'] }), codeowners: '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b @x\n/docs/ @acme/docs' };
    const inThread = await engine.run({ kind: 'generate', commits, settings, options: {} });
    const inline = await inlineEngine.run({ kind: 'generate', commits, settings, options: {} });
    expect(inThread).toEqual(inline);
    expect(inThread.entries.length).toBeGreaterThan(3);
    expect(inThread.warnings).toEqual([expect.stringMatching(/^CODEOWNERS line 1 skipped: glob ".*…" is longer than 512 characters$/)]);
    // The thread is kept for the next run.
    expect((await engine.run({ kind: 'generate', commits: [], settings, options: {} })).entries).toEqual([]);
  });

  it("makes release notes with the host's pull requests in the thread as inline, the repository's files and warnings included", async () => {
    const root = buildCommit({ message: 'feat: start', tags: ['v1.0.0'], date: '2024-01-01T10:00:00Z' });
    const config = buildCommit({ parents: [root.sha], message: 'ci: notes', releaseConfig: 'changelog: [', date: '2024-01-02T10:00:00Z' });
    const change = buildCommit({
      parents: [config.sha],
      message: 'Add export (#7)',
      fragments: [{ path: 'changelog.d/7.feature.md', text: 'Export to CSV.' }],
      tags: ['v1.1.0'],
      date: '2024-01-03T10:00:00Z',
    });
    const pullRequests = [
      {
        number: 7,
        title: 'Add export',
        body: '',
        labels: ['enhancement'],
        author: { login: 'dev', isBot: false },
        mergedAt: '2024-01-03T10:00:00Z',
        mergeCommitSha: change.sha,
        commitShas: [],
      },
    ];
    const settings = resolveSettings({ entryTypes: [] });
    const request = {
      kind: 'generate' as const,
      commits: [root, config, change],
      settings,
      options: {},
      releases: { stored: new Map<string, string>() },
      pullRequests,
    };
    const inThread = await engine.run(request);
    expect(inThread).toEqual(await inlineEngine.run(request));
    const note = JSON.parse(inThread.releases!.find((r) => r.tag === 'v1.1.0')!.record!) as { content: string };
    expect(note.content).toContain('- Export to CSV. (#7)');
    expect(note.content).toContain('@dev made their first contribution in #7');
    expect(inThread.warnings).toEqual([expect.stringMatching(/^\.github\/release\.yml is not valid YAML and was ignored/)]);
    const preview = await engine.run({ kind: 'release', commits: [root, config, change], settings, tip: change.sha, tag: 'v1.1.0', pullRequests });
    expect(preview?.content).toBe(note.content);
  });

  it('streams the entries and the release notes ahead of the result when asked, in the thread and inline alike', async () => {
    const commits = Array.from({ length: 1200 }, (_, i) => commit(i, i % 2 ? `feat: change ${i}` : `fix: change ${i}`));
    const settings = resolveSettings({ entryTypes: ['commit', 'daily', 'weekly'] });
    const request = { kind: 'generate' as const, commits, settings, options: {}, releases: { stored: new Map<string, string>() } };
    const whole = await engine.run(request);
    expect(whole.releases!.length).toBeGreaterThan(0);
    for (const run of [engine, inlineEngine]) {
      const batches: EntryToStore[][] = [];
      const streamed = await run.run(request, { onEntries: (entries) => batches.push(entries) });
      // More than one batch: storage can start before the engine ends.
      expect(batches.length).toBeGreaterThan(1);
      // The same entries; commit entries in the commits' order (as each is classified), then the rollups in order.
      const byKey = (a: EntryToStore, b: EntryToStore) => (a.key < b.key ? -1 : 1);
      expect([...batches.flat()].sort(byKey)).toEqual([...whole.entries].sort(byKey));
      const keys = batches.flat().map((e) => e.key);
      const commitKeys = (list: string[]) => list.filter((k) => k.startsWith('commit:'));
      expect(commitKeys(keys)).toEqual(commits.map((c) => `commit:${c.sha}`));
      expect(keys.slice(commitKeys(keys).length)).toEqual(whole.entries.filter((e) => e.entry_type !== 'commit').map((e) => e.key));
      expect(streamed).toEqual({ ...whole, entries: [] });

      // Release notes too, once the commits are classified: before the first rollup.
      const order: string[] = [];
      let notes: unknown;
      const both = await run.run(request, {
        onEntries: (entries) => order.push(...entries.map((e) => e.entry_type)),
        onReleases: (releases) => {
          order.push('releases');
          notes = releases;
        },
      });
      expect(order.filter((o) => o === 'releases')).toHaveLength(1);
      expect(order.indexOf('releases')).toBeLessThan(order.indexOf('daily'));
      expect(notes).toEqual(whole.releases);
      expect(both).toEqual({ entries: [], warnings: whole.warnings });
    }
  });

  it('works out an incremental run\'s reach in the thread, as inline: the touched commits\' entries and the keys it speaks for', async () => {
    const commits = [commit(1, 'feat: one'), commit(2, 'fix: two'), commit(3, 'docs: three')];
    const settings = resolveSettings({ entryTypes: ['commit', 'weekly'] });
    // A stored label the index no longer gives (a Date crosses to the thread as a Date).
    const stale = { sha: commits[0]!.sha, components: [], periodStart: new Date('2024-01-01T00:00:00Z'), periodEnd: new Date('2024-01-08T00:00:00Z'), label: 'v9' };
    const request = { kind: 'generate' as const, commits, settings, options: {}, touch: { shas: [commits[1]!.sha], labels: [stale] } };
    const inThread = await engine.run(request);
    expect(inThread).toEqual(await inlineEngine.run(request));
    expect(inThread.touched).toEqual({ commits: 2, keys: expect.arrayContaining([`commit:${commits[0]!.sha}`, `commit:${commits[1]!.sha}`]) as string[] });
    expect(inThread.entries.filter((e) => e.entry_type === 'commit').map((e) => e.key).sort()).toEqual([`commit:${commits[0]!.sha}`, `commit:${commits[1]!.sha}`].sort());
    expect((await engine.run({ ...request, touch: undefined })).touched).toBeUndefined();
  });

  it('fails a streamed run whose receiver throws, and runs the next one', async () => {
    const commits = Array.from({ length: 1200 }, (_, i) => commit(i, `feat: change ${i}`));
    const request = { kind: 'generate' as const, commits, settings: resolveSettings({}), options: {} };
    await expect(
      engine.run(request, {
        onEntries: () => {
          throw new Error('storage failed');
        },
      }),
    ).rejects.toThrow('storage failed');
    expect((await engine.run(request)).entries).toEqual((await inlineEngine.run(request)).entries);
  });

  it('stops a run that exceeds its time budget and fails it with GenerationTimeout', async () => {
    const tight = createThreadEngine({ budgetMs: 1 });
    // A fresh thread alone takes longer than 1 ms to start.
    const commits = Array.from({ length: 2000 }, (_, i) => commit(i, `feat: change ${i}`));
    await expect(tight.run({ kind: 'generate', commits, settings: resolveSettings({}), options: {} })).rejects.toThrow(GenerationTimeout);
    await expect(tight.run({ kind: 'generate', commits, settings: resolveSettings({}), options: {} })).rejects.toThrow(
      'generation exceeded its time budget of 1 ms (GENERATION_TIME_BUDGET_MS) and was stopped',
    );
    await tight.close();
  });

  it('previews a pull request in the thread as inline, and a pull request\'s text cannot outlast the budget', async () => {
    const pr = { number: 7, title: 'feat(search): add `fuzzy` matching', body: 'Matches words that are nearly right.', author: 'octo', headSha: 'b'.repeat(40), files: ['src/search.ts'] };
    const request = { kind: 'pull-request' as const, commits: [], pr, settings: resolveSettings({}), repoUrl: 'https://github.com/acme/app' };
    const inThread = await engine.run(request);
    expect(inThread).toEqual(await inlineEngine.run(request));
    expect(inThread).toMatchObject({ section: 'Features', component: 'search', text: 'Add `fuzzy` matching (#7)', warnings: [] });
    const tight = createThreadEngine({ budgetMs: 1 });
    const hostile = { ...pr, title: `fix: ${'`*_['.repeat(5_000)}`, body: '# '.repeat(10_000) };
    await expect(tight.run({ ...request, pr: hostile })).rejects.toThrow(GenerationTimeout);
    await tight.close();
  });

  it('runs at most maxThreads at once, queues up to maxQueued, and refuses the rest at once (503)', async () => {
    const bounded = createThreadEngine({ budgetMs: 60_000, maxThreads: 1, maxQueued: 2 });
    const commits = Array.from({ length: 300 }, (_, i) => commit(i, `feat: change ${i}`));
    const runs = Array.from({ length: 6 }, () => bounded.run({ kind: 'generate', commits, settings: resolveSettings({}), options: {} }));
    const results = await Promise.allSettled(runs);
    // One runs, two wait their turn; the other three are refused without a thread of their own.
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);
    expect(refused).toHaveLength(3);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(GenerationBusy);
      expect((reason as GenerationBusy).code).toBe('unavailable');
    }
    // Once the queue drains, runs are taken again.
    expect((await bounded.run({ kind: 'generate', commits: [], settings: resolveSettings({}), options: {} })).entries).toEqual([]);
    await bounded.close();
  });
});
