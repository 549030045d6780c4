/**
 * What the benchmarks share: the PostgreSQL server they make scratch databases on, and git-cliff
 * (the npm package's binary, run as its own process).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import pg from 'pg';

/** The PostgreSQL server benchmarks create (and drop) scratch databases on: BENCH_DATABASE_URL. */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

/** Runs one statement (CREATE/DROP DATABASE …) on its own connection to ADMIN_URL. */
export async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The git-cliff binary the git-cliff npm package installed for this platform, and its version. */
export function gitCliffBinary(): { path: string; version: string } {
  const require = createRequire(import.meta.url);
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const path = require.resolve(`git-cliff-${platform}-${process.arch}/bin/git-cliff${platform === 'windows' ? '.exe' : ''}`);
  const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^git-cliff /, '');
  return { path, version };
}

const hasTime = existsSync('/usr/bin/time');

/**
 * git-cliff as its own process in `repo`, writing `output` (default configuration): wall clock from
 * spawn to exit, CPU from /usr/bin/time (null where there is none).
 */
export function runGitCliff(binary: string, repo: string, output: string): { wallMs: number; cpuMs: number | null } {
  rmSync(output, { force: true });
  const cpuFile = `${output}.cpu`;
  const [cmd, argv] = hasTime ? ['/usr/bin/time', ['-o', cpuFile, '-f', '%U %S', binary, '-o', output]] : [binary, ['-o', output]];
  const started = process.hrtime.bigint();
  const result = spawnSync(cmd, argv, { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`git-cliff failed (${result.status}): ${result.stderr}`);
  let cpuMs: number | null = null;
  if (hasTime) {
    const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number) as [number, number];
    cpuMs = (user + sys) * 1000;
  }
  return { wallMs, cpuMs };
}
