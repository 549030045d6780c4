import { lstat, open, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { GitError } from './git.js';

/**
 * Where a local repository linked by someone other than the operator may be read from: every file
 * git opens for it must lie inside these directories (REPO_PATHS_ALLOWED, real paths).
 */
export interface Confinement {
  roots: readonly string[];
}

/** A confined repository, as git is to be pointed at it. */
export interface ConfinedRepository {
  /**
   * The git directory itself (real path): git is given this and told to look nowhere else
   * (`upload-pack --strict`), so it does not go looking for `.git`, `X.git` or a gitfile on its own.
   */
  gitDir: string;
  /** Whether its object store borrows from others (objects/info/alternates, each inside the roots). */
  alternates: boolean;
}

/**
 * A repository git must not read: it reaches outside the allowed directories (`escape`), or it is
 * not a git repository at all. A GitError, so that callers that show git's failures show this one.
 */
export class ConfinementError extends GitError {
  constructor(
    message: string,
    readonly escape: boolean,
  ) {
    super(message, null, `fatal: ${message}`);
    this.name = 'ConfinementError';
  }
}

/** Git follows at most this many levels of alternates (its own limit, "alternate ref chain too deep"). */
const MAX_ALTERNATE_DEPTH = 5;
/** Directory entries looked at in one repository at most: a repository past it is refused, not half-checked. */
const MAX_ENTRIES = 500_000;
/** commondir, a gitfile and alternates are a line or a few; config files are small. */
const MAX_POINTER_BYTES = 64 * 1024;
const MAX_CONFIG_BYTES = 1024 * 1024;
/**
 * The directories of a git directory whose files git reads when it serves or clones the
 * repository; they are walked whole. Other directories (submodules' repositories in `modules`, Git
 * LFS's store, rebase state, other tools' caches: git-cliff keeps tens of thousands of files in
 * `.git/git-cliff-core`) are never read for it and not walked; every entry at the top, files and
 * symlinks of any name, is checked.
 */
const READ_BY_GIT = new Set(['objects', 'refs', 'info', 'logs', 'worktrees', 'reftable']);

const inside = (dir: string, path: string) => {
  const rel = relative(dir, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
};

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR';

/**
 * Checks everything git reads of the repository at `path` (a real path inside `roots`) before it
 * reads it: which git directory it is (a `.git` directory, a `.git` symlink or gitfile, or `path`
 * itself), its `commondir`, its object store's alternates (recursively, relative entries
 * included), every symlink git may follow in the git directory, the common directory and each
 * alternate object store (HEAD, packed-refs, refs, objects, packs, worktrees…: READ_BY_GIT),
 * linked worktrees' back-links, and includes in its config files (which would read files
 * anywhere). Each must resolve inside `roots`. One message per kind of problem whatever lies
 * outside, so nothing outside the roots can be probed through it.
 */
export async function inspectRepository(path: string, confinement: Confinement): Promise<ConfinedRepository> {
  try {
    return await inspect(path, confinement);
  } catch (error) {
    if (error instanceof ConfinementError) throw error;
    // Unreadable (permissions, a symlink loop, an I/O error): git could not be trusted with it either.
    const code = (error as NodeJS.ErrnoException).code;
    if (code) throw new ConfinementError(`Part of the repository cannot be read (${code})`, true);
    throw error;
  }
}

async function inspect(path: string, confinement: Confinement): Promise<ConfinedRepository> {
  const roots = confinement.roots;
  const withinRoots = (p: string) => roots.some((root) => inside(root, p));
  const outside = (what: string) => new ConfinementError(`${what} leads outside the allowed directories (or nowhere)`, true);
  const shown = (p: string) => relative(path, p) || '.';

  /** The real directory `target` names (relative to `base`), when it is one inside the roots. */
  async function directoryInside(base: string, target: string, what: string): Promise<string> {
    const lexical = resolve(base, target);
    // Lexically outside: refused without touching the disk there.
    if (!withinRoots(lexical)) throw outside(what);
    let real: string;
    try {
      real = await realpath(lexical);
      if (!(await stat(real)).isDirectory()) throw outside(what);
    } catch (error) {
      if (error instanceof ConfinementError) throw error;
      throw outside(what);
    }
    if (!withinRoots(real)) throw outside(what);
    return real;
  }

  /** Reads a small regular file (a symlink to it was checked by the walk, or is checked here). */
  async function readSmall(file: string, limit: number, what: string): Promise<string> {
    const info = await lstat(file);
    if (info.isSymbolicLink()) await followLink(file, what);
    // O_NONBLOCK: a FIFO put in a file's place must not hang the check.
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const opened = await handle.stat();
      if (!opened.isFile()) throw new ConfinementError(`${what} is not a regular file`, true);
      if (opened.size > limit) throw new ConfinementError(`${what} is larger than ${limit} bytes`, true);
      const buffer = Buffer.alloc(opened.size);
      const { bytesRead } = await handle.read(buffer, 0, opened.size, 0);
      return buffer.toString('utf8', 0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** The real path a symlink inside the repository leads to, when it stays inside the roots. */
  async function followLink(link: string, what: string): Promise<string> {
    const target = await readlink(link);
    if (!withinRoots(resolve(dirname(link), target))) throw outside(what);
    let real: string;
    try {
      real = await realpath(link);
    } catch {
      throw outside(what);
    }
    if (!withinRoots(real)) throw outside(what);
    return real;
  }

  let entries = 0;
  const walked = new Set<string>();
  /** Every symlink under `dir` (a real directory) must lead inside the roots; directories they lead to are walked too. */
  async function walk(dir: string, label: string, top: boolean): Promise<void> {
    if (walked.has(dir)) return;
    walked.add(dir);
    let list;
    try {
      list = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of list) {
      if (++entries > MAX_ENTRIES) throw new ConfinementError(`The repository has more than ${MAX_ENTRIES} files in its git directory; it cannot be checked`, true);
      const descend = !top || READ_BY_GIT.has(entry.name);
      const full = join(dir, entry.name);
      const name = `${label}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        const real = await followLink(full, `The symlink ${name}`);
        if (descend && (await stat(real)).isDirectory()) await walk(real, name, false);
      } else if (entry.isDirectory()) {
        if (descend) await walk(full, name, false);
      } else if (entry.isFIFO() || entry.isCharacterDevice() || entry.isBlockDevice()) {
        // A FIFO where git expects a file would hang it; a device is no repository content.
        throw new ConfinementError(`${name} is not a regular file, directory or symlink`, true);
      }
    }
  }

  const notARepository = () => new ConfinementError(`'${path}' does not appear to be a git repository`, false);

  // 1. The git directory, chosen as git would, and then handed to git as it is.
  let gitDir = path;
  let dotGit;
  try {
    dotGit = await lstat(join(path, '.git'));
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  if (dotGit?.isDirectory() || dotGit?.isSymbolicLink()) {
    gitDir = await directoryInside(path, '.git', 'The .git symlink');
  } else if (dotGit?.isFile()) {
    const text = await readSmall(join(path, '.git'), MAX_POINTER_BYTES, 'The .git file');
    const match = /^gitdir: (.+?)\s*$/.exec(text.split('\n')[0] ?? '');
    if (!match) throw notARepository();
    gitDir = await directoryInside(path, match[1]!, 'The .git file');
  } else if (dotGit) {
    throw notARepository();
  }
  // git would look for a `.git` inside it first (clone does).
  if (gitDir !== path && (await lstat(join(gitDir, '.git')).catch(() => null))) {
    throw new ConfinementError(`${shown(gitDir)} has a .git of its own, which git would read instead`, true);
  }

  // 2. The common directory (refs, objects, config), when the git directory is a linked worktree's.
  let commonDir = gitDir;
  const commondirFile = join(gitDir, 'commondir');
  if (await lstat(commondirFile).catch(() => null)) {
    const text = (await readSmall(commondirFile, MAX_POINTER_BYTES, 'Its commondir file')).replace(/[\r\n]+$/, '');
    if (!text) throw notARepository();
    commonDir = await directoryInside(gitDir, text, 'Its commondir file');
  }

  // What git checks before it calls a directory a repository.
  const has = async (p: string) => Boolean(await lstat(p).catch(() => null));
  if (!(await has(join(gitDir, 'HEAD'))) || !(await has(join(commonDir, 'objects'))) || !(await has(join(commonDir, 'refs')))) throw notARepository();

  // 3. Symlinks anywhere git may read: the git directory and the common directory.
  await walk(gitDir, shown(gitDir), true);
  await walk(commonDir, shown(commonDir), true);

  // Linked worktrees' back-links (worktrees/<id>/gitdir, naming each worktree's .git file): git
  // follows them to list and prune worktrees. Lexically, as a pruned worktree's target is gone.
  for (const entry of await readdir(join(commonDir, 'worktrees'), { withFileTypes: true }).catch(() => [])) {
    const file = join(commonDir, 'worktrees', entry.name, 'gitdir');
    if (!entry.isDirectory() || !(await has(file))) continue;
    const what = `worktrees/${entry.name}/gitdir`;
    const target = (await readSmall(file, MAX_POINTER_BYTES, what)).trim();
    if (!withinRoots(resolve(dirname(file), target))) throw outside(what);
  }

  // 4. The object store and its alternates, recursively.
  const objects = await directoryInside(commonDir, 'objects', 'objects');
  let alternates = false;
  const seenStores = new Set<string>([objects]);
  const followAlternates = async (store: string, depth: number): Promise<void> => {
    const file = join(store, 'info', 'alternates');
    if (!(await has(file))) return;
    const text = await readSmall(file, MAX_POINTER_BYTES, 'objects/info/alternates');
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      if (line.startsWith('"')) throw new ConfinementError('objects/info/alternates has a quoted entry; only plain paths are supported', true);
      if (depth >= MAX_ALTERNATE_DEPTH) throw new ConfinementError('objects/info/alternates chains too deep', true);
      alternates = true;
      const next = await directoryInside(store, line, 'objects/info/alternates');
      if (seenStores.has(next)) continue;
      seenStores.add(next);
      await walk(next, 'alternate objects', false);
      await followAlternates(next, depth + 1);
    }
  };
  await followAlternates(objects, 0);

  // 5. Config files: an include reads any file (and git reads config before anything else).
  for (const dir of new Set([gitDir, commonDir])) {
    for (const name of ['config', 'config.worktree']) {
      const file = join(dir, name);
      if (!(await has(file))) continue;
      const text = await readSmall(file, MAX_CONFIG_BYTES, name);
      if (/^\s*\[\s*include/im.test(text)) throw new ConfinementError(`Its ${name} includes other files (include.path or includeIf); remove the include to link it`, true);
    }
  }

  return { gitDir, alternates };
}
