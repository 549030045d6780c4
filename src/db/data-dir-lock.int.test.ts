import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

const dir = () => mkdtempSync(join(tmpdir(), 'changelog-lock-'));

describe('lockDataDir', () => {
  it('refuses a directory another live process holds, with a one-line message', async () => {
    const dataDir = dir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(join(dataDir, 'changelog.lock'), String(holder.pid));
      let error: unknown;
      try {
        lockDataDir(dataDir);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as Error).message).toContain(`in use by another process (pid ${holder.pid})`);
      expect((error as Error).message).not.toContain('\n');
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over a lock left by a process that died', async () => {
    const dataDir = dir();
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('exit', resolve));
    writeFileSync(join(dataDir, 'changelog.lock'), String(dead.pid));
    const release = lockDataDir(dataDir);
    expect(readFileSync(join(dataDir, 'changelog.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dataDir, 'changelog.lock'))).toBe(false);
  });

  it('treats a lock holding its own pid as stale (containers restart as pid 1)', () => {
    const dataDir = dir();
    writeFileSync(join(dataDir, 'changelog.lock'), String(process.pid));
    const release = lockDataDir(dataDir);
    release();
  });

  it('is exclusive within one process too', () => {
    const dataDir = dir();
    const release = lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    release();
    lockDataDir(dataDir)();
  });
});
