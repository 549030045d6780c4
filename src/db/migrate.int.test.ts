import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { loadMigrations, migrate, pendingMigrations } from './migrate.js';

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'changelog-migrations-'));
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

async function tables(db: TestDatabase): Promise<string[]> {
  const rows = await db.withExclusiveSession((exec) =>
    exec(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'mig_%' ORDER BY 1`),
  );
  return rows.map((r) => String(r.table_name));
}

describe('migrate', () => {
  it('has applied every migration of the repository, and a second run applies nothing', async () => {
    database = await createTestDatabase();
    expect(await pendingMigrations(database)).toEqual([]);
    const again = await migrate(database);
    expect(again.applied).toEqual([]);
    expect(again.current).toBe(loadMigrations().at(-1)!.version);
  });

  it('applies files in version order and records each', async () => {
    database = await createTestDatabase();
    const dir = migrationsDir({
      '0002_second.sql': 'CREATE TABLE mig_b (id int REFERENCES mig_a (id));',
      '0001_first.sql': 'CREATE TABLE mig_a (id int PRIMARY KEY);',
    });
    const migrations = loadMigrations(dir);
    // Runs against a database that already has the real schema_migrations rows 1..N; use high numbers.
    const shifted = migrations.map((m) => ({ ...m, version: m.version + 1000 }));
    const result = await migrate(database, shifted);
    expect(result.applied.map((m) => m.version)).toEqual([1001, 1002]);
    expect(await tables(database)).toEqual(['mig_a', 'mig_b']);
  });

  it('rolls a failing migration back whole and stops', async () => {
    database = await createTestDatabase();
    const dir = migrationsDir({
      '1001_ok.sql': 'CREATE TABLE mig_ok (id int);',
      '1002_broken.sql': 'CREATE TABLE mig_half (id int);\nSELECT no_such_function();',
      '1003_later.sql': 'CREATE TABLE mig_later (id int);',
    });
    await expect(migrate(database, loadMigrations(dir))).rejects.toThrow(/Migration 1002_broken failed/);
    expect(await tables(database)).toEqual(['mig_ok']);
    expect(await pendingMigrations(database, loadMigrations(dir))).toEqual([1002, 1003]);
  });

  it('refuses to run when an applied migration was edited', async () => {
    database = await createTestDatabase();
    const dir = migrationsDir({ '1001_first.sql': 'CREATE TABLE mig_x (id int);' });
    await migrate(database, loadMigrations(dir));
    writeFileSync(join(dir, '1001_first.sql'), 'CREATE TABLE mig_x (id bigint);');
    await expect(migrate(database, loadMigrations(dir))).rejects.toThrow(/was changed after it was applied/);
  });

  it('rejects file names without a version', () => {
    const dir = migrationsDir({ 'init.sql': 'SELECT 1;' });
    expect(() => loadMigrations(dir)).toThrow(/0001_description\.sql/);
  });
});
