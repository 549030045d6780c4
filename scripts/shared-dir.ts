/**
 * Where the shared folder is: the commit-history datasets (`datasets/`) and the tool that makes them into
 * git repositories (`tools/history-to-git.mjs`), which tests and benchmarks read. SHARED_DIR names it;
 * by default it is `shared` beside the checkout (`../shared`). The one place that decides, for the test
 * helpers and the scripts alike.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export const SHARED_DIR = resolve(ROOT, process.env.SHARED_DIR || join('..', 'shared'));

/**
 * Path of `parts` inside the shared folder; throws, saying where the folder is expected and how to point
 * elsewhere, when it is not there (CI always has it: a test that needs a dataset fails rather than skips).
 */
export function sharedPath(...parts: string[]): string {
  return ensureShared(join(SHARED_DIR, ...parts));
}

/** `path` (a file in the shared folder) when it exists; otherwise the error sharedPath throws. */
export function ensureShared(path: string): string {
  if (!existsSync(path)) {
    throw new Error(
      `${path} is missing: this needs the shared folder (datasets/ and tools/history-to-git.mjs) at ${SHARED_DIR}. ` +
        'Put it beside the checkout as ../shared, or set SHARED_DIR to where it is (README, "Tests").',
    );
  }
  return path;
}
