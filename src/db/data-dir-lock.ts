import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { removeStaleSocket } from './socket-server.js';

/** What holds a data directory it shares: `changelog serve` or a `changelog worker` started alone. */
export type Holder = 'server' | 'worker';

/** The holder as messages name it. */
export const holderName = (holder: Holder | null, pid: number) =>
  holder === 'worker' ? `\`changelog worker\` (pid ${pid})` : holder === 'server' ? `the server (pid ${pid})` : `another process (pid ${pid})`;

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    /** The holder's socket (see socket-server.ts) when it shares the database; null otherwise. */
    readonly socket: string | null = null,
    detail?: string,
    /** What the holder is, when it shares the database and says so (older versions do not). */
    readonly holder: Holder | null = null,
    /** The address of the server that holds it, when it says (see advertiseSocket). */
    readonly publicUrl: string | null = null,
  ) {
    super(
      detail ??
        `The embedded database in ${dataDir} is in use by ${holderName(holder, pid)}; stop it first` +
          // The server would run that worker's jobs itself.
          (holder === 'worker' ? ' (the server runs the background worker itself)' : '') +
          ', or set DATABASE_URL to share a PostgreSQL server between processes.',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * PGlite has no inter-process locking, and two processes writing one data directory corrupt it.
 * An exclusive lock file guards the directory: its first line is the owner's pid; a process that
 * shares the database adds a `socket=PATH` line, a `role=server|worker` line and, a server, a
 * `url=PUBLIC_URL` line (older versions read only the pid). A lock left by
 * a process that no longer exists (kill -9, power loss) is taken over at once, socket and all, so a
 * crash never blocks the restart. A lock file holding our own pid that this process did not take is
 * stale too: in a container every restart is pid 1.
 */
/** Locks this process holds, with the socket each advertises. */
const heldHere = new Map<string, { socket: string | null; holder: Holder | null; publicUrl: string | null }>();

const lockPathOf = (dataDir: string) => join(dataDir, 'changelog.lock');

function readHolder(lockPath: string): { pid: number; socket: string | null; holder: Holder | null; publicUrl: string | null } {
  const text = readFileSync(lockPath, 'utf8');
  const socket = /^socket=(.+)$/m.exec(text)?.[1] ?? null;
  const role = /^role=(.+)$/m.exec(text)?.[1];
  const publicUrl = /^url=(.+)$/m.exec(text)?.[1] ?? null;
  return { pid: Number.parseInt(text, 10), socket, holder: role === 'server' || role === 'worker' ? role : null, publicUrl };
}

export function lockDataDir(dataDir: string): () => void {
  // The owner's alone, as PostgreSQL requires of its data directory: the embedded database writes
  // its files 0666 whatever the umask, so this directory's mode is all that keeps other local users out.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dataDir, 0o700);
  } catch (error) {
    // Someone else's directory (a mount point we may write but not chmod): left as the operator set it.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
  const lockPath = lockPathOf(dataDir);
  const here = heldHere.get(lockPath);
  if (here) throw new DataDirLockedError(dataDir, process.pid, here.socket, undefined, here.holder, here.publicUrl);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.set(lockPath, { socket: null, holder: null, publicUrl: null });
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
        throw new DataDirLockedError(dataDir, holder.pid, holder.socket, undefined, holder.holder, holder.publicUrl);
      }
      rmSync(lockPath, { force: true });
      removeStaleSocket(dataDir, holder.socket);
    }
  }
  throw new Error(`Could not lock ${dataDir}: another process keeps creating ${lockPath}`);
}

/**
 * Records in the lock this process holds where other processes reach its database (null: nowhere),
 * what this process is, for their messages, and a server's public address (PUBLIC_URL, or its
 * PORT's), for the links they print: `changelog users invite` in another shell, whose settings may
 * not name the port the server listens on.
 */
export function advertiseSocket(dataDir: string, socket: string | null, holder: Holder = 'server', publicUrl: string | null = null): void {
  const lockPath = lockPathOf(dataDir);
  if (!heldHere.has(lockPath)) throw new Error(`${dataDir} is not locked by this process`);
  // Written aside and renamed over the lock, so a reader sees the old or the new content, never half.
  const staging = `${lockPath}.${process.pid}`;
  writeFileSync(staging, `${process.pid}\n${socket ? `socket=${socket}\nrole=${holder}\n${publicUrl ? `url=${publicUrl}\n` : ''}` : ''}`);
  renameSync(staging, lockPath);
  heldHere.set(lockPath, socket ? { socket, holder, publicUrl } : { socket: null, holder: null, publicUrl: null });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
