import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type LogEvent, type Transaction } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { advertiseSocket, DataDirLockedError, holderName, type Holder } from './data-dir-lock.js';
import { startEmbeddedThread, type EmbeddedStart } from './embedded-start.js';
import { PGliteDialect } from './pglite-dialect.js';
import type { DB } from './schema.js';
import { SessionLock } from './session-lock.js';
import type { FromThread, ToThread } from './pglite-thread.js';
import { SOCKET_PORT } from './socket-server.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
/** Repositories accept either the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly db: Db;
  /** Where read-only routes read: a replica when DATABASE_READ_URL is set, otherwise `db`. */
  readonly readDb: Db;
  /**
   * Runs `fn` on one session that no other migrating process can enter at the same time
   * (a PostgreSQL advisory lock; the embedded database is already exclusive to this process).
   * `exec` runs a multi-statement SQL script and returns the rows of its last statement.
   */
  withExclusiveSession<T>(fn: (exec: ScriptRunner) => Promise<T>): Promise<T>;
  /**
   * Subscribes to a NOTIFY channel. `onStatus(false)` reports a lost subscription (notifications
   * may have been missed) and `onStatus(true)` a working one; PostgreSQL subscriptions reconnect
   * by themselves. Resolves to an unsubscribe function.
   */
  listen(channel: string, onMessage: (payload: string) => void, onStatus: (live: boolean) => void): Promise<() => Promise<void>>;
  /**
   * Runs raw SQL for libraries that bring their own (the pg-boss job queue). Without values the
   * text may hold several statements. On the embedded database it waits its turn like any query.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** Null on the embedded database, which has no pool. */
  poolStats(): PoolStats | null;
  /**
   * Set when this process reaches the embedded database through the process that holds DATA_DIR
   * (the server, or a `changelog worker` started alone: its pid, socket and role): the connection is
   * `pg` over that socket, as with DATABASE_URL.
   */
  readonly via?: Via;
  /**
   * Only on the embedded database opened from DATA_DIR: shares it with other processes over its
   * thread's Unix socket in DATA_DIR (see socket-server.ts) by recording the socket, and what this
   * process is (`holder`, default the server), in the directory's lock. `close()` stops it.
   */
  shareOverSocket?(options?: { idleInTransactionMs?: number; holder?: Holder; publicUrl?: string }): Promise<{ path: string }>;
  close(): Promise<void>;
}

export type ScriptRunner = (sqlText: string) => Promise<Record<string, unknown>[]>;

/** The process this one reaches the embedded database through. */
export interface Via {
  pid: number;
  socket: string;
  /** Null when its lock does not say (an older version, which was always the server). */
  holder: Holder | null;
  /** The server's public address, when its lock says (links printed here point there). */
  publicUrl?: string;
}

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
  /**
   * When a server holds DATA_DIR and shares it, go through its socket (the default: the CLI, a
   * separate worker). False for the server itself: a second one fails as before instead of
   * stacking on the first.
   */
  throughServer?: boolean;
  /** The embedded database's thread, started early by the caller (embedded-start.ts); DATA_DIR is then already locked. */
  started?: EmbeddedStart;
}

/** Connection counts of the pool (PostgreSQL only), for /metrics. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Marks a statement (anywhere in its text) as one to run as a named prepared statement on PostgreSQL. */
export const PREPARED = '/* prepared */';

/**
 * Runs statements marked PREPARED as named prepared statements on this connection: parsed and
 * planned once per connection instead of on every request (PostgreSQL falls back to custom plans
 * by itself when a generic one would be worse). Only marked statements: their text is fixed, so
 * the per-connection cache stays small, whereas a generated IN-list would make a new one each time.
 */
