import { describe, expect, it } from 'vitest';
import { removeRepoCopy, smallRepo } from '../../test/helpers/git-fixtures.js';
import { modulesLoadedBy } from '../../test/helpers/loaded-modules.js';

// What a command loads decides how soon it answers: the whole application is about a second of
// module loading on a small machine.

// The application, its services and database, and the libraries only they need.
const HEAVY = [
  /\/src\/(app|server|services|core-services)\.ts$/,
  /\/src\/db\//,
  /\.(service|repository|routes)\.ts$/,
  /\/node_modules\/(fastify|@fastify|kysely|pg|pg-boss|@electric-sql|@sinclair\/typebox|ajv|@octokit|markdown-it)\//,
];
const heavyIn = (modules: string[]) => modules.filter((url) => HEAVY.some((pattern) => pattern.test(url)));

/** The modules `changelog ...args` loaded, after checking that it succeeded. */
function loadedBy(...args: string[]): string[] {
  const { status, stderr, modules } = modulesLoadedBy(args);
  expect(stderr).toBe('');
  expect(status).toBe(0);
  return modules;
}

describe('what a command loads', () => {
  it("--version and --help load the commands' declarations only: no application, services, database or schema library", () => {
    for (const args of [['--version'], ['--help'], ['entries', 'list', '--help'], ['projects', 'configure', '--help']]) {
      const modules = loadedBy(...args);
      expect(modules.some((url) => url.endsWith('/src/cli/main.ts'))).toBe(true);
      expect(heavyIn(modules), args.join(' ')).toEqual([]);
    }
  });

  it('preview loads the git reader and the engine, no database or services', () => {
    const repo = smallRepo({ commits: 2 });
    try {
      const modules = loadedBy('preview', '--path', repo, '--type', 'commit');
      expect(modules.some((url) => url.endsWith('/src/generation/engine/engine.ts'))).toBe(true);
      expect(heavyIn(modules)).toEqual([]);
    } finally {
      removeRepoCopy(repo);
    }
  });
});
