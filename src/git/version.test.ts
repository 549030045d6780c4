// The server and the worker refuse a git without the fixes of 2.39.4 (issue 21): the dashboard links
// repositories its users name, and an older upload-pack or local clone lets such a repository's
// configuration run commands on the server.
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { runSourceCli } from '../../test/helpers/process.js';
import { isSafeGitVersion, parseGitVersion, requireSafeGit, UnsafeGitError } from './version.js';

describe('the git version', () => {
  it('reads what git says on Linux, Windows and macOS', () => {
    expect(parseGitVersion('git version 2.39.5\n')).toEqual([2, 39, 5]);
    expect(parseGitVersion('git version 2.45.1.windows.1')).toEqual([2, 45, 1]);
    expect(parseGitVersion('git version 2.39.3 (Apple Git-146)')).toEqual([2, 39, 3]);
    expect(parseGitVersion('git version 2.47.0.rc1')).toEqual([2, 47, 0]);
    expect(parseGitVersion('git version 3.0')).toEqual([3, 0, 0]);
    expect(parseGitVersion('hub version 2.14.2')).toBeNull();
  });

  it('accepts 2.39.4 and the fixed release of each later line, and nothing older on any line', () => {
    const safe = ['2.39.4', '2.39.5', '2.40.2', '2.41.1', '2.42.2', '2.43.4', '2.44.1', '2.45.1', '2.45.2', '2.46.0', '2.50.1', '3.0.0'];
    const unsafe = ['2.39.3', '2.39.0', '2.38.9', '1.9.9', '2.40.0', '2.40.1', '2.41.0', '2.42.1', '2.43.3', '2.44.0', '2.45.0'];
    for (const v of safe) expect(isSafeGitVersion(parseGitVersion(`git version ${v}`)!), v).toBe(true);
    for (const v of unsafe) expect(isSafeGitVersion(parseGitVersion(`git version ${v}`)!), v).toBe(false);
  });

  it('refuses with a message naming the minimum, and when git cannot be run at all', async () => {
    await expect(requireSafeGit(async () => 'git version 2.39.5\n')).resolves.toBe('2.39.5');
    await expect(requireSafeGit(async () => 'git version 2.39.3 (Apple Git-146)\n')).rejects.toThrow(/^git 2\.39\.3 is too old: 2\.39\.4 or later is required/);
    await expect(requireSafeGit(async () => 'nonsense')).rejects.toBeInstanceOf(UnsafeGitError);
    await expect(
      requireSafeGit(async () => {
        throw Object.assign(new Error('spawn git ENOENT'), { code: 'ENOENT' });
      }),
    ).rejects.toThrow(/2\.39\.4 or later is required, and `git --version` failed: git is not installed/);
    // The real one, on this machine.
    await expect(requireSafeGit()).resolves.toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('starting with an old git on PATH', () => {
  let bin: string;
  let data: string;

  beforeAll(() => {
    bin = tempDir('old-git');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'git'), '#!/bin/sh\necho "git version 2.39.3"\n');
    chmodSync(join(bin, 'git'), 0o755);
    data = tempDir('old-git-data');
  });

  afterAll(() => {
    rmSync(bin, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it.each([['serve'], ['worker']])('`changelog %s` refuses to start, saying which git and what is required', async (command) => {
    const { code, output } = await runSourceCli([command], { PATH: `${bin}:${process.env.PATH}`, DATA_DIR: join(data, command), LOG_LEVEL: 'warn' });
    expect(code).toBe(1);
    expect(output).toContain('error: git 2.39.3 is too old: 2.39.4 or later is required');
    // Before anything else: no database was opened or created.
    expect(existsSync(join(data, command))).toBe(false);
  }, 60_000);
});
