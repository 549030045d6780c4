// Builds small real repositories with the git CLI (the one kind of IO a generation unit test does).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/helpers/cli.js';
import { commitFiles, git as gitIn } from '../../test/helpers/git.js';
import { readRepository } from './local.js';

let dir: string;
const shas: Record<string, string> = {};

const git = (args: string[], date = '2024-01-10T12:00:00+00:00', author?: string) => gitIn(dir, args, { date, ...(author ? { author } : {}) });

function commit(label: string, message: string, files: Record<string, string | null>, date: string, author?: string) {
  shas[label] = commitFiles(dir, message, files, { date, ...(author ? { author } : {}) });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gen-git-'));
  git(['init', '-q', '-b', 'main']);
  commit('init', 'chore: initial commit', { 'README.md': 'hi', '.github/CODEOWNERS': '* @acme/core\n/docs/ @acme/docs\n' }, '2024-01-08T10:00:00+00:00');
  commit('feat', 'feat(api): add pagination (#3)\n\nCo-authored-by: Grace Hopper <grace@example.com>', { 'packages/api/list.ts': 'x', 'packages/web/a b.ts': 'y' }, '2024-01-09T10:00:00+02:00');
  git(['tag', 'v1.0.0']);
  git(['checkout', '-q', '-b', 'topic']);
  commit('topic', 'fix: handle ünïcode paths', { 'docs/naïve\tname.md': 'z' }, '2024-01-10T23:30:00-05:00', 'Bea <bea@example.com>');
  git(['checkout', '-q', 'main']);
  commit('docs', 'docs: explain', { 'README.md': null, 'docs/guide.md': 'g' }, '2024-01-11T10:00:00+00:00');
  git(['merge', '-q', '--no-ff', '-m', 'Merge pull request #4 from acme/topic\n\nfix: handle ünïcode paths', 'topic'], '2024-01-12T10:00:00+00:00');
  shas.merge = git(['rev-parse', 'HEAD']);
  git(['tag', '-a', 'v1.1.0', '-m', 'release 1.1.0'], '2024-01-12T11:00:00+00:00');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reading a repository with git', () => {
  it('reads parents, people, dates, full messages, changes, tags, co-authors and PR numbers, oldest first', async () => {
    const { commits, codeowners } = await readRepository(dir);
    expect(commits.map((c) => c.sha)).toHaveLength(5);
    expect(commits[0]!.sha).toBe(shas.init);
    const feat = commits.find((c) => c.sha === shas.feat)!;
    expect(feat).toEqual({
      sha: shas.feat,
      parents: [shas.init],
      author: { name: 'Ada', email: 'ada@example.com', date: '2024-01-09T10:00:00+02:00' },
      committer: { name: 'Ada', email: 'ada@example.com', date: '2024-01-09T10:00:00+02:00' },
      message: 'feat(api): add pagination (#3)\n\nCo-authored-by: Grace Hopper <grace@example.com>\n',
      changes: [['A', 'packages/api/list.ts'], ['A', 'packages/web/a b.ts']],
      tags: ['v1.0.0'],
      coAuthors: [{ name: 'Grace Hopper', email: 'grace@example.com' }],
      prNumber: 3,
    });
    expect(commits.find((c) => c.sha === shas.topic)!.changes).toEqual([['A', 'docs/naïve\tname.md']]);
    expect(commits.find((c) => c.sha === shas.docs)!.changes).toEqual([['D', 'README.md'], ['A', 'docs/guide.md']]);
    const merge = commits.find((c) => c.sha === shas.merge)!;
    expect(merge.parents).toEqual([shas.docs, shas.topic]);
    expect(merge.prNumber).toBe(4);
    expect(merge.tags).toEqual(['v1.1.0']); // annotated tag, peeled to its commit
    expect(merge.changes).toEqual([['A', 'docs/naïve\tname.md']]); // against the first parent
    expect(codeowners).toContain('@acme/docs');
  });

  it('refuses a revision that git would take for an option', async () => {
    await expect(readRepository(dir, { rev: '--output=/tmp/owned' })).rejects.toThrow(/is not a revision/);
    await expect(readRepository(dir, { rev: 'main' })).resolves.toMatchObject({ commits: expect.any(Array) });
  });

  it('reads from a date on', async () => {
    const { commits } = await readRepository(dir, { since: new Date('2024-01-11T00:00:00Z') });
    expect(commits.map((c) => c.sha).sort()).toEqual([shas.docs, shas.merge, shas.topic].sort());
  });
});

describe('changelog preview', () => {
  const run = (...args: string[]) => runCli(['preview', '--path', dir, ...args]);

  it('prints weekly Markdown, newest first, with teams from CODEOWNERS and version labels', async () => {
    const { code, stdout } = await run();
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        '## Week 2024-W02 (8–14 January 2024) (v1.1.0)',
        '',
        '### Features',
        '',
        '- **api:** Add pagination (#3)',
        '',
        '### Bug fixes',
        '',
        '- Handle ünïcode paths',
        '',
        '### Documentation',
        '',
        '- Explain',
        '',
        '_By acme/core and acme/docs_', // two commits each: ties go alphabetically
        '',
      ].join('\n'),
    );
  });

  it('prints JSON entries in the project time zone, storing nothing', async () => {
    const { code, stdout } = await run('--type', 'daily', '--format', 'json', '--timezone', 'America/New_York');
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    // The topic commit (10 January, 23:30 in New York) reached main with its merge on the 12th.
    expect(out.entries.map((e: { key: string }) => e.key)).toEqual(['daily:2024-01-12', 'daily:2024-01-11', 'daily:2024-01-09']);
    const mergeDay = out.entries[0];
    // v1.1.0 is tagged on the merge, that day.
    expect(mergeDay).toMatchObject({ period_start: '2024-01-12T05:00:00.000Z', period_end: '2024-01-13T05:00:00.000Z', version_label: 'v1.1.0' });
    expect(mergeDay.commit_shas).toContain(shas.topic);
    expect(out.stats).toMatchObject({ commits: 5, skipped: { merge: 1 } });
  });

  it('prints commit entries with the first release that contains them', async () => {
    const out = JSON.parse((await run('--type', 'commit', '--json')).stdout);
    const labels = Object.fromEntries(out.entries.map((e: { commit_shas: string[]; version_label: string }) => [e.commit_shas[0], e.version_label]));
    expect(labels).toEqual({ [shas.feat!]: 'v1.0.0', [shas.topic!]: 'v1.1.0', [shas.docs!]: 'v1.1.0' });
  });

  it('refuses what is not a repository and bad options with a clear error', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'not-a-repo-'));
    const notRepo = await runCli(['preview', '--path', empty, '--json']);
    rmSync(empty, { recursive: true });
    expect(notRepo.code).toBe(1);
    expect(JSON.parse(notRepo.stderr)).toMatchObject({ code: 'invalid_request', error: expect.stringMatching(/is not a git repository/) });
    const bad = await run('--type', 'hourly');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/hourly/);
    const tz = await run('--timezone', 'Nowhere/Land', '--json');
    expect(tz.code).toBe(1);
    expect(JSON.parse(tz.stderr)).toMatchObject({ code: 'invalid_request', details: [{ message: expect.stringMatching(/Nowhere\/Land/) }] });
  });
});
