import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Config } from '../config.js';
import { lockDataDir } from '../db/data-dir-lock.js';
import { AppError } from '../errors.js';

const POSTGRES_HINT =
  'With DATABASE_URL the data lives in PostgreSQL: back it up with pg_dump --format=custom and restore it with ' +
  'pg_restore (see docs/operations.md, "Backup and restore").';

function embeddedDataDir(config: Config): string {
  if (config.database.kind !== 'pglite') throw new AppError('invalid_request', POSTGRES_HINT);
  return config.database.dataDir;
}

/** True when the directory holds a database (PGlite's data directory has a PG_VERSION file). */
function holdsDatabase(dir: string): boolean {
  return existsSync(resolve(dir, 'PG_VERSION'));
}

/**
 * Writes `data` to `file` for the service user alone (0600) at every moment, whatever the umask: a
 * new file beside it, created with that mode (O_EXCL: never someone else's file, nor a link), then
 * renamed over `file`, so an older archive there that others could read is replaced, not reused.
 */
async function writePrivateFile(file: string, data: Buffer): Promise<void> {
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  try {
    const handle = await open(partial, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * Writes the embedded database to one gzip'd tar file (PGlite's dumpDataDir), 0600: it holds password,
 * session and key hashes and webhook secrets. The data directory is locked meanwhile, like any process
 * that opens it: stop the server first.
 */
export async function backupEmbedded(config: Config, outFile: string): Promise<{ dataDir: string; file: string; bytes: number }> {
  const dataDir = embeddedDataDir(config);
  if (!holdsDatabase(dataDir)) throw new AppError('not_found', `No embedded database in ${dataDir}`);
  const file = resolve(outFile);
  const unlock = lockDataDir(dataDir);
  try {
    const pglite = await PGlite.create(dataDir);
    try {
      const archive = await pglite.dumpDataDir('gzip');
      await writePrivateFile(file, Buffer.from(await archive.arrayBuffer()));
    } finally {
      await pglite.close();
    }
  } finally {
    unlock();
  }
  return { dataDir, file, bytes: (await stat(file)).size };
}

/**
 * Replaces the embedded database with a backup. The archive is unpacked into a new directory beside
 * the target and checked (it opens, and it is this service's schema) before anything is touched; an
 * existing database is kept, renamed aside, and only replaced with `force`.
 */
export async function restoreEmbedded(
  config: Config,
  archiveFile: string,
  options: { force: boolean },
): Promise<{ dataDir: string; schemaVersion: number; previous: string | null }> {
  const dataDir = embeddedDataDir(config);
  if (holdsDatabase(dataDir) && !options.force) {
    throw new AppError('conflict', `${dataDir} already holds a database; restore with --force to replace it (it is kept aside)`);
  }
  let archive: Buffer;
  try {
    archive = await readFile(archiveFile);
  } catch (error) {
    throw new AppError('not_found', `Cannot read ${archiveFile}: ${(error as Error).message}`);
  }

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const staging = resolve(dirname(dataDir), `.${stamp}-restoring`);
  let schemaVersion: number;
  const unlockStaging = lockDataDir(staging);
  try {
    let pglite: PGlite;
    try {
      pglite = await PGlite.create(staging, { loadDataDir: new Blob([archive]) });
    } catch (error) {
      throw new AppError('invalid_request', `${archiveFile} is not a backup of the embedded database: ${(error as Error).message}`);
    }
    try {
      const result = await pglite
        .query<{ version: number }>('SELECT max(version) AS version FROM schema_migrations')
        .catch(() => undefined);
      if (!result) throw new AppError('invalid_request', `${archiveFile} holds a database, but not this service's (no schema_migrations)`);
      schemaVersion = Number(result.rows[0]?.version ?? 0);
    } finally {
      await pglite.close();
    }
  } catch (error) {
    unlockStaging();
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  unlockStaging();

  // The target is locked for the swap, so a running server (which holds the lock) is never replaced.
  let previous: string | null = null;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    const unlockTarget = lockDataDir(dataDir);
    unlockTarget();
    previous = `${dataDir}.replaced-${stamp}`;
    renameSync(dataDir, previous);
  } else if (existsSync(dataDir)) {
    rmSync(dataDir, { recursive: true });
  }
  renameSync(staging, dataDir);
  return { dataDir, schemaVersion, previous };
}
