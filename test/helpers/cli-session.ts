import { rmSync } from 'node:fs';
import { expect } from 'vitest';
import { runCli } from './cli.js';
import { createCoreServices } from '../../src/core-services.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { testConfig } from './config.js';
import { createTestDatabase, seedDataDir, usePostgres, type TestDatabase } from './database.js';
import { datasetRepoCopy, removeRepoCopy, tempDir } from './git-fixtures.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json<T = Record<string, unknown>>(): T;
}

export interface CliSession {
  env: Record<string, string>;
  /** A temporary directory the session removes when it closes. */
  scratch: string;
  /** A copy of the git-cliff dataset repository, for `repos link --path`. */
  origin: string;
  /** Runs the CLI in-process as a user would (its own database connection) and returns its exit code and output. */
  run(args: string[], extra?: { progress?: NodeJS.WriteStream }): Promise<CliRun>;
  /**
   * The installation's services, for what no command does (a release editor's edits): on the session's
   * shared embedded database, or on its PostgreSQL scratch database. Not for unshared embedded sessions.
   */
  withServices<T>(fn: (services: ReturnType<typeof createCoreServices>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A scratch installation for CLI tests: its own database (a PostgreSQL scratch database, or an embedded
 * one in a temporary directory, held open and shared when `shared`), user ada@example.com and her project `cliff`.
 */
export async function startCliSession(name: string, options: { shared?: boolean } = {}): Promise<CliSession> {
  const scratch = tempDir(name);
  const origin = datasetRepoCopy();
  const env: Record<string, string> = { NODE_ENV: 'test', REPOS_DIR: `${scratch}/repos`, DEMO_SEED: 'false' };
  let database: TestDatabase | undefined;
  let holder: Database | undefined;
  if (usePostgres) {
    database = await createTestDatabase();
    env.DATABASE_URL = database.url!;
  } else {
    env.DATA_DIR = `${scratch}/data`;
    await seedDataDir(env.DATA_DIR);
    if (options.shared) {
      // `shared`: the embedded database is held open for the session and shared over its socket, as a
      // running server shares it, so each command connects instead of starting the database (seconds each).
      holder = await openDatabase({ kind: 'pglite', dataDir: env.DATA_DIR });
      await holder.shareOverSocket!().catch(async (error: unknown) => {
        await holder!.close();
        throw error;
      });
    }
  }
  const run: CliSession['run'] = async (args, extra = {}) => {
    const output = await runCli(args, { env, ...extra });
    return { ...output, json: <T,>() => JSON.parse(output.stdout) as T };
  };
  expect((await run(['users', 'create', '--email', 'ada@example.com', '--name', 'Ada'])).code).toBe(0);
  expect((await run(['projects', 'create', '--name', 'Cliff', '--slug', 'cliff', '--owner', 'user:ada@example.com'])).code).toBe(0);
  const withServices: CliSession['withServices'] = async (fn) => {
    const config = testConfig(env);
    if (holder) return fn(createCoreServices(holder, config));
    if (!database) throw new Error('withServices needs a shared session or PostgreSQL');
    const opened = await openDatabase(config.database);
    try {
      return await fn(createCoreServices(opened, config));
    } finally {
      await opened.close();
    }
  };
  return {
    env,
    scratch,
    origin,
    run,
    withServices,
    async close() {
      await holder?.close();
      await database?.close();
      removeRepoCopy(origin);
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
