import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Database, type ScriptRunner } from './database.js';
import { holderName } from './data-dir-lock.js';

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

/** The generated schema after all migrations (scripts/schema-sql.ts), kept beside them: not a migration. */
const SCHEMA_FILE = 'schema.sql';

/** Reads `NNNN_description.sql` files in version order. */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql') && file !== SCHEMA_FILE)
    .map((file) => {
      const match = /^(\d+)_([\w-]+)\.sql$/.exec(file);
      if (!match) throw new Error(`Migration file name must look like 0001_description.sql: ${file}`);
      const sql = readFileSync(`${dir}/${file}`, 'utf8');
      return {
        version: Number(match[1]),
        name: match[2]!,
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    })
    .sort((a, b) => a.version - b.version);
}

export interface MigrationResult {
  applied: { version: number; name: string }[];
  current: number;
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer PRIMARY KEY,
  name       text NOT NULL,
  checksum   text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Applies pending migrations in order, each in its own transaction together with its record in
 * schema_migrations, so a failure leaves the database at the previous version. A migration that
 * was edited after it was applied stops the run: the schema would no longer match the files.
 */
export async function migrate(database: Database, migrations = loadMigrations()): Promise<MigrationResult> {
  if (database.via) {
    // Through the process that holds the embedded database (the server, or a worker started alone),
    // the schema is that process's: it migrated when it started. Advisory locks exclude nothing on PGlite's single session, so two processes
    // migrating through it could both apply a version; this process only checks.
    const pending = await pendingMigrations(database, migrations);
    if (pending.length) {
      throw new Error(
        `${upperFirst(holderName(database.via.holder ?? 'server', database.via.pid))} that holds the embedded database has not applied migrations ${pending.join(', ')}; ` +
          'restart it (it migrates on start), or stop it and run `changelog migrate`.',
      );
    }
    return { applied: [], current: migrations.at(-1)?.version ?? 0 };
  }
  return database.withExclusiveSession(async (exec) => {
    await exec(CREATE_TABLE);
    const applied = await appliedVersions(exec);
    verifyChecksums(migrations, applied);
    const done: MigrationResult['applied'] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      try {
        await exec(
          `BEGIN;\n${migration.sql}\n;\nINSERT INTO schema_migrations (version, name, checksum) VALUES ` +
            `(${migration.version}, '${migration.name}', '${migration.checksum}');\nCOMMIT;`,
        );
      } catch (error) {
        // Ignored: the migration's own error is thrown below; ROLLBACK fails only when nothing is left to undo.
        await exec('ROLLBACK').catch(() => {});
        throw new Error(`Migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
      done.push({ version: migration.version, name: migration.name });
    }
    return { applied: done, current: migrations.at(-1)?.version ?? 0 };
  });
}

/** Versions present as files but not yet applied (readiness reports them). */
export async function pendingMigrations(database: Database, migrations = loadMigrations()): Promise<number[]> {
  return database.withExclusiveSession(async (exec) => {
    const exists = await exec(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`);
    const applied = exists[0]?.present ? await appliedVersions(exec) : new Map<number, string>();
    return migrations.filter((m) => !applied.has(m.version)).map((m) => m.version);
  });
}

async function appliedVersions(exec: ScriptRunner): Promise<Map<number, string>> {
  const rows = await exec('SELECT version, checksum FROM schema_migrations ORDER BY version');
  return new Map(rows.map((row) => [Number(row.version), String(row.checksum)]));
}

function verifyChecksums(migrations: Migration[], applied: Map<number, string>): void {
  for (const migration of migrations) {
    const checksum = applied.get(migration.version);
    if (checksum !== undefined && checksum !== migration.checksum) {
      throw new Error(
        `Migration ${migration.version}_${migration.name} was changed after it was applied; ` +
          'add a new migration instead of editing an applied one.',
      );
    }
  }
}

/**
 * Migrates the PostgreSQL database `name` on the server of `serverUrl` over a connection of its own,
 * closed when done (a template or a scratch copy must have no session left), and returns its URL.
 */
export async function migrateDatabaseNamed(serverUrl: string, name: string): Promise<string> {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), readUrl: null, poolMax: 1 });
  try {
    await migrate(database);
  } finally {
    await database.close();
  }
  return url.toString();
}
