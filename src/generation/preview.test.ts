// `changelog preview --type release`: release notes of a real local repository (the git CLI builds it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/helpers/cli.js';
import { commitFiles, git as gitIn } from '../../test/helpers/git.js';

let dir: string;

const git = (args: string[], date = '2024-01-10T12:00:00+00:00') => gitIn(dir, args, { date });
const commit = (message: string, path: string, date: string, tag?: string) => commitFiles(dir, message, { [path]: message }, { date, tag });
const run = (...args: string[]) => runCli(['preview', '--path', dir, ...args]);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'preview-releases-'));
  git(['init', '-q', '-b', 'main']);
  commit('feat: first feature', 'src/a.ts', '2024-03-01T10:00:00+00:00', 'v1.0.0');
  commit('feat(pkg): package feature', 'packages/pkg/b.ts', '2024-03-02T10:00:00+00:00', 'pkg@2.0.0');
  commit('feat: beta feature', 'src/c.ts', '2024-03-03T10:00:00+00:00', '1.2.0-beta.1');
  commit('fix: final fix', 'src/d.ts', '2024-03-04T10:00:00+00:00', '1.2.0');
  commit('fix: not released yet', 'src/e.ts', '2024-03-05T10:00:00+00:00');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('changelog preview --type release', () => {
  it('prints release notes newest first, Unreleased on top, per package series, finals covering their pre-releases', async () => {
    const { code, stdout } = await run('--type', 'release');
    expect(code).toBe(0);
    const headings = stdout.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual([
      '## Unreleased (since 1.2.0)',
      '## 1.2.0 (2024-03-04 · since v1.0.0)',
      '## 1.2.0-beta.1 (2024-03-03 · pre-release · since v1.0.0)',
      '## pkg@2.0.0 (2024-03-02 · package pkg)',
      '## v1.0.0 (2024-03-01)',
    ]);
    const final = stdout.slice(stdout.indexOf('## 1.2.0 ('), stdout.indexOf('## 1.2.0-beta.1'));
    expect(final).toContain('Beta feature');
    expect(final).toContain('Final fix');
    expect(final).not.toContain('Package feature');
  });

  it('prints JSON release notes, with entries when asked for both', async () => {
    const out = JSON.parse((await run('--type', 'release,weekly', '--json')).stdout);
    expect(out.entry_types).toEqual(['weekly']);
    expect(out.entries.length).toBeGreaterThan(0);
    expect(out.releases.map((r: { tag: string | null }) => r.tag)).toEqual([null, '1.2.0', '1.2.0-beta.1', 'pkg@2.0.0', 'v1.0.0']);
    expect(out.releases[1]).toMatchObject({ version: '1.2.0', previous_tag: 'v1.0.0', prerelease: false, package: null });
    expect(out.releases[0]).not.toHaveProperty('fingerprint');
    const limited = JSON.parse((await run('--type', 'release', '--json', '--limit', '2')).stdout);
    expect(limited.releases).toHaveLength(2);
    expect(limited.entries).toEqual([]);
  });

  it('names release among the types a bad --type may be', async () => {
    const bad = await run('--type', 'releases');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/release/);
  });
});
