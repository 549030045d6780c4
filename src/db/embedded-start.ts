/**
 * Locking DATA_DIR and starting the embedded database's thread (pglite-thread.ts), with nothing heavy
 * imported: a command without a server starts the thread first, and PGlite's start (most of such a
 * command's time) overlaps the loading of the query builder, the services and the command itself
 * (cli/main.ts). database.ts `openEmbedded` takes the started thread over.
 */
import { randomBytes } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { lockDataDir } from './data-dir-lock.js';
import type { ThreadData } from './pglite-thread.js';
import { startModuleWorker } from '../worker-threads.js';

export interface EmbeddedStart {
  dataDir: string;
  thread: Worker;
  /** The application_name of this process's connections to the thread (others cannot guess it). */
  ownApplication: string;
  /** Releases DATA_DIR's lock. */
  unlock: () => void;
}

/** Locks DATA_DIR (throws DataDirLockedError when another process holds it) and starts the thread on it. */
export function startEmbeddedThread(dataDir: string): EmbeddedStart {
  const unlock = lockDataDir(dataDir);
  try {
    const ownApplication = `changelog-holder-${randomBytes(8).toString('hex')}`;
    const thread = startModuleWorker(import.meta.url, 'pglite-thread', {}, { dataDir, ownApplication } satisfies ThreadData);
    return { dataDir, thread, ownApplication, unlock };
  } catch (error) {
    unlock();
    throw error;
  }
}
