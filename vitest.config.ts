import { defineConfig } from 'vitest/config';
import { onBothDatabases } from './test/helpers/on-both-databases.js';

// Unit tests (*.test.ts) run once; integration tests (*.int.test.ts) run on PGlite, or, when
// TEST_DATABASE_URL names a server, on PostgreSQL (each test file in its own scratch database) and on
// PGlite only where the two take different paths (test/helpers/on-both-databases.ts).
const integration = ['src/**/*.int.test.ts', 'test/**/*.int.test.ts'];
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
// Tests of PostgreSQL-only behaviour (a server going away, pools, processes sharing one database).
const postgresOnly = ['src/**/*.pg.int.test.ts', 'test/**/*.pg.int.test.ts'];
// Tests of the embedded database itself (its files, backup and restore), whatever TEST_DB says.
const pgliteOnly = ['src/**/*.pglite.int.test.ts', 'test/**/*.pglite.int.test.ts'];
// Migrates one template database per run; each file's createTestDatabase copies it.
const templateDatabase = 'test/helpers/template-database.ts';
// Timing bounds of a real server process (/health's p95 under load): run after everything else, alone on
// the machine. Beside a CPU-heavy file in the other fork (cli.int starts the embedded database per
// command) its server lost half the cores and missed the bound, at this commit and at earlier ones.
const alone = ['test/health-under-load.pglite.int.test.ts'];

export default defineConfig({
  test: {
    setupFiles: ['test/helpers/no-network.ts'],
    pool: 'forks',
    // Two files at a time: most integration tests wait on PostgreSQL, git or Chromium, so two forks on
    // two cores halve CI's wall time (vitest's default on two cores is one fork).
    maxWorkers: 2,
    minWorkers: 1,
    // Files that a worker runs one after another share its modules instead of importing the app again
    // (3-4 s a file); each file still builds its own app, services and database. Halves the unit
    // project's time; a file that changes process-wide state must put it back (git.test.ts's HOME).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true as const, test: { name: 'unit', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: integration } },
      {
        extends: true as const,
        test: {
          name: 'pglite',
          include: onPostgres ? [...pgliteOnly, ...onBothDatabases] : integration,
          exclude: [...postgresOnly, ...alone],
          env: { TEST_DB: 'pglite' },
          globalSetup: [templateDatabase],
        },
      },
      {
        extends: true as const,
        test: { name: 'alone', include: alone, env: { TEST_DB: 'pglite' }, globalSetup: [templateDatabase], sequence: { groupOrder: 1 } },
      },
      ...(onPostgres
        ? [
            {
              extends: true as const,
              test: { name: 'postgres', include: integration, exclude: pgliteOnly, env: { TEST_DB: 'postgres' }, globalSetup: [templateDatabase] },
            },
          ]
        : []),
    ],
  },
});
