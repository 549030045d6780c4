import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runGit, type GitOptions } from './git.js';

/** Where to fetch from, and the credential for it (an installation token for GitHub). */
export interface GitSource {
  url: string;
  /** Sent as HTTP basic auth `x-access-token:<token>`, GitHub's scheme for installation tokens. */
  token?: string;
  /**
   * For a URL whose addresses were checked (a link made from the dashboard): https only, no
   * redirects, and the connection goes to the checked address (curl's resolve list), so a DNS
   * answer that changes between the check and the fetch (rebinding) is not followed.
   */
  pinned?: { host: string; port: number; address: string };
}

function sourceOptions(source: GitSource): GitOptions {
  const config: Record<string, string> = {
    // Lets a local (file://) source serve a blobless clone like GitHub does.
    'uploadpack.allowFilter': 'true',
  };
  if (source.token) {
    const basic = Buffer.from(`x-access-token:${source.token}`).toString('base64');
    config['http.extraHeader'] = `Authorization: Basic ${basic}`;
  }
  if (source.pinned) {
    const { host, port, address } = source.pinned;
    Object.assign(config, {
      'protocol.allow': 'never',
      'protocol.https.allow': 'always',
      'http.followRedirects': 'false',
      'http.curloptResolve': `${host}:${port}:${address.includes(':') ? `[${address}]` : address}`,
    });
  }
  return { config };
}

/** The branches of a remote repository and the one its HEAD names (its default branch), if any. */
export interface RemoteBranches {
  defaultBranch: string | null;
  branches: string[];
}

/** How long asking a remote for its branches may take (the dashboard waits for it). */
const LS_REMOTE_TIMEOUT_MS = 30_000;

/** Asks the remote (without cloning) for its branches and default branch: `git ls-remote --symref URL HEAD refs/heads/*`. */
export async function remoteBranches(source: GitSource): Promise<RemoteBranches> {
  const url = normaliseSourceUrl(source.url);
  const out = await runGit(['ls-remote', '--symref', '--', url, 'HEAD', 'refs/heads/*'], { ...sourceOptions(source), timeoutMs: LS_REMOTE_TIMEOUT_MS });
  let defaultBranch: string | null = null;
  const branches: string[] = [];
  for (const line of out.split('\n')) {
    const symref = /^ref: refs\/heads\/(.+)\tHEAD$/.exec(line);
    if (symref) defaultBranch = symref[1]!;
    const head = /^[0-9a-f]{40,64}\trefs\/heads\/(.+)$/.exec(line);
    if (head) branches.push(head[1]!);
  }
  branches.sort();
  // HEAD can name a branch that does not exist yet (an empty repository).
  return { defaultBranch: defaultBranch !== null && branches.includes(defaultBranch) ? defaultBranch : null, branches };
}

/** A local path becomes a file:// URL so git clones it through the transport (honouring the filter). */
export function normaliseSourceUrl(url: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[\w.-]+@[\w.-]+:/.test(url)) return url;
  return `file://${url}`;
}

/** A source given as a plain path (not a URL): the mirror can share its objects instead of copying them. */
export const isLocalPath = (url: string) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^[\w.-]+@[\w.-]+:/.test(url) && url.startsWith('/');

/** Whether the mirror borrows its objects from the source (objects/info/alternates) rather than holding a copy. */
export const isSharedMirror = (dir: string) => existsSync(join(dir, 'objects', 'info', 'alternates'));

/**
 * A bare mirror of one repository's tracked branch and tags, created atomically (clone into a
 * temporary directory, then rename), so a crash never leaves a half-made mirror behind.
 *
 * - A remote (URL) source: a blobless partial clone — commits and trees, no file contents, which is
 *   all that commit history and changed paths need.
 * - A local path: a shared clone (`git clone --shared`): the mirror's objects/info/alternates names
 *   the source's object store and nothing is copied, so linking a large local checkout costs no
 *   more than its refs. The trade-off: the mirror depends on the source's objects. If the source
 *   is deleted, its link cannot fetch anyway; if the source prunes objects the mirror's refs still
 *   name (a force-push followed by gc), the fetch fails — the mirror is then made again from the
 *   source as it is now (cheap: nothing is copied), and ingestion treats the old tip as gone, as
 *   after any force-push. (Detaching a mirror for good would be `git repack -a -d` and removing the
 *   alternates file: a full copy, which is what sharing avoids.)
 */
export async function syncMirror(dir: string, source: GitSource, branch: string): Promise<void> {
  try {
    await syncOnce(dir, source, branch);
  } catch (error) {
    if (!isSharedMirror(dir)) throw error;
    // The source may have pruned objects our refs name: start again from the source as it is.
    await rm(dir, { recursive: true, force: true });
    await syncOnce(dir, source, branch);
  }
}