function prepareMarkedStatements(client: pg.PoolClient, suffix = ''): Map<string, string> {
  const names = new Map<string, string>();
  const bases = new Map<string, string>();
  const runs = new Map<string, number>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const parsed = () => (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    if (typeof text === 'string' && Array.isArray(values) && text.includes(PREPARED)) {
      let name = names.get(text);
      if (name === undefined) {
        name = `p${createHash('sha1').update(text).digest('hex').slice(0, 16)}${suffix}`;
        names.set(text, name);
        bases.set(text, name);
      }
      if (suffix) {
        // An embedded client lives as long as the server, and a plan lives as long as its
        // statement: nothing there analyzes, so nothing tells a generic plan made on a few rows
        // that the tables grew. Prepared again under a new name every REPLAN_EVERY runs.
        const count = (runs.get(text) ?? 0) + 1;
        runs.set(text, count);
        if (count % REPLAN_EVERY === 0) {
          const old = name;
          names.set(text, (name = `${bases.get(text)!}_${count / REPLAN_EVERY}`));
          delete parsed()[old];
          (query(`DEALLOCATE ${old}`) as Promise<unknown>).catch(() => {});
        }
      }
      const statement = name;
      const run = () => query({ name: statement, text, values }, ...rest);
      if (!suffix || rest.length) return run();
      // On the embedded database's shared session, anyone on its socket may have dropped it
      // (DEALLOCATE ALL, DISCARD ALL): pg would bind it for good without parsing it again.
      return (run() as Promise<unknown>).catch((error: unknown) => {
        if ((error as { code?: string }).code !== '26000') throw error;
        delete parsed()[statement];
        return run();
      });
    }
    return query(text, values, ...rest);
  };
  return names;
}

/** Runs of a marked statement on an embedded client before it is prepared (and planned) again. */
export const REPLAN_EVERY = 1_000;

/**
 * The embedded database is one session that every client of its socket shares, so a statement name
 * one client prepared exists for all. The holder's own pool still prepares its marked statements
 * (planning the public reads' statements on every request cost more than the reads themselves):
 * each client under names of its own, kept while the server runs (its clients do not idle out),
 * and deallocated when the pool drops a client.
 */
function prepareEmbedded(pool: pg.Pool): void {
  let clients = 0;
  const prepared = new WeakMap<pg.PoolClient, Map<string, string>>();
  pool.on('connect', (client) => prepared.set(client, prepareMarkedStatements(client, `_${++clients}`)));
  pool.on('remove', (client) => {
    const names = prepared.get(client as pg.PoolClient);
    if (!names?.size || (pool as pg.Pool & { ending?: boolean }).ending) return;
    // Best effort: a failure leaves a few plans in the session until the server stops.
    for (const name of names.values()) pool.query(`DEALLOCATE ${name}`).catch(() => {});
  });
}

export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<Database> {
  if (config.kind === 'postgres') {
    return openPool(
      { connectionString: config.url, max: config.poolMax },
      { readConnectionString: config.readUrl, preparedStatements: config.preparedStatements !== false, listenUrl: config.url },
      options,
    );
  }

  if (options.pglite) return openInThisThread(options.pglite, options);
  let started: EmbeddedStart;
  try {
    started = options.started ?? startEmbeddedThread(config.dataDir);
  } catch (error) {
    // A server holds the directory and shares it: go through it.
    if (error instanceof DataDirLockedError && error.socket && options.throughServer !== false) return openThroughServer(error, options);
    throw error;
  }
  try {
    return await openEmbedded(started, options);
  } catch (error) {
    started.unlock();
    throw error;
  }
}

/**
 * A PGlite instance the caller made (tests clone a migrated template into one; scripts), run in this
 * thread: the query builder takes turns on its single session. Never the server's way: its
 * embedded database runs in a thread of its own (`openEmbedded`).
 */
