import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advertiseSocket, DataDirLockedError, lockDataDir } from './data-dir-lock.js';
import { SOCKET_DIR_NAME } from './socket-server.js';

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

  it('names the socket a live holder shares its database on', async () => {
    const dataDir = dir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(join(dataDir, 'changelog.lock'), `${holder.pid}\nsocket=/somewhere/.s.PGSQL.5432\n`);
      const error = (() => {
        try {
          lockDataDir(dataDir);
        } catch (e) {
          return e as DataDirLockedError;
        }
      })();
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect(error).toMatchObject({ pid: holder.pid, socket: '/somewhere/.s.PGSQL.5432' });
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('records the socket in its own lock, readable by versions that read only the pid', () => {
    const dataDir = dir();
    const release = lockDataDir(dataDir);
    advertiseSocket(dataDir, '/run/x/.s.PGSQL.5432');
    const text = readFileSync(join(dataDir, 'changelog.lock'), 'utf8');
    expect(Number.parseInt(text, 10)).toBe(process.pid);
    expect(text).toContain('socket=/run/x/.s.PGSQL.5432');
    expect(() => lockDataDir(dataDir)).toThrow(expect.objectContaining({ socket: '/run/x/.s.PGSQL.5432' }));
    release();
  });

  it('says what holds the directory when the holder says it: a worker started alone is named, with what to do', async () => {
    const dataDir = dir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(join(dataDir, 'changelog.lock'), `${holder.pid}\nsocket=/somewhere/.s.PGSQL.5432\nrole=worker\n`);
      const error = (() => {
        try {
          lockDataDir(dataDir);
        } catch (e) {
          return e as DataDirLockedError;
        }
      })();
      expect(error).toMatchObject({ pid: holder.pid, holder: 'worker' });
      expect(error!.message).toContain(`in use by \`changelog worker\` (pid ${holder.pid}); stop it first (the server runs the background worker itself)`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('records its role beside the socket (the server unless told otherwise)', () => {
    const dataDir = dir();
    const release = lockDataDir(dataDir);
    advertiseSocket(dataDir, '/run/x/.s.PGSQL.5432', 'worker');
    expect(readFileSync(join(dataDir, 'changelog.lock'), 'utf8')).toBe(`${process.pid}\nsocket=/run/x/.s.PGSQL.5432\nrole=worker\n`);
    expect(() => lockDataDir(dataDir)).toThrow(expect.objectContaining({ holder: 'worker' }));
    advertiseSocket(dataDir, '/run/x/.s.PGSQL.5432');
    expect(readFileSync(join(dataDir, 'changelog.lock'), 'utf8')).toContain('role=server\n');
    release();
  });

  it("takes over a crashed server's lock and removes the socket it left", async () => {
    const dataDir = dir();
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('exit', resolve));
    const socketDir = join(dataDir, SOCKET_DIR_NAME);
    mkdirSync(socketDir);
    writeFileSync(join(socketDir, '.s.PGSQL.5432'), '');
    writeFileSync(join(dataDir, 'changelog.lock'), `${dead.pid}\nsocket=${join(socketDir, '.s.PGSQL.5432')}\n`);
    const release = lockDataDir(dataDir);
    expect(existsSync(socketDir)).toBe(false);
    release();
  });
});
