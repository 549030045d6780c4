import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpSchema, SCHEMA_FILE } from '../../scripts/schema-sql.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';

// migrations/schema.sql is what the migrations add up to; it must say so after every new migration
// (pg_dump is PostgreSQL's own tool, so this runs on the PostgreSQL project).
describe('migrations/schema.sql', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('is the schema of a database with every migration applied', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    expect(dumpSchema(database.url!), 'migrations/schema.sql is out of date with the migrations: run `npm run schema:dump` and commit it').toBe(committed);
  });
});
