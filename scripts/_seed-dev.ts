/**
 * npm run bench: read-path benchmark of the real server (production build, LOG_LEVEL=warn) against a
 * bare node:http server that answers every request with the very same bytes, captured from the real
 * server first. Baseline and service runs alternate (PAIRS pairs of DURATION seconds, 50
 * connections) and the table shows the median of the pairs. Runs on PGlite, and on PostgreSQL when
 * BENCH_DATABASE_URL names a server (a scratch database is created there and dropped after).
 *
 *   npm run bench                      # PGlite (+ PostgreSQL with BENCH_DATABASE_URL)
 *   BENCH_DURATION=3 BENCH_PAIRS=1 npm run bench   # quick look
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { displayPrefix, generateKey, hashKey } from '../src/keys/key-format.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const CONNECTIONS = 50;
const ROOT = new URL('..', import.meta.url).pathname;

interface RunResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

interface RouteResult {
  name: string;
  path: string;
  service: RunResult;
  baseline: RunResult;
  ratio: number;
  p99Ratio: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const GENERATED = (n: string) => ({
  title: `Week ${n}: faster exports, safer sign-in`,
  headline_items: [
    { section_type_key: 'breaking', title: 'The v0 endpoints are removed; use /v1', body: 'Clients on v0 must move to v1 before upgrading.' },
    { section_type_key: 'feature', title: 'Export changelogs as RSS and JSON Feed', body: null },
    { section_type_key: 'feature', title: 'Dark mode for the dashboard', body: null },
  ],
  sections: [
    { section_type_key: 'breaking', label: 'Breaking changes', items: [{ text: 'The v0 endpoints are removed; use /v1 (#1412)', component: 'api' }] },
    {
      section_type_key: 'feature',
      label: 'Features',
      items: [
        { text: 'Export changelogs as RSS and JSON Feed (#1398)', component: 'api' },
        { text: 'Dark mode for the dashboard (#1402)', component: 'dashboard' },
        { text: 'Component tags from Conventional Commit scopes (#1405)', component: 'generator' },
      ],
    },
    {
      section_type_key: 'fix',
      label: 'Bug fixes',
      items: [
        { text: 'Session cookies expire after sign-out everywhere (#1399)', component: 'auth' },
        { text: 'Weekly rollups respect the project time zone (#1401)', component: 'generator' },
        { text: 'Escape HTML in commit messages (#1407)', component: null },
      ],
    },
    { section_type_key: 'performance', label: 'Performance', items: [{ text: 'Listing pages render 3x faster on large projects (#1410)', component: 'api' }] },
  ],
  component_tags: ['api', 'auth', 'dashboard', 'generator'],
  team_attribution: 'Ada Lovelace, Grace Hopper and 3 others',
});

const CONTENT = `## Week __N__: faster exports, safer sign-in

### Breaking changes

- **api:** The v0 endpoints are removed; use /v1 ([#1412](https://github.com/acme/app/pull/1412))

### Features

- **api:** Export changelogs as RSS and JSON Feed ([#1398](https://github.com/acme/app/pull/1398))
- **dashboard:** Dark mode for the dashboard ([#1402](https://github.com/acme/app/pull/1402))
- **generator:** Component tags from Conventional Commit scopes ([#1405](https://github.com/acme/app/pull/1405))

### Bug fixes

- **auth:** Session cookies expire after sign-out everywhere ([#1399](https://github.com/acme/app/pull/1399))
- **generator:** Weekly rollups respect the project time zone ([#1401](https://github.com/acme/app/pull/1401))
- Escape HTML in commit messages ([#1407](https://github.com/acme/app/pull/1407))

### Performance

- **api:** Listing pages render 3x faster on large projects ([#1410](https://github.com/acme/app/pull/1410))
`;

/** A commit entry: one item in one section. */
const COMMIT_GENERATED = {
  title: 'Export changelogs as RSS (#__N__)',
  headline_items: [{ section_type_key: 'feature', title: 'Export changelogs as RSS', body: null }],
  sections: [{ section_type_key: 'feature', label: 'Features', items: [{ text: 'Export changelogs as RSS (#__N__)', component: 'api' }] }],
  component_tags: ['api'],
  team_attribution: 'Ada Lovelace and Grace Hopper',
};
const COMMIT_CONTENT = '### Features\n\n- **api:** Export changelogs as RSS';

/**
 * 20 projects × 2,000 published entries (+200 drafts each): as in a real history, 85 % are commit
 * entries (one item) and 15 % weekly or monthly rollups (about 3 kB of generated_json each). Also an
 * org with 100 projects of 60 entries, and a deep project of small entries.
 */
