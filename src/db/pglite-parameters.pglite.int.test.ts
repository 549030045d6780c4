import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';

// Long parameters reach PGlite as UTF-8 bytes in binary format (pglite-dialect.ts), short ones as
// PGlite encodes them: either way the database must receive exactly the text that was sent.
let database: Database;

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' }, { pglite: await PGlite.create() });
});

afterAll(async () => {
  await database?.close();
});

// Every kind of character a commit can carry: accents, CJK, emoji (surrogate pairs), quotes,
// backslashes, control characters, JSON escapes.
const text = (length: number) => {
  const sample = 'plain ascii, é à ü, 漢字, 😀🚀, "quotes" \'single\' \\back\\slash\\, tab\t, newline\n, \u0001 \u001f, {"json": [1, 2]} ';
  return sample.repeat(Math.ceil(length / sample.length)).slice(0, length).replace(/[\ud800-\udbff]$/, 'x');
};

describe('parameters on the embedded database', () => {
  for (const length of [10, 4095, 4096, 300_000]) {
    it(`keeps text, varchar, json and jsonb of ${length} characters exactly`, async () => {
      const value = text(length);
      const json = JSON.stringify({ message: value, list: [value.slice(0, 50)] });
      const { rows } = await sql<{ t: string; v: string; j: string; b: unknown; bytes: number }>`
        SELECT ${value}::text AS t, ${value}::varchar AS v, ${json}::json::text AS j, ${json}::jsonb AS b,
          octet_length(${value}::text) AS bytes`.execute(database.db);
      expect(rows[0]!.t).toBe(value);
      expect(rows[0]!.v).toBe(value);
      expect(rows[0]!.j).toBe(json);
      expect(rows[0]!.b).toEqual(JSON.parse(json));
      expect(rows[0]!.bytes).toBe(Buffer.byteLength(value));
    });
  }

  it('turns objects given for json and jsonb into JSON, long or short', async () => {
    const long = { message: text(10_000), n: 1 };
    const { rows } = await sql<{ a: unknown; b: unknown }>`SELECT ${JSON.stringify(long)}::jsonb AS a, ${sql.val(long)}::jsonb AS b`.execute(database.db);
    expect(rows[0]!.a).toEqual(long);
    expect(rows[0]!.b).toEqual(long);
  });

  it('refuses a long jsonb parameter that is not JSON, as it refuses a short one', async () => {
    await expect(sql`SELECT ${`{${text(5000)}`}::jsonb`.execute(database.db)).rejects.toThrow(/json/i);
    await expect(sql`SELECT ${'{nope'}::jsonb`.execute(database.db)).rejects.toThrow(/json/i);
  });
});
