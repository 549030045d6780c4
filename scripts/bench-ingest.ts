/**
 * npm run bench:ingest — ingests a real history of 11,652 commits (the prettier dataset turned
 * into a git repository) on the embedded database and on PostgreSQL, and compares it with the
 * time `git log --name-status` alone takes on the same mirror. Prints the figures and writes
 * them into docs/benchmarks.md (its own section; other sections are kept).
 *
 * BENCH_DATABASE_URL names the PostgreSQL server (default postgres://root@127.0.0.1:5432/test);
 * a scratch database is created there and dropped afterwards.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { gitLogArgs } from '../src/git/git-log.js';
import { createIngestService } from '../src/repos/ingest.service.js';
import { syncMirror } from '../src/git/mirror.js';
import { adminQuery, ADMIN_URL } from './bench-support.js';
import { createBenchProject } from './dataset-repo.js';
import { sharedPath } from './shared-dir.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TMP = join(ROOT, 'tmp', 'bench');
const RUNS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function timeGit(args: string[]): number {
  const started = process.hrtime.bigint();
  // Output goes to a pipe that is read and dropped, as the ingester reads it.
  const result = spawnSync('git', args, { maxBuffer: 1024 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Ingests the repository into a fresh database RUNS times and returns the median time and count. */
async function benchIngest(open: () => Promise<{ database: Database; cleanup: () => Promise<void> }>, origin: string, mirrorTemplate: string) {
  const times: number[] = [];
  let added = 0;
  for (let run = 0; run < RUNS; run++) {
    const { database, cleanup } = await open();
    try {
      await migrate(database);
      const db = database.db;
      const { link } = await createBenchProject(db, origin);
      const reposDir = join(TMP, `mirrors-${run}`);
      rmSync(reposDir, { recursive: true, force: true });
      mkdirSync(reposDir, { recursive: true });
      // The clone is timed on its own below; this measures fetch + git log + storage.
      execFileSync('cp', ['-r', mirrorTemplate, join(reposDir, `${link.id}.git`)]);
      const ingest = createIngestService(db, { reposDir, installationTokens: null });
      const started = process.hrtime.bigint();
      const result = await ingest.ingestLink(link.id);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      added = result.added;
      rmSync(reposDir, { recursive: true, force: true });
    } finally {
      await database.close();
      await cleanup();
    }
  }
  return { ms: median(times), added };
}

async function main() {
  mkdirSync(TMP, { recursive: true });
  const origin = join(TMP, 'prettier.git');
  if (!existsSync(join(origin, 'history-map.tsv'))) {
    console.log('Building the prettier repository from the dataset (once; cached in tmp/bench)…');
    rmSync(origin, { recursive: true, force: true });
    execFileSync('node', [sharedPath('tools', 'history-to-git.mjs'), sharedPath('datasets', 'prettier-history.jsonl.gz'), origin, '--bare'], { stdio: 'inherit' });
  }
  const commits = Number(execFileSync('git', ['--git-dir', origin, 'rev-list', '--count', 'main']).toString().trim());

  const mirror = join(TMP, 'mirror.git');
  rmSync(mirror, { recursive: true, force: true });
  const cloneStarted = process.hrtime.bigint();
  await syncMirror(mirror, { url: origin }, 'main');
  const cloneMs = Number(process.hrtime.bigint() - cloneStarted) / 1e6;

  const plainArgs = ['--git-dir', mirror, 'log', '--no-renames', '--name-status', 'main'];
  const oursArgs = ['--git-dir', mirror, ...gitLogArgs(['main'])];
  timeGit(plainArgs); // warm the page cache
  const gitLogMs = median(Array.from({ length: RUNS }, () => timeGit(plainArgs)));
  const ourGitLogMs = median(Array.from({ length: RUNS }, () => timeGit(oursArgs)));

  const pglite = await benchIngest(async () => {
    const dir = join(TMP, 'pglite-data');
    rmSync(dir, { recursive: true, force: true });
    return { database: await openDatabase({ kind: 'pglite', dataDir: dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }, origin, mirror);

  const postgres = await benchIngest(async () => {
    const name = `changelog_bench_${process.pid}`;
    await adminQuery(`DROP DATABASE IF EXISTS ${name}`);
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    return {
      database: await openDatabase({ kind: 'postgres', url: url.toString(), readUrl: null, poolMax: 4 }),
      cleanup: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }, origin, mirror);

  for (const result of [pglite, postgres]) {
    if (result.added !== commits) throw new Error(`expected ${commits} commits stored, got ${result.added}`);
  }

  const gitVersion = execFileSync('git', ['--version']).toString().trim();
  const rate = (ms: number) => Math.round(commits / (ms / 1000)).toLocaleString('en-US');
  const ratio = (ms: number) => (ms / gitLogMs).toFixed(2);
  const rows = [
    ['`git log --no-renames --name-status` alone', seconds(gitLogMs), rate(gitLogMs), '1.00×'],
    ['`git log` as the ingester runs it (`-z`, full format, first-parent diffs of merges)', seconds(ourGitLogMs), rate(ourGitLogMs), `${ratio(ourGitLogMs)}×`],
    ['ingest on PGlite (embedded, on disk)', seconds(pglite.ms), rate(pglite.ms), `${ratio(pglite.ms)}×`],
    ['ingest on PostgreSQL 15', seconds(postgres.ms), rate(postgres.ms), `${ratio(postgres.ms)}×`],
  ];
  const table = ['| what | time | commits/s | vs git log |', '|---|---:|---:|---:|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  const section = `<!-- bench:ingest:start -->
## Commit ingestion (\`npm run bench:ingest\`)

${commits.toLocaleString('en-US')} commits of the prettier history (\`../shared/datasets/prettier-history.jsonl.gz\` turned into a
git repository with \`history-to-git.mjs\`), from a blobless bare mirror into an empty database: \`git log\` streamed and
parsed, commits stored in batches of 1,000 rows (one \`INSERT … SELECT FROM unnest(…) ON CONFLICT DO NOTHING\` each,
the next batch parsed while the previous one is stored), tags synced, link updated. Median of ${RUNS} runs, each on a
fresh database. The blobless clone itself took ${seconds(cloneMs)} (once per link; later runs fetch incrementally).
Target: ingest within 3× of \`git log --name-status\` on PostgreSQL — **${ratio(postgres.ms)}×**.

${table}

Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${gitVersion}.
<!-- bench:ingest:end -->`;

  console.log(`\n${section}\n`);
  const docPath = join(ROOT, 'docs', 'benchmarks.md');
  const existing = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '# Benchmarks\n\nFigures written by the `npm run bench*` scripts.\n';
  const pattern = /<!-- bench:ingest:start -->[\s\S]*<!-- bench:ingest:end -->/;
  const updated = pattern.test(existing) ? existing.replace(pattern, section) : `${existing.trimEnd()}\n\n${section}\n`;
  writeFileSync(docPath, updated);
  console.log(`Wrote ${docPath}`);
}

await main();
