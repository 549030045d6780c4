import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, PREPARED, type Database } from './database.js';

// The server's own pool on the embedded database prepares its marked statements (the public reads'):
// planning them on every request cost more than running them. The database is one session that
// every client of its socket shares, so each client must prepare under names of its own.
let dir: string;
let database: Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'embedded-prepared-'));
  database = await openDatabase({ kind: 'pglite', dataDir: dir });
}, 60_000);

afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

const marked = (n: number) => sql<{ n: number }>`${sql.raw(PREPARED)} SELECT ${n}::int + 1 AS n`;
const preparedNames = async () =>
  (await sql<{ name: string }>`SELECT name FROM pg_prepared_statements ORDER BY name`.execute(database.db)).rows.map((r) => r.name);

describe("the embedded database's own pool", () => {
  it('runs marked statements as prepared statements, many clients at once, each under names of its own', async () => {
    // Concurrent statements take several of the pool's clients; each prepares the same text.
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => marked(i).execute(database.db)));
      expect(answers.map((a) => a.rows[0]!.n)).toEqual(Array.from({ length: 8 }, (_, i) => i + 1));
    }
    const names = await preparedNames();
    expect(names.length).toBeGreaterThan(1);
    // One statement text: one name per client, all distinct, none shared.
    expect(new Set(names.map((n) => n.replace(/_\d+$/, ''))).size).toBe(1);
    expect(new Set(names).size).toBe(names.length);
  });

  it('prepares again what something else on the shared session deallocated', async () => {
    await marked(1).execute(database.db);
    await sql`DEALLOCATE ALL`.execute(database.db);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => marked(i).execute(database.db)));
    expect(answers.map((a) => a.rows[0]!.n)).toEqual(Array.from({ length: 8 }, (_, i) => i + 1));
  });

  it('leaves unmarked statements unnamed', async () => {
    const before = await preparedNames();
    await sql`SELECT 41 + 1 AS n`.execute(database.db);
    expect(await preparedNames()).toEqual(before);
  });
});
