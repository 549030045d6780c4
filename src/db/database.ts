import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type LogEvent, type Transaction } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { lockDataDir } from './data-dir-lock.js';
import { PGliteDialect } from './pglite-dialect.js';
import type { DB } from './schema.js';

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
/** Repositories accept either the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly db: Db;
  /**
   * Runs `fn` on one session that no other migrating process can enter at the same time
   * (a PostgreSQL advisory lock; the embedded database is already exclusive to this process).
   * `exec` runs a multi-statement SQL script and returns the rows of its last statement.
   */
  withExclusiveSession<T>(fn: (exec: ScriptRunner) => Promise<T>): Promise<T>;
  /** Null on the embedded database, which has no pool. */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}

export type ScriptRunner = (sqlText: string) => Promise<Record<string, unknown>[]>;

/** Arbitrary constant that names the migration lock among PostgreSQL advisory locks. */
const MIGRATION_LOCK_KEY = 7_146_520_431;
const MIGRATION_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export interface OpenOptions {
  /** Called for every statement the query builder runs; tests count statements with it. */
  onQuery?: (event: LogEvent) => void;
  /** Existing PGlite instance (tests clone a migrated template into one). */
  pglite?: PGlite;
  /**
   * Longest wait for a pooled connection, and for any one statement of the query builder, before it
   * fails (and a request is answered 503) instead of hanging on an unreachable server.
   */
  timeoutMs?: number;
}

/** Connection counts of the pool (PostgreSQL only), for /metrics. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<Database> {
  const log = options.onQuery;
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: config.url,
      max: config.poolMax,
      connectionTimeoutMillis: options.timeoutMs ?? 5_000,
      ...(options.timeoutMs ? { query_timeout: options.timeoutMs } : {}),
      application_name: 'changelog-service',
      // Notices a server that vanished without closing (a cut network) on idle connections too.
      keepAlive: true,
    });
    // An idle client that loses its server (restart, failover) must not crash the process.
    pool.on('error', () => {});
    // The pool listens for errors only on idle clients; a client whose connection drops while checked
    // out would emit an unhandled 'error' and end the process. Its query fails on its own, and the
    // pool discards the broken client when it comes back.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
    return {
      kind: 'postgres',
      db,
      async withExclusiveSession(fn) {
        const client = await pool.connect();
        try {
          await client.query({
            text: 'SELECT pg_advisory_lock($1)',
            values: [MIGRATION_LOCK_KEY],
            query_timeout: MIGRATION_TIMEOUT_MS,
          } as pg.QueryConfig);
          try {
            return await fn(async (sqlText) => {
              // Migrations may legitimately run longer than a request's statement timeout.
              const result = (await client.query({ text: sqlText, query_timeout: MIGRATION_TIMEOUT_MS } as pg.QueryConfig)) as
                | pg.QueryResult
                | pg.QueryResult[];
              const last = Array.isArray(result) ? result[result.length - 1] : result;
              return (last?.rows ?? []) as Record<string, unknown>[];
            });
          } finally {
            await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
          }
        } finally {
          client.release();
        }
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      async close() {
        await db.destroy();
      },
    };
  }

  let pglite = options.pglite;
  let unlock = (): void => {};
  if (!pglite) {
    unlock = lockDataDir(config.dataDir);
    try {
      pglite = await PGlite.create(config.dataDir);
    } catch (error) {
      unlock();
      throw error;
    }
  }
  const instance = pglite;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(instance), ...(log ? { log } : {}) });
  return {
    kind: 'pglite',
    db,
    async withExclusiveSession(fn) {
      // Hold the driver's single connection so no query-builder statement interleaves.
      return db.connection().execute(() =>
        fn(async (sqlText) => {
          const results = await instance.exec(sqlText);
          return (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[];
        }),
      );
    },
    poolStats: () => null,
    async close() {
      await db.destroy();
      if (!instance.closed) await instance.close();
      unlock();
    },
  };
}
