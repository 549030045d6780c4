import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, PREPARED, REPLAN_EVERY, type Database } from './database.js';
import { migrate } from './migrate.js';
import { changelogRepository } from '../changelog/changelog.repository.js';
import { seedDataDir } from '../../test/helpers/database.js';

// The server's own pool on the embedded database prepares its marked statements (the public reads'):
// planning them on every request cost more than running them. The database is one session that
// every client of its socket shares, so each client must prepare under names of its own.
let dir: string;
let database: Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'embedded-prepared-'));
  await seedDataDir(dir);
  database = await openDatabase({ kind: 'pglite', dataDir: dir });
  await migrate(database);
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

describe('plans on the embedded database', () => {
  it(`are made again every ${REPLAN_EVERY} runs of a statement, so none outlives the growth of the tables it was made on`, async () => {
    const doubled = (n: number) => sql<{ n: number }>`${sql.raw(PREPARED)} SELECT ${n}::int * 2 AS n`;
    const plans = async () =>
      (
        await sql<{ name: string; runs: string }>`
          SELECT name, (generic_plans + custom_plans)::text AS runs FROM pg_prepared_statements
          WHERE statement LIKE '%::int * 2 AS n' ORDER BY name`.execute(database.db)
      ).rows;
    // One at a time: the pool hands the same client back.
    for (let i = 1; i < REPLAN_EVERY; i++) expect((await doubled(i).execute(database.db)).rows[0]!.n).toBe(2 * i);
    const [first] = await plans();
    expect(first).toMatchObject({ runs: String(REPLAN_EVERY - 1) });
    for (let i = 0; i < 3; i++) expect((await doubled(i).execute(database.db)).rows[0]!.n).toBe(2 * i);
    // The old statement is gone; the new one, under its own name, has run the last three times.
    expect(await plans()).toEqual([{ name: `${first!.name}_1`, runs: '3' }]);
  });
});

describe('the batched public reads on the embedded database', () => {
  it('settle on one generic plan instead of being planned again at every execution', async () => {
    const db = database.db;
    const user = await db.insertInto('users').values({ email: 'plans@example.com', name: 'Plans' }).returning('id').executeTakeFirstOrThrow();
    const project = await db
      .insertInto('projects')
      .values({ owner_type: 'user', owner_user_id: user.id, name: 'Plans', slug: 'plans' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id } = await sql<{ id: string }>`
      INSERT INTO changelog_entries (project_id, entry_type, status, title, published_at)
      SELECT ${project.id}::uuid, 'commit', 'published', 'Entry ' || i, timestamptz '2026-01-01' + make_interval(hours => i)
      FROM generate_series(1, 40) AS i RETURNING id`
      .execute(db)
      .then((r) => r.rows[0]!);
    await sql`DEALLOCATE ALL`.execute(db);
    // One request at a time (one client): its statement runs with custom plans five times, then
    // keeps the generic plan if no custom plan looked cheaper, as it must, whatever the batch's size.
    for (let i = 0; i < 8; i++) {
      const [listed] = await changelogRepository.pages(db, [{ slug: 'plans', limit: 3, offset: i % 2 }]);
      expect(listed!.entries).toHaveLength(3);
      const [one] = await changelogRepository.entries(db, [{ slug: 'plans', id }]);
      expect(one!.entries.map((e) => e.id)).toEqual([id]);
    }
    const plans = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
      SELECT statement, generic_plans::text, custom_plans::text FROM pg_prepared_statements WHERE statement LIKE '%WITH ORDINALITY%'`.execute(db);
    expect(plans.rows).toHaveLength(2);
    for (const row of plans.rows) expect({ generic: Number(row.generic_plans), custom: Number(row.custom_plans) }).toEqual({ generic: 3, custom: 5 });
  });
});

