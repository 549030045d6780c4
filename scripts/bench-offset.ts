/**
 * npm run bench:offset: what an uncached page of `GET /v1/changelog/{slug}` costs at offset 0 and at
 * the deepest offsets of a long history (issue #27: "any depth of the listing at the cost of the first
 * page"). One project of BENCH_OFFSET_ENTRIES published entries (default 200,000, some drafts among
 * them), the response cache off, requests through the whole application (app.inject: route,
 * validation, statements, serialization), one at a time. Offsets are read in alternating rounds so
 * that a shared machine's noise falls on all of them alike. For contrast, the plain statement that
 * the listing marks (migrations/0030) replace, `ORDER BY … OFFSET n`, is timed at the same offsets.
 *
 *   npm run bench:offset                                  # PGlite
 *   BENCH_OFFSET_DB=postgres npm run bench:offset         # PostgreSQL (a scratch database on BENCH_DATABASE_URL)
 *   BENCH_OFFSET_ENTRIES=50000 BENCH_OFFSET_ROUNDS=100 npm run bench:offset
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig, type DatabaseConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createServices } from '../src/services.js';
import { ADMIN_URL, adminQuery } from './bench-support.js';

const ENTRIES = Number(process.env.BENCH_OFFSET_ENTRIES ?? 200_000);
const ROUNDS = Number(process.env.BENCH_OFFSET_ROUNDS ?? 200);
const KIND = (process.env.BENCH_OFFSET_DB ?? 'pglite') as 'pglite' | 'postgres';
const LIMIT = 20;

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
const ms = (v: number) => v.toFixed(2);

/** One project, `ENTRIES` published commit entries a minute apart (and one draft in ten besides, which no listing shows). */
async function seed(database: Database): Promise<void> {
  const db = database.db;
  const user = await db.insertInto('users').values({ email: 'bench@example.com', name: 'Bench' }).returning('id').executeTakeFirstOrThrow();
  await sql`INSERT INTO projects (owner_type, owner_user_id, name, slug) VALUES ('user', ${user.id}::uuid, 'Deep', 'deep')`.execute(db);
  for (let from = 1; from <= ENTRIES; from += 50_000) {
    const to = Math.min(from + 49_999, ENTRIES);
    await sql`
      INSERT INTO changelog_entries (project_id, entry_type, status, title, content, component_tags, published_at)
      SELECT p.id, CASE WHEN i % 20 = 0 THEN 'weekly' ELSE 'commit' END, 'published', 'Commit ' || i,
        'Fix a thing in module ' || (i % 97), CASE WHEN i % 10 = 3 THEN ARRAY['api'] ELSE ARRAY[]::text[] END,
        timestamptz '2000-01-01' + make_interval(mins => i)
      FROM projects p, generate_series(${from}::int, ${to}::int) AS i WHERE p.slug = 'deep'`.execute(db);
    await sql`
      INSERT INTO changelog_entries (project_id, entry_type, status, title, content)
      SELECT p.id, 'commit', 'draft', 'Draft ' || i, 'Not yet' FROM projects p, generate_series(1, ${Math.ceil((to - from + 1) / 10)}::int) AS i
      WHERE p.slug = 'deep'`.execute(db);
  }
}

