import { testConfig } from '../../test/helpers/config.js';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { PREPARED } from '../db/database.js';
import { createServices, type Services } from '../services.js';
import { createTestDatabase, usePostgres, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { describePlan, rowsExamined, type PlanNode } from '../../test/helpers/query-plans.js';

/**
 * What every public read costs, whatever values an anonymous caller picks: each statement a request
 * runs is executed again under EXPLAIN ANALYZE and the rows its scans examined are counted. The data
 * is shaped like a real history (tens of thousands of published entries, a few components on a few
 * of them, rollups rare among commit entries, a neighbour whose tags are everywhere) and statistics
 * are not fresh: PGlite never analyzes, and here PostgreSQL does not either (autovacuum off for these
 * tables), so a plan that is right only with statistics fails here. Then the same again after
 * ANALYZE, which must not make anything worse.
 */
const ENTRIES = 20_000;
/** Every tenth entry is a draft. */
const PUBLISHED = ENTRIES - ENTRIES / 10;
const RELEASES = 400;
const PUBLISHED_RELEASES = RELEASES - RELEASES / 10;

let database: TestDatabase;
let services: Services;
let app: Awaited<ReturnType<typeof buildApp>>;
let captured: CompiledQuery[] = [];
let secret: string;
let entryId: string;
let oldestCursor: string;
let newestCursor: string;
let releaseCursor: string;
let newestReleaseCursor: string;

beforeAll(async () => {
  database = await createTestDatabase({ onQuery: (event) => captured.push(event.query as CompiledQuery) });
  if (usePostgres) {
    for (const table of ['changelog_entries', 'release_notes', 'projects']) {
      await sql`ALTER TABLE ${sql.table(table)} SET (autovacuum_enabled = false)`.execute(database.db);
    }
  }
  const config = testConfig({ RESPONSE_CACHE: 'false' });
  services = createServices(database, config);
  app = await buildApp({ config, database, services });
  const user = await buildUser(services);
  const owner = { type: 'user' as const, email: user.email };
  const history = await buildProject(services, owner, { slug: 'history' });
  // Every tenth entry a draft; one in 97 a monthly rollup, one in 23 weekly, one in 7 daily, the rest
  // commit entries; 'api' on a tenth of them, 'web' on one in fifty, 'rare' on the oldest only.
  await sql`INSERT INTO changelog_entries (project_id, entry_type, status, title, component_tags, published_at)
    SELECT ${history.id}::uuid,
      CASE WHEN i % 97 = 0 THEN 'monthly' WHEN i % 23 = 0 THEN 'weekly' WHEN i % 7 = 0 THEN 'daily' ELSE 'commit' END,
      CASE WHEN i % 10 = 0 THEN 'draft' ELSE 'published' END, 'Entry ' || i,
      CASE WHEN i = 1 THEN ARRAY['rare'] WHEN i % 50 = 5 THEN ARRAY['api', 'web'] WHEN i % 10 = 3 THEN ARRAY['api'] ELSE ARRAY[]::text[] END,
      CASE WHEN i % 10 = 0 THEN NULL ELSE timestamptz '2015-01-01' + make_interval(hours => i) END
    FROM generate_series(1, ${ENTRIES}) AS i`.execute(database.db);
  // Another tenant whose every entry carries 'elsewhere' and 'rare', all newer than history's.
  const neighbour = await buildProject(services, owner, { slug: 'neighbour' });
  await sql`INSERT INTO changelog_entries (project_id, entry_type, status, title, component_tags, published_at)
    SELECT ${neighbour.id}::uuid, 'commit', 'published', 'Neighbour ' || i, ARRAY['elsewhere', 'rare'],
      timestamptz '2024-01-01' + make_interval(mins => i)
    FROM generate_series(1, 5000) AS i`.execute(database.db);
  await sql`INSERT INTO release_notes (project_id, key, tag, version, released_at, title, generated_json, status, published_at)
    SELECT ${history.id}::uuid, 'release:v1.0.' || i, 'v1.0.' || i, '1.0.' || i, timestamptz '2015-01-01' + make_interval(days => i),
      'Release ' || i,
      jsonb_build_object('title', 'Release ' || i, 'headline_items', '[]'::jsonb, 'sections', '[]'::jsonb, 'component_tags', '[]'::jsonb, 'team_attribution', NULL), CASE WHEN i % 10 = 0 THEN 'draft' ELSE 'published' END,
      CASE WHEN i % 10 = 0 THEN NULL ELSE timestamptz '2015-01-01' + make_interval(days => i) END
    FROM generate_series(1, ${RELEASES}) AS i`.execute(database.db);
  // Other tenants' projects: a lookup of a project by slug must not read them.
  const other = await buildUser(services);
  await sql`INSERT INTO projects (owner_type, owner_user_id, name, slug)
    SELECT 'user', u.id, 'Tenant ' || n, 'tenant-' || n FROM users u, generate_series(1, 3000) AS n
    WHERE u.email = ${other.email}`.execute(database.db);
  secret = (await services.keys.create({ name: 'k', context: owner })).secret;
  entryId = (await app.inject({ url: '/v1/changelog/history?limit=1' })).json().entries[0].id;
  // A cursor near the oldest end of the history.
  oldestCursor = (await app.inject({ url: `/v1/changelog/history?offset=${ENTRIES * 0.9 - 30}&limit=10` })).json().meta.next_cursor;
  releaseCursor = (await app.inject({ url: `/v1/changelog/history/releases?offset=${RELEASES * 0.9 - 10}&limit=5` })).json().meta.next_cursor;
  // Cursors near the newest end, for deep offsets counted from them.
  newestCursor = (await app.inject({ url: '/v1/changelog/history?limit=3' })).json().meta.next_cursor;
  newestReleaseCursor = (await app.inject({ url: '/v1/changelog/history/releases?limit=3' })).json().meta.next_cursor;
  expect(oldestCursor).toBeTruthy();
  expect(releaseCursor).toBeTruthy();
  expect(newestCursor).toBeTruthy();
  expect(newestReleaseCursor).toBeTruthy();
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
});

interface Examined {
  sql: string;
  rows: number;
  plan: string;
}

type PlanResult = { 'QUERY PLAN': [{ Plan: PlanNode }] };

/** A parameter as an SQL literal of the type PostgreSQL inferred for it. */
function literal(value: unknown, type: string): string {
  if (value === null || value === undefined) return `NULL::${type}`;
  const text = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));
  const body = Array.isArray(value)
    ? `{${value.map((v) => (v === null ? 'NULL' : `"${text(v).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`
    : text(value);
  return `'${body.replace(/'/g, "''")}'::${type}`;
}

