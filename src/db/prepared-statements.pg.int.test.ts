import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { openDatabase, PREPARED } from './database.js';

/** Marked statements run as named prepared statements: planned once per connection, not per request. */
let scratch: TestDatabase;

beforeAll(async () => {
  scratch = await createTestDatabase();
});
afterAll(async () => {
  await scratch?.close();
});

async function preparedOnOneConnection(preparedStatements: boolean): Promise<{ names: string[]; results: number[] }> {
  // One connection, so the session that prepared is the one asked.
  const database = await openDatabase({ kind: 'postgres', url: scratch.url!, readUrl: null, poolMax: 1, preparedStatements });
  try {
    const results: number[] = [];
    for (const n of [1, 2, 3]) {
      const { rows } = await sql<{ n: number }>`${sql.raw(PREPARED)} SELECT ${n}::int + 1 AS n`.execute(database.db);
      results.push(rows[0]!.n);
    }
    // An unmarked statement is never prepared under a name.
    await sql`SELECT ${1}::int AS unmarked`.execute(database.db);
    const { rows } = await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(database.db);
    return { names: rows.map((r) => r.name), results };
  } finally {
    await database.close();
  }
}

describe('prepared statements', () => {
  it('prepares a marked statement once per connection and reuses it with new parameters', async () => {
    const { names, results } = await preparedOnOneConnection(true);
    expect(results).toEqual([2, 3, 4]);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^p[0-9a-f]{16}$/);
  });

  it('prepares nothing with DATABASE_PREPARED_STATEMENTS=false (for poolers that cannot keep them)', async () => {
    const { names, results } = await preparedOnOneConnection(false);
    expect(results).toEqual([2, 3, 4]);
    expect(names).toEqual([]);
  });
});
