import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { createTestDatabase } from '../../test/helpers/database.js';
import { loadMigrations, migrate } from '../db/migrate.js';
import { buildProject, buildUser, insertEntries } from '../../test/helpers/factories.js';

/** projects.published_entry_count and the counts of each type are kept by statement-level triggers (migrations/0007, 0024). */
let ctx: TestContext;
let a: { id: string };
let b: { id: string };

const TYPES = ['commit', 'daily', 'weekly', 'monthly'] as const;

/** Each project's kept counts of each type beside the real ones. */
const typeCounts = async () => {
  const rows = await ctx.database.db
    .selectFrom('projects')
    .select(['id', 'published_commit_count', 'published_daily_count', 'published_weekly_count', 'published_monthly_count'])
    .execute();
  const real = await ctx.database.db
    .selectFrom('changelog_entries')
    .select(['project_id', 'entry_type', sql<number>`count(*)::int`.as('n')])
    .where('status', '=', 'published')
    .groupBy(['project_id', 'entry_type'])
    .execute();
  const actual = (id: string, type: string) => real.find((r) => r.project_id === id && r.entry_type === type)?.n ?? 0;
  return rows.map((r) => ({
    id: r.id,
    kept: Object.fromEntries(TYPES.map((t) => [t, r[`published_${t}_count`]])),
    actual: Object.fromEntries(TYPES.map((t) => [t, actual(r.id, t)])),
  }));
};

const counts = async () => {
  const rows = await ctx.database.db.selectFrom('projects').select(['id', 'published_entry_count']).execute();
  const real = await ctx.database.db
    .selectFrom('changelog_entries')
    .select(['project_id', sql<number>`count(*)::int`.as('n')])
    .where('status', '=', 'published')
    .groupBy('project_id')
    .execute();
  const actual = new Map(real.map((r) => [r.project_id, r.n]));
  return rows.map((r) => ({ id: r.id, kept: r.published_entry_count, actual: actual.get(r.id) ?? 0 }));
};

beforeAll(async () => {
  ctx = await createTestContext();
  const user = await buildUser(ctx.services);
  a = await buildProject(ctx.services, { type: 'user', email: user.email });
  b = await buildProject(ctx.services, { type: 'user', email: user.email });
});
afterAll(async () => ctx?.close());

describe('published_entry_count', () => {
  it('follows multi-row inserts, status changes, moves between projects and deletes', async () => {
    const ids = await insertEntries(ctx.services, a.id, [
      ...Array.from({ length: 5 }, () => ({ status: 'published' as const, published_at: new Date() })),
      ...Array.from({ length: 3 }, () => ({ status: 'draft' as const })),
    ]);
    await insertEntries(ctx.services, b.id, [{ status: 'published', published_at: new Date() }]);
    let state = await counts();
    expect(state.find((s) => s.id === a.id)).toMatchObject({ kept: 5, actual: 5 });

    // One statement that publishes drafts and unpublishes published entries at once.
    await sql`UPDATE changelog_entries SET status = CASE WHEN status = 'published' THEN 'draft' ELSE 'published' END,
      published_at = CASE WHEN status = 'published' THEN NULL ELSE now() END WHERE project_id = ${a.id}`.execute(ctx.database.db);
    await ctx.database.db.updateTable('changelog_entries').set({ project_id: b.id }).where('id', '=', ids[5]!).execute();
    await ctx.database.db.deleteFrom('changelog_entries').where('id', '=', ids[6]!).execute();
    await ctx.services.entries.archive(ids[7]!);
    await ctx.services.entries.publish(ids[0]!);

    state = await counts();
    for (const project of state) expect(project.kept).toBe(project.actual);
    expect(state.find((s) => s.id === b.id)?.kept).toBe(2);
  });

  it('of each type too: inserts, status changes, a change of type and deletes, several types in one statement', async () => {
    const ids = await insertEntries(ctx.services, a.id, [
      ...TYPES.flatMap((entry_type) => [
        { entry_type, status: 'published' as const, published_at: new Date() },
        { entry_type, status: 'published' as const, published_at: new Date() },
        { entry_type, status: 'draft' as const },
      ]),
    ]);
    let state = await typeCounts();
    for (const project of state) expect(project.kept).toEqual(project.actual);
    const before = state.find((s) => s.id === a.id)!.kept;

    // A published weekly becomes monthly; a published daily moves to the other project as commit.
    await ctx.database.db.updateTable('changelog_entries').set({ entry_type: 'monthly' }).where('id', '=', ids[6]!).execute();
    await ctx.database.db.updateTable('changelog_entries').set({ entry_type: 'commit', project_id: b.id }).where('id', '=', ids[3]!).execute();
    await ctx.services.entries.publish(ids[2]!); // commit draft
    await ctx.services.entries.unpublish(ids[9]!); // monthly
    await ctx.database.db.deleteFrom('changelog_entries').where('id', 'in', [ids[0]!, ids[10]!]).execute(); // commit, monthly
    state = await typeCounts();
    for (const project of state) expect(project.kept).toEqual(project.actual);
    expect(state.find((s) => s.id === a.id)!.kept).toEqual({
      commit: before.commit! - 1 + 1,
      daily: before.daily! - 1,
      weekly: before.weekly! - 1,
      monthly: before.monthly! + 1 - 1 - 1,
    });
  });
});

