/**
 * npm run bench:generate — full changelog generation (commit, daily, weekly and monthly entries,
 * Markdown rendered) for the prettier history (11,652 commits, not conventional), end to end from
 * reading the repository with git, timed in the same run as git-cliff (the npm package's binary,
 * default configuration) producing its changelog for the same repository. Each side runs as a
 * fresh process, alternately, BENCH_RUNS times after one untimed warm-up; the table shows medians.
 * Storing entries in PostgreSQL is not part of this phase (the engine has no storage yet).
 *
 *   npm run bench:generate
 *   BENCH_RUNS=3 npm run bench:generate
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDatasetRepo } from './dataset-repo.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROOT = new URL('..', import.meta.url).pathname;
const DOC = join(ROOT, 'docs', 'benchmarks.md');
const TYPES = 'commit,daily,weekly,monthly';

interface Run {
  wallMs: number;
  cpuMs: number | null;
  outputBytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const hasTime = existsSync('/usr/bin/time');

/** Runs a command as its own process; wall clock from spawn to exit, CPU (with children) from /usr/bin/time. */
function timed(command: string, args: string[], cwd: string, output: string): Run {
  rmSync(output, { force: true });
  const cpuFile = `${output}.cpu`;
  const [cmd, argv] = hasTime ? ['/usr/bin/time', ['-o', cpuFile, '-f', '%U %S', command, ...args]] : [command, args];
  const start = process.hrtime.bigint();
  const result = spawnSync(cmd, argv, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr}`);
  let cpuMs: number | null = null;
  if (hasTime) {
    const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number) as [number, number];
    cpuMs = (user + sys) * 1000;
  }
  return { wallMs, cpuMs, outputBytes: existsSync(output) ? statSync(output).size : 0 };
}

function gitCliffBinary(): { path: string; version: string } {
  const require = createRequire(import.meta.url);
  const arch = process.arch === 'x64' ? 'x64' : process.arch;
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const path = require.resolve(`git-cliff-${platform}-${arch}/bin/git-cliff${platform === 'windows' ? '.exe' : ''}`);
  const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { path, version };
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'generation', 'preview.js'))) throw new Error('Run `npm run build` first (npm run bench:generate does)');
  const repo = ensureDatasetRepo('prettier-history');
  if (existsSync(join(repo, 'cliff.toml'))) throw new Error(`${repo} has a cliff.toml; git-cliff must use its default configuration`);
  const commits = Number(spawnSync('git', ['-C', repo, 'rev-list', '--count', 'HEAD'], { encoding: 'utf8' }).stdout.trim());
  const cliff = gitCliffBinary();
  const work = mkdtempSync(join(tmpdir(), 'bench-generate-'));
  const ourOut = join(work, 'ours.md');
  const cliffOut = join(work, 'CHANGELOG.md');

  // Our side: the compiled preview module (the code `changelog preview` runs), all four entry types.
  const ourScript = [
    `const { preview } = await import(${JSON.stringify(join(ROOT, 'dist', 'generation', 'preview.js'))});`,
    `const { writeFileSync } = await import('node:fs');`,
    `const r = await preview({ path: ${JSON.stringify(repo)}, type: '${TYPES}', format: 'md' });`,
    `writeFileSync(${JSON.stringify(ourOut)}, r.text);`,
    `writeFileSync(${JSON.stringify(ourOut + '.json')}, JSON.stringify(r.json.stats));`,
  ].join('\n');
  const ours = () => timed(process.execPath, ['--input-type=module', '-e', ourScript], ROOT, ourOut);
  const theirs = () => timed(cliff.path, ['-o', cliffOut], repo, cliffOut);

  const load = loadavg()[0]!;
  console.log(`prettier history: ${commits} commits; ${cpus().length} CPUs; load average ${load.toFixed(2)}; ${RUNS} runs each after a warm-up`);
  ours();
  theirs();
  const our: Run[] = [];
  const their: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    our.push(ours());
    their.push(theirs());
    console.log(`  run ${i + 1}: ours ${our[i]!.wallMs.toFixed(0)} ms, git-cliff ${their[i]!.wallMs.toFixed(0)} ms`);
  }
  const loadAfter = loadavg()[0]!;
  const stats = JSON.parse(readFileSync(ourOut + '.json', 'utf8')) as { commits: number; skipped: Record<string, number>; by_section: Record<string, number> };
  const ourEntries = (readFileSync(ourOut, 'utf8').match(/^## /gm) ?? []).length;
  const cliffReleases = (readFileSync(cliffOut, 'utf8').match(/^## /gm) ?? []).length;
  rmSync(work, { recursive: true, force: true });

  const ourWall = median(our.map((r) => r.wallMs));
  const theirWall = median(their.map((r) => r.wallMs));
  const cpu = (runs: Run[]) => (runs[0]!.cpuMs === null ? 'n/a' : `${median(runs.map((r) => r.cpuMs!)).toFixed(0)} ms`);
  const counted = stats.commits - Object.values(stats.skipped).reduce((a, b) => a + b, 0);
  const other = stats.by_section.other ?? 0;
  const rows = [
    ['changelog engine (read + commit/daily/weekly/monthly + Markdown)', `${ourWall.toFixed(0)} ms`, cpu(our), `${ourEntries} entries, ${(median(our.map((r) => r.outputBytes)) / 1e6).toFixed(1)} MB`],
    [`git-cliff ${cliff.version.replace(/^git-cliff /, '')} (default configuration)`, `${theirWall.toFixed(0)} ms`, cpu(their), `${cliffReleases} releases, ${(median(their.map((r) => r.outputBytes)) / 1e6).toFixed(1)} MB`],
  ];
  const verdict = `${ourWall < theirWall ? 'faster' : 'slower'} than git-cliff (${(theirWall / ourWall).toFixed(1)}×), ${ourWall < 2000 ? 'under' : 'over'} the 2 s target`;
  const table = [
    '| run | wall (median) | CPU incl. git (median) | output |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
  console.log(`\n${table}\n\nOurs: ${verdict}. Classified ${counted} commits (merges skipped: ${stats.skipped.merge ?? 0}); other: ${other} (${((100 * other) / counted).toFixed(1)}%).`);

  const section = [
    '<!-- bench:generate -->',
    '## Changelog generation (`npm run bench:generate`)',
    '',
    `Full generation for the prettier history (${commits} commits, not conventional): the repository read with git,`,
    'every commit classified, commit, daily, weekly and monthly entries built and rendered to Markdown; against',
    'git-cliff producing its changelog for the same repository with its default configuration. Each side is a fresh',
    `process; ${RUNS} alternating runs after a warm-up; medians. Storage in PostgreSQL is not included yet (the engine`,
    'has no storage in this phase; the database-backed job will add it). git-cliff is the npm package: its',
    'platform binary (`git-cliff-linux-x64`, an optional dependency with no install script) runs offline.',
    '',
    table,
    '',
    `Ours: ${verdict}. ${counted} commits classified (${stats.skipped.merge ?? 0} merge commits skipped); \`other\`: ${other} (${((100 * other) / counted).toFixed(1)}%).`,
    `Measured ${new Date().toISOString().slice(0, 16)}Z on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}; load average`,
    `${load.toFixed(2)} at the start and ${loadAfter.toFixed(2)} at the end (other work shared the machine: wall times`,
    'are inflated by it; CPU times much less so).',
    '<!-- /bench:generate -->',
  ].join('\n');
  let doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
  const marked = /<!-- bench:generate -->[\s\S]*?<!-- \/bench:generate -->/;
  doc = marked.test(doc) ? doc.replace(marked, section) : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(DOC, doc);
  console.log(`\nWrote ${DOC}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
