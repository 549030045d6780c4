/**
 * Turns a shared commit-history dataset into a real git repository (with the shared
 * history-to-git tool) once, cached under .cache/datasets/, for tests and benchmarks.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Db } from '../src/db/database.js';
import { sharedPath } from './shared-dir.js';

const CACHE = resolve(import.meta.dirname, '..', '.cache', 'datasets');

export type Dataset = 'git-cliff-history' | 'prettier-history' | 'vue-core-history';

export function datasetFile(name: Dataset): string {
  return sharedPath('datasets', `${name}.jsonl.gz`);
}

/**
 * Path of the dataset's repository, building it first when it is not cached yet; `limit` keeps
 * only the dataset's first `limit` commits (history-to-git.mjs --limit), cached apart.
 */
export function ensureDatasetRepo(name: Dataset, limit?: number): string {
  const target = join(CACHE, limit === undefined ? name : `${name}-${limit}`);
  if (existsSync(join(target, '.complete'))) return target;
  mkdirSync(CACHE, { recursive: true });
  // Build beside the target and rename: test files running in parallel never see half a repository.
  const scratch = `${target}.tmp-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  execFileSync(process.execPath, [sharedPath('tools', 'history-to-git.mjs'), datasetFile(name), scratch, ...(limit === undefined ? [] : ['--limit', String(limit)])], {
    stdio: 'ignore',
  });
  writeFileSync(join(scratch, '.complete'), '');
  try {
    renameSync(scratch, target);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(join(target, '.complete'))) throw error;
  }
  return target;
}

/** A user's project `bench` with the local repository `origin` linked to it (tracked branch main). */
export async function createBenchProject(db: Db, origin: string): Promise<{ project: { id: string }; link: { id: string } }> {
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
  return { project, link };
}
