/**
 * npm run bench:cli — the `changelog` command as a user runs it: `node bin/changelog.js …`, the
 * compiled dist/ that `npm ci` (and `npm start`) builds, one fresh process per run, against a
 * baseline measured in the same run, the two alternating (A B A B …) so that a machine slowing down
 * or speeding up moves both.
 *
 * The baseline is the same commands at BENCH_CLI_BASE (default 776a653: the CLI before its commands
 * loaded lazily), exported with `git archive` and compiled once into .cache/bench-cli/<commit>/
 * (beside this checkout's node_modules); for `preview`, git-cliff on the same repository too.
 *
 * Timed: `--version`; `--help`; `projects list` on the embedded database without a server (the
 * command opens it) and with a server running (it goes through the server's socket); `preview` of
 * the git-cliff dataset's repository, beside git-cliff (node_modules/.bin/git-cliff --repository, its
 * default configuration: the repository's own cliff.toml asks GitHub's API); `sync` of that repository once it
 * is synced (nothing new). Wall clock from spawn to exit, and CPU of the process and the processes it
 * waited for (git, git-cliff's binary), from /proc/self/stat. BENCH_RUNS runs of each (default 7;
 * `sync` 3), after one warm-up; min / median / max, and the median of the pairwise ratios.
 *
 * Printed, and written into docs/benchmarks.md between the `bench:cli` markers (other sections kept).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitCliffBinary } from './bench-support.js';
import { ensureDatasetRepo } from './dataset-repo.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DOC = join(ROOT, 'docs', 'benchmarks.md');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const SYNC_RUNS = Number(process.env.BENCH_SYNC_RUNS ?? 3);
const BASE = process.env.BENCH_CLI_BASE ?? '776a653';
const TICK_MS = 1000 / 100; // USER_HZ on Linux
const TARGETS = { version: 500, help: 500, projects: 1000 };

interface Run {
  wallMs: number;
  cpuMs: number;
}

interface Command {
  /** argv after `node` (or the program, for git-cliff). */
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/** CPU of the processes this one waited for (cutime + cstime of /proc/self/stat). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

function runOnce(command: Command): Run {
  const cpu = childrenCpuMs();
  const started = process.hrtime.bigint();
  const result = spawnSync(command.file, command.args, { cwd: command.cwd, env: command.env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${command.file} ${command.args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return { wallMs, cpuMs: childrenCpuMs() - cpu };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;
const spread = (values: number[]) => ({ min: sorted(values)[0]!, median: median(values), max: sorted(values).at(-1)! });

interface Comparison {
  a: Run[];
  b: Run[];
  /** A/B of each pair (wall clock). */
  ratios: number[];
}

