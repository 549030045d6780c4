import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import type { LogEvent } from 'kysely';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate, type Migration } from '../../src/db/migrate.js';
import { scratchPrefix, withAdmin } from './template-database.js';

export const usePostgres = process.env.TEST_DB === 'postgres';

export interface TestDatabase extends Database {
  /** Connection URL of the scratch PostgreSQL database (PostgreSQL runs only). */
  url?: string;
}

/** The migrated template of this run (template-database.ts), once read: a worker may run several files. */
let pgliteTemplate: Blob | undefined;

function pgliteTemplateBlob(): Blob | undefined {
  const template = inject('pgliteTemplate');
  if (template && !pgliteTemplate) pgliteTemplate = new Blob([readFileSync(template)]);
  return template ? pgliteTemplate : undefined;
}

/**
 * Fills a new DATA_DIR with the run's migrated template, so that the server or CLI process a test starts
 * on it skips initdb and the migrations (it still checks them). Without a template (a run outside the
 * pglite project) it does nothing and that process initializes the directory itself.
 */
export async function seedDataDir(dataDir: string): Promise<void> {
  const template = pgliteTemplateBlob();
  if (!template) return;
  const { PGlite } = await import('@electric-sql/pglite');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pglite = await PGlite.create({ dataDir, loadDataDir: template });
  await pglite.close();
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or (TEST_DB=postgres) a
 * scratch database created on TEST_DATABASE_URL's server and dropped again on close. It is a copy of
 * the run's migrated template; `migrations` (fewer than all) starts from an empty database instead.
 */
export async function createTestDatabase(
  options: { onQuery?: (event: LogEvent) => void; /** Fewer than all: a test of a migration on older data. */ migrations?: Migration[] } = {},
): Promise<TestDatabase> {
  const { migrations, ...open } = options;
  const fromTemplate = migrations === undefined;
  if (!usePostgres) {
    const { PGlite } = await import('@electric-sql/pglite');
    const template = fromTemplate ? pgliteTemplateBlob() : undefined;
    const pglite = template ? await PGlite.create({ loadDataDir: template }) : await PGlite.create();
    const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' }, { pglite, ...open });
    // On a copy of the template this applies nothing: it checks that the template matches the files.
    await migrate(database, migrations);
    return database;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  // Named after the run's own database, so a run cleans up its leftovers and nobody else's.
  const name = `${scratchPrefix(adminUrl)}_t_${randomBytes(6).toString('hex')}`.toLowerCase();
  const template = fromTemplate ? inject('postgresTemplate') : undefined;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
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