async function seed(database: Database, deepEntries: number): Promise<{ secret: string; entryId: string }> {
  const db = database.db;
  const user = await db.insertInto('users').values({ email: 'bench@example.com', name: 'Bench' }).returning('id').executeTakeFirstOrThrow();
  const org = await db.insertInto('organizations').values({ slug: 'bench-org', name: 'Bench Org' }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('organization_members').values({ organization_id: org.id, user_id: user.id, role: 'owner' }).execute();
  const json = JSON.stringify(GENERATED('__N__'));
  const commitJson = JSON.stringify(COMMIT_GENERATED);
  const entriesFor = async (where: ReturnType<typeof sql>, count: number, status: string) => {
    await sql`
      INSERT INTO changelog_entries (project_id, entry_type, status, title, content, generated_json, version_label,
        team_attribution, component_tags, commit_shas, period_start, period_end, published_at)
      SELECT p.id, CASE WHEN i % 20 = 0 THEN 'monthly' WHEN i % 20 < 3 THEN 'weekly' ELSE 'commit' END, ${status},
        CASE WHEN i % 20 < 3 THEN 'Week ' || i || ': faster exports, safer sign-in' ELSE 'Export changelogs as RSS (#' || i || ')' END,
        CASE WHEN i % 20 < 3 THEN replace(${CONTENT}, '__N__', i::text) ELSE ${COMMIT_CONTENT} || ' ([#' || i || '](https://github.com/acme/app/pull/' || i || '))' END,
        CASE WHEN i % 20 < 3 THEN replace(${json}, '__N__', i::text) ELSE replace(${commitJson}, '__N__', i::text) END::jsonb,
        'v2.' || (i / 100) || '.' || (i % 100),
        'Ada Lovelace, Grace Hopper and 3 others', ARRAY['api','auth','dashboard','generator'],
        ARRAY[md5(p.id::text || i) || substr(md5(i::text), 1, 8)],
        timestamptz '2020-01-01' + make_interval(days => i), timestamptz '2020-01-08' + make_interval(days => i),
        CASE WHEN ${status} = 'published' THEN timestamptz '2020-01-08' + make_interval(days => i) END
      FROM projects p, generate_series(1, ${count}) AS i WHERE ${where}`.execute(db);
  };
  await sql`INSERT INTO projects (owner_type, owner_user_id, name, slug)
    SELECT 'user', ${user.id}::uuid, 'Bench ' || n, 'bench-' || n FROM generate_series(1, 20) AS n`.execute(db);
  await entriesFor(sql`p.slug LIKE 'bench-%' AND p.owner_type = 'user'`, 2000, 'published');
  await entriesFor(sql`p.slug LIKE 'bench-%' AND p.owner_type = 'user'`, 200, 'draft');
  await sql`INSERT INTO projects (owner_type, owner_org_id, name, slug)
    SELECT 'org', ${org.id}::uuid, 'Org project ' || n, 'org-' || n FROM generate_series(1, 100) AS n`.execute(db);
  await entriesFor(sql`p.slug LIKE 'org-%'`, 60, 'published');
  // The deep project: many small published entries (their size does not matter to the page lookup).
  await sql`INSERT INTO projects (owner_type, owner_user_id, name, slug) VALUES ('user', ${user.id}::uuid, 'Deep', 'deep')`.execute(db);
  for (let from = 1; from <= deepEntries; from += 100_000) {
    await sql`
      INSERT INTO changelog_entries (project_id, entry_type, status, title, content, published_at)
      SELECT p.id, 'commit', 'published', 'Commit ' || i, 'Fix a thing in module ' || (i % 97),
        timestamptz '2000-01-01' + make_interval(secs => i)
      FROM projects p, generate_series(${from}::int, ${Math.min(from + 99_999, deepEntries)}::int) AS i
      WHERE p.slug = 'deep'`.execute(db);
  }
  const secret = generateKey();
  await db
    .insertInto('api_keys')
    .values({ name: 'bench', context_type: 'org', org_id: org.id, scope: 'all', key_hash: hashKey(secret), display_prefix: displayPrefix(secret) })
    .execute();
  const entry = await db
    .selectFrom('changelog_entries as e')
    .innerJoin('projects as p', 'p.id', 'e.project_id')
    .select('e.id')
    .where('p.slug', '=', 'bench-1')
    .where('e.status', '=', 'published')
    .orderBy('e.published_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  // Fresh statistics and a visibility map, as autovacuum would leave them, so plans are the real ones.
  await database.withExclusiveSession((exec) => exec('VACUUM ANALYZE'));
  return { secret, entryId: entry.id };
}
const database = await openDatabase({ kind: 'postgres', url: 'postgres://root@127.0.0.1:5432/lead_bench', readUrl: null, poolMax: 4 });
await migrate(database);
const r = await seed(database, 1000);
console.log(JSON.stringify(r));
await database.close();
