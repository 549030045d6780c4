/**
 * npm run bench:sync — linking a local repository and its first sync, end to end, on PostgreSQL and
 * on the embedded database (PGlite), beside git-cliff on the same repository in the same run.
 *
 * The repository: the first 10,000 commits of the prettier history
 * (`../shared/tools/history-to-git.mjs --limit 10000`, cached in .cache/datasets), a local checkout.
 * Each run starts from a fresh database (a scratch PostgreSQL database, or a new PGlite directory)
 * and an empty mirrors directory, with the services wired as the CLI wires them, already warmed
 * up (job queue installed, engine thread started: a running server) by linking a one-commit
 * repository first. Timed:
 *
 * 1. **link**: `repos.linkLocalRepo()` — what `changelog repos link` runs (asks git for the
 *    branches, stores the link, queues its ingest);
 * 2. **ingest**: `ingest.ingestLink()` — the mirror (a shared clone: nothing copied), `git log`
 *    streamed and parsed, commits stored in batches, tags;
 * 3. **generation**: `generation.generate()` with all four entry types (commit, daily, weekly,
 *    monthly) — every entry stored.
 *
 * Then the mirror step alone for links made from the dashboard (a checked, hardlinked clone that
 * holds its own objects: src/git/confine.ts, GitSource.confine) against the shared clone such
 * links had before, first sync and a sync with nothing new.
 *
 * Wall clock per phase; CPU of this process (all its threads) and of its git children (from
 * /proc/self/stat); PostgreSQL's own CPU is not included (it is a separate server). git-cliff: its
 * binary as a fresh process, default configuration, CPU from /usr/bin/time. BENCH_RUNS runs of
 * each (default 3), alternating; medians. Printed, and written into docs/benchmarks.md between the
 * `bench:sync` markers (other sections kept).
 *
 * BENCH_DATABASE_URL names the PostgreSQL server (default postgres://root@127.0.0.1:5432/test);
 * scratch databases are created there and dropped. BENCH_BACKENDS=postgres or pglite runs one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { inspectRepository } from '../src/git/confine.js';
import { isSharedMirror, syncMirror } from '../src/git/mirror.js';
import { createServices } from '../src/services.js';
import { adminQuery, ADMIN_URL, gitCliffBinary, runGitCliff as runGitCliffTimed } from './bench-support.js';
import { ensureDatasetRepo } from './dataset-repo.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LIMIT = 10_000;
const TARGET_MS = 3000;
const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DOC = join(ROOT, 'docs', 'benchmarks.md');
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'postgres,pglite').split(',') as Backend[];
const ALL_TYPES = ['commit', 'daily', 'weekly', 'monthly'] as const;
const TICK_MS = 1000 / 100; // USER_HZ on Linux

type Backend = 'postgres' | 'pglite';
const PHASES = ['link', 'ingest', 'generation'] as const;
type Phase = (typeof PHASES)[number];

interface Timing {
  wallMs: number;
  /** This process (every thread) plus the git processes it waited for. */
  cpuMs: number;
  /** Every process of the local PostgreSQL server (0 on PGlite: it runs in this process). */
  serverCpuMs: number;
}

