import { existsSync } from 'node:fs';

// With TEST_DATABASE_URL (CI), integration tests run on PostgreSQL, the system of record, and on PGlite
// only where the two databases take different paths: the embedded database's own tests, the files that
// branch on the database (usePostgres: restarts, shutdown, locks, processes sharing one database, query
// plans), and the publication property test (issue 23 asks for both). The CLI's embedded-only behaviour
// (its data directory and lock) is cli-embedded.pglite.int.test.ts; cli.int.test.ts runs on PostgreSQL. Every
// other file exercises the same SQL through the same code on either; running it twice doubled CI's time.
// Without TEST_DATABASE_URL everything runs on PGlite, as before.
export const onBothDatabases = [
  'src/entries/revisions.int.test.ts',
  'src/generation/restart.int.test.ts',
  'src/ops/shutdown.int.test.ts',
  'src/repos/restart.int.test.ts',
  'src/http/plugins/hardening.int.test.ts',
  'src/queue/queue-install.int.test.ts',
  'src/keys/two-process-revocation.int.test.ts',
  'src/changelog/query-plans.int.test.ts',
  'src/changelog/listing-marks.int.test.ts',
  'test/auth-matrix.int.test.ts',
  'test/multi-process.int.test.ts',
];

/**
 * Files that branch on the database only to point at it, run on PostgreSQL in CI, whose PGlite path is
 * covered by the named file (it runs on PGlite whatever TEST_DB says).
 */
export const pglitePathCoveredBy: Record<string, string> = {
  // 35 commands, each opening the embedded database again: 80 s of CI on PGlite for the same SQL.
  'src/cli/cli.int.test.ts': 'src/cli/cli-embedded.pglite.int.test.ts',
};

// A renamed file must not drop out of the PGlite run unnoticed (test/on-both-databases.test.ts checks the converse).
for (const file of [...onBothDatabases, ...Object.entries(pglitePathCoveredBy).flat()]) {
  if (!existsSync(file)) throw new Error(`test/helpers/on-both-databases.ts: ${file} does not exist`);
}