function openInThisThread(instance: PGlite, options: OpenOptions): Database {
  const log = options.onQuery;
  const lock = new SessionLock();
  const db = new Kysely<DB>({ dialect: new PGliteDialect(instance, lock), ...(log ? { log } : {}) });
  return {
    kind: 'pglite',
    db,
    readDb: db,
    async withExclusiveSession(fn) {
      // Hold the driver's single connection so no query-builder statement interleaves.
      return db.connection().execute(() =>
        fn(async (sqlText) => {
          const results = await instance.exec(sqlText);
          return (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[];
        }),
      );
    },
    async listen(channel, onMessage, onStatus) {
      const unsubscribe = await lock.run(() => instance.listen(channel, onMessage));
      onStatus(true);
      return async () => {
        // Closing the database first ends the subscription with it.
        if (!instance.closed) await lock.run(() => unsubscribe());
      };
    },
    async executeSql(text, values = []) {
      return db.connection().execute(async () => {
        if (values.length) return { rows: (await instance.query<Record<string, unknown>>(text, values)).rows };
        const results = await instance.exec(text);
        return { rows: (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[] };
      });
    },
    poolStats: () => null,
    async close() {
      await db.destroy();
      if (!instance.closed) await instance.close();
    },
  };
}

/** How many connections this process opens to its embedded database's thread. */
const EMBEDDED_POOL_MAX = 10;

/**
 * The embedded database in DATA_DIR, run in a thread of its own (pglite-thread.ts) so that its SQL
 * never runs on this thread's event loop: the HTTP server stays responsive while a tenant's preview,
 * generation or ingest keeps the database busy. This process reaches it as every other process does,
 * `pg` over its Unix socket; what only the holder has: its notifications (its own connections hear
 * theirs in their own streams, in order with the commit's answer; the thread forwards other
 * processes'), migrations without an advisory lock (this process alone holds DATA_DIR), and sharing
 * the socket (advertising it in the lock).
 */
async function openEmbedded({ dataDir, thread, ownApplication, unlock }: EmbeddedStart, options: OpenOptions): Promise<Database> {
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const statuses = new Set<(live: boolean) => void>();
  const subscribed = new Map<string, Promise<void>>();
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let closing = false;
  let exited = false;
  const dispatch = (channel: string, payload: string) => {
    for (const listener of listeners.get(channel) ?? []) queueMicrotask(() => listener(payload));
  };

  const socket = await new Promise<string>((resolve, reject) => {
    const onMessage = (message: FromThread) => {
      if (message.type === 'ready') resolve(message.socket);
      else if (message.type === 'failed') reject(new Error(message.message));
    };
    thread.on('message', onMessage);
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`The embedded database's thread stopped while opening ${dataDir} (exit code ${code})`)));
  }).catch(async (error: unknown) => {
    await thread.terminate();
    throw error;
  });
  thread.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
  thread.on('message', (message: FromThread) => {
    if (message.type === 'notify') dispatch(message.channel, message.payload);
    else if (message.type === 'reply') {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (pending.size === 0) thread.unref();
      if (message.error) waiter?.reject(new Error(message.error));
      else waiter?.resolve();
    }
  });
  thread.on('error', () => {});
  thread.on('exit', (code) => {
    exited = true;
    for (const waiter of pending.values()) waiter.reject(new Error(`The embedded database's thread stopped (exit code ${code})`));
    pending.clear();
    if (closing) return;
    for (const onStatus of statuses) onStatus(false);
    // Nothing works without the database: fail loudly (the server shuts down and its supervisor restarts it).
    process.nextTick(() => {
      throw new Error(`The embedded database's thread stopped unexpectedly (exit code ${code})`);
    });
  });
  // The thread does not keep the process alive by itself, only while a request to it is pending.
  thread.unref();
  const request = (message: DistributiveOmit<ToThread, 'id'>) =>
    new Promise<void>((resolve, reject) => {
      if (exited) return reject(new Error("The embedded database's thread has stopped"));
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      thread.ref();
      thread.postMessage({ ...message, id });
    });

  const database = openPool(
    { host: dirname(socket), port: SOCKET_PORT, user: 'postgres', database: 'postgres', max: EMBEDDED_POOL_MAX },
    { readConnectionString: null, preparedStatements: false, listenUrl: null, embedded: { applicationName: ownApplication, onNotification: dispatch } },
    options,
  );
  let shared = false;
  return {
    ...database,
    kind: 'pglite',
    async listen(channel, onMessage, onStatus) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(onMessage);
      let subscribing = subscribed.get(channel);
      if (!subscribing) subscribed.set(channel, (subscribing = request({ op: 'listen', channel })));
      try {
        await subscribing;
      } catch (error) {
        set.delete(onMessage);
        if (subscribed.get(channel) === subscribing) subscribed.delete(channel);
        throw error;
      }
      statuses.add(onStatus);
      onStatus(true);
      return async () => {
        statuses.delete(onStatus);
        set.delete(onMessage);
        if (set.size === 0 && subscribed.get(channel) === subscribing) {
          subscribed.delete(channel);
          if (!exited && !closing) await request({ op: 'unlisten', channel }).catch(() => {});
        }
      };
    },
    async shareOverSocket({ holder = 'server', idleInTransactionMs, publicUrl }: { idleInTransactionMs?: number; holder?: Holder; publicUrl?: string } = {}) {
      await request({ op: 'share', idleInTransactionMs });
      advertiseSocket(dataDir, socket, holder, publicUrl ?? null);
      shared = true;
      return { path: socket };
    },
    async close() {
      if (closing) return;
      closing = true;
      // Other processes stop finding the socket; then this process's connections end; then the
      // thread disconnects the others (rolling back what they left open) and closes the database.
      if (shared) advertiseSocket(dataDir, null);
      try {
        await database.close();
      } finally {
        try {
          if (!exited) await request({ op: 'close' });
        } finally {
          await thread.terminate();
          unlock();
        }
      }
    },
  };
}

