import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser, insertEntries } from '../../test/helpers/factories.js';

/** projects.published_entry_count is kept by statement-level triggers (migrations/0007). */
let ctx: TestContext;
let a: { id: string };
let b: { id: string };

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
});
