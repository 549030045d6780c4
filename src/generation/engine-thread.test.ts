import { afterAll, describe, expect, it } from 'vitest';
import { createThreadEngine, GenerationTimeout, inlineEngine } from './engine-thread.js';
import { resolveSettings } from './settings.js';
import type { CommitRecord } from './types.js';

const commit = (i: number, message: string): CommitRecord => ({
  sha: i.toString(16).padStart(40, '0'),
  parents: [],
  author: { name: 'A', email: 'a@example.com', date: `2024-01-0${(i % 9) + 1}T10:00:00+00:00` },
  committer: { name: 'A', email: 'a@example.com', date: `2024-01-0${(i % 9) + 1}T10:00:00+00:00` },
  message,
  changes: [['M', `packages/p${i % 3}/index.ts`]],
  tags: [],
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
});
