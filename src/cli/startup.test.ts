import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { removeRepoCopy, smallRepo, tempDir } from '../../test/helpers/git-fixtures.js';

// What a command loads decides how soon it answers: the whole application is about a second of
// module loading on a small machine. These run the CLI in a process of its own (modules loaded by an
// earlier test would not be loaded again) and read which modules it loaded.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scratch = tempDir('cli-startup');

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The URLs of the modules `changelog ...args` loaded, after checking that it exited 0. */
function modulesLoadedBy(...args: string[]): string[] {
  const log = join(scratch, `modules-${args.join('-').replace(/[^\w-]/g, '_')}.txt`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--import', './test/helpers/record-modules.mjs', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', MODULES_LOG: log },
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return readFileSync(log, 'utf8').trim().split('\n');
}

// The application, its services and database, and the libraries only they need.
const HEAVY = [
  /\/src\/(app|server|services)\.ts$/,
  /\/src\/db\//,
  /\.(service|repository|routes)\.ts$/,
  /\/node_modules\/(fastify|@fastify|kysely|pg|pg-boss|@electric-sql|@sinclair\/typebox|ajv|@octokit|markdown-it)\//,
];
const heavyIn = (modules: string[]) => modules.filter((url) => HEAVY.some((pattern) => pattern.test(url)));

describe('what a command loads', () => {
  it('--version and --help load the commands\' declarations only: no application, services, database or schema library', () => {
    for (const args of [['--version'], ['--help'], ['entries', 'list', '--help'], ['projects', 'configure', '--help']]) {
      const modules = modulesLoadedBy(...args);
      expect(modules.some((url) => url.endsWith('/src/cli/main.ts'))).toBe(true);
      expect(heavyIn(modules), args.join(' ')).toEqual([]);
    }
  });

  it('preview loads the git reader and the engine, no database or services', () => {
    const repo = smallRepo({ commits: 2 });
    try {
      const modules = modulesLoadedBy('preview', '--path', repo, '--type', 'commit');
      expect(modules.some((url) => url.endsWith('/src/generation/engine.ts'))).toBe(true);
      expect(heavyIn(modules)).toEqual([]);
    } finally {
      removeRepoCopy(repo);
    }
  });
});