/**
 * The plan PostgreSQL runs a named prepared statement with once it settles on a generic one (planned
 * without the parameters' values; src/db/database.ts prepares the statements marked PREPARED).
 */
async function genericPlan(statement: CompiledQuery): Promise<PlanNode> {
  return database.db.connection().execute(async (db) => {
    await db.executeQuery(CompiledQuery.raw(`PREPARE plan_check AS ${statement.sql}`));
    try {
      const types = await db.executeQuery<{ types: string[] }>(
        CompiledQuery.raw(`SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = 'plan_check'`),
      );
      const args = statement.parameters.map((value, i) => literal(value, types.rows[0]!.types[i]!));
      await db.executeQuery(CompiledQuery.raw('SET plan_cache_mode = force_generic_plan'));
      const result = await db.executeQuery<PlanResult>(
        CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE plan_check${args.length ? `(${args.join(', ')})` : ''}`),
      );
      return result.rows[0]!['QUERY PLAN'][0].Plan;
    } finally {
      await db.executeQuery(CompiledQuery.raw('RESET plan_cache_mode'));
      await db.executeQuery(CompiledQuery.raw('DEALLOCATE plan_check'));
    }
  });
}

/**
 * Each statement the request ran, with the rows it examined when run again under EXPLAIN ANALYZE:
 * planned for its parameters' values and, on PostgreSQL for the prepared ones, also generically.
 */
async function examine(url: string, headers: Record<string, string> = {}): Promise<Examined[]> {
  captured = [];
  const res = await app.inject({ url, headers });
  expect(res.statusCode, res.body).toBe(200);
  const statements = captured.filter((q) => /^\s*(\/\*.*?\*\/\s*)?(select|with)\b/is.test(q.sql));
  expect(statements.length).toBeGreaterThan(0);
  const examined: Examined[] = [];
  for (const statement of statements) {
    const result = await database.db.executeQuery<PlanResult>(
      CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.sql}`, [...statement.parameters]),
    );
    const plans = [result.rows[0]!['QUERY PLAN'][0].Plan];
    if (usePostgres && statement.sql.includes(PREPARED)) plans.push(await genericPlan(statement));
    for (const [i, plan] of plans.entries()) {
      const sql = `${i ? '(generic plan) ' : ''}${statement.sql.replace(/\s+/g, ' ').slice(0, 160)}`;
      examined.push({ sql, rows: rowsExamined(plan), plan: describePlan(plan) });
    }
  }
  return examined;
}

/** A page of `page` rows may examine a few rows per row shown and a few more: never the project's history. */
const bound = (page: number) => 3 * page + 30;

async function expectBounded(url: string, page: number, headers: Record<string, string> = {}) {
  for (const statement of await examine(url, headers)) {
    expect(statement.rows, `${url}\n${statement.sql}\n${statement.plan}`).toBeLessThanOrEqual(bound(page));
  }
}

const PAGE = 21; // the public page's 20 entries, and one to tell whether there is more

/** Every public read, with the parameter values that would make a careless plan walk the history. */
const READS: { name: string; url: () => string; page: number; authenticated?: true }[] = [
  // The public page: a component that matches nothing, one old entry, or only another tenant's entries.
  { name: 'page, component matching nothing', url: () => '/c/history?component=no-such-component', page: PAGE },
  { name: 'page, component of one old entry', url: () => '/c/history?component=rare', page: PAGE },
  { name: "page, component of another tenant's entries only", url: () => '/c/history?component=elsewhere', page: PAGE },
  { name: 'page, every type, component of one old entry', url: () => '/c/history?view=all&component=rare', page: PAGE },
  { name: 'page, rare type and rare component', url: () => '/c/history?view=monthly&component=web', page: PAGE },
  { name: 'page, rare type, component matching nothing', url: () => '/c/history?view=monthly&component=no-such-component', page: PAGE },
  { name: 'page, common component, page 3', url: () => '/c/history?component=api&page=3', page: 3 * PAGE },
  { name: 'page, every type, common component', url: () => '/c/history?view=all&component=api', page: PAGE },
  { name: 'page, every type, common component, page 3', url: () => '/c/history?view=all&component=api&page=3', page: 3 * PAGE },
  { name: 'page, default view', url: () => '/c/history', page: PAGE },
  { name: 'page, rare type', url: () => '/c/history?view=monthly&page=2', page: 2 * PAGE },
  { name: 'page, older type filter', url: () => '/c/history?type=weekly', page: PAGE },
  { name: 'permalink page', url: () => `/c/history/entries/${entryId}`, page: 1 },
  { name: 'releases page', url: () => '/c/history/releases', page: PAGE },
  { name: 'release permalink page', url: () => '/c/history/releases/v1.0.3', page: 1 },
  // Feeds.
  { name: 'Atom feed', url: () => '/v1/changelog/history/feed.atom', page: 51 },
  { name: 'RSS feed', url: () => '/v1/changelog/history/feed.rss', page: 51 },
  { name: 'JSON feed', url: () => '/v1/changelog/history/feed.json', page: 51 },
  { name: 'release feed', url: () => '/v1/changelog/history/releases.atom', page: 51 },
  // The API (and the widget, which reads it with view=default or a view).
  { name: 'API, first page', url: () => '/v1/changelog/history?limit=100', page: 101 },
  { name: 'API, rare view', url: () => '/v1/changelog/history?view=monthly&limit=100', page: 101 },
  { name: "API, the project's default view", url: () => '/v1/changelog/history?view=default&limit=20', page: 21 },
  { name: 'API, cursor near the oldest entry', url: () => `/v1/changelog/history?cursor=${oldestCursor}&limit=20`, page: 21 },
  { name: 'API, rare view after a cursor near the oldest entry', url: () => `/v1/changelog/history?view=monthly&cursor=${oldestCursor}&limit=20`, page: 21 },
  { name: 'API, offset past the end', url: () => '/v1/changelog/history?offset=10000000&limit=100', page: 101 },
  { name: 'API, rare view, offset past its end', url: () => '/v1/changelog/history?view=monthly&offset=5000&limit=100', page: 101 },
  { name: 'API, entry', url: () => `/v1/changelog/history/entries/${entryId}`, page: 1 },
  { name: 'API, releases', url: () => '/v1/changelog/history/releases?limit=20', page: 21 },
  { name: 'API, releases after a cursor', url: () => `/v1/changelog/history/releases?cursor=${releaseCursor}&limit=20`, page: 21 },
  { name: 'API, release', url: () => '/v1/changelog/history/releases/v1.0.3', page: 1 },
  { name: "API, project listing's newest entries", url: () => '/v1/projects?entries_limit=200', page: 2 * 201, authenticated: true },
];

for (const statistics of ['never analyzed', 'analyzed'] as const) {
  describe(`rows examined by the public reads (statistics ${statistics})`, () => {
    beforeAll(async () => {
      if (statistics === 'analyzed') await database.withExclusiveSession((exec) => exec('ANALYZE'));
    });

    for (const read of READS) {
      it(`${read.name}: at most ${bound(read.page)} rows a statement`, async () => {
        await expectBounded(read.url(), read.page, read.authenticated ? { authorization: `Bearer ${secret}` } : {});
      });
    }
  });
}

/**
 * Offsets inside a listing, at any depth: a deep page starts at the mark above it (migrations/0030),
 * so it examines what a first page does. The history's published entries: PUBLISHED in all, about
 * 2,400 with 'api', 186 monthly rollups; PUBLISHED_RELEASES release notes.
 */
const DEEP_READS: { name: string; url: () => string; page: number }[] = [
  { name: 'API, offset of the last page', url: () => `/v1/changelog/history?offset=${PUBLISHED - 20}&limit=20`, page: 21 },
  { name: 'API, offset of the last entry', url: () => `/v1/changelog/history?offset=${PUBLISHED - 1}&limit=20`, page: 21 },
  { name: 'API, offset halfway', url: () => `/v1/changelog/history?offset=${PUBLISHED / 2}&limit=20`, page: 21 },
  { name: 'API, offset halfway, one entry', url: () => `/v1/changelog/history?offset=${PUBLISHED / 2 + 7}&limit=1`, page: 2 },
  { name: 'API, offset at the total', url: () => `/v1/changelog/history?offset=${PUBLISHED}&limit=20`, page: 21 },
  { name: 'API, offset just past the total', url: () => `/v1/changelog/history?offset=${PUBLISHED + 1}&limit=20`, page: 21 },
  { name: 'API, common view, deep offset', url: () => `/v1/changelog/history?view=commit&offset=${PUBLISHED / 2}&limit=100`, page: 101 },
  { name: 'API, rare view, offset of its last entry', url: () => '/v1/changelog/history?view=monthly&offset=185&limit=20', page: 21 },
  { name: 'API, deep offset after a cursor', url: () => `/v1/changelog/history?cursor=${newestCursor}&offset=${PUBLISHED / 2}&limit=20`, page: 21 },
  { name: 'API, deep offset after a cursor, one entry', url: () => `/v1/changelog/history?cursor=${newestCursor}&offset=${PUBLISHED - 40}&limit=1`, page: 2 },
  { name: 'API, offset past the end after a cursor', url: () => `/v1/changelog/history?cursor=${newestCursor}&offset=${PUBLISHED}&limit=20`, page: 21 },
  { name: 'API, view, deep offset after a cursor', url: () => `/v1/changelog/history?view=daily&cursor=${newestCursor}&offset=1000&limit=20`, page: 21 },
  { name: 'API, deep offset after a cursor near the oldest entry', url: () => `/v1/changelog/history?cursor=${oldestCursor}&offset=25&limit=20`, page: 21 },
  { name: 'page, last page of every type', url: () => '/c/history?view=all&page=500', page: PAGE },
  { name: 'page, default view, a page past its end', url: () => '/c/history?page=400', page: PAGE },
  { name: 'page, deep page of a rare type', url: () => '/c/history?view=monthly&page=9', page: PAGE },
  { name: 'page, common component, deep page', url: () => '/c/history?view=all&component=api&page=100', page: PAGE },
  { name: 'page, common component, its last page', url: () => '/c/history?view=all&component=api&page=120', page: PAGE },
  { name: 'page, type and component, deep page', url: () => '/c/history?view=commit&component=api&page=80', page: PAGE },
  { name: 'page, component, page past its end', url: () => '/c/history?view=all&component=api&page=500', page: PAGE },
  { name: 'page, component of one entry, page past its end', url: () => '/c/history?view=all&component=rare&page=500', page: PAGE },
  { name: 'page, component matching nothing, deep page', url: () => '/c/history?component=no-such-component&page=500', page: PAGE },
  { name: 'API, releases, offset of the last page', url: () => `/v1/changelog/history/releases?offset=${PUBLISHED_RELEASES - 20}&limit=20`, page: 21 },
  { name: 'API, releases, deep offset, one note', url: () => `/v1/changelog/history/releases?offset=${PUBLISHED_RELEASES / 2 + 5}&limit=1`, page: 2 },
  { name: 'API, releases, offset past the end', url: () => `/v1/changelog/history/releases?offset=${PUBLISHED_RELEASES + 1}&limit=20`, page: 21 },
  { name: 'API, releases, deep offset after a cursor', url: () => `/v1/changelog/history/releases?cursor=${newestReleaseCursor}&offset=300&limit=20`, page: 21 },
  { name: 'releases page, deep page', url: () => '/c/history/releases?page=15', page: PAGE },
];

for (const statistics of ['never analyzed', 'analyzed'] as const) {
  describe(`rows examined at deep offsets (statistics ${statistics})`, () => {
    beforeAll(async () => {
      if (statistics === 'analyzed') await database.withExclusiveSession((exec) => exec('ANALYZE'));
    });

    for (const read of DEEP_READS) {
      it(`${read.name}: at most ${bound(read.page)} rows a statement`, async () => {
        await expectBounded(read.url(), read.page);
      });
    }
  });
}

/**
 * Issue #27, "any depth of the listing at the cost of the first page": the last page of the history
 * examines what its first page does, up to the fewer than K entries walked from the mark above it
 * (migrations/0030), counted over every statement of the request and every plan of each.
 */
describe('the deepest offset costs the first page', () => {
  for (const [name, view] of [
    ['every type', ''],
    ['a common view', 'view=commit&'],
    ['a rare view', 'view=monthly&'],
  ] as const) {
    it(`API, ${name}: rows examined at the last page against offset 0`, async () => {
      const k = (await sql<{ k: number }>`SELECT listing_mark_interval() AS k`.execute(database.db)).rows[0]!.k;
      const total = ((await app.inject({ url: `/v1/changelog/history?${view}limit=1` })).json() as { meta: { total: number } }).meta.total;
      const rows = async (offset: number) => (await examine(`/v1/changelog/history?${view}offset=${offset}&limit=20`)).reduce((sum, s) => sum + s.rows, 0);
      const first = await rows(0);
      const statements = (await examine(`/v1/changelog/history?${view}offset=${total - 20}&limit=20`)).length;
      const deepest = await rows(total - 20);
      expect(first).toBeGreaterThan(0);
      // Per plan: the mark, fewer than K entries above the page, the project's kept total.
      expect(deepest, `first page ${first} rows, last page ${deepest}`).toBeLessThanOrEqual(first + statements * (k + 3));
    });
  }
});

describe('deep offsets list what a walk from the top lists', () => {
  it('the API, the page and the releases at deep offsets, against OFFSET on the whole listing', async () => {
    const ids = async (query: ReturnType<typeof sql<{ id: string }>>) => (await query.execute(database.db)).rows.map((r) => r.id);
    const project = sql`(SELECT id FROM projects WHERE slug = 'history')`;
    const api = async (url: string) => (await app.inject({ url })).json() as { entries: { id: string }[]; releases: { id: string }[] };
    for (const offset of [16, 1000, PUBLISHED / 2, PUBLISHED - 20, PUBLISHED - 1]) {
      const expected = await ids(sql`SELECT id FROM changelog_entries WHERE project_id = ${project} AND status = 'published'
        ORDER BY published_at DESC, id DESC LIMIT 20 OFFSET ${offset}`);
      expect((await api(`/v1/changelog/history?offset=${offset}&limit=20`)).entries.map((e) => e.id), String(offset)).toEqual(expected);
    }
    const expectedMonthly = await ids(sql`SELECT id FROM changelog_entries WHERE project_id = ${project} AND status = 'published'
      AND entry_type = 'monthly' ORDER BY published_at DESC, id DESC LIMIT 20 OFFSET 170`);
    expect((await api('/v1/changelog/history?view=monthly&offset=170&limit=20')).entries.map((e) => e.id)).toEqual(expectedMonthly);
    const expectedApi = await ids(sql`SELECT id FROM changelog_entries WHERE project_id = ${project} AND status = 'published'
      AND 'api' = ANY(component_tags) ORDER BY published_at DESC, id DESC LIMIT 20 OFFSET ${99 * 20}`);
    const page = (await app.inject({ url: '/c/history?view=all&component=api&page=100' })).body;
    const linked = [...new Set([...page.matchAll(/\/c\/history\/entries\/([0-9a-f-]{36})/g)].map((m) => m[1]))];
    expect(expectedApi).toHaveLength(20);
    expect(linked).toEqual(expectedApi);
    const expectedReleases = await ids(sql`SELECT id FROM release_notes WHERE project_id = ${project} AND status = 'published'
      ORDER BY sort_at DESC, id DESC LIMIT 20 OFFSET 300`);
    expect((await api('/v1/changelog/history/releases?offset=300&limit=20')).releases.map((r) => r.id)).toEqual(expectedReleases);
  });

  it('the public page stops at page 500', async () => {
    expect((await app.inject({ url: '/c/history?view=all&page=501' })).statusCode).toBe(400);
  });
});
