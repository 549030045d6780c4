// Repositories that reach outside the directories they were linked from (issue 21): each is a
// directory inside `allowed` whose history git would read from a repository outside it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export const SECRET_MESSAGE = 'feat: the secret roadmap';

const env = { ...process.env, GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' };
export const gitIn = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8' }).trim();

/** A checkout (branch main) with commits whose messages are given, in `dir`; returns its tip. */
export function checkout(dir: string, messages: string[]): string {
  mkdirSync(dir, { recursive: true });
  gitIn(dir, 'init', '-q', '-b', 'main');
  messages.forEach((message, i) => {
    writeFileSync(join(dir, `file-${i}.txt`), `${message}\n`);
    gitIn(dir, 'add', '-A');
    gitIn(dir, 'commit', '-qm', message);
  });
  return gitIn(dir, 'rev-parse', 'HEAD');
}

/** The secret: a checkout outside the allowed directories, its only commit SECRET_MESSAGE, packed. */
export function secretRepo(dir: string): { gitDir: string; sha: string } {
  const sha = checkout(dir, [SECRET_MESSAGE]);
  gitIn(dir, 'gc', '-q');
  return { gitDir: join(dir, '.git'), sha };
}

/** An empty bare repository at `dir` whose main points at `sha` (an object it does not hold). */
function bareNaming(dir: string, sha: string): void {
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', dir], { env });
  writeFileSync(join(dir, 'packed-refs'), `${sha} refs/heads/main\n`);
}

export type EscapeVariant =
  | 'commondir'
  | 'gitfile'
  | 'alternates'
  | 'relative-alternates'
  | 'alternates-of-alternates'
  | 'objects-symlink'
  | 'pack-symlink'
  | 'ref-symlink'
  | 'packed-refs-symlink'
  | 'dot-git-symlink'
  | 'worktree-outside'
  | 'config-include';

/**
 * Makes the variant `name` in `allowed/NAME` against the secret repository; returns its path. The
 * first three are the issue's: a directory with HEAD, refs/, objects/ and a commondir naming the
 * secret's .git; a `.git` file (`gitdir: …`); a bare repository whose alternates name the secret's
 * objects, with a ref naming the secret commit.
 */
export function makeEscape(name: EscapeVariant, allowed: string, secret: { gitDir: string; sha: string }): string {
  const dir = join(allowed, name);
  const objects = join(secret.gitDir, 'objects');
  switch (name) {
    case 'commondir':
      mkdirSync(join(dir, 'refs'), { recursive: true });
      mkdirSync(join(dir, 'objects'), { recursive: true });
      writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(join(dir, 'commondir'), `${secret.gitDir}\n`);
      break;
    case 'gitfile':
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, '.git'), `gitdir: ${secret.gitDir}\n`);
      break;
    case 'alternates':
      bareNaming(dir, secret.sha);
      writeFileSync(join(dir, 'objects', 'info', 'alternates'), `${objects}\n`);
      break;
    case 'relative-alternates':
      bareNaming(dir, secret.sha);
      writeFileSync(join(dir, 'objects', 'info', 'alternates'), `${relative(join(dir, 'objects'), objects)}\n`);
      break;
    case 'alternates-of-alternates': {
      // Its alternate is inside the allowed directory; that one's alternate is not.
      const middle = join(allowed, `${name}-middle.git`);
      execFileSync('git', ['init', '-q', '--bare', middle], { env });
      writeFileSync(join(middle, 'objects', 'info', 'alternates'), `${objects}\n`);
      bareNaming(dir, secret.sha);
      writeFileSync(join(dir, 'objects', 'info', 'alternates'), `${join(middle, 'objects')}\n`);
      break;
    }
    case 'objects-symlink':
      bareNaming(dir, secret.sha);
      rmSync(join(dir, 'objects'), { recursive: true });
      symlinkSync(objects, join(dir, 'objects'));
      break;
    case 'pack-symlink': {
      // Every pack of the secret, one symlink each, in an otherwise ordinary object store.
      bareNaming(dir, secret.sha);
      const packs = join(objects, 'pack');
      for (const file of readdirSync(packs)) symlinkSync(join(packs, file), join(dir, 'objects', 'pack', file));
      break;
    }
    case 'ref-symlink': {
      // Leaks the secret's tip through a loose ref that is a symlink to the secret's.
      checkout(join(allowed, `${name}-work`), ['feat: harmless']);
      execFileSync('git', ['clone', '-q', '--bare', join(allowed, `${name}-work`), dir], { env });
      rmSync(join(dir, 'packed-refs'), { force: true });
      mkdirSync(join(dir, 'refs', 'heads'), { recursive: true });
      const secretRef = join(secret.gitDir, 'refs', 'heads', 'main');
      writeFileSync(secretRef, `${secret.sha}\n`);
      symlinkSync(secretRef, join(dir, 'refs', 'heads', 'main'));
      break;
    }
    case 'packed-refs-symlink':
      execFileSync('git', ['init', '-q', '--bare', '-b', 'main', dir], { env });
      // The secret's gc packed its refs.
      symlinkSync(join(secret.gitDir, 'packed-refs'), join(dir, 'packed-refs'));
      break;
    case 'dot-git-symlink':
      mkdirSync(dir, { recursive: true });
      symlinkSync(secret.gitDir, join(dir, '.git'));
      break;
    case 'worktree-outside':
      // A checkout with a linked worktree outside (its back-link names a .git file there).
      checkout(dir, ['feat: harmless']);
      gitIn(dir, 'worktree', 'add', '-q', '-b', 'elsewhere', join(dirname(secret.gitDir), '..', `${name}-worktree`));
      break;
    case 'config-include':
      checkout(dir, ['feat: harmless']);
      writeFileSync(join(dir, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n[include]\n\tpath = ${join(secret.gitDir, 'config')}\n`);
      break;
  }
  return dir;
}

/**
 * Replaces the object store and refs of the checkout at `dir` with symlinks into the secret's (a
 * swap after a check): `dir` still looks like the repository that was linked.
 */
export function swapInSecret(dir: string, secret: { gitDir: string }): void {
  const gitDir = join(dir, '.git');
  for (const part of ['objects', 'refs', 'packed-refs']) {
    rmSync(join(gitDir, part), { recursive: true, force: true });
    symlinkSync(join(secret.gitDir, part), join(gitDir, `${part}.swap`));
    renameSync(join(gitDir, `${part}.swap`), join(gitDir, part));
  }
}
