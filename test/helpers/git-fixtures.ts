import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureShared, SHARED_DIR, sharedPath } from '../../scripts/shared-dir.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Git-ignored scratch space for fixtures and test mirrors. */
export const TMP_ROOT = join(ROOT, 'tmp');
export const DATASETS_DIR = join(SHARED_DIR, 'datasets');
export const DATASET = join(DATASETS_DIR, 'git-cliff-history.jsonl.gz');
export const DATASET_COMMITS = 1569;

export function tempDir(prefix: string): string {
  mkdirSync(TMP_ROOT, { recursive: true });
  return mkdtempSync(join(TMP_ROOT, `${prefix}-`));
}

/**
 * A bare repository built from a dataset with the shared tool, built once and cached under tmp/
 * (test files running in parallel build it at most a few times; the rename makes it atomic).
 */
export function cachedDatasetRepo(dataset = DATASET, name = 'git-cliff'): string {
  const cached = join(TMP_ROOT, 'fixtures', `${name}.git`);
  if (existsSync(join(cached, 'history-map.tsv'))) return cached;
  mkdirSync(join(TMP_ROOT, 'fixtures'), { recursive: true });
  const building = `${cached}.build-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  execFileSync('node', [sharedPath('tools', 'history-to-git.mjs'), ensureShared(dataset), building, '--bare'], { stdio: 'ignore' });
  try {
    renameSync(building, cached);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
  return cached;
}

/** A private copy of the dataset repository that a test may push to; `removeRepoCopy` deletes it. */
export function datasetRepoCopy(): string {
  const dir = join(tempDir('origin'), 'git-cliff.git');
  cpSync(cachedDatasetRepo(), dir, { recursive: true });
  return dir;
}

export function removeRepoCopy(copy: string): void {
  rmSync(resolve(copy, '..'), { recursive: true, force: true });
}

/** Original dataset sha → sha in the built repository. */
export function historyMap(bareRepo: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of readFileSync(join(bareRepo, 'history-map.tsv'), 'utf8').split('\n')) {
    const [from, to] = line.split('\t');
    if (from && to) map.set(from, to);
  }
  return map;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test Author',
      GIT_AUTHOR_EMAIL: 'author@example.com',
      GIT_COMMITTER_NAME: 'Test Committer',
      GIT_COMMITTER_EMAIL: 'committer@example.com',
    },
  }).trim();

/**
 * Adds `count` commits on top of `branch` in a bare repository (through a scratch clone and a
 * push, as a developer would), optionally after dropping `rewind` commits with a force-push.
 * Returns the new commits' shas, newest first.
 */
export function pushCommits(
  bareRepo: string,
  count: number,
  options: { branch?: string; rewind?: number; message?: (i: number) => string; files?: (i: number) => Record<string, string> } = {},
): string[] {
  const branch = options.branch ?? 'main';
  const work = join(tempDir('work'), 'clone');
  git(TMP_ROOT, 'clone', '--quiet', '--branch', branch, bareRepo, work);
  if (options.rewind) git(work, 'reset', '--quiet', '--hard', `HEAD~${options.rewind}`);
  for (let i = 0; i < count; i++) {
    writeFileSync(join(work, `pushed-${Date.now()}-${i}.txt`), `change ${i}\n`);
    for (const [path, text] of Object.entries(options.files?.(i) ?? {})) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), text);
    }
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', options.message?.(i) ?? `feat: pushed change ${i}\n\nCo-authored-by: Pair Programmer <pair@example.com>`);
  }
  git(work, 'push', '--quiet', ...(options.rewind ? ['--force'] : []), 'origin', `HEAD:refs/heads/${branch}`);
  const shas = git(work, 'rev-list', `-${count}`, 'HEAD').split('\n');
  rmSync(resolve(work, '..'), { recursive: true, force: true });
  return shas;
}

export function revParse(bareRepo: string, ref: string): string {
  return git(bareRepo, 'rev-parse', ref);
}

export function commitCount(bareRepo: string, ref = 'main'): number {
  return Number(git(bareRepo, 'rev-list', '--count', ref));
}

/**
 * A small bare repository under tmp/ whose HEAD is `defaultBranch` (not `main`, by default), with
 * `commits` commits on it and each of `branches` starting from its tip. `removeRepoCopy` deletes it.
 */
export function smallRepo(options: { defaultBranch?: string; commits?: number; branches?: string[] } = {}): string {
  const defaultBranch = options.defaultBranch ?? 'trunk';
  const dir = join(tempDir('small'), 'repo.git');
  execFileSync('git', ['init', '--quiet', '--bare', `--initial-branch=${defaultBranch}`, dir]);
  const work = join(tempDir('work'), 'first');
  execFileSync('git', ['init', '--quiet', `--initial-branch=${defaultBranch}`, work]);
  writeFileSync(join(work, 'README.md'), 'first\n');
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', 'feat: first change');
  git(work, 'push', '--quiet', dir, `HEAD:refs/heads/${defaultBranch}`);
  rmSync(resolve(work, '..'), { recursive: true, force: true });
  if ((options.commits ?? 3) > 1) pushCommits(dir, (options.commits ?? 3) - 1, { branch: defaultBranch, message: (i) => `feat: change ${i}` });
  for (const branch of options.branches ?? []) git(dir, 'branch', branch, defaultBranch);
  return dir;
}

/**
 * A work repository (branch main) in `work` whose commits carry the dates given: each `commit(day, …)`
 * and `merge(day, …)` is authored and committed on that day of 2024 at noon UTC, so tests of dates
 * (arrival, releases, cherry-picks) read the history they wrote.
 */
export function datedRepository(work: string, { extension = 'txt' }: { extension?: string } = {}) {
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', work]);
  let date = '';
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', work, '-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    }).trim();
  let n = 0;
  return {
    work,
    git,
    /** Sets the date of what `git` does next: `day` (MM-DD) of 2024 at noon UTC. */
    on(day: string): void {
      date = `2024-${day}T12:00:00Z`;
    },
    /** A commit on the checked-out branch on `day`; returns its sha. */
    commit(day: string, message: string): string {
      date = `2024-${day}T12:00:00Z`;
      writeFileSync(join(work, `file-${n++}.${extension}`), `${message}\n`);
      git('add', '-A');
      git('commit', '--quiet', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    /** `git merge` of `branch` into the checked-out branch on `day`; returns the merge's sha. */
    merge(day: string, branch: string, ...options: string[]): string {
      date = `2024-${day}T12:00:00Z`;
      git('merge', '--quiet', '--no-edit', ...options, branch);
      return git('rev-parse', 'HEAD');
    },
  };
}

/**
 * The start of a project with a maintained line, as fastify's: on main, a [v5.11.3] ← b ← c
 * [v6.0.0-alpha.0]; the branch 5.x forked at b with d [v5.12.0]. Left checked out on 5.x; the shas by name.
 */
export function maintainedLine(r: ReturnType<typeof datedRepository>): Record<'a' | 'b' | 'c' | 'd', string> {
  const a = r.commit('01-01', 'feat: plugins load faster');
  r.git('tag', 'v5.11.3');
  const b = r.commit('01-02', 'fix: keep the reply headers');
  r.git('branch', '5.x');
  const c = r.commit('01-03', 'feat!: drop the old logger\n\nBREAKING CHANGE: use pino');
  r.git('tag', 'v6.0.0-alpha.0');
  r.git('checkout', '--quiet', '5.x');
  const d = r.commit('01-04', 'fix: backported content-type parsing');
  r.git('tag', 'v5.12.0');
  return { a, b, c, d };
}
