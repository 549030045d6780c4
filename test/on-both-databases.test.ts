import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onBothDatabases, pglitePathCoveredBy } from './helpers/on-both-databases.js';

describe('integration files that run on both databases in CI', () => {
  it('include every file that takes a different path on PostgreSQL than on PGlite (it branches on usePostgres)', () => {
    const branching = ['src', 'test']
      .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file)))
      .filter((file) => file.endsWith('.int.test.ts') && !/\.pg(lite)?\.int\.test\.ts$/.test(file))
      .filter((file) => /\busePostgres\b/.test(readFileSync(file, 'utf8')))
      .sort();
    expect(branching.length).toBeGreaterThan(0);
    expect(branching.filter((file) => !onBothDatabases.includes(file) && !(file in pglitePathCoveredBy))).toEqual([]);
    // An exemption names a file that runs on PGlite in CI.
    for (const covering of Object.values(pglitePathCoveredBy)) expect(covering).toMatch(/\.pglite\.int\.test\.ts$/);
  });
});
