/**
 * npm run bench:generate — full changelog generation on PostgreSQL, timed in the same run as
 * git-cliff (the npm package's binary, default configuration) for the same repository.
 *
 * The prettier history (`../shared/datasets/prettier-history.jsonl.gz`, 11,652 commits, not
 * conventional) is made into a git repository (`../shared/tools/history-to-git.mjs`, cached in
 * .cache/datasets) and ingested into a scratch PostgreSQL database. Then, alternately, BENCH_RUNS
 * times after one untimed warm-up of each:
 *
 * - **ours**: `generation.generate()` on a project with no entries yet, all four entry types
 *   (commit, daily, weekly, monthly) and the release notes of every tag (and Unreleased), which
 *   the default settings include: from reading the stored commits to every entry and note stored,
 *   in one transaction — what the background job and `changelog generate` run. Entries and notes
 *   are deleted (untimed) before each run.
 * - **git-cliff**: its binary as a fresh process producing CHANGELOG.md for the same repository.
 *
 * Then once each: a second generation run (idempotent: nothing written) and an incremental run
 * for the newest day. The table (medians) is printed and written into docs/benchmarks.md between
 * the `bench:generate` markers; other sections are kept.
 *
 * BENCH_DATABASE_URL names the PostgreSQL server (default postgres://root@127.0.0.1:5432/test); a
 * scratch database is created there and dropped afterwards. SHARED_DIR: the shared folder
 * (default ../shared, see scripts/shared-dir.ts).
 *
 *   npm run bench:generate
 *   BENCH_RUNS=7 npm run bench:generate
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createEntriesService } from '../src/entries/entries.service.js';
import { releaseMarkdown } from '../src/core-services.js';
import { createThreadEngine } from '../src/generation/engine-thread.js';
import { createGenerationService, type GenerateSummary } from '../src/generation/generation.service.js';
import { createIngestService } from '../src/repos/ingest.service.js';
import { createProjectsService } from '../src/projects/projects.service.js';
import { createUsersService } from '../src/auth/users.service.js';
import { createOrgsService } from '../src/orgs/orgs.service.js';
import { adminQuery, ADMIN_URL, gitCliffBinary, runGitCliff as runGitCliffTimed } from './bench-support.js';
import { createBenchProject, ensureDatasetRepo } from './dataset-repo.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DOC = join(ROOT, 'docs', 'benchmarks.md');
const ALL_TYPES = ['commit', 'daily', 'weekly', 'monthly'] as const;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;

interface Timing {
  wallMs: number;
  cpuMs: number | null;
}

/** git-cliff as its own process (bench-support.ts), and the size of what it wrote. */
function runGitCliff(binary: string, repo: string, output: string): Timing & { bytes: number } {
  return { ...runGitCliffTimed(binary, repo, output), bytes: statSync(output).size };
}

/** One generation run in this process: wall clock, and this process's CPU (PostgreSQL's is not included). */
async function runOurs(fn: () => Promise<GenerateSummary>): Promise<Timing & { summary: GenerateSummary }> {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const summary = await fn();
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, summary };
}

