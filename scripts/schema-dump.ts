/**
 * npm run schema:dump — migrates a scratch PostgreSQL database (created on SCHEMA_DATABASE_URL's server,
 * default postgres://root@127.0.0.1:5432/test, and dropped again) and writes its schema to
 * migrations/schema.sql (see schema-sql.ts). Run it after adding a migration, and commit the file.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { migrateDatabaseNamed } from '../src/db/migrate.js';
import { dumpSchema, SCHEMA_FILE } from './schema-sql.js';

const adminUrl = process.env.SCHEMA_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const name = `schema_dump_${randomBytes(4).toString('hex')}`;

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

await admin(`CREATE DATABASE ${name}`);
try {
  const url = await migrateDatabaseNamed(adminUrl, name);
  writeFileSync(SCHEMA_FILE, dumpSchema(url));
  console.log(`Wrote ${SCHEMA_FILE}`);
} finally {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
