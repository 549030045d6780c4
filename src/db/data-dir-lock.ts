import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { removeStaleSocket } from './socket-server.js';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    /** The holder's socket (see socket-server.ts) when it shares the database; null otherwise. */
    readonly socket: string | null = null,
    detail?: string,
  ) {
    super(
      detail ??
        `The embedded database in ${dataDir} is in use by another process (pid ${pid}); ` +
          'stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * PGlite has no inter-process locking, and two processes writing one data directory corrupt it.
 * An exclusive lock file guards the directory: its first line is the owner's pid; a server that
 * shares the database adds a `socket=PATH` line (older versions read only the pid). A lock left by
 * a process that no longer exists (kill -9, power loss) is taken over at once, socket and all, so a
 * crash never blocks the restart. A lock file holding our own pid that this process did not take is
 * stale too: in a container every restart is pid 1.
 */
/** Locks this process holds, with the socket each advertises. */
const heldHere = new Map<string, string | null>();

const lockPathOf = (dataDir: string) => join(dataDir, 'changelog.lock');

function readHolder(lockPath: string): { pid: number; socket: string | null } {
  const text = readFileSync(lockPath, 'utf8');
  const socket = /^socket=(.+)$/m.exec(text)?.[1] ?? null;
  return { pid: Number.parseInt(text, 10), socket };
}

export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = lockPathOf(dataDir);
  if (heldHere.has(lockPath)) throw new DataDirLockedError(dataDir, process.pid, heldHere.get(lockPath));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.set(lockPath, null);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(lockPath);
        rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(lockPath);
      if (Number.isInteger(holder.pid) && holder.pid !== process.pid && isAlive(holder.pid)) {
        throw new DataDirLockedError(dataDir, holder.pid, holder.socket);
      }
      rmSync(lockPath, { force: true });
      removeStaleSocket(dataDir, holder.socket);
    }
  }
  throw new Error(`Could not lock ${dataDir}: another process keeps creating ${lockPath}`);
}

/** Records in the lock this process holds where other processes reach its database (null: nowhere). */
export function advertiseSocket(dataDir: string, socket: string | null): void {
  const lockPath = lockPathOf(dataDir);
  if (!heldHere.has(lockPath)) throw new Error(`${dataDir} is not locked by this process`);
  // Written aside and renamed over the lock, so a reader sees the old or the new content, never half.
  const staging = `${lockPath}.${process.pid}`;
  writeFileSync(staging, `${process.pid}\n${socket ? `socket=${socket}\n` : ''}`);
  renameSync(staging, lockPath);
  heldHere.set(lockPath, socket);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
