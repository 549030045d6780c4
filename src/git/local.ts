/**
 * Reads a local checkout with the `git` CLI, through the same runner, log parser and tag reading as
 * ingestion (one git layer, one sanitized environment): one streamed `git log` (parents, author, committer,
 * full message, changed paths against the first parent) and the tags. Produces the same commit
 * records ingestion stores, so `changelog preview` runs the engine exactly as the service does.
 */
import { GitError, runGit } from './git.js';
import { CODEOWNERS_PATHS, tagsByCommit } from './mirror.js';
import { gitLogArgs, parseGitLog, streamLogTokens } from './git-log.js';
import type { CommitRecord } from './commit-record.js';
import { readCommitFacts, type CommitFacts } from './manifest-log.js';

export interface ReadOptions {
  /** Tags already read (readRepository reads them alongside other work). */
  tags?: Map<string, string[]>;
  /** Revision to walk (a branch, a tag, HEAD). */
  rev?: string;
  /** Only commits committed at or after this date. */
  since?: Date;
  /** Read what each commit changes in its package manifests' dependencies, release configuration and change fragments (default true). */
  manifests?: boolean;
}

/** git in a local checkout (or bare repository), with ingestion's sanitized environment. */
const git = (dir: string, args: string[]): Promise<string> => runGit(args, { cwd: dir });

/** Throws a GitError naming the problem when `dir` is not inside a git work tree or bare repository. */
export async function assertRepository(dir: string): Promise<void> {
  try {
    await git(dir, ['rev-parse', '--git-dir']);
  } catch {
    throw new GitError(`${dir} is not a git repository`, null, '');
  }
}

/** Tag name → the commit it points at (annotated tags peeled): the reading ingestion uses. */
export const readTags = (dir: string): Promise<Map<string, string[]>> => tagsByCommit({ cwd: dir });

/** A revision must not be read as an option (`--output=…` would make git write a file). */
function checkRev(rev: string): string {
  if (!rev || rev.startsWith('-') || /[\s\0]/.test(rev)) throw new GitError(`"${rev}" is not a revision`, null, '');
  return rev;
}

/**
 * Streams the commits reachable from `rev`, newest first, with their changed paths: the very
 * `git log` and parser ingestion uses (git-log.ts), so a preview reads what a project stores.
 */
export async function* streamCommits(dir: string, options: ReadOptions = {}): AsyncGenerator<CommitRecord> {
  const rev = checkRev(options.rev ?? 'HEAD');
  const tags = options.tags ?? (await readTags(dir));
  const args = gitLogArgs([rev], options.since ? { since: options.since } : {});
  // Co-authors and PR numbers included, parsed as ingestion parses them: the engine reads them from the record.
  yield* parseGitLog(streamLogTokens(args, { cwd: dir }), tags);
}

/** The CODEOWNERS file at `rev`, from one of the places GitHub and GitLab look, if there is one. */
export async function readCodeowners(dir: string, rev = 'HEAD'): Promise<string | null> {
  checkRev(rev);
  // One listing finds which of the usual places has the file (GitHub's order), one read fetches it.
  let listed: string;
  try {
    listed = await git(dir, ['ls-tree', '--name-only', rev, '--', ...CODEOWNERS_PATHS]);
  } catch {
    return null; // an empty repository has no tree yet
  }
  const present = new Set(listed.split('\n'));
  const path = CODEOWNERS_PATHS.find((p) => present.has(p));
  return path ? git(dir, ['show', `${rev}:${path}`]) : null;
}

export interface LocalRepository {
  commits: CommitRecord[];
  codeowners: string | null;
}

/** The whole history of `rev`, oldest first, and the repository's CODEOWNERS. */
export async function readRepository(dir: string, options: ReadOptions = {}): Promise<LocalRepository> {
  await assertRepository(dir);
  const codeowners = readCodeowners(dir, options.rev);
  codeowners.catch(() => {}); // awaited below; do not let a failure go unhandled meanwhile
  const tags = await readTags(dir);
  // One more git process for the whole history (not one per commit); when it fails or runs out of its
  // time budget, the commits go without manifest facts and the engine reads words and paths as before.
  const dependencies: Promise<Map<string, CommitFacts>> =
    options.manifests === false
      ? Promise.resolve(new Map())
      : readCommitFacts([checkRev(options.rev ?? 'HEAD'), ...(options.since ? [`--since=${options.since.toISOString()}`] : [])], { cwd: dir }).catch(
          () => new Map(),
        );
  const commits: CommitRecord[] = [];
  for await (const c of streamCommits(dir, { ...options, tags })) commits.push(c);
  commits.reverse();
  const facts = await dependencies;
  for (const c of commits) {
    const f = facts.get(c.sha);
    if (f?.dependencies) c.dependencies = f.dependencies;
    if (f?.releaseConfig !== undefined) c.releaseConfig = f.releaseConfig;
    if (f?.fragments) c.fragments = f.fragments;
  }
  return { commits, codeowners: await codeowners };
}

export { GitError };
