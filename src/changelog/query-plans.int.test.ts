import { testConfig } from '../../test/helpers/config.js';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createServices, type Services } from '../services.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';

/**
 * The read routes' real statements (captured from requests) are planned on the published index:
 * the page's ids by an index-only walk, no sequential scan or sort of a project's entries.
 */
let database: TestDatabase;
let services: Services;
let app: Awaited<ReturnType<typeof buildApp>>;
let captured: CompiledQuery[] = [];
let slug: string;
let secret: string;

beforeAll(async () => {
  database = await createTestDatabase({ onQuery: (event) => captured.push(event.query as CompiledQuery) });
  const config = testConfig({ RESPONSE_CACHE: 'false' });
  services = createServices(database, config);
  app = await buildApp({ config, database, services });
  const user = await buildUser(services);
  for (const n of [1, 2, 3]) {
    const project = await buildProject(services, { type: 'user', email: user.email }, { slug: `plans-${n}` });
    await sql`INSERT INTO changelog_entries (project_id, entry_type, status, title, component_tags, published_at)
      SELECT ${project.id}::uuid, 'commit', CASE WHEN i % 10 = 0 THEN 'draft' ELSE 'published' END, 'Entry ' || i,
        CASE WHEN i % 3 = 0 THEN ARRAY['api'] WHEN i = 7 THEN ARRAY['rare'] ELSE ARRAY[]::text[] END,
        CASE WHEN i % 10 = 0 THEN NULL ELSE timestamptz '2020-01-01' + make_interval(mins => i) END
      FROM generate_series(1, 5000) AS i`.execute(database.db);
    slug = project.slug;
  }
  // Views: weekly entries are 1 in 50 of this project's, so a walk of the published index filtered by
  // type would read fifty rows for each one it lists.
  const mixed = await buildProject(services, { type: 'user', email: user.email }, { slug: 'plans-views' });
  await sql`INSERT INTO changelog_entries (project_id, entry_type, status, title, published_at)
    SELECT ${mixed.id}::uuid, CASE WHEN i % 50 = 0 THEN 'weekly' ELSE 'commit' END, 'published', 'Entry ' || i,
      timestamptz '2020-01-01' + make_interval(mins => i)
    FROM generate_series(1, 5000) AS i`.execute(database.db);
  secret = (await services.keys.create({ name: 'k', context: { type: 'user', email: user.email } })).secret;
  await database.withExclusiveSession((exec) => exec('VACUUM ANALYZE'));
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan tree, flattened. */
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

async function plansOf(url: string, headers: Record<string, string> = {}): Promise<PlanNode[][]> {
  captured = [];
  const res = await app.inject({ url, headers });
  expect(res.statusCode, res.body).toBe(200);
  const statements = captured.filter((q) => /changelog_entries/.test(q.sql));
  expect(statements.length).toBeGreaterThan(0);
  const plans: PlanNode[][] = [];
  for (const statement of statements) {
    const result = await database.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${statement.sql}`, [...statement.parameters]),
    );
    plans.push(nodes(result.rows[0]!['QUERY PLAN'][0].Plan));
  }
  return plans;
}

const onEntries = (plan: PlanNode[]) => plan.filter((n) => n['Relation Name'] === 'changelog_entries');
const usesPublishedIndex = (plan: PlanNode[], type?: string) =>
  onEntries(plan).some((n) => n['Index Name'] === 'changelog_entries_published_idx' && (!type || n['Node Type'] === type));
const scansSequentially = (plan: PlanNode[]) => onEntries(plan).some((n) => n['Node Type'] === 'Seq Scan');
// Any node: a bitmap index scan names the index, its heap scan the table.
const usesTypeIndex = (plan: PlanNode[], type?: string) =>
  plan.some((n) => n['Index Name'] === 'changelog_entries_published_type_idx' && (!type || n['Node Type'] === type));

describe('query plans of the read routes', () => {
  it('a deep offset page walks only the published index for the rows it skips', async () => {
    const [plan] = await plansOf(`/v1/changelog/${slug}?offset=4000&limit=20`);
    expect(usesPublishedIndex(plan!, 'Index Only Scan')).toBe(true);
    expect(scansSequentially(plan!)).toBe(false);
  });

  it('a cursor page seeks into the published index', async () => {
    const first = (await app.inject({ url: `/v1/changelog/${slug}?offset=3000&limit=20` })).json();
    const [plan] = await plansOf(`/v1/changelog/${slug}?cursor=${first.meta.next_cursor}&limit=20`);
    const seek = onEntries(plan!).find((n) => n['Index Name'] === 'changelog_entries_published_idx');
    // The cursor is part of the index condition: a seek, not a walk from the start.
    expect(seek?.['Index Cond']).toMatch(/ROW\(published_at, id\) < ROW/);
    expect(scansSequentially(plan!)).toBe(false);
  });

  // An anonymous visitor picks the component: one that matches nothing or almost nothing must not
  // walk the project's published entries (a full scan per request, repeatable with any string).
  for (const component of ['no-such-component', 'rare']) {
    it(`the public page's component filter (${component}) looks the component up in its index`, async () => {
      const plans = await plansOf(`/c/${slug}?component=${component}`);
      const statement = plans.find((plan) => plan.some((n) => n['Index Name'] === 'changelog_entries_published_components_idx'));
      expect(statement, 'the filtered listing uses the component index').toBeDefined();
      expect(scansSequentially(statement!)).toBe(false);
      expect(usesPublishedIndex(statement!)).toBe(false);
    });
  }

  // A view lists one entry type: its pages walk that type's part of the published index of types
  // (migrations/0024), whichever way they are reached.
  for (const query of ['view=weekly&offset=60&limit=20', 'view=default&limit=20', 'view=weekly&offset=1500', 'view=weekly&limit=5&cursor=']) {
    it(`GET /v1/changelog/{slug}?${query} walks the published index of types only`, async () => {
      let url = `/v1/changelog/plans-views?${query}`;
      if (query.endsWith('cursor=')) url += (await app.inject({ url: '/v1/changelog/plans-views?view=weekly&offset=40&limit=5' })).json().meta.next_cursor;
      const plans = await plansOf(url);
      const listing = plans.find((plan) => onEntries(plan).length > 0)!;
      expect(usesTypeIndex(listing, 'Index Only Scan')).toBe(true);
      expect(usesPublishedIndex(listing)).toBe(false);
      expect(scansSequentially(listing)).toBe(false);
    });
  }

  it("the public page's view reads its entries from the published index of types", async () => {
    const plans = await plansOf('/c/plans-views?view=weekly&page=3');
    const listing = plans.find((plan) => usesTypeIndex(plan));
    expect(listing, 'the view is listed from the index of types').toBeDefined();
    expect(scansSequentially(listing!)).toBe(false);
  });

  it("the project listing reads each project's newest entries from the published index", async () => {
    const plans = await plansOf('/v1/projects?entries_limit=50', { authorization: `Bearer ${secret}` });
    const lateral = plans.find((plan) => onEntries(plan).length > 0)!;
    expect(usesPublishedIndex(lateral)).toBe(true);
    expect(scansSequentially(lateral)).toBe(false);
  });
});