interface SyncRun {
  phases: Record<Phase, Timing>;
  total: Timing;
  commits: number;
  entries: Record<string, number>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;

/** CPU of the git processes this process waited for (cutime + cstime of /proc/self/stat). */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU of the local PostgreSQL server's processes (utime + stime of each `postgres` in /proc). */
function serverCpuMs(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * TICK_MS;
}

function cpuNow(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000 + childrenCpuMs();
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; timing: Timing }> {
  const cpu = cpuNow();
  const server = serverCpuMs();
  const started = process.hrtime.bigint();
  const value = await fn();
  return { value, timing: { wallMs: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: cpuNow() - cpu, serverCpuMs: serverCpuMs() - server } };
}

/** git-cliff as its own process (bench-support.ts), and how many releases its CHANGELOG.md has. */
function runGitCliff(binary: string, repo: string, output: string): { wallMs: number; cpuMs: number | null; releases: number } {
  return { ...runGitCliffTimed(binary, repo, output), releases: (readFileSync(output, 'utf8').match(/^## /gm) ?? []).length };
}

/** A one-commit repository, linked first in every run so that the queue and the engine are warm. */
function tinyRepo(dir: string): string {
  const repo = join(dir, 'tiny');
  const env = { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com' };
  execFileSync('git', ['init', '-q', '-b', 'main', repo], { env });
  writeFileSync(join(repo, 'README.md'), 'tiny\n');
  execFileSync('git', ['-C', repo, 'add', '-A'], { env });
  execFileSync('git', ['-C', repo, 'commit', '-qm', 'feat: first'], { env });
  return repo;
}

/** Opens a fresh database of `backend`; `drop` removes it afterwards. */
async function freshDatabase(backend: Backend, work: string, run: number): Promise<{ database: Database; env: Record<string, string>; drop: () => Promise<void> }> {
  if (backend === 'postgres') {
    const name = `changelog_bench_sync_${process.pid}_${run}`;
    await adminQuery(`DROP DATABASE IF EXISTS ${name}`);
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const env = { DATABASE_URL: url.toString() };
    const database = await openDatabase(loadConfig(env).database);
    return { database, env, drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const dataDir = join(work, `pglite-${run}`);
  const env = { DATA_DIR: dataDir };
  const database = await openDatabase(loadConfig(env).database);
  return { database, env, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

async function syncOnce(backend: Backend, repo: string, work: string, run: number): Promise<SyncRun> {
  const reposDir = join(work, `mirrors-${backend}-${run}`);
  const { database, env, drop } = await freshDatabase(backend, work, run);
  try {
    await migrate(database);
    const services = createServices(database, loadConfig({ ...env, REPOS_DIR: reposDir, LOG_LEVEL: 'warn' }));
    try {
      const ownerId = (await database.db.insertInto('users').values({ email: 'bench@example.com', name: 'Bench' }).returning('id').executeTakeFirstOrThrow()).id;
      const project = async (slug: string) => {
        await database.db.insertInto('projects').values({ name: slug, slug, owner_type: 'user', owner_user_id: ownerId }).execute();
        await services.generation.configure(slug, { entryTypes: [...ALL_TYPES] });
      };
      // Warm-up, untimed: a running server has its job queue installed and its engine thread started.
      await project('warm');
      const warm = await services.repos.linkLocalRepo({ projectSlug: 'warm', source: tinyRepo(join(work, `tiny-${backend}-${run}`)) });
      await services.ingest.ingestLink(warm.link.id);
      await services.generation.generate('warm');
      await project('bench');

      const link = await timed(() => services.repos.linkLocalRepo({ projectSlug: 'bench', source: repo }));
      const ingest = await timed(() => services.ingest.ingestLink(link.value.link.id));
      const generation = await timed(() => services.generation.generate('bench'));
      const phases = { link: link.timing, ingest: ingest.timing, generation: generation.timing };
      const sum = (key: keyof Timing) => PHASES.reduce((total, phase) => total + phases[phase][key], 0);
      return { phases, total: { wallMs: sum('wallMs'), cpuMs: sum('cpuMs'), serverCpuMs: sum('serverCpuMs') }, commits: ingest.value.added, entries: { ...generation.value.created } };
    } finally {
      await services.jobs.stop();
    }
  } finally {
    await database.close();
    await drop();
    rmSync(reposDir, { recursive: true, force: true });
  }
}

/** The mirror as linking made it before (a blobless clone through the transport) and as it does now (shared): wall ms each. */
function cloneCosts(repo: string, work: string): { blobless: number; shared: number } {
  const time = (args: string[]) => {
    const started = process.hrtime.bigint();
    execFileSync('git', args, { stdio: 'ignore', env: { ...process.env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'uploadpack.allowFilter', GIT_CONFIG_VALUE_0: 'true' } });
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const common = ['clone', '-q', '--bare', '--no-tags', '--single-branch', '--branch', 'main'];
  const blobless = time([...common, '--filter=blob:none', `file://${repo}`, join(work, 'clone-blobless')]);
  const shared = time([...common, '--shared', '--', repo, join(work, 'clone-shared')]);
  rmSync(join(work, 'clone-blobless'), { recursive: true, force: true });
  rmSync(join(work, 'clone-shared'), { recursive: true, force: true });
  return { blobless, shared };
}

/**
 * The mirror of a link made from the dashboard (GitSource.confine, issue 21) against the shared
 * mirror such links had before: first sync and a sync with nothing new, through syncMirror as the
 * ingest calls it; and the check alone (src/git/confine.ts), which runs twice around each git
 * command. MIRROR_RUNS rounds, alternating; medians of wall ms.
 */
const MIRROR_RUNS = 7;
interface MirrorCosts {
  check: number;
  sharedFirst: number;
  confinedFirst: number;
  sharedAgain: number;
  confinedAgain: number;
}
async function mirrorCosts(repo: string, work: string): Promise<MirrorCosts> {
  const roots = [realpathSync(dirname(repo))];
  const samples: Record<keyof MirrorCosts, number[]> = { check: [], sharedFirst: [], confinedFirst: [], sharedAgain: [], confinedAgain: [] };
  const time = async (key: keyof MirrorCosts, fn: () => Promise<unknown>) => {
    const started = process.hrtime.bigint();
    await fn();
    samples[key].push(Number(process.hrtime.bigint() - started) / 1e6);
  };
  for (let i = 0; i < MIRROR_RUNS; i++) {
    const shared = join(work, `mirror-shared-${i}.git`);
    const confined = join(work, `mirror-confined-${i}.git`);
    await time('check', () => inspectRepository(repo, { roots }));
    await time('sharedFirst', () => syncMirror(shared, { url: repo }, 'main'));
    await time('confinedFirst', () => syncMirror(confined, { url: repo, confine: { roots } }, 'main'));
    await time('sharedAgain', () => syncMirror(shared, { url: repo }, 'main'));
    await time('confinedAgain', () => syncMirror(confined, { url: repo, confine: { roots } }, 'main'));
    if (isSharedMirror(confined) || !isSharedMirror(shared)) throw new Error('the mirrors are not what this benchmark compares');
    rmSync(shared, { recursive: true, force: true });
    rmSync(confined, { recursive: true, force: true });
  }
  return Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, median(values)])) as unknown as MirrorCosts;
}

async function main() {
  const repo = ensureDatasetRepo('prettier-history', LIMIT);
  if (existsSync(join(repo, 'cliff.toml'))) throw new Error(`${repo} has a cliff.toml; git-cliff must use its default configuration`);
  const cliff = gitCliffBinary();
  const work = mkdtempSync(join(tmpdir(), 'bench-sync-'));
  const cliffOut = join(work, 'CHANGELOG.md');
  const commits = Number(execFileSync('git', ['-C', repo, 'rev-list', '--count', 'main'], { encoding: 'utf8' }).trim());
  const load = loadavg()[0]!;
  console.log(`${commits.toLocaleString('en')} commits; ${cpus().length} CPUs; load average ${load.toFixed(2)}; ${RUNS} runs of each, alternating`);
  try {
    runGitCliff(cliff.path, repo, cliffOut); // warm-up (page cache)
    const ours: Record<Backend, SyncRun[]> = { postgres: [], pglite: [] };
    const theirs: ReturnType<typeof runGitCliff>[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (const backend of BACKENDS) {
        const result = await syncOnce(backend, repo, work, i);
        ours[backend].push(result);
        const parts = PHASES.map((p) => `${p} ${ms(result.phases[p].wallMs)}`).join(', ');
        console.log(`  run ${i + 1} ${backend}: ${ms(result.total.wallMs)} (${parts}); CPU ${ms(result.total.cpuMs)}`);
      }
      theirs.push(runGitCliff(cliff.path, repo, cliffOut));
      console.log(`  run ${i + 1} git-cliff: ${ms(theirs.at(-1)!.wallMs)}; CPU ${theirs.at(-1)!.cpuMs === null ? 'n/a' : ms(theirs.at(-1)!.cpuMs!)}`);
    }
    const clones = cloneCosts(repo, work);
    const mirrors = await mirrorCosts(repo, work);
    const loadAfter = loadavg()[0]!;

    const rows: string[] = [];
    for (const backend of BACKENDS) {
      const runs = ours[backend];
      if (!runs.length) continue;
      const label = backend === 'postgres' ? 'PostgreSQL' : 'embedded (PGlite, on disk)';
      const cell = (pick: (r: SyncRun) => Timing) => `${ms(median(runs.map((r) => pick(r).wallMs)))} / ${ms(median(runs.map((r) => pick(r).cpuMs)))}`;
      const entries = runs.at(-1)!.entries;
      const count = Object.values(entries).reduce((a, b) => a + b, 0);
      rows.push(
        `| **${label}** | ${cell((r) => r.phases.link)} | ${cell((r) => r.phases.ingest)} | ${cell((r) => r.phases.generation)} | ` +
          `**${ms(median(runs.map((r) => r.total.wallMs)))}** / ${ms(median(runs.map((r) => r.total.cpuMs)))} | ` +
          `${runs.at(-1)!.commits.toLocaleString('en')} commits, ${count.toLocaleString('en')} entries (${ALL_TYPES.map((t) => `${entries[t] ?? 0} ${t}`).join(', ')}) |`,
      );
    }
    const cliffWall = median(theirs.map((r) => r.wallMs));
    const cliffCpu = theirs[0]!.cpuMs === null ? 'n/a' : ms(median(theirs.map((r) => r.cpuMs!)));
    rows.push(`| git-cliff ${cliff.version} (default configuration, CHANGELOG.md) | | | | **${ms(cliffWall)}** / ${cliffCpu} | ${theirs.at(-1)!.releases} releases |`);
    const table = ['| | link (wall / CPU) | ingest | generation | total | result |', '|---|---:|---:|---:|---:|---|', ...rows].join('\n');
    const pgRuns = ours.postgres;
    const verdicts: string[] = [];
    if (pgRuns.length) {
      const wall = median(pgRuns.map((r) => r.total.wallMs));
      const cpu = median(pgRuns.map((r) => r.total.cpuMs));
      const server = (phase: Phase) => ms(median(pgRuns.map((r) => r.phases[phase].serverCpuMs)));
      verdicts.push(
        `On PostgreSQL: ${ms(wall)} wall, ${wall < TARGET_MS ? 'under' : 'over'} the 3 s target; ${ms(cpu)} of CPU in our process and git, ` +
          `and ${ms(median(pgRuns.map((r) => r.total.serverCpuMs)))} in the PostgreSQL server (link ${server('link')}, ingest ${server('ingest')}, ` +
          `generation ${server('generation')}); ${(cliffWall / wall).toFixed(1)}× faster than git-cliff producing one Markdown file.`,
      );
    }
    verdicts.push(
      `The mirror: a shared clone took ${ms(clones.shared)}; the blobless clone local links made before (a copy of every commit and tree) ${ms(clones.blobless)}.`,
      '',
      `Links made from the dashboard (issue 21: checked before and after each git read, mirrored as a hardlinked clone that holds its own objects, never alternates into the source), ` +
        `medians of ${MIRROR_RUNS} rounds through \`syncMirror\` against the shared mirror they had before: first sync ${ms(mirrors.confinedFirst)} (shared: ${ms(mirrors.sharedFirst)}), ` +
        `a sync with nothing new ${ms(mirrors.confinedAgain)} (shared: ${ms(mirrors.sharedAgain)}); the check alone ${ms(mirrors.check)} on this repository (one pack).`,
    );
    const noisy = Math.max(load, loadAfter) > cpus().length * 0.75;
    console.log(`\n${table}\n\n${verdicts.join('\n')}`);

    const section = [
      '<!-- bench:sync -->',
      '## Link and first sync of a local repository (`npm run bench:sync`)',
      '',
      `The first ${commits.toLocaleString('en')} commits of the prettier history (\`history-to-git.mjs --limit ${LIMIT}\`), a local checkout. Each run`,
      'starts from a fresh database and an empty mirrors directory, with the services wired as the CLI wires them and warmed up',
      '(a one-commit repository linked and synced first, untimed: a running server). Timed: **link** (`repos.linkLocalRepo`,',
      'what `changelog repos link` runs), **ingest** (`ingest.ingestLink`: the mirror — a shared clone, `git clone --shared`, so the',
      'source\'s objects are not copied — then `git log` streamed and parsed, commits stored in batches, tags) and **generation**',
      '(`generation.generate`, all four entry types: commit, daily, weekly, monthly, and the release notes, every one stored).',
      'Wall clock / CPU (this process, all its threads, plus its git processes; git-cliff: its process); the PostgreSQL',
      'server\'s CPU is given below the table.',
      `${RUNS} runs of each, alternating with git-cliff on the same repository; medians.`,
      '',
      table,
      '',
      ...verdicts,
      `Measured ${new Date().toISOString().slice(0, 16)}Z on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}; load average`,
      `${load.toFixed(2)} at the start and ${loadAfter.toFixed(2)} at the end` +
        (noisy ? ' (other work shared the machine: wall times are inflated and noisy; CPU times are the steadier figure).' : '.'),
      '<!-- /bench:sync -->',
    ].join('\n');
    let doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
    const marked = /<!-- bench:sync -->[\s\S]*?<!-- \/bench:sync -->/;
    doc = marked.test(doc) ? doc.replace(marked, section) : `${doc.trimEnd()}\n\n${section}\n`;
    writeFileSync(DOC, doc);
    console.log(`\nWrote ${DOC}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