describe('migration 0024', () => {
  it("counts each project's published entries of each type that were there before it", async () => {
    const database = await createTestDatabase({ migrations: loadMigrations().filter((m) => m.version < 24) });
    try {
      const user = await sql<{ id: string }>`INSERT INTO users (email, name) VALUES ('old@example.com', 'Old') RETURNING id`.execute(database.db);
      const project = await sql<{ id: string }>`INSERT INTO projects (owner_type, owner_user_id, name, slug)
        VALUES ('user', ${user.rows[0]!.id}, 'Old', 'old-app') RETURNING id`.execute(database.db);
      const id = project.rows[0]!.id;
      await sql`INSERT INTO projects (owner_type, owner_user_id, name, slug) VALUES ('user', ${user.rows[0]!.id}, 'Empty', 'empty-app')`.execute(database.db);
      await sql`INSERT INTO changelog_entries (project_id, entry_type, status, published_at)
        SELECT ${id}::uuid, (ARRAY['commit', 'daily', 'weekly', 'monthly'])[1 + i % 4], CASE WHEN i % 3 = 0 THEN 'draft' ELSE 'published' END,
          CASE WHEN i % 3 = 0 THEN NULL ELSE now() END
        FROM generate_series(1, 40) AS i`.execute(database.db);
      const changedBefore = await sql<{ slug: string; at: Date }>`SELECT slug, published_changed_at AS at FROM projects ORDER BY slug`.execute(database.db);
      await migrate(database);
      const rows = await sql<Record<string, number | string | Date>>`
        SELECT slug, published_entry_count, published_commit_count, published_daily_count, published_weekly_count, published_monthly_count,
          published_changed_at AS at
        FROM projects ORDER BY slug`.execute(database.db);
      const real = await sql<{ entry_type: string; n: number }>`
        SELECT entry_type, count(*)::int AS n FROM changelog_entries WHERE status = 'published' GROUP BY entry_type`.execute(database.db);
      const old = rows.rows.find((r) => r.slug === 'old-app')!;
      for (const t of TYPES) expect(old[`published_${t}_count`], t).toBe(real.rows.find((r) => r.entry_type === t)?.n ?? 0);
      expect(TYPES.reduce((sum, t) => sum + Number(old[`published_${t}_count`]), 0)).toBe(old.published_entry_count);
      expect(rows.rows.find((r) => r.slug === 'empty-app')).toMatchObject({ published_entry_count: 0, published_weekly_count: 0 });
      // Filling in the counts is no change readers see: no Last-Modified moves.
      expect(rows.rows.map((r) => (r.at as Date).getTime())).toEqual(changedBefore.rows.map((r) => r.at.getTime()));
    } finally {
      await database.close();
    }
  });
});
