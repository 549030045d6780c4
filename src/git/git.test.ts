// The git runner reads no configuration of the user or the machine: what we parse, and what git may
// run or fetch, must not depend on whoever's ~/.gitconfig the process inherits.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runGit } from './git.js';

let home: string;
let savedHome: string | undefined;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'git-home-'));
  writeFileSync(join(home, '.gitconfig'), '[core]\n\tfsmonitor = touch /tmp/should-never-run\n[log]\n\tshowSignature = true\n[user]\n\tname = From The Global Config\n');
  savedHome = process.env.HOME;
  process.env.HOME = home;
});

afterEach(() => {
  process.env.HOME = savedHome;
  rmSync(home, { recursive: true, force: true });
});

describe('runGit', () => {
  it("ignores the user's global configuration", async () => {
    // Plain git reads it (the fixture is real)…
    const { execFileSync } = await import('node:child_process');
    expect(execFileSync('git', ['config', '--global', 'user.name'], { env: { ...process.env, HOME: home } }).toString().trim()).toBe('From The Global Config');
    // …the runner does not.
    await expect(runGit(['config', '--get', 'user.name'], { cwd: home })).rejects.toThrow();
    await expect(runGit(['config', '--list', '--show-origin'], { cwd: home })).resolves.not.toContain('.gitconfig');
  });
});