async function main() {
  let config: DatabaseConfig;
  let cleanup = async () => {};
  if (KIND === 'postgres') {
    const name = `changelog_bench_offset_${Date.now()}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    config = { kind: 'postgres', url: url.toString(), readUrl: null, poolMax: 4 };
    cleanup = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'bench-offset-'));
    config = { kind: 'pglite', dataDir: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  const database = await openDatabase(config);
  try {
    const seeding = Date.now();
    await migrate(database);
    await seed(database);
    console.log(`${KIND}: ${ENTRIES.toLocaleString('en')} published entries seeded in ${((Date.now() - seeding) / 1000).toFixed(0)} s`);

    const appConfig = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      RESPONSE_CACHE: 'false',
      RATE_LIMIT_ENABLED: 'false',
      UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    });
    const services = createServices(database, appConfig);
    const app = await buildApp({ config: appConfig, database, services });
    const get = async (url: string) => {
      const res = await app.inject({ url });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res.json() as { entries: { id: string }[]; meta: { total: number; next_cursor: string | null } };
    };
    const total = (await get('/v1/changelog/deep?limit=1')).meta.total;
    if (total !== ENTRIES) throw new Error(`total ${total}, expected ${ENTRIES}`);
    const cursor = (await get(`/v1/changelog/deep?limit=${LIMIT}`)).meta.next_cursor!;
    const cases: { name: string; url: string; offset: number | null }[] = [
      { name: 'offset 0', url: `/v1/changelog/deep?limit=${LIMIT}`, offset: 0 },
      // The service reads offsets up to 1,000 in batches (DataLoader, dispatched on setImmediate) and deeper ones alone.
      { name: 'offset 1,000 (the deepest read in batches)', url: `/v1/changelog/deep?offset=1000&limit=${LIMIT}`, offset: 1000 },
      { name: 'offset 1,001 (read alone)', url: `/v1/changelog/deep?offset=1001&limit=${LIMIT}`, offset: 1001 },
      { name: `offset ${(total / 2).toLocaleString('en')} (halfway)`, url: `/v1/changelog/deep?offset=${total / 2}&limit=${LIMIT}`, offset: total / 2 },
      {
        name: `offset ${(total - LIMIT).toLocaleString('en')} (last page)`,
        url: `/v1/changelog/deep?offset=${total - LIMIT}&limit=${LIMIT}`,
        offset: total - LIMIT,
      },
      { name: `offset ${(total - 1).toLocaleString('en')} (last entry)`, url: `/v1/changelog/deep?offset=${total - 1}&limit=${LIMIT}`, offset: total - 1 },
      {
        name: `weekly view, offset ${(total / 20 - LIMIT).toLocaleString('en')} (its last page)`,
        url: `/v1/changelog/deep?view=weekly&offset=${total / 20 - LIMIT}&limit=${LIMIT}`,
        offset: null,
      },
      {
        name: `after the first page's cursor, offset ${(total / 2).toLocaleString('en')}`,
        url: `/v1/changelog/deep?cursor=${cursor}&offset=${total / 2}&limit=${LIMIT}`,
        offset: null,
      },
    ];
    // The deepest pages list the oldest entries, as a plain OFFSET on the whole listing does.
    const project = sql`(SELECT id FROM projects WHERE slug = 'deep')`;
    const plain = (offset: number) => sql<{ id: string }>`SELECT id FROM changelog_entries WHERE project_id = ${project} AND status = 'published'
      ORDER BY published_at DESC, id DESC LIMIT ${LIMIT} OFFSET ${offset}`;
    for (const c of cases.filter((c) => c.offset !== null)) {
      const expected = (await plain(c.offset!).execute(database.db)).rows.map((r) => r.id);
      const listed = (await get(c.url)).entries.map((e) => e.id);
      if (JSON.stringify(listed) !== JSON.stringify(expected)) throw new Error(`${c.name}: the page differs from OFFSET on the whole listing`);
    }

    const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    const plainTimes = new Map<number, number[]>(cases.filter((c) => c.offset !== null).map((c) => [c.offset!, []]));
    for (let i = 0; i < 20; i++) for (const c of cases) await get(c.url); // warm-up: plans, caches of the database
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in another order, so that none is always first after the contrast statements.
      for (const c of [...cases.slice(round % cases.length), ...cases.slice(0, round % cases.length)]) {
        const started = process.hrtime.bigint();
        await get(c.url);
        times.get(c.name)!.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      if (round % 10 === 0) {
        for (const [offset, list] of plainTimes) {
          const started = process.hrtime.bigint();
          await plain(offset).execute(database.db);
          list.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
      }
    }
    const first = quantile(times.get('offset 0')!, 0.5);
    console.log(`\nUncached GET /v1/changelog/{slug}, limit=${LIMIT}, ${ROUNDS} requests each, one at a time (ms)\n`);
    console.log('| request | p50 | p90 | p50 / offset 0 |\n|---|---:|---:|---:|');
    for (const c of cases) {
      const list = times.get(c.name)!;
      console.log(`| ${c.name} | ${ms(quantile(list, 0.5))} | ${ms(quantile(list, 0.9))} | ${(quantile(list, 0.5) / first).toFixed(2)} |`);
    }
    const plainFirst = quantile(plainTimes.get(0)!, 0.5);
    console.log(
      `\nFor contrast, the plain statement \`ORDER BY published_at DESC, id DESC LIMIT ${LIMIT} OFFSET n\` (${plainTimes.get(0)!.length} runs each, ms)\n`,
    );
    console.log('| offset | p50 | p50 / offset 0 |\n|---|---:|---:|');
    for (const [offset, list] of plainTimes) {
      console.log(`| ${offset.toLocaleString('en')} | ${ms(quantile(list, 0.5))} | ${(quantile(list, 0.5) / plainFirst).toFixed(1)} |`);
    }
    const deepest = quantile(times.get(cases[4]!.name)!, 0.5);
    console.log(`\nlast full page / offset 0: ${(deepest / first).toFixed(2)} (target ≤ 2)`);
    await app.close();
  } finally {
    await database.close();
    await cleanup();
  }
}

await main();
