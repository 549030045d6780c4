import { defineConfig } from 'vitest/config';

// Unit tests (*.test.ts) run once; integration tests (*.int.test.ts) run on PGlite, and again on
// PostgreSQL when TEST_DATABASE_URL names a server (each test file gets its own scratch database).
const integration = ['src/**/*.int.test.ts', 'test/**/*.int.test.ts'];
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    setupFiles: ['test/helpers/no-network.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true as const, test: { name: 'unit', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: integration } },
      { extends: true as const, test: { name: 'pglite', include: integration, env: { TEST_DB: 'pglite' } } },
      ...(onPostgres
        ? [{ extends: true as const, test: { name: 'postgres', include: integration, env: { TEST_DB: 'postgres' } } }]
        : []),
    ],
  },
});
