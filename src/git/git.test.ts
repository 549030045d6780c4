// The git runner reads no configuration of the user or the machine: what we parse, and what git may
// run or fetch, must not depend on whoever's ~/.gitconfig the process inherits.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStuckRemote, type StuckRemote } from '../../test/helpers/hostile-repos.js';
import { DEFAULT_GIT_LIMITS, GitError, runGit, setGitLimits, streamGitTokens } from './git.js';

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

// Security issue #21, finding 4: a remote that answers its advertisement and never sends the pack
// held a worker for good (no timeout, no low-speed limit). Every git process now has a time budget
// and a stall limit, and stopping it stops its helpers (git-remote-http holds the connection).
describe('the limits of a git process', () => {
  let remote: StuckRemote;
  let scratch: string;

  beforeAll(async () => {
    remote = await startStuckRemote();
    scratch = mkdtempSync(join(tmpdir(), 'git-limits-'));
  });

  afterAll(async () => {
    setGitLimits(DEFAULT_GIT_LIMITS);
    await remote?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Waits until the remote holds no connection: every git helper that had one is gone. */
  const connectionsClosed = async () => {
    for (let i = 0; i < 100 && remote.openConnections() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    return remote.openConnections();
  };

  it('gives up a fetch that receives nothing for the stall limit, saying it timed out', async () => {
    setGitLimits({ timeoutMs: 60_000, stallMs: 1_000 });
    const held = remote.fetchesHeld();
    const started = Date.now();
    const error = await runGit(['clone', '--bare', '--quiet', remote.url, join(scratch, 'stalled')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).message).toMatch(/^git clone timed out: the remote sent less than 1,000 bytes\/s for 1 s/);
    expect((error as GitError).timedOut).toBe(true);
    expect(remote.fetchesHeld()).toBe(held + 1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await connectionsClosed()).toBe(0);
  });

  it('stops a command over its time budget, and the helpers it started with it', async () => {
    // The stall limit far away: only the budget can end this clone.
    setGitLimits({ timeoutMs: 1_000, stallMs: 600_000 });
    const started = Date.now();
    const error = await runGit(['clone', '--bare', '--quiet', remote.url, join(scratch, 'budget')]).catch((e: unknown) => e);
    expect((error as GitError).message).toBe('git clone timed out: still running after 1 s (the time budget of one git command)');
    expect((error as GitError).timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(8_000);
    // git-remote-http held the connection; it was stopped with git (its process group).
    expect(await connectionsClosed()).toBe(0);
  });

  it('stops a streamed command whose output stalls, even where curl would wait', async () => {
    setGitLimits({ timeoutMs: 60_000, stallMs: 1_000 });
    const started = Date.now();
    const read = async () => {
      for await (const batch of streamGitTokens(['clone', '--bare', '--quiet', remote.url, join(scratch, 'streamed')], { config: { 'http.lowSpeedTime': '600' } })) void batch;
    };
    await expect(read()).rejects.toThrow(/^git clone timed out: no output for 1 s$/);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(await connectionsClosed()).toBe(0);
  });

  it('counts no stall while the caller holds the stream (storing what it read)', async () => {
    setGitLimits({ timeoutMs: 60_000, stallMs: 1_000 });
    const repo = join(scratch, 'blob');
    execFileSync('git', ['init', '--quiet', '--bare', repo]);
    // 4 MB of lines: git blocks on the full pipe while the caller waits longer than the stall limit.
    const sha = execFileSync('git', ['--git-dir', repo, 'hash-object', '-w', '--stdin'], { input: 'a line of text\n'.repeat(280_000) }).toString().trim();
    let lines = 0;
    let paused = false;
    for await (const batch of streamGitTokens(['cat-file', 'blob', sha], { gitDir: repo, separator: 0x0a })) {
      lines += batch.length;
      if (!paused) {
        paused = true;
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
    }
    expect(lines).toBe(280_000);
  });

  it('lets a budget given for one call only tighten the configured one', async () => {
    setGitLimits({ timeoutMs: 60_000, stallMs: 600_000 });
    const started = Date.now();
    await expect(runGit(['clone', '--bare', '--quiet', remote.url, join(scratch, 'tight')], { timeoutMs: 1_000 })).rejects.toThrow(/timed out: still running after 1 s/);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(await connectionsClosed()).toBe(0);
  });
});