/**
 * The embedded database of a server that shares it (see socket-server.ts): `pg` over its Unix
 * socket. Named prepared statements stay off (every client shares the one session, where a name
 * would already exist), and so does LISTEN (only the holder hears notifications). The schema is the
 * server's business: migrate.ts applies nothing through here.
 */
async function openThroughServer(locked: DataDirLockedError, options: OpenOptions): Promise<Database> {
  const socket = locked.socket!;
  const database = await openPool(
    { host: dirname(socket), port: SOCKET_PORT, user: 'postgres', database: 'postgres', max: 4 },
    {
      readConnectionString: null,
      preparedStatements: false,
      listenUrl: null,
      via: { pid: locked.pid, socket, holder: locked.holder, ...(locked.publicUrl ? { publicUrl: locked.publicUrl } : {}) },
    },
    options,
  );
  try {
    await database.executeSql('SELECT 1');
  } catch (error) {
    // Ignored: the server could not be reached; the error below says so, a close error would only hide it.
    await database.close().catch(() => {});
    throw new DataDirLockedError(
      locked.dataDir,
      locked.pid,
      socket,
      `The embedded database in ${locked.dataDir} is held by ${holderName(locked.holder ?? 'server', locked.pid)}, ` +
        `but its socket ${socket} does not answer (${(error as Error).message}); is it starting or stopping?`,
      locked.holder,
      locked.publicUrl,
    );
  }
  return database;
}

interface PoolOptions {
  readConnectionString: string | null;
  preparedStatements: boolean;
  /** Where LISTEN connects; null where it cannot. */
  listenUrl: string | null;
  via?: Via;
  /**
   * The holder's own pool on its embedded database's thread: its connections' name, and where the
   * notifications in their streams go. No advisory lock for migrations (this process alone holds
   * DATA_DIR, and through the socket such a lock would exclude nothing), and no timeouts, as when
   * the database ran in this thread: waiting for the single session is waiting for one's turn, and
   * a thread that stopped fails the connection at once.
   */
  embedded?: { applicationName: string; onNotification: (channel: string, payload: string) => void };
}

