/**
 * migrations/schema.sql: the schema every migration adds up to (tables, indexes, functions, triggers),
 * as PostgreSQL 15's pg_dump --schema-only writes it, so that a reviewer reads the SQL as it is rather
 * than replaying the migrations in their head. `npm run schema:dump` writes it; a test fails when it is
 * out of date with the migrations.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SCHEMA_FILE = fileURLToPath(new URL('../migrations/schema.sql', import.meta.url));

const HEADER =
  '-- The schema after every migration in this folder, written by `npm run schema:dump` (pg_dump --schema-only\n' +
  '-- of a freshly migrated PostgreSQL database). Generated: do not edit; change the schema with a new migration.\n';

/** The schema of the database at `url`, as schema.sql holds it. */
export function dumpSchema(url: string): string {
  const result = spawnSync('pg_dump', ['--schema-only', '--no-owner', '--no-privileges', '--dbname', url], { encoding: 'utf8', timeout: 60_000 });
  if (result.error) throw new Error(`pg_dump could not run (PostgreSQL's client tools must be installed): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`pg_dump failed: ${result.stderr}`);
  return HEADER + normalize(result.stdout);
}

/**
 * Leaves out what differs between two dumps of the same schema: the versions that made it, session
 * settings, and the random key of the \restrict guard (pg_dump 15.14 and later); folds blank lines.
 */
function normalize(dump: string): string {
  const kept = dump
    .split('\n')
    .filter(
      (line) => !/^-- Dumped (from|by) /.test(line) && !/^SET /.test(line) && !/^SELECT pg_catalog\.set_config\(/.test(line) && !/^\\(un)?restrict /.test(line),
    );
  return `${kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
