import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { LogEvent } from 'kysely';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate, type Migration } from '../../src/db/migrate.js';

export const usePostgres = process.env.TEST_DB === 'postgres';

export interface TestDatabase extends Database {
  /** Connection URL of the scratch PostgreSQL database (PostgreSQL runs only). */
  url?: string;
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or (TEST_DB=postgres) a
 * scratch database created on TEST_DATABASE_URL's server and dropped again on close.
 */
export async function createTestDatabase(
  options: { onQuery?: (event: LogEvent) => void; /** Fewer than all: a test of a migration on older data. */ migrations?: Migration[] } = {},
): Promise<TestDatabase> {
  const { migrations, ...open } = options;
  if (!usePostgres) {
    const { PGlite } = await import('@electric-sql/pglite');
    const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' }, { pglite: await PGlite.create(), ...open });
    await migrate(database, migrations);
    return database;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  // Named after the run's own database, so a run cleans up its leftovers and nobody else's.
  const base = new URL(adminUrl).pathname.slice(1).replace(/[^a-z0-9_]/gi, '').slice(0, 40) || 'changelog';
  const name = `${base}_t_${randomBytes(6).toString('hex')}`.toLowerCase();
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), readUrl: null, poolMax: 5 }, open);
  await migrate(database, migrations);
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