function openPool(connection: pg.PoolConfig, poolOptions: PoolOptions, options: OpenOptions): Database {
  const log = options.onQuery;
  const embedded = poolOptions.embedded;
  const pool = new pg.Pool({
    ...connection,
    connectionTimeoutMillis: embedded ? 0 : (options.timeoutMs ?? 5_000),
    ...(options.timeoutMs && !embedded ? { query_timeout: options.timeoutMs } : {}),
    application_name: embedded?.applicationName ?? 'changelog-service',
    // Notices a server that vanished without closing (a cut network) on idle connections too.
    keepAlive: true,
    // The embedded pool's connections stay: each holds prepared statements of its own (prepareEmbedded).
    ...(embedded ? { idleTimeoutMillis: 0 } : {}),
  });
  // An idle client that loses its server (restart, failover) must not crash the process.
  pool.on('error', () => {});
  // The pool listens for errors only on idle clients; a client whose connection drops while checked
  // out would emit an unhandled 'error' and end the process. Its query fails on its own, and the
  // pool discards the broken client when it comes back.
  pool.on('connect', (client) => client.on('error', () => {}));
  if (poolOptions.preparedStatements) pool.on('connect', (client) => prepareMarkedStatements(client));
  else if (embedded) prepareEmbedded(pool);
  if (embedded) pool.on('connect', (client) => client.on('notification', (message) => embedded.onNotification(message.channel, message.payload ?? '')));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
  let readDb = db;
  if (poolOptions.readConnectionString) {
    const readPool = new pg.Pool({
      connectionString: poolOptions.readConnectionString,
      max: connection.max,
      connectionTimeoutMillis: 5_000,
      application_name: 'changelog-service-read',
    });
    readPool.on('error', () => {});
    readPool.on('connect', (client) => client.on('error', () => {}));
    if (poolOptions.preparedStatements) readPool.on('connect', (client) => prepareMarkedStatements(client));
    readDb = new Kysely<DB>({ dialect: new PostgresDialect({ pool: readPool }), ...(log ? { log } : {}) });
  }
  const listenUrl = poolOptions.listenUrl;
  return {
    kind: 'postgres',
    db,
    readDb,
    ...(poolOptions.via ? { via: poolOptions.via } : {}),
    async withExclusiveSession(fn) {
      const client = await pool.connect();
      if (embedded) {
        try {
          return await fn(async (sqlText) => {
            const result = (await client.query(sqlText)) as pg.QueryResult | pg.QueryResult[];
            const last = Array.isArray(result) ? result[result.length - 1] : result;
            return (last?.rows ?? []) as Record<string, unknown>[];
          });
        } finally {
          client.release();
        }
      }
      try {
        await client.query({
          text: 'SELECT pg_advisory_lock($1)',
          values: [MIGRATION_LOCK_KEY],
          query_timeout: MIGRATION_TIMEOUT_MS,
        } as pg.QueryConfig);
        try {
          return await fn(async (sqlText) => {
            // Migrations may legitimately run longer than a request's statement timeout.
            const result = (await client.query({ text: sqlText, query_timeout: MIGRATION_TIMEOUT_MS } as pg.QueryConfig)) as pg.QueryResult | pg.QueryResult[];
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
    listen: (channel, onMessage, onStatus) => {
      if (listenUrl === null) return Promise.reject(new Error('Only the server that holds the embedded database hears its notifications'));
      return listenPostgres(listenUrl, channel, onMessage, onStatus);
    },
    async executeSql(text, values = []) {
      const result = (await pool.query(text, values)) as pg.QueryResult | pg.QueryResult[];
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      return { rows: (last?.rows ?? []) as Record<string, unknown>[] };
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      if (readDb !== db) await readDb.destroy();
      await db.destroy();
    },
  };
}

/**
 * LISTEN on a dedicated connection (a pooled one would be handed to other queries). When the
 * connection drops, the subscriber hears `onStatus(false)` at once and the connection is retried
 * with backoff until it works again.
 */
async function listenPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onStatus: (live: boolean) => void,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
  let client: pg.Client | undefined;
  let stopped = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;

  const retry = () => {
    if (stopped || timer) return;
    onStatus(false);
    const delay = Math.min(5_000, 100 * 2 ** attempt++);
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    timer.unref();
  };

  const connect = async () => {
    const current = new pg.Client({
      connectionString: url,
      application_name: 'changelog-service-listener',
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client = current;
    current.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    current.on('error', () => retry());
    current.on('end', () => retry());
    try {
      await current.connect();
      await current.query(`LISTEN ${channel}`);
      // Ignored (here and below): ending a listener connection that is being dropped; retry() reports the loss.
      if (stopped) return void (await current.end().catch(() => {}));
      attempt = 0;
      onStatus(true);
    } catch {
      await current.end().catch(() => {});
      retry();
    }
  };

  await connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    // Ignored: unsubscribing drops the connection whether or not it ends cleanly.
    await client?.end().catch(() => {});
  };
}
