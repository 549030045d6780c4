/**
 * Reads a local repository with the `git` CLI: one streamed `git log` (parents, author, committer,
 * full message, changed paths against the first parent) and the tags. Produces the same commit
 * records ingestion stores, so `changelog preview` runs the engine exactly as the service does.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import type { Change, CommitRecord } from './types.js';

const execFileAsync = promisify(execFile);

const RS = '\x1e';
const US = '\x1f';
// Record separator first, unit separators between fields; the name-status lines follow the last one.
const FORMAT = `${RS}%H${US}%P${US}%an${US}%ae${US}%aI${US}%cn${US}%ce${US}%cI${US}%B${US}`;

export class GitError extends Error {
  override name = 'GitError';
}

export interface ReadOptions {
  /** Tags already read (readRepository reads them alongside other work). */
  tags?: Map<string, string[]>;
  /** Revision to walk (a branch, a tag, HEAD). */
  rev?: string;
  /** Only commits committed at or after this date. */
  since?: Date;
}

async function git(dir: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync('git', ['-C', dir, ...args], { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
    return stdout;
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new GitError(stderr || (error as Error).message);
  }
}

/** Throws a GitError naming the problem when `dir` is not inside a git work tree or bare repository. */
export async function assertRepository(dir: string): Promise<void> {
  try {
    await git(dir, ['rev-parse', '--git-dir']);
  } catch {
    throw new GitError(`${dir} is not a git repository`);
  }
}

/** Tag name → the commit it points at (annotated tags peeled). */
export async function readTags(dir: string): Promise<Map<string, string[]>> {
  const out = await git(dir, ['for-each-ref', '--format=%(objectname) %(*objectname) %(refname:strip=2)', 'refs/tags']);
  const byCommit = new Map<string, string[]>();
  for (const line of out.split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]*) (.+)$/.exec(line);
    if (!m) continue;
    const sha = m[2] || m[1]!;
    const list = byCommit.get(sha) ?? [];
    list.push(m[3]!);
    byCommit.set(sha, list);
  }
  for (const list of byCommit.values()) list.sort();
  return byCommit;
}

/** A revision must not be read as an option (`--output=…` would make git write a file). */
function checkRev(rev: string): string {
  if (!rev || rev.startsWith('-') || /[\s\0]/.test(rev)) throw new GitError(`"${rev}" is not a revision`);
  return rev;
}

/** Streams the commits reachable from `rev`, newest first, with their changed paths. */
export async function* streamCommits(dir: string, options: ReadOptions = {}): AsyncGenerator<CommitRecord> {
  const rev = checkRev(options.rev ?? 'HEAD');
  const tags = options.tags ?? (await readTags(dir));
  const args = [
    '-C', dir, '-c', 'core.quotePath=false', 'log', '--no-color', '--no-renames', '--name-status',
    '--diff-merges=first-parent', `--format=${FORMAT}`,
    ...(options.since ? [`--since=${options.since.toISOString()}`] : []),
    rev, '--',
  ];
  const child = spawn('git', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
  child.stdout.setEncoding('utf8');
  let buffer = '';
  try {
    for await (const chunk of child.stdout as AsyncIterable<string>) {
      buffer += chunk;
      const end = buffer.lastIndexOf(RS);
      if (end <= 0) continue;
      const complete = buffer.slice(0, end);
      buffer = buffer.slice(end);
      for (const record of complete.split(RS)) if (record) yield parseRecord(record, tags);
    }
    for (const record of buffer.split(RS)) if (record) yield parseRecord(record, tags);
  } finally {
    if (child.exitCode === null) child.kill();
  }
  const code = await exited;
  if (code !== 0) throw new GitError(stderr.trim() || `git log exited with ${code}`);
}

function parseRecord(record: string, tags: Map<string, string[]>): CommitRecord {
  const fields = record.split(US);
  const [sha, parents, an, ae, ad, cn, ce, cd, message] = fields as [string, string, string, string, string, string, string, string, string];
  const changes: Change[] = [];
  for (const line of (fields[9] ?? '').split('\n')) {
    if (!line) continue;
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    changes.push([line.slice(0, tab), unquote(line.slice(tab + 1))]);
  }
  return {
    sha,
    parents: parents ? parents.split(' ') : [],
    author: { name: an, email: ae, date: ad },
    committer: { name: cn, email: ce, date: cd },
    message,
    changes,
    tags: tags.get(sha) ?? [],
  };
}

/** Git quotes paths with unusual characters C-style ("a\tb"); undo it. */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"')) return path;
  const bytes: number[] = [];
  const body = path.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[++i]!;
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(simple[next] ?? next.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The CODEOWNERS file at `rev`, from one of the places GitHub and GitLab look, if there is one. */
const CODEOWNERS_PATHS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'];

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
  const commits: CommitRecord[] = [];
  for await (const c of streamCommits(dir, { ...options, tags })) commits.push(c);
  commits.reverse();
  return { commits, codeowners: await codeowners };
}
