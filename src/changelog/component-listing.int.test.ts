import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { loadMigrations, migrate } from '../db/migrate.js';
import { buildProject, buildUser, insertEntries } from '../../test/helpers/factories.js';
import type { Executor } from '../db/database.js';

/**
 * published_entry_components (migrations/0029) is derived from the entries by statement-level
 * triggers: after any write it must hold exactly one row per published entry, per tag a filter can
 * name (1 to 100 characters), per listing ('all' and the entry's type). And projects'
 * published_release_count must be the number of published release notes.
 */
let ctx: TestContext;
let a: { id: string; slug: string };
let b: { id: string; slug: string };

type Key = string;
const key = (r: { project_id: string; component: string; listing: string; published_at: Date; entry_id: string }): Key =>
  [r.project_id, r.component, r.listing, r.published_at.toISOString(), r.entry_id].join('|');

/** The listing as kept, and as it should be from the entries. */
async function listing(db: Executor): Promise<{ kept: Key[]; expected: Key[] }> {
  const kept = await sql<{ project_id: string; component: string; listing: string; published_at: Date; entry_id: string }>`
    SELECT project_id, component, listing, published_at, entry_id FROM published_entry_components`.execute(db);
  const expected = await sql<{ project_id: string; component: string; listing: string; published_at: Date; entry_id: string }>`
    SELECT DISTINCT e.project_id, t AS component, l AS listing, e.published_at, e.id AS entry_id
    FROM changelog_entries e, unnest(e.component_tags) AS t, unnest(ARRAY['all', e.entry_type]) AS l
    WHERE e.status = 'published' AND char_length(t) BETWEEN 1 AND 100`.execute(db);
  return { kept: kept.rows.map(key).sort(), expected: expected.rows.map(key).sort() };
}

async function expectListingExact(db: Executor = ctx.database.db) {
  const { kept, expected } = await listing(db);
  expect(kept).toEqual(expected);
  return kept.length;
}

async function releaseCounts(db: Executor) {
  const rows = await sql<{ slug: string; kept: number; actual: number }>`
    SELECT p.slug, p.published_release_count AS kept,
      (SELECT count(*)::int FROM release_notes n WHERE n.project_id = p.id AND n.status = 'published') AS actual
    FROM projects p ORDER BY p.slug`.execute(db);
  return rows.rows;
}

const LONG = 'x'.repeat(101);
const day = (n: number) => new Date(Date.UTC(2025, 0, n));

beforeAll(async () => {
  ctx = await createTestContext({ RESPONSE_CACHE: 'false' });
  const user = await buildUser(ctx.services);
  a = await buildProject(ctx.services, { type: 'user', email: user.email });
  b = await buildProject(ctx.services, { type: 'user', email: user.email });
});
afterAll(async () => ctx?.close());

