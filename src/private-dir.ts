import { chmod, mkdir, stat } from 'node:fs/promises';

/**
 * Makes `dir` (and any missing parent) the service user's alone, 0700, whatever the umask: for
 * directories that hold secrets or private data (REPOS_DIR's mirrors keep each link's URL, with any
 * token it carries, in their git config). An existing directory others may enter is closed to them;
 * one we may not chmod (someone else's mount point) is left as its owner set it.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  // mkdir's mode applies to every directory it creates, narrowed by the umask, never widened.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (((await stat(dir)).mode & 0o777) === 0o700) return;
  try {
    await chmod(dir, 0o700);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}
