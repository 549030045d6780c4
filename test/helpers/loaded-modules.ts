import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs `changelog ...args` from the sources in a process of its own (modules an earlier test loaded
 * would not load again in this one) with only PATH and `env`, and returns its result and the URL of
 * every module it loaded (see record-modules.mjs).
 */
export function modulesLoadedBy(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string; modules: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'changelog-modules-'));
  try {
    const log = join(dir, 'modules.txt');
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--import', './test/helpers/record-modules.mjs', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env, MODULES_LOG: log },
      encoding: 'utf8',
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, modules: readFileSync(log, 'utf8').trim().split('\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