describe('the component listing (migrations/0029)', () => {
  let ids: string[] = [];

  it('follows multi-row inserts: published entries only, each tag once, empty and over-long tags left out', async () => {
    ids = await insertEntries(ctx.services, a.id, [
      { status: 'published', published_at: day(1), entry_type: 'commit', component_tags: ['api', 'web'] },
      { status: 'published', published_at: day(2), entry_type: 'weekly', component_tags: ['api', 'api', '', LONG] },
      { status: 'published', published_at: day(3), entry_type: 'monthly', component_tags: [] },
      { status: 'draft', entry_type: 'commit', component_tags: ['api'] },
      { status: 'archived', entry_type: 'commit', component_tags: ['web'] },
    ]);
    expect(await expectListingExact()).toBe(4 + 2);
    const components = await sql<{ component: string }>`SELECT DISTINCT component FROM published_entry_components ORDER BY 1`.execute(ctx.database.db);
    expect(components.rows.map((r) => r.component)).toEqual(['api', 'web']);
  });

  it('follows publishing, unpublishing, retagging, a change of type or of date, a move to another project', async () => {
    const [first, second, third, draft, archived] = ids as [string, string, string, string, string];
    const db = ctx.database.db;
    await sql`UPDATE changelog_entries SET status = 'published', published_at = ${day(4)} WHERE id IN (${draft}, ${archived})`.execute(db);
    await expectListingExact();
    await sql`UPDATE changelog_entries SET status = 'draft', published_at = NULL WHERE id = ${first}`.execute(db);
    await expectListingExact();
    await sql`UPDATE changelog_entries SET component_tags = ARRAY['cli', 'api'] WHERE id = ${second}`.execute(db);
    await expectListingExact();
    await sql`UPDATE changelog_entries SET entry_type = 'daily' WHERE id = ${second}`.execute(db);
    await expectListingExact();
    await sql`UPDATE changelog_entries SET published_at = ${day(9)} WHERE id = ${draft}`.execute(db);
    await expectListingExact();
    await sql`UPDATE changelog_entries SET component_tags = ARRAY['api'] WHERE id = ${third}`.execute(db);
    await expectListingExact();
    await sql`UPDATE changelog_entries SET project_id = ${b.id} WHERE id = ${archived}`.execute(db);
    await expectListingExact();
    // Several rows and kinds of change in one statement, and one that changes nothing listed.
    await sql`UPDATE changelog_entries SET title = 'Edited', component_tags = CASE WHEN id = ${third} THEN ARRAY['web'] ELSE component_tags END
      WHERE project_id = ${a.id}`.execute(db);
    await expectListingExact();
  });

  it("follows the entries service's status changes: publish, unpublish, archive", async () => {
    const [first, second] = ids as [string, string];
    expect(await ctx.services.entries.bulkStatus(a.id, 'publish', { ids: [first] })).toMatchObject({ changed: 1 });
    await expectListingExact();
    expect(await ctx.services.entries.bulkStatus(a.id, 'unpublish', { ids: [first] })).toMatchObject({ changed: 1 });
    await expectListingExact();
    expect(await ctx.services.entries.bulkStatus(a.id, 'archive', { ids: [second] })).toMatchObject({ changed: 1 });
    await expectListingExact();
  });

  it('follows deletes, of entries and of a whole project', async () => {
    await sql`DELETE FROM changelog_entries WHERE id = ${ids[2]!}`.execute(ctx.database.db);
    await expectListingExact();
    await insertEntries(ctx.services, b.id, [{ status: 'published', published_at: day(5), component_tags: ['gone'] }]);
    await sql`DELETE FROM projects WHERE id = ${b.id}`.execute(ctx.database.db);
    await expectListingExact();
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM published_entry_components WHERE project_id = ${b.id}`.execute(ctx.database.db);
    expect(left.rows[0]!.n).toBe(0);
  });

  it('is what the page filters by: the same entries, newest first, and the menu names each component once', async () => {
    await insertEntries(
      ctx.services,
      a.id,
      Array.from({ length: 30 }, (_, i) => ({
        status: 'published' as const,
        published_at: day(10 + i),
        entry_type: i % 2 ? ('weekly' as const) : ('commit' as const),
        component_tags: i % 3 ? ['api'] : ['web', 'api'],
      })),
    );
    await expectListingExact();
    const expected = await sql<{ id: string }>`SELECT id FROM changelog_entries
      WHERE project_id = ${a.id} AND status = 'published' AND 'web' = ANY(component_tags) ORDER BY published_at DESC, id DESC`.execute(ctx.database.db);
    const page = await ctx.services.publicPage.changelog(a.slug, { view: 'all', component: 'web' }, 1);
    expect(page.entries.map((e) => e.id)).toEqual(expected.rows.map((r) => r.id).slice(0, 20));
    const weekly = await ctx.services.publicPage.changelog(a.slug, { view: 'weekly', component: 'web' }, 1);
    expect(weekly.entries.every((e) => e.entry_type === 'weekly' && e.component_tags.includes('web'))).toBe(true);
    expect(weekly.entries.length).toBeGreaterThan(0);
    expect(page.components).toEqual(['api', 'web']);
  });

  it('is emptied by TRUNCATE of the entries', async () => {
    await sql`TRUNCATE changelog_entries CASCADE`.execute(ctx.database.db);
    expect(await expectListingExact()).toBe(0);
  });
});

describe('published_release_count (migrations/0029)', () => {
  it('follows inserts, status changes and deletes of release notes', async () => {
    const db = ctx.database.db;
    const json = JSON.stringify({ title: 't', headline_items: [], sections: [], component_tags: [], team_attribution: null });
    await sql`INSERT INTO release_notes (project_id, key, tag, title, generated_json, status, published_at)
      SELECT ${a.id}::uuid, 'release:v' || i, 'v' || i, 'Release ' || i, ${json}::jsonb,
        CASE WHEN i % 3 = 0 THEN 'draft' ELSE 'published' END, CASE WHEN i % 3 = 0 THEN NULL ELSE now() END
      FROM generate_series(1, 9) AS i`.execute(db);
    const check = async () => {
      for (const row of await releaseCounts(db)) expect(row.kept, row.slug).toBe(row.actual);
    };
    await check();
    expect((await releaseCounts(db)).find((r) => r.slug === a.slug)!.kept).toBe(6);
    await sql`UPDATE release_notes SET status = 'published', published_at = now() WHERE project_id = ${a.id} AND status = 'draft'`.execute(db);
    await check();
    await sql`UPDATE release_notes SET status = 'archived', published_at = NULL WHERE key IN ('release:v1', 'release:v2')`.execute(db);
    await check();
    await sql`UPDATE release_notes SET title = 'Edited' WHERE project_id = ${a.id}`.execute(db);
    await check();
    await sql`DELETE FROM release_notes WHERE key IN ('release:v3', 'release:v4')`.execute(db);
    await check();
    const listed = await ctx.services.releases.page(a.slug, { limit: 2, offset: 0 });
    expect(listed.meta.total).toBe((await releaseCounts(db)).find((r) => r.slug === a.slug)!.actual);
  });
});

describe('migration 0029 on older data', () => {
  let database: TestDatabase;
  afterAll(async () => database?.close());

  it('lists the components of the published entries already there, and counts their release notes', async () => {
    database = await createTestDatabase({ migrations: loadMigrations().filter((m) => m.version < 29) });
    const db = database.db;
    const user = await sql<{ id: string }>`INSERT INTO users (email, name) VALUES ('old@example.com', 'Old') RETURNING id`.execute(db);
    const project = await sql<{ id: string }>`INSERT INTO projects (owner_type, owner_user_id, name, slug)
      VALUES ('user', ${user.rows[0]!.id}, 'Old', 'old-app') RETURNING id`.execute(db);
    await sql`INSERT INTO projects (owner_type, owner_user_id, name, slug) VALUES ('user', ${user.rows[0]!.id}, 'Empty', 'empty-app')`.execute(db);
    const id = project.rows[0]!.id;
    await sql`INSERT INTO changelog_entries (project_id, entry_type, status, published_at, component_tags)
      SELECT ${id}::uuid, (ARRAY['commit', 'daily', 'weekly', 'monthly'])[1 + i % 4], CASE WHEN i % 3 = 0 THEN 'draft' ELSE 'published' END,
        CASE WHEN i % 3 = 0 THEN NULL ELSE timestamptz '2024-01-01' + make_interval(hours => i) END,
        CASE WHEN i % 5 = 0 THEN ARRAY['api', 'api', ${LONG}] WHEN i % 2 = 0 THEN ARRAY['web', ''] ELSE ARRAY[]::text[] END
      FROM generate_series(1, 60) AS i`.execute(db);
    const json = JSON.stringify({ title: 't', headline_items: [], sections: [], component_tags: [], team_attribution: null });
    await sql`INSERT INTO release_notes (project_id, key, tag, title, generated_json, status, published_at)
      SELECT ${id}::uuid, 'release:v' || i, 'v' || i, 'Release ' || i, ${json}::jsonb,
        CASE WHEN i % 4 = 0 THEN 'draft' ELSE 'published' END, CASE WHEN i % 4 = 0 THEN NULL ELSE now() END
      FROM generate_series(1, 12) AS i`.execute(db);
    const changedBefore = await sql<{ at: Date }>`SELECT published_changed_at AS at FROM projects ORDER BY slug`.execute(db);

    await migrate(database);

    expect(await expectListingExact(db)).toBeGreaterThan(0);
    expect(await releaseCounts(db)).toEqual([
      { slug: 'empty-app', kept: 0, actual: 0 },
      { slug: 'old-app', kept: 9, actual: 9 },
    ]);
    // Filling in the listing and the counts is no change readers see: no Last-Modified moves.
    const changedAfter = await sql<{ at: Date }>`SELECT published_changed_at AS at FROM projects ORDER BY slug`.execute(db);
    expect(changedAfter.rows.map((r) => r.at.getTime())).toEqual(changedBefore.rows.map((r) => r.at.getTime()));
    // The triggers run from then on.
    await sql`UPDATE changelog_entries SET component_tags = ARRAY['cli'] WHERE project_id = ${id} AND status = 'published'
      AND entry_type = 'weekly'`.execute(db);
    await expectListingExact(db);
  });
});
