import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createTestContext, type TestContext } from './context.js';
import { cachedDatasetRepo, DATASETS_DIR, tempDir } from './git-fixtures.js';

/**
 * Registers, in the calling `describe`, a test context whose repositories live in a scratch directory, and
 * the vue-core dataset repository (7,157 commits: several batches, so a process killed mid-run stops between
 * two). Read `ctx`, `origin` and `reposDir` inside tests.
 */
export function useVueCoreContext(name: string): { readonly ctx: TestContext; readonly origin: string; readonly reposDir: string } {
  let ctx: TestContext;
  let scratch: string;
  let origin: string;
  beforeAll(async () => {
    scratch = tempDir(name);
    ctx = await createTestContext({ REPOS_DIR: join(scratch, 'repos') });
    origin = cachedDatasetRepo(join(DATASETS_DIR, 'vue-core-history.jsonl.gz'), 'vue-core');
  }, 180_000);
  afterAll(async () => {
    await ctx?.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  return {
    get ctx() {
      return ctx;
    },
    get origin() {
      return origin;
    },
    get reposDir() {
      return join(scratch, 'repos');
    },
  };
}
