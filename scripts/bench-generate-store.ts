/**
 * npm run bench:generate-store — generation into the database on PostgreSQL: the prettier history
 * (11,652 commits) ingested once, then full generation of all four entry types into an empty
 * project (first run: every entry inserted), a second run (idempotent: nothing written), and an
 * incremental run for the newest day. Prints the figures and writes docs/benchmarks.md (its own
 * section; other sections are kept).
 *
 * BENCH_DATABASE_URL names the PostgreSQL server (default postgres://root@127.0.0.1:5432/test);
 * a scratch database is created there and dropped afterwards.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createGenerationService, type GenerateSummary } from '../src/generation/generation.service.js';
import { createIngestService } from '../src/ingest/ingest.service.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TMP = join(ROOT, 'tmp', 'bench');
const DATASET = resolve(ROOT, '../shared/datasets/prettier-history.jsonl.gz');
const TOOL = resolve(ROOT, '../shared/tools/history-to-git.mjs');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function timed(fn: () => Promise<GenerateSummary>): Promise<{ ms: number; summary: GenerateSummary }> {
  const started = process.hrtime.bigint();
  const summary = await fn();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, summary };
}

async function main() {
  mkdirSync(TMP, { recursive: true });
  const origin = join(TMP, 'prettier.git');
  if (!existsSync(join(origin, 'history-map.tsv'))) {
    console.log('Building the prettier repository from the dataset (once; cached in tmp/bench)…');
    rmSync(origin, { recursive: true, force: true });
    execFileSync('node', [TOOL, DATASET, origin, '--bare'], { stdio: 'inherit' });
  }
  const name = `changelog_bench_gen_${process.pid}`;
  await adminQuery(`DROP DATABASE IF EXISTS ${name}`);
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), readUrl: null, poolMax: 4 });
  const reposDir = join(TMP, 'gen-mirrors');
  try {
    await migrate(database);
    const db = database.db;
    const user = await db.insertInto('users').values({ email: 'bench@example.com', name: 'Bench' }).returning('id').executeTakeFirstOrThrow();
    const project = await db
      .insertInto('projects')
      .values({ name: 'Bench', slug: 'bench', owner_type: 'user', owner_user_id: user.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const link = await db
      .insertInto('repo_links')
      .values({
        project_id: project.id, kind: 'local', installation_id: null, repo_owner: null, repo_name: null,
        source_url: origin, source_key: `local:${origin}`, tracked_branch: 'main', default_branch: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    rmSync(reposDir, { recursive: true, force: true });
    mkdirSync(reposDir, { recursive: true });
    const ingested = await createIngestService(db, { reposDir, installationToken: null }).ingestLink(link.id);

    const generation = createGenerationService(db);
    await generation.configure('bench', { entryTypes: ['commit', 'daily', 'weekly', 'monthly'] });
    const full = await timed(() => generation.generate('bench'));
    const again = await timed(() => generation.generate('bench'));
    const newest = await db.selectFrom('commits').select('committed_at').where('project_id', '=', project.id).orderBy('committed_at', 'desc').executeTakeFirstOrThrow();
    const incremental = await timed(() => generation.generate('bench', { since: new Date(newest.committed_at.getTime() - 86_400_000) }));
    if (total(again.summary.created) + total(again.summary.updated) !== 0) throw new Error('the second run wrote entries');

    const rows = [
      ['full generation, all four types, empty project', seconds(full.ms), `${total(full.summary.created)} entries created`],
      ['second run (idempotent)', seconds(again.ms), `${again.summary.unchanged} unchanged, 0 written`],
      ['incremental run (newest day)', seconds(incremental.ms), `${incremental.summary.touched} commits touched, ${incremental.summary.unchanged} unchanged`],
    ];
    const section = `<!-- bench:generate-store:start -->
## Generation into PostgreSQL (\`npm run bench:generate-store\`)

${ingested.added.toLocaleString('en')} commits (prettier history) stored on PostgreSQL 15; the generation service reads every
reachable commit, runs the engine and upserts by key.

| Run | Time | Result |
| --- | ---: | --- |
${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}
<!-- bench:generate-store:end -->`;
    console.log(`\n${section}\n`);
    const docPath = join(ROOT, 'docs', 'benchmarks.md');
    const existing = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '# Benchmarks\n';
    const pattern = /<!-- bench:generate-store:start -->[\s\S]*<!-- bench:generate-store:end -->/;
    writeFileSync(docPath, pattern.test(existing) ? existing.replace(pattern, section) : `${existing.trimEnd()}\n\n${section}\n`);
  } finally {
    await database.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(reposDir, { recursive: true, force: true });
  }
}

await main();