async function main() {
  const repo = ensureDatasetRepo('prettier-history');
  if (existsSync(join(repo, 'cliff.toml'))) throw new Error(`${repo} has a cliff.toml; git-cliff must use its default configuration`);
  const cliff = gitCliffBinary();
  const work = mkdtempSync(join(tmpdir(), 'bench-generate-'));
  const cliffOut = join(work, 'CHANGELOG.md');

  const name = `changelog_bench_gen_${process.pid}`;
  await adminQuery(`DROP DATABASE IF EXISTS ${name}`);
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), readUrl: null, poolMax: 4 });
  try {
    await migrate(database);
    const db = database.db;
    const { project, link } = await createBenchProject(db, repo);
    const reposDir = join(work, 'mirrors');
    mkdirSync(reposDir, { recursive: true });
    console.log('Ingesting the prettier history into PostgreSQL (untimed)…');
    const ingested = await createIngestService(db, { reposDir, installationTokens: null }).ingestLink(link.id);

    // The engine in a worker thread, as the server and the CLI run it (commits copied to the thread).
    const engine = createThreadEngine({ budgetMs: 600_000 });
    // Wired as src/services.ts wires them: generation stores its entries through the entries service.
    const projects = createProjectsService(db, db, createOrgsService(db, { users: createUsersService(db) }));
    const generation = createGenerationService(db, { engine, entries: createEntriesService(db, { projects, releaseMarkdown }), projects });
    await generation.configure('bench', { entryTypes: [...ALL_TYPES] });
    const clear = async () => {
      await db.deleteFrom('changelog_entries').where('project_id', '=', project.id).execute();
      await db.deleteFrom('release_notes').where('project_id', '=', project.id).execute();
      await sql`VACUUM ANALYZE changelog_entries`.execute(db);
      await sql`VACUUM ANALYZE release_notes`.execute(db);
    };
    const full = async () => {
      await clear();
      return runOurs(() => generation.generate('bench'));
    };
    const gitCliff = () => runGitCliff(cliff.path, repo, cliffOut);
    const load = loadavg()[0]!;
    console.log(
      `prettier history: ${ingested.added} commits stored; ${cpus().length} CPUs; load average ${load.toFixed(2)}; ` +
        `${RUNS} alternating runs each after a warm-up`,
    );
    await full();
    gitCliff();
    const ours: Array<Awaited<ReturnType<typeof full>>> = [];
    const theirs: Array<ReturnType<typeof gitCliff>> = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(await full());
      theirs.push(gitCliff());
      console.log(`  run ${i + 1}: ours ${ms(ours[i]!.wallMs)}, git-cliff ${ms(theirs[i]!.wallMs)}`);
    }
    const created = ours.at(-1)!.summary.created;
    const notes = ours.at(-1)!.summary.releases;
    if (!notes?.created) throw new Error('the timed run stored no release notes');
    const again = await runOurs(() => generation.generate('bench'));
    if (total(again.summary.created) + total(again.summary.updated) !== 0) throw new Error('the second run wrote entries');
    const newest = await db
      .selectFrom('commits')
      .select('committed_at')
      .where('project_id', '=', project.id)
      .orderBy('committed_at', 'desc')
      .executeTakeFirstOrThrow();
    const incremental = await runOurs(() => generation.generate('bench', { since: new Date(newest.committed_at.getTime() - 86_400_000) }));
    const loadAfter = loadavg()[0]!;
    const cliffReleases = (readFileSync(cliffOut, 'utf8').match(/^## /gm) ?? []).length;

    const ourWall = median(ours.map((r) => r.wallMs));
    const theirWall = median(theirs.map((r) => r.wallMs));
    // CPU is the fairer comparison on a shared machine: other work inflates wall times, not CPU.
    const ourCpu = ours[0]!.cpuMs === null ? null : median(ours.map((r) => r.cpuMs!));
    const theirCpu = theirs[0]!.cpuMs === null ? null : median(theirs.map((r) => r.cpuMs!));
    const cpu = (runs: Timing[]) => (runs[0]!.cpuMs === null ? 'n/a' : ms(median(runs.map((r) => r.cpuMs!))));
    const perType = ALL_TYPES.map((t) => `${created[t].toLocaleString('en')} ${t}`).join(', ');
    const spread = (runs: Timing[]) => `${ms(Math.min(...runs.map((r) => r.wallMs)))}–${ms(Math.max(...runs.map((r) => r.wallMs)))}`;
    const table = [
      '| run | wall (median) | range | CPU (median) | result |',
      '|---|---:|---:|---:|---|',
      `| **full generation into PostgreSQL**: all four entry types and every release note, project without entries | **${ms(ourWall)}** | ${spread(ours)} | ${cpu(ours)} | ${total(created).toLocaleString('en')} entries (${perType}) and ${notes.created} release notes stored |`,
      `| git-cliff ${cliff.version} (default configuration) | **${ms(theirWall)}** | ${spread(theirs)} | ${cpu(theirs)} | ${cliffReleases} releases, ${(median(theirs.map((r) => r.bytes)) / 1e6).toFixed(1)} MB of Markdown |`,
      `| second generation run (idempotent) | ${ms(again.wallMs)} | | ${cpu([again])} | ${again.summary.unchanged.toLocaleString('en')} unchanged, 0 written |`,
      `| incremental run (commits of the newest day) | ${ms(incremental.wallMs)} | | ${cpu([incremental])} | ${incremental.summary.touched} commits touched, ${total(incremental.summary.updated)} updated, ${incremental.summary.unchanged} unchanged |`,
    ].join('\n');
    const verdict =
      `${ourWall < theirWall ? 'faster' : 'slower'} than git-cliff (${(theirWall / ourWall).toFixed(1)}× wall` +
      `${ourCpu !== null && theirCpu !== null ? `, ${(theirCpu / ourCpu).toFixed(1)}× CPU` : ''}, release notes included); ` +
      `${theirWall / ourWall >= 5 ? 'meets' : 'misses'} the target of 5× git-cliff`;
    console.log(`\n${table}\n\nFull generation: ${verdict}.`);

    const noisy = Math.max(load, loadAfter) > cpus().length * 0.75;
    const section = [
      '<!-- bench:generate -->',
      '## Changelog generation (`npm run bench:generate`)',
      '',
      `The prettier history (${ingested.added.toLocaleString('en')} commits, not conventional; \`history-to-git.mjs\`) ingested into a scratch`,
      'PostgreSQL database. **Ours**: `generation.generate()` with all four entry types (commit, daily, weekly, monthly)',
      'and the release notes of every tag and Unreleased (on by default), on a project with no entries — timed from',
      'reading the stored commits to every entry and note stored (classification, components, teams, version labels,',
      'Markdown, one transaction), what the job and `changelog generate` run; entries and notes are deleted (untimed)',
      'before each run. **git-cliff**: the npm package\'s binary (`git-cliff-linux-x64`, an optional dependency with no',
      'install script) producing its changelog for the same repository with its default configuration, a fresh process',
      `each time. ${RUNS} alternating runs after one warm-up of each; medians. CPU: our process, engine thread included`,
      '(PostgreSQL\'s own work not included); git-cliff\'s process.',
      '',
      table,
      '',
      `Full generation: ${verdict}.`,
      `Measured ${new Date().toISOString().slice(0, 16)}Z on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}; load average`,
      `${load.toFixed(2)} at the start and ${loadAfter.toFixed(2)} at the end` +
        (noisy ? ' (other work shared the machine: wall times are inflated and noisy).' : '.'),
      '<!-- /bench:generate -->',
    ].join('\n');
    let doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
    // The separate storage benchmark is part of this one now.
    doc = doc.replace(/\n*<!-- bench:generate-store:start -->[\s\S]*?<!-- bench:generate-store:end -->\n*/, '\n\n');
    const marked = /<!-- bench:generate -->[\s\S]*?<!-- \/bench:generate -->/;
    doc = marked.test(doc) ? doc.replace(marked, section) : `${doc.trimEnd()}\n\n${section}\n`;
    writeFileSync(DOC, doc);
    console.log(`\nWrote ${DOC}`);
  } finally {
    await database.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