async function syncOnce(dir: string, source: GitSource, branch: string): Promise<void> {
  const options = sourceOptions(source);
  const exists = existsSync(join(dir, 'HEAD'));
  // Mirrors made before sharing existed stay blobless partial clones (fetched as before).
  const shared = isLocalPath(source.url) && (!exists || isSharedMirror(dir));
  // A shared clone reads the path itself (a file:// URL would go through the transport and copy).
  const url = shared ? source.url : normaliseSourceUrl(source.url);
  if (!exists) {
    await mkdir(dirname(dir), { recursive: true });
    const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
    try {
      const how = shared ? ['--shared'] : ['--filter=blob:none'];
      await runGit(['clone', '--bare', '--quiet', ...how, '--no-tags', '--single-branch', '--branch', branch, '--', url, tmp], options);
      await rm(dir, { recursive: true, force: true });
      await rename(tmp, dir);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }
  // The URL is kept current (an installation token is never part of it) and the tracked branch
  // is force-updated, so a force-push replaces our copy of the branch.
  await runGit(['remote', 'set-url', 'origin', url], { gitDir: dir });
  // A shared mirror is no partial clone (git refuses --filter there): it fetches refs, and the
  // objects are already reachable through the alternates.
  const filter = shared ? [] : ['--filter=blob:none'];
  await runGit(
    ['fetch', '--quiet', '--prune', '--no-tags', ...filter, 'origin', `+refs/heads/${branch}:refs/heads/${branch}`, '+refs/tags/*:refs/tags/*'],
    { ...options, gitDir: dir },
  );
}

export async function resolveRef(dir: string, ref: string): Promise<string> {
  return (await runGit(['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`], { gitDir: dir })).trim();
}

export async function isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  try {
    await runGit(['merge-base', '--is-ancestor', ancestor, descendant], { gitDir: dir });
    return true;
  } catch {
    // Exit code 1 (not an ancestor) or an unknown commit (gone after a force-push and gc).
    return false;
  }
}

export async function countCommits(dir: string, range: string[]): Promise<number> {
  return Number((await runGit(['rev-list', '--count', ...range, '--'], { gitDir: dir })).trim());
}

/** Every commit reachable from `tip`, streamed. */
export async function reachableShas(dir: string, tip: string): Promise<Set<string>> {
  const shas = new Set<string>();
  const out = await runGit(['rev-list', tip, '--'], { gitDir: dir });
  for (const line of out.split('\n')) if (line) shas.add(line);
  return shas;
}

/** Tag names per commit they point at (annotated tags peeled to their commit). */
export async function tagsByCommit(at: GitOptions): Promise<Map<string, string[]>> {
  const out = await runGit(['for-each-ref', '--format=%(objectname) %(*objectname) %(refname:strip=2)', 'refs/tags'], at);
  const map = new Map<string, string[]>();
  for (const line of out.split('\n')) {
    const [object, peeled, name] = line.split(' ');
    if (!object || name === undefined) continue;
    const sha = peeled || object;
    const list = map.get(sha) ?? [];
    list.push(name);
    map.set(sha, list);
  }
  for (const list of map.values()) list.sort();
  return map;
}

/** Where GitHub (in this order) and GitLab look for CODEOWNERS. */
export const CODEOWNERS_PATHS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'];
const CODEOWNERS_MAX_BYTES = 3 * 1024 * 1024; // GitHub ignores larger files

/**
 * The CODEOWNERS file at `tip`, or null when the tree has none. The mirror is blobless, so the one
 * blob is fetched from the source (with its credential); `undefined` when that fails, so that a
 * flaky fetch does not forget a file read before.
 */
export async function readCodeownersAt(dir: string, source: GitSource, tip: string): Promise<string | null | undefined> {
  const listed = await runGit(['ls-tree', '-l', tip, '--', ...CODEOWNERS_PATHS], { gitDir: dir });
  const found = new Map<string, { object: string; size: number }>();
  for (const line of listed.split('\n')) {
    const match = /^\d+ blob ([0-9a-f]+)\s+(\d+)\t(.+)$/.exec(line);
    if (match) found.set(match[3]!, { object: match[1]!, size: Number(match[2]) });
  }
  const path = CODEOWNERS_PATHS.find((p) => found.has(p));
  if (!path) return null;
  const blob = found.get(path)!;
  if (blob.size > CODEOWNERS_MAX_BYTES) return null;
  try {
    return await runGit(['cat-file', 'blob', blob.object], { ...sourceOptions(source), gitDir: dir });
  } catch {
    return undefined;
  }
}
