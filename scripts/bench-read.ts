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
  /** Successful (2xx) responses per second. */
  rps: number;
  /** Requests the server shed under load (503 from load shedding), per second. */
  shedRps: number;
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

/** The baseline server: resolves with its port once it prints it. */
function startBaseline(responseFile: string): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', BASELINE_SERVER, responseFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += String(chunk);
      const match = /"port":(\d+)/.exec(out);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.on('exit', (code) => reject(new Error(`baseline exited (${code})`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

async function load(url: string, headers: Record<string, string>, connections: number, paths?: readonly string[]): Promise<RunResult> {
  // Several paths: each request picks one at random (the baseline answers them all with the same bytes).
  const requests = paths ? [{ setupRequest: (request: object) => ({ ...request, path: paths[Math.floor(Math.random() * paths.length)] }) }] : undefined;
  const result = await autocannon({ url, connections, duration: DURATION, headers, timeout: 30, ...(requests ? { requests } : {}) });
  // Load shedding (503) is the server protecting itself, not a failure; any other non-2xx is.
  const shed = (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats?.['503']?.count ?? 0;
  const seconds = result.duration || DURATION;
  return {
    rps: result['2xx'] / seconds,
    shedRps: shed / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx - shed,
    errors: result.errors + result.timeouts,
  };
}

const BASELINE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const { body, headers } = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
const bytes = Buffer.from(body, 'base64');
const server = http.createServer((req, res) => { res.writeHead(200, { ...headers, 'content-length': bytes.length }); res.end(bytes); });
server.keepAliveTimeout = 72000;
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
`;

async function measureRoute(
  name: string,
  serverUrl: string,
  path: string,
  headers: Record<string, string>,
  serverPid: number,
  rss: { max: number },
  connections = CONNECTIONS,
  paths?: readonly string[],
): Promise<RouteResult> {
  // Capture the real response and serve the very same bytes from the baseline. A server still
  // shedding load after the previous route (503 while its event loop catches up) is waited for.
  let captured = await fetch(serverUrl + path, { headers });
  for (let waited = 0; captured.status === 503 && waited < 60; waited++) {
    await new Promise((r) => setTimeout(r, 1000));
    captured = await fetch(serverUrl + path, { headers });
  }
  if (captured.status !== 200) throw new Error(`${name}: ${captured.status} ${await captured.text()}`);
  const body = Buffer.from(await captured.arrayBuffer());
  // Every header the server sent (security headers, rate-limit headers, ETag…) but those node:http
  // writes itself, so the baseline puts the same bytes on the wire.
  const own = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
  const capturedHeaders = Object.fromEntries([...captured.headers].filter(([name]) => !own.has(name)));
  const dir = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
  writeFileSync(join(dir, 'response.json'), JSON.stringify({ body: body.toString('base64'), headers: capturedHeaders }));
  const baseline = await startBaseline(join(dir, 'response.json'));
  const sampler = setInterval(() => (rss.max = Math.max(rss.max, rssMb(serverPid))), 250);
  const services: RunResult[] = [];
  const baselines: RunResult[] = [];
  try {
    for (let pair = 0; pair < PAIRS; pair++) {
      baselines.push(await load(`http://127.0.0.1:${baseline.port}${path}`, headers, connections, paths));
      services.push(await load(serverUrl + path, headers, connections, paths));
      const s = services.at(-1)!;
      if (s.non2xx || s.errors) throw new Error(`${name}: ${s.non2xx} non-2xx, ${s.errors} errors`);
    }
  } finally {
    clearInterval(sampler);
    await stop(baseline.child);
    rmSync(dir, { recursive: true, force: true });
  }
  const pick = (runs: RunResult[]): RunResult => ({
    rps: median(runs.map((r) => r.rps)),
    shedRps: median(runs.map((r) => r.shedRps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    non2xx: 0,
    errors: 0,
  });
  const service = pick(services);
  const base = pick(baselines);
  const ratio = median(services.map((s, i) => s.rps / baselines[i]!.rps));
  const p99Ratio = median(services.map((s, i) => s.p99 / Math.max(baselines[i]!.p99, 1)));
  const row = { name: `${name} [${connections} conn., ${formatBytes(body.length)}]`, path, service, baseline: base, ratio, p99Ratio };
  console.log(formatRow(row));
  return row;
}

const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.round(n / 1024)} kB`);

const formatRow = (r: RouteResult) =>
  `| ${r.name} | ${Math.round(r.service.rps).toLocaleString('en')}${r.service.shedRps ? ` (+${Math.round(r.service.shedRps).toLocaleString('en')} shed, 503)` : ''} | ${r.service.p50} / ${r.service.p99} | ` +
  `${Math.round(r.baseline.rps).toLocaleString('en')} | ${r.baseline.p50} / ${r.baseline.p99} | ${r.ratio.toFixed(2)} | ${r.p99Ratio.toFixed(2)} |`;

const HEADER =
  '| route | service req/s | service p50 / p99 ms | baseline req/s | baseline p50 / p99 ms | req/s ratio | p99 ratio |\n|---|---|---|---|---|---|---|';

async function benchDatabase(kind: 'pglite' | 'postgres'): Promise<string> {
  const deepEntries = kind === 'postgres' ? 1_000_000 : Number(process.env.BENCH_PGLITE_DEEP ?? 200_000);
  let env: Record<string, string>;
  let cleanup = async () => {};
  let dbConfig: Parameters<typeof openDatabase>[0];
  if (kind === 'postgres') {
    const admin = process.env.BENCH_DATABASE_URL!;
    const name = `changelog_bench_${Date.now()}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString() };
    dbConfig = { kind: 'postgres', url: url.toString(), readUrl: null, poolMax: 4 };
    cleanup = async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
    env = { DATA_DIR: dir };
    dbConfig = { kind: 'pglite', dataDir: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }

  const started = Date.now();
  const database = await openDatabase(dbConfig);
  await migrate(database);
  const { secret, entryId } = await seed(database, deepEntries);
  await database.close();
  console.log(`\n${kind}: seeded in ${((Date.now() - started) / 1000).toFixed(0)} s (deep project: ${deepEntries.toLocaleString('en')} entries)`);

  const lines: string[] = [];
  // Per server: the default configuration, and the diagnostic one with the response cache off.
  const rss = { max: 0 };
  const rssUncached = { max: 0 };
  /** The production build on a free port, logging at warn, once it answers /health. */
  const serve = async (extra: Record<string, string> = {}) => {
    const port = await freePort();
    const child = spawn(process.execPath, ['bin/changelog.js', 'serve', '--no-migrate'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DEMO_SEED: 'false',
        HOST: '127.0.0.1',
        PORT: String(port),
        // The limiter stays on (its cost is part of the figures) with limits one loopback client cannot reach.
        RATE_LIMIT_WINDOW_MS: '1000',
        RATE_LIMIT_PUBLIC_MAX: '1000000',
        RATE_LIMIT_AUTHENTICATED_MAX: '1000000',
        ...extra,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const url = `http://127.0.0.1:${port}`;
    await waitFor(url);
    return { child, url, pid: child.pid! };
  };
  try {
    console.log(HEADER);
    const rows: RouteResult[] = [];
    const server = await serve();
    const auth = { authorization: `Bearer ${secret}` };
    const measure = (name: string, path: string, headers: Record<string, string> = {}, on = server, connections = CONNECTIONS, paths?: string[]) =>
      measureRoute(name, on.url, path, headers, on.pid, on === server ? rss : rssUncached, connections, paths);
    rows.push(await measure('changelog, first page (limit=20)', '/v1/changelog/bench-1?limit=20'));
    rows.push(await measure('changelog entry', `/v1/changelog/bench-1/entries/${entryId}`));
    // An integration polls this one: measured with one client (its latency) and with 50 (throughput).
    rows.push(await measure('projects: 100 projects, entries_limit=50', '/v1/projects?entries_limit=50', auth, server, 1));
    rows.push(await measure('projects: 100 projects, entries_limit=50', '/v1/projects?entries_limit=50', auth));
    const deep = Math.min(100_000, deepEntries - 100);
    rows.push(await measure(`deep page: offset=${deep}`, `/v1/changelog/deep?offset=${deep}&limit=20`));
    const deepPage = (await (await fetch(`${server.url}/v1/changelog/deep?offset=${deep}&limit=20`)).json()) as { meta: { next_cursor: string } };
    const deepCursor = `/v1/changelog/deep?cursor=${deepPage.meta.next_cursor}&limit=20`;
    rows.push(await measure(`deep page: cursor after ${deep + 20}`, deepCursor));
    // Many readers of many pages: 20 projects × 5 pages, and 100 entries, each request one at random.
    const pages = Array.from({ length: 100 }, (_, i) => `/v1/changelog/bench-${(i % 20) + 1}?limit=20&offset=${Math.floor(i / 20) * 20}`);
    const entries: string[] = [];
    for (let n = 1; n <= 20; n++) {
      const listed = (await (await fetch(`${server.url}/v1/changelog/bench-${n}?limit=5`)).json()) as { entries: { id: string }[] };
      entries.push(...listed.entries.map((e) => `/v1/changelog/bench-${n}/entries/${e.id}`));
    }
    rows.push(await measure('100 pages at random (20 projects × 5)', pages[0]!, {}, server, CONNECTIONS, pages));
    await stop(server.child);

    // The same routes with the response cache off: every request reads the database.
    const uncached = await serve({ RESPONSE_CACHE: 'false' });
    rows.push(await measure('changelog, first page, cache off', '/v1/changelog/bench-1?limit=20', {}, uncached));
    rows.push(await measure('changelog entry, cache off', `/v1/changelog/bench-1/entries/${entryId}`, {}, uncached));
    rows.push(await measure('100 pages at random, cache off', pages[0]!, {}, uncached, CONNECTIONS, pages));
    rows.push(await measure('100 entries at random, cache off', entries[0]!, {}, uncached, CONNECTIONS, entries));
    rows.push(await measure('projects, cache off', '/v1/projects?entries_limit=50', auth, uncached, 1));
    rows.push(await measure(`deep page offset=${deep}, cache off`, `/v1/changelog/deep?offset=${deep}&limit=20`, {}, uncached, 1));
    rows.push(await measure(`deep page offset=${deep}, cache off`, `/v1/changelog/deep?offset=${deep}&limit=20`, {}, uncached));
    rows.push(await measure(`deep page: cursor after ${deep + 20}, cache off`, deepCursor, {}, uncached));
    // The public page as an anonymous visitor may ask for it: a component nothing is tagged with, on the deep project.
    rows.push(await measure('public page, component matching nothing, deep project, cache off', '/c/deep?component=no-such-component', {}, uncached, 1));
    rows.push(await measure('public page, first page, cache off', '/c/bench-1', {}, uncached, 1));
    await stop(uncached.child);

    lines.push(`### ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'}`, '', HEADER, ...rows.map(formatRow), '');
    const memory =
      `Largest server RSS: ${Math.round(rss.max)} MB in the default configuration (the first seven rows), ` +
      `${Math.round(rssUncached.max)} MB with the response cache off (the others). ` +
      `Deep project: ${deepEntries.toLocaleString('en')} published entries.`;
    console.log(memory);
    lines.push(memory, '');
  } finally {
    await cleanup();
  }
  return lines.join('\n');
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 900; i++) {
    try {
      // Ready, not merely alive: /ready also answers 503 while start-up work still lags the event loop.
      if ((await fetch(`${url}/ready`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** The table of `kind` in the current docs/benchmarks.md section (up to the next table or the section's end), marked as kept. */
function keptTable(kind: 'postgres' | 'pglite'): string | undefined {
  let doc: string;
  try {
    doc = readFileSync(join(ROOT, 'docs/benchmarks.md'), 'utf8');
  } catch {
    return undefined;
  }
  const section = /<!-- bench:read:start -->([\s\S]*?)<!-- bench:read:end -->/.exec(doc)?.[1];
  const title = kind === 'postgres' ? '### PostgreSQL' : '### PGlite (embedded)';
  const from = section?.indexOf(`${title}\n`) ?? -1;
  if (!section || from < 0) return undefined;
  const next = section.indexOf('\n### ', from + title.length);
  const table = section.slice(from + title.length, next < 0 ? undefined : next + 1).replace(/^\n+(_[^\n]*_\n+)?/, '\n');
  const note = `_Kept from the last run that measured it: this run (${new Date().toISOString().slice(0, 10)}) measured ${kind === 'postgres' ? 'the embedded database' : 'PostgreSQL'} only._`;
  return `${title}\n\n${note}\n${table.trimEnd()}\n`;
}

function writeSection(markdown: string): void {
  const file = join(ROOT, 'docs/benchmarks.md');
  let doc = '# Benchmarks\n';
  try {
    doc = readFileSync(file, 'utf8');
  } catch {
    // first run
  }
  const start = '<!-- bench:read:start -->';
  const end = '<!-- bench:read:end -->';
  const section = `${start}\n${markdown}\n${end}`;
  doc = doc.includes(start) ? doc.replace(new RegExp(`${start}[\\s\\S]*?${end}`), section) : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, doc);
}

const kinds: ('pglite' | 'postgres')[] = ['pglite'];
if (process.env.BENCH_DATABASE_URL) kinds.unshift('postgres');
else console.log('BENCH_DATABASE_URL is not set: measuring PGlite only.');
if (process.env.BENCH_ONLY === 'postgres' || process.env.BENCH_ONLY === 'pglite') kinds.splice(0, kinds.length, process.env.BENCH_ONLY);

const parts: string[] = [];
for (const kind of kinds) parts.push(await benchDatabase(kind));
const header = [
  '## Read path (`npm run bench`)',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}. ` +
    `autocannon over loopback, ${CONNECTIONS} connections, ${PAIRS} alternating baseline/service pairs of ${DURATION} s; ` +
    'each figure is the median of the pairs. The baseline is a bare `node:http` server answering with the very same bytes and headers ' +
    'as the route, captured from the real server. The server is the production build (`node bin/changelog.js serve`, LOG_LEVEL=warn) ' +
    'with its default middleware (helmet, CORS, rate limiter with limits one client cannot reach, load shedding, ETag).',
  '',
  'Data set: 20 projects × 2,000 published entries (85 % commit entries with one item, 15 % weekly or monthly rollups ' +
    'with about 3 kB of `generated_json` and Markdown) and 200 drafts each; an organization with 100 projects × 60 entries ' +
    '(the `GET /v1/projects` key sees all 100); a deep project of small entries. `GET /v1/projects` returns every project with ' +
    'up to 50 entries (megabytes), so it is measured with one client (an integration polling it) and with 50.',
  '',
].join('\n');
// A run of one database (BENCH_ONLY, or no BENCH_DATABASE_URL) keeps the other's table from the last run that measured it.
for (const other of (['postgres', 'pglite'] as const).filter((k) => !kinds.includes(k))) {
  const kept = keptTable(other);
  if (kept) parts[other === 'postgres' ? 'unshift' : 'push'](kept);
}
const markdown = `${header}\n${parts.join('\n')}`;
writeSection(markdown);
console.log(`\nWrote docs/benchmarks.md`);
