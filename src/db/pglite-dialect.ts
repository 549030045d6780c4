import type { PGlite, SerializerOptions } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { SessionLock } from './session-lock.js';

/**
 * Kysely dialect for the embedded PGlite database. PGlite is a single session, so the driver hands
 * out one connection at a time: a transaction keeps it until Kysely releases it, and other queries
 * wait their turn instead of interleaving with the transaction's statements. The turn is taken on
 * `lock`, which the database shares with the server's socket (see socket-server.ts).
 */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly pglite: PGlite,
    private readonly lock: SessionLock = new SessionLock(),
  ) {}

  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.lock);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  #release: (() => void) | null = null;

  constructor(
    pglite: PGlite,
    private readonly lock: SessionLock,
  ) {
    this.#connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.lock.acquire();
    this.#release = release;
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}` : '';
    await connection.executeQuery(CompiledQuery.raw(`BEGIN${level}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = null;
    release?.();
  }

  async destroy(): Promise<void> {
    // The owner of the PGlite instance closes it (see database.ts).
  }
}

/** A parameter this long (UTF-16 units) goes to PGlite as bytes (see LONG_TEXT_AS_BYTES). */
const LONG_TEXT = 4096;
const asText = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
// As PGlite's own json serializer: objects become JSON, with bigints as strings.
const asJson = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
const textParameter = (text: string) => (text.length >= LONG_TEXT ? Buffer.from(text, 'utf8') : text);

/**
 * PGlite's bind message encodes a text parameter by walking it in JavaScript, twice (its UTF-8
 * length, then its bytes): a quarter of a second for the 10 MB of commits a 10,000-commit ingest
 * sends as JSON. A long parameter goes as bytes instead, encoded natively, in PostgreSQL's binary
 * format, which for text, varchar and json is those same UTF-8 bytes and for jsonb a version byte
 * (1) before them. Short ones are left to PGlite. Keyed by type OID, as PGlite's serializers are.
 */
const LONG_TEXT_AS_BYTES = {
  25: (value: unknown) => textParameter(asText(value)), // text
  1043: (value: unknown) => textParameter(asText(value)), // varchar
  114: (value: unknown) => textParameter(asJson(value)), // json
  3802: (value: unknown) => {
    // jsonb
    const text = asJson(value);
    return text.length >= LONG_TEXT ? Buffer.concat([Buffer.of(1), Buffer.from(text, 'utf8')]) : text;
  },
  // PGlite's types say a serializer returns a string; its bind message takes bytes too (binary format).
} as unknown as SerializerOptions;

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(query.sql, query.parameters as unknown[], { serializers: LONG_TEXT_AS_BYTES });
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on the embedded database');
  }
}
