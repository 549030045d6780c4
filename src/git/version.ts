import { GitError, runGit } from './git.js';

/**
 * The oldest git this server runs: 2.39.4 is where upload-pack stopped fetching missing objects on
 * its own (a repository's config could otherwise make it run a promisor remote's commands) and where
 * local clones stopped following symlinks and hardlinks in a source's object store; linking
 * repositories from the dashboard relies on both. The same fixes came out on the later lines at
 * once (May 2024), so 2.40.0 or 2.44.0, newer than 2.39.4, lack them: each line's first fixed
 * release is listed, and lines from 2.46 on have them from the start.
 */
export const MIN_GIT_VERSION = [2, 39, 4] as const;
const FIXED_ON_LINE: Record<number, number> = { 39: 4, 40: 2, 41: 1, 42: 2, 43: 4, 44: 1, 45: 1 };
const FIXED_SHOWN = Object.entries(FIXED_ON_LINE)
  .map(([minor, patch]) => `2.${minor}.${patch}`)
  .join(', ');
const MIN_SHOWN = MIN_GIT_VERSION.join('.');

/** `git version 2.39.5` (also `2.45.1.windows.1`, `2.39.3 (Apple Git-146)`) → [2, 39, 5]; null when unreadable. */
export function parseGitVersion(output: string): [number, number, number] | null {
  const match = /^git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(output.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : null;
}

/** Whether this version has the fixes of 2.39.4 (on its own line, for 2.40 to 2.45). */
export function isSafeGitVersion([major, minor, patch]: readonly [number, number, number]): boolean {
  if (major !== 2) return major > 2;
  if (minor < 39) return false;
  const fixed = FIXED_ON_LINE[minor];
  return fixed === undefined || patch >= fixed;
}

/** Why the server will not start with this git. */
export class UnsafeGitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeGitError';
  }
}

/**
 * Runs `git --version` once and refuses (UnsafeGitError) a git older than 2.39.4, or none: the
 * dashboard links repositories anyone with an account names (https URLs, and paths under
 * REPO_PATHS_ALLOWED), and an older git lets such a repository run commands on this server.
 * Returns the version for the start-up log.
 */
export async function requireSafeGit(run: () => Promise<string> = () => runGit(['--version'], { timeoutMs: 10_000 })): Promise<string> {
  let output: string;
  try {
    output = await run();
  } catch (error) {
    const reason = error instanceof GitError ? error.message : (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'git is not installed (or not on PATH)' : String(error);
    throw new UnsafeGitError(`git ${MIN_SHOWN} or later is required, and \`git --version\` failed: ${reason}`);
  }
  const version = parseGitVersion(output);
  if (!version) throw new UnsafeGitError(`git ${MIN_SHOWN} or later is required; \`git --version\` said: ${output.trim().slice(0, 200)}`);
  const shown = version.join('.');
  if (!isSafeGitVersion(version)) {
    throw new UnsafeGitError(
      `git ${shown} is too old: ${MIN_SHOWN} or later is required (the first fixed release of each line: ${FIXED_SHOWN}; any 2.46 or later): older versions let a linked repository's configuration run commands through upload-pack and local clones. Upgrade git, then start again.`,
    );
  }
  return shown;
}