/** A and B in turn, after one warm-up of each. */
function compare(a: Command, b: Command, runs: number): Comparison {
  runOnce(a);
  runOnce(b);
  const result: Comparison = { a: [], b: [], ratios: [] };
  for (let i = 0; i < runs; i++) {
    const ra = runOnce(a);
    const rb = runOnce(b);
    result.a.push(ra);
    result.b.push(rb);
    result.ratios.push(ra.wallMs / rb.wallMs);
  }
  return result;
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const triple = (runs: Run[], key: keyof Run = 'wallMs') => {
  const s = spread(runs.map((r) => r[key]));
  return `${seconds(s.min)} / **${seconds(s.median)}** / ${seconds(s.max)}`;
};

/** The baseline commit compiled once into .cache/bench-cli/<commit>/, with this checkout's node_modules. */
function baselineBuild(rev: string): string {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = join(ROOT, '.cache', 'bench-cli', commit);
  if (existsSync(join(dir, '.built'))) return dir;
  console.log(`Building the baseline ${commit.slice(0, 12)} in ${dir} (once)…`);
  const scratch = `${dir}.tmp-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${scratch}'`], { cwd: ROOT, stdio: 'inherit' });
  symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'));
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: scratch, stdio: 'inherit' });
  writeFileSync(join(scratch, '.built'), '');
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  return dir;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** `changelog serve` of this checkout holding DATA_DIR, once it answers /health. */
async function startServer(env: Record<string, string>, cwd: string): Promise<ChildProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'changelog.js'), 'serve'], { cwd, env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not start in 120 s');
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

async function main(): Promise<void> {
  // The build a user runs: `npm ci` / `npm start` compile src/ into dist/ when it is stale.
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.mjs')], { stdio: 'inherit' });
  const base = baselineBuild(BASE);
  const baseCommit = base.split('/').at(-1)!.slice(0, 7);
  const repo = ensureDatasetRepo('git-cliff-history');
  const commits = Number(execFileSync('git', ['rev-list', '--count', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim());
  const gitCliff = join(ROOT, 'node_modules', '.bin', 'git-cliff');
  const gitCliffVersion = gitCliffBinary().version;
  const work = mkdtempSync(join(tmpdir(), 'bench-cli-'));
  const env = { PATH: process.env.PATH ?? '', HOME: work, DATA_DIR: join(work, 'data'), REPOS_DIR: join(work, 'repos'), DEMO_SEED: 'false' };
  const cli = (build: string, ...args: string[]): Command => ({ file: process.execPath, args: [join(build, 'bin', 'changelog.js'), ...args], cwd: work, env });
  const load = loadavg()[0]!;
  type Row = { name: string; target?: number; result: Comparison; against: string };
  const rows: Row[] = [];
  const record = (row: Row) => {
    rows.push(row);
    const wall = (runs: Run[]) => seconds(median(runs.map((r) => r.wallMs)));
    console.log(`  now ${wall(row.result.a)} s, ${row.against} ${wall(row.result.b)} s (median wall; ratio ${median(row.result.ratios).toFixed(2)})`);
  };
  let server: ChildProcess | undefined;
  try {
    // One user, one project, the dataset's repository linked and synced: what `projects list` lists and `sync` finds current.
    for (const args of [
      ['migrate'],
      ['users', 'create', '--email', 'ada@example.com', '--name', 'Ada'],
      ['projects', 'create', '--name', 'Cliff', '--slug', 'cliff', '--owner', 'user:ada@example.com'],
      ['repos', 'link', '--project', 'cliff', '--path', repo],
      ['sync', '--project', 'cliff'],
    ]) {
      runOnce(cli(ROOT, ...args));
    }

    const measure = (name: string, args: string[], runs = RUNS, target?: number) => {
      console.log(`${name}…`);
      record({ name, result: compare(cli(ROOT, ...args), cli(base, ...args), runs), against: `at ${baseCommit}`, ...(target ? { target } : {}) });
    };
    measure('`--version`', ['--version'], RUNS, TARGETS.version);
    measure('`--help`', ['--help'], RUNS, TARGETS.help);
    measure('`projects list`, no server running', ['projects', 'list'], RUNS, TARGETS.projects);
    measure('`sync --project cliff`, nothing new, no server running', ['sync', '--project', 'cliff'], SYNC_RUNS);
    console.log('preview…');
    const preview = (build: string) => cli(build, 'preview', '--path', repo);
    record({ name: `\`preview\` of the git-cliff repository (${commits.toLocaleString('en')} commits)`, result: compare(preview(ROOT), preview(base), RUNS), against: `at ${baseCommit}` });
    // Its default configuration: the repository's own cliff.toml asks GitHub's API for pull requests.
    record({
      name: '`preview`, against git-cliff',
      result: compare(preview(ROOT), { file: gitCliff, args: ['--repository', repo], cwd: work, env: { PATH: env.PATH, HOME: work } }, RUNS),
      against: `git-cliff ${gitCliffVersion}`,
    });

    server = await startServer(env, work);
    measure('`projects list`, server running', ['projects', 'list'], RUNS, TARGETS.projects);
  } finally {
    if (server) await stopServer(server);
    rmSync(work, { recursive: true, force: true });
  }
  const loadAfter = loadavg()[0]!;

  const table = [
    '| command | now: wall min / **median** / max (s) | CPU median | before (B): wall min / **median** / max | CPU median | now / B (wall, median of pairs) |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(({ name, result, against, target }) => {
      const now = median(result.a.map((r) => r.wallMs));
      const mark = target ? (now < target ? ` (under ${target / 1000} s)` : ` (**over** ${target / 1000} s)`) : '';
      return (
        `| ${name}${mark} | ${triple(result.a)} | ${seconds(median(result.a.map((r) => r.cpuMs)))} | ` +
        `${against}: ${triple(result.b)} | ${seconds(median(result.b.map((r) => r.cpuMs)))} | ${median(result.ratios).toFixed(2)} |`
      );
    }),
  ].join('\n');
  const noisy = Math.max(load, loadAfter) > cpus().length * 0.75;
  const section = [
    '<!-- bench:cli -->',
    '## The command line (`npm run bench:cli`)',
    '',
    'Each command a fresh `node bin/changelog.js …` process (the compiled dist/ that `npm ci` builds), as a user runs it, on',
    `the embedded database (one user, one project, the git-cliff dataset's repository linked and synced). **B**, the baseline,`,
    `is the same command at ${baseCommit} (before the commands loaded lazily), built beside it and run in turn with it; for`,
    '`preview`, also git-cliff on the same repository (`node_modules/.bin/git-cliff --repository DIR`, its default configuration: the',
    "repository's own cliff.toml asks GitHub's API for pull requests).",
    `${RUNS} runs of each (sync: ${SYNC_RUNS}) after a warm-up, alternating; wall clock from spawn to exit; CPU of the process and those`,
    'it waited for (git, the database thread included: it is a thread). The ratio is the median of each pair\'s ratio.',
    '',
    table,
    '',
    'What changed: a command loads only its own modules when it runs (`--help` and `--version` load commander and the',
    "commands' declarations; `preview` the git reader and the engine, no database), the commands that only read and write rows",
    'build the core services alone (core-services.ts: no job queue, GitHub client, Markdown renderer or engine), and a `sync`',
    'that finds nothing new no longer runs generation. Without a server a command starts the embedded database itself',
    '(PGlite, in its own thread, while the modules load): that start, not the command, is most of its time; with a server',
    'running it connects to the server\'s socket.',
    '',
    `Measured ${new Date().toISOString().slice(0, 16)}Z on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}; load average ` +
      `${load.toFixed(2)} at the start and ${loadAfter.toFixed(2)} at the end` +
      (noisy ? ' (other work shared the machine: wall times are inflated and noisy; the ratios and CPU times are the steadier figures).' : '.'),
    '<!-- /bench:cli -->',
  ].join('\n');
  console.log(`\n${table}\n`);
  let doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
  const marked = /<!-- bench:cli -->[\s\S]*?<!-- \/bench:cli -->/;
  doc = marked.test(doc) ? doc.replace(marked, section) : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(DOC, doc);
  console.log(`Wrote ${DOC}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
