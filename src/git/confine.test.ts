/**
 * Attacker tests (issue 21): a repository inside the allowed directories whose git directory, common
 * directory, alternates or symlinks lead to another repository outside them. Every variant is
 * refused by the check, by the branch listing a link makes and by the mirror; a mirror of a clean
 * repository holds its own objects (no alternates into the source); a source swapped while git
 * reads it leaves nothing behind.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkout, gitIn, makeEscape, SECRET_MESSAGE, secretRepo, swapInSecret, type EscapeVariant } from '../../test/helpers/git-escapes.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { ConfinementError, inspectRepository } from './confine.js';
import { runGit } from './git.js';
import { isSharedMirror, mirrorRefs, remoteBranches, syncMirror, type GitSource } from './mirror.js';

let root: string;
let allowed: string;
let secret: { gitDir: string; sha: string };
const confine = () => ({ roots: [allowed] });
const confined = (url: string): GitSource => ({ url, confine: confine() });

beforeAll(() => {
  root = realpathSync(tempDir('confine'));
  allowed = join(root, 'allowed');
  mkdirSync(allowed);
  secret = secretRepo(join(root, 'secret'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every commit message the mirror at `dir` holds, or [] when there is no mirror. */
const messagesIn = (dir: string) => (existsSync(join(dir, 'HEAD')) ? gitIn(dir, 'log', '--all', '--format=%s').split('\n') : []);

const VARIANTS: EscapeVariant[] = [
  'commondir',
  'gitfile',
  'alternates',
  'relative-alternates',
  'alternates-of-alternates',
  'objects-symlink',
  'pack-symlink',
  'ref-symlink',
  'packed-refs-symlink',
  'dot-git-symlink',
  'worktree-outside',
  'config-include',
];

describe('a repository that reaches outside the allowed directories', () => {
  it.each(VARIANTS)('%s: refused by the check, by the branch listing and by the mirror, and nothing is read', async (variant) => {
    const dir = realpathSync(makeEscape(variant, allowed, secret));
    const refused = await inspectRepository(dir, confine()).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ConfinementError);
    expect((refused as ConfinementError).escape).toBe(true);
    // The message names no path outside.
    expect((refused as Error).message).not.toContain(join(root, 'secret'));

    await expect(remoteBranches(confined(dir))).rejects.toBeInstanceOf(ConfinementError);
    const mirror = join(root, 'mirrors', `${variant}.git`);
    await expect(syncMirror(mirror, confined(dir), 'main')).rejects.toBeInstanceOf(ConfinementError);
    expect(existsSync(mirror)).toBe(false);
  });

  it('and without the check, git would have read the secret (the fixtures are real)', async () => {
    for (const variant of ['commondir', 'alternates', 'objects-symlink'] as const) {
      const dir = join(allowed, variant);
      expect(gitIn(root, 'ls-remote', dir, 'refs/heads/main'), variant).toContain(secret.sha);
    }
    expect(gitIn(root, 'ls-remote', join(allowed, 'gitfile'), 'refs/heads/main')).toContain(secret.sha);
  });

  it('refuses a FIFO in the git directory (git would hang reading it)', async () => {
    const dir = join(allowed, 'fifo');
    checkout(dir, ['feat: one']);
    execFileSync('mkfifo', [join(dir, '.git', 'packed-refs')]);
    await expect(inspectRepository(dir, confine())).rejects.toThrow(/not a regular file/);
  });
});

describe('a repository inside the allowed directories', () => {
  it('a checkout and a bare clone: mirrored with their own objects, fetched again after a push', async () => {
    const work = join(allowed, 'app');
    const tip = checkout(work, ['feat: one', 'fix: two']);
    const bare = join(allowed, 'app.git');
    execFileSync('git', ['clone', '-q', '--bare', work, bare]);
    expect(await inspectRepository(work, confine())).toEqual({ gitDir: join(work, '.git'), alternates: false });
    expect(await inspectRepository(bare, confine())).toEqual({ gitDir: bare, alternates: false });
    expect(await remoteBranches(confined(work))).toEqual({ defaultBranch: 'main', branches: ['main'], total: 1 });

    const mirror = join(root, 'mirrors', 'app.git');
    await syncMirror(mirror, confined(work), 'main');
    expect(isSharedMirror(mirror)).toBe(false);
    expect((await mirrorRefs(mirror, 'main')).tip).toBe(tip);
    expect(messagesIn(mirror)).toEqual(['fix: two', 'feat: one']);

    writeFileSync(join(work, 'three.txt'), '3\n');
    gitIn(work, 'add', '-A');
    gitIn(work, 'commit', '-qm', 'feat: three');
    await syncMirror(mirror, confined(work), 'main');
    expect(messagesIn(mirror)[0]).toBe('feat: three');
    // The mirror stands alone: the source gone, it still reads its history.
    rmSync(work, { recursive: true, force: true });
    expect(messagesIn(mirror)).toHaveLength(3);
  });

  it('follows what stays inside: a worktree (gitfile and commondir), alternates and symlinks within the roots', async () => {
    const main = join(allowed, 'main-repo');
    checkout(main, ['feat: base']);
    gitIn(main, 'worktree', 'add', '-q', '-b', 'side', join(allowed, 'side-worktree'));
    const worktree = await inspectRepository(join(allowed, 'side-worktree'), confine());
    expect(worktree.gitDir).toBe(join(main, '.git', 'worktrees', 'side-worktree'));

    const borrowing = join(allowed, 'borrowing.git');
    execFileSync('git', ['clone', '-q', '--bare', '--shared', main, borrowing]);
    expect(await inspectRepository(borrowing, confine())).toMatchObject({ alternates: true });
    const mirror = join(root, 'mirrors', 'borrowing.git');
    await syncMirror(mirror, confined(borrowing), 'main');
    // Copied through the transport: the mirror does not borrow in turn.
    expect(isSharedMirror(mirror)).toBe(false);
    expect(messagesIn(mirror)).toEqual(['feat: base']);

    const linked = join(allowed, 'linked.git');
    execFileSync('git', ['clone', '-q', '--bare', main, linked]);
    rmSync(join(linked, 'hooks'), { recursive: true });
    symlinkSync(join(main, '.git', 'hooks'), join(linked, 'hooks'));
    await expect(inspectRepository(linked, confine())).resolves.toMatchObject({ gitDir: linked });
  });

  it('makes a mirror shared before this check again, as a copy', async () => {
    const work = join(allowed, 'was-shared');
    checkout(work, ['feat: one']);
    const mirror = join(root, 'mirrors', 'was-shared.git');
    execFileSync('git', ['clone', '-q', '--bare', '--shared', work, mirror]);
    expect(isSharedMirror(mirror)).toBe(true);
    await syncMirror(mirror, confined(work), 'main');
    expect(isSharedMirror(mirror)).toBe(false);
    expect(messagesIn(mirror)).toEqual(['feat: one']);
  });
});

describe('a symlink swapped in after the check', () => {
  let bin: string;
  const savedPath = process.env.PATH;

  afterEach(() => {
    process.env.PATH = savedPath;
  });

  /**
   * A `git` first on PATH that, when a marker file exists, swaps the checkout at `target` for
   * symlinks into the secret and then runs the real git: the swap lands between the check and
   * git's read, the window the check cannot close.
   */
  function gitThatSwaps(target: string, when: 'clone' | 'fetch', how: 'symlinks' | 'commondir'): string {
    bin = join(root, `bin-${when}`);
    mkdirSync(bin, { recursive: true });
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const marker = join(bin, 'armed');
    const swap =
      how === 'commondir'
        ? `echo "${secret.gitDir}" > "${target}/.git/commondir"`
        : ['objects', 'refs', 'packed-refs'].map((part) => `rm -rf "${target}/.git/${part}" && ln -s "${secret.gitDir}/${part}" "${target}/.git/${part}"`).join('; ');
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\nfor a in "$@"; do if [ "$a" = "${when}" ] && [ -e "${marker}" ]; then rm -f "${marker}"; ${swap}; fi; done\nexec "${real}" "$@"\n`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    writeFileSync(marker, '');
    process.env.PATH = `${bin}:${savedPath}`;
    return marker;
  }

  it('while the mirror is made (a commondir appears): the clone is dropped and the sync fails', async () => {
    const work = join(allowed, 'swapped-at-clone');
    checkout(work, ['feat: harmless']);
    const mirror = join(root, 'mirrors', 'swapped-at-clone.git');
    gitThatSwaps(work, 'clone', 'commondir');
    await expect(syncMirror(mirror, confined(work), 'main')).rejects.toBeInstanceOf(ConfinementError);
    expect(messagesIn(mirror)).toEqual([]);
  });

  it('while the mirror fetches (objects and refs become symlinks out): the mirror is dropped and the sync fails', async () => {
    const work = join(allowed, 'swapped-at-fetch');
    checkout(work, ['feat: harmless']);
    const mirror = join(root, 'mirrors', 'swapped-at-fetch.git');
    await syncMirror(mirror, confined(work), 'main');
    gitThatSwaps(work, 'fetch', 'symlinks');
    await expect(syncMirror(mirror, confined(work), 'main')).rejects.toBeInstanceOf(ConfinementError);
    expect(messagesIn(mirror)).not.toContain(SECRET_MESSAGE);
    expect(existsSync(mirror)).toBe(false);
  });

  it('after the check, before the next sync: refused before git runs', async () => {
    const work = join(allowed, 'swapped-between');
    checkout(work, ['feat: harmless']);
    const mirror = join(root, 'mirrors', 'swapped-between.git');
    await syncMirror(mirror, confined(work), 'main');
    swapInSecret(work, secret);
    await expect(syncMirror(mirror, confined(work), 'main')).rejects.toThrow(/leads outside the allowed directories/);
    expect(messagesIn(mirror)).toEqual(['feat: harmless']);
  });
});

describe("the runner's environment", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  });

  it('never takes a repository, object store or alternates from the server environment', async () => {
    const work = join(allowed, 'env-check');
    checkout(work, ['feat: harmless']);
    process.env.GIT_ALTERNATE_OBJECT_DIRECTORIES = join(secret.gitDir, 'objects');
    process.env.GIT_OBJECT_DIRECTORY = join(secret.gitDir, 'objects');
    process.env.GIT_COMMON_DIR = secret.gitDir;
    process.env.GIT_DIR = secret.gitDir;
    await expect(runGit(['cat-file', '-e', secret.sha], { gitDir: join(work, '.git') })).rejects.toThrow();
    await expect(runGit(['rev-parse', '--git-common-dir'], { cwd: work })).resolves.toBe('.git\n');
  });
});
