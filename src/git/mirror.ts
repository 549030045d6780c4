import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfinementError, inspectRepository, type Confinement, type ConfinedRepository } from './confine.js';
import { GitError, runGit, streamGitTokens, type GitOptions } from './git.js';
import { branchNameProblem } from './branch-name.js';
import { byNewestLine, matchesReleasePattern, MAX_RELEASE_BRANCHES } from './release-branches.js';
import { MANIFEST_LOG_BUDGET_MS, MANIFEST_PATHSPECS, readCommitFacts, type CommitFacts } from './manifest-log.js';

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
  /**
   * For a local path linked by someone other than the operator (from the dashboard): everything
   * git reads of it must stay inside these directories. Checked (confine.ts) right before and right
   * after every git command that reads the source, and git is pointed at the checked git directory
   * with `upload-pack --strict`; the mirror holds its own objects (hardlinks or a copy), never the
   * source's alternates, so nothing reads the source between fetches.
   */
  confine?: Confinement;
}

/** upload-pack reads exactly the directory it is given: no `.git`, `X.git` or gitfile looked for. */
const STRICT_UPLOAD_PACK = '--upload-pack=git upload-pack --strict';

function sourceOptions(source: GitSource): GitOptions {
  if (source.confine) return { config: { 'protocol.allow': 'never', 'protocol.file.allow': 'always' } };
  const config: Record<string, string> = {
    // Lets a local (file://) source serve a blobless clone like GitHub does.
    'uploadpack.allowFilter': 'true',
  };
  if (source.token) {
    const basic = Buffer.from(`x-access-token:${source.token}`).toString('base64');
    config['http.extraHeader'] = `Authorization: Basic ${basic}`;
  }
  if (!source.pinned) {
    // git's own defaults (git.ts denies every protocol on a mirror unless told otherwise).
    Object.assign(config, {
      'protocol.allow': 'never',
      'protocol.https.allow': 'always',
      'protocol.http.allow': 'always',
      'protocol.ssh.allow': 'always',
      'protocol.git.allow': 'always',
      'protocol.file.allow': 'user',
    });
  } else {
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
  /**
   * Its branches, sorted: the first MAX_LISTED_BRANCHES it lists, plus the default branch and the
   * one asked about wherever they come.
   */
  branches: string[];
  /** How many branches the remote has (more than `branches` holds when it has very many). */
  total: number;
}

/** How long asking a remote for its branches may take (the dashboard waits for it). */
const LS_REMOTE_TIMEOUT_MS = 30_000;
/**
 * Branch names kept from a remote's listing: a repository with millions of branches is read line by
 * line and costs this much memory, not its listing's size, on the HTTP server's event loop.
 */
export const MAX_LISTED_BRANCHES = 1_000;

/**
 * Asks the remote (without cloning) for its branches and default branch: `git ls-remote --symref URL
 * HEAD refs/heads/*`, streamed. `branch`, when given, is kept wherever the remote lists it. A confined
 * source (a dashboard-linked path) is checked before and after, and git is handed its checked git directory.
 */
export async function remoteBranches(source: GitSource, options: { branch?: string } = {}): Promise<RemoteBranches> {
  const list = (args: string[]) => listBranches(args, source, options);
  return source.confine
    ? confined(source.url, source.confine, (repo) => list(['ls-remote', STRICT_UPLOAD_PACK, '--symref', '--', repo.gitDir, 'HEAD', 'refs/heads/*']))
    : list(['ls-remote', '--symref', '--', normaliseSourceUrl(source.url), 'HEAD', 'refs/heads/*']);
}

/** The remote's branches matching a link's release-branch patterns (release-branches.ts). */
export interface ReleaseBranches {
  /** At most MAX_RELEASE_BRANCHES of them, the newest lines first; never the tracked branch. */
  branches: string[];
  /** How many matched (more than `branches` holds when the patterns matched too many). */
  matched: number;
}

/**
 * Asks the remote which of its branches match `patterns` (`git ls-remote`, streamed, like
 * `remoteBranches`): only matching names are kept, and only the newest MAX_RELEASE_BRANCHES of them,
 * so a repository with a million branches named `N.x` costs the listing's time, not its memory.
 */
export async function releaseBranches(source: GitSource, patterns: readonly string[], tracked: string): Promise<ReleaseBranches> {
  let kept: string[] = [];
  let matched = 0;
  const keep = (name: string) => {
    // A remote may advertise names git would refuse to create (`*.x`, `a:b`): as a refspec such a name
    // is a glob or breaks the fetch, so only names a branch may have are taken.
    if (name === tracked || branchNameProblem(name) !== null || !patterns.some((p) => matchesReleasePattern(name, p))) return;
    matched++;
    kept.push(name);
    if (kept.length >= 4 * MAX_RELEASE_BRANCHES) kept = kept.sort(byNewestLine).slice(0, MAX_RELEASE_BRANCHES);
  };
  const list = async (args: string[]) => {
    const lines = streamGitTokens(args, { ...sourceOptions(source), timeoutMs: LS_REMOTE_TIMEOUT_MS, separator: 0x0a, maxTokenBytes: 4096 });
    for await (const batch of lines) {
      for (const line of batch) {
        const head = /^[0-9a-f]{40,64}\trefs\/heads\/(.+)$/.exec(line);
        if (head) keep(head[1]!);
      }
    }
  };
  if (source.confine) await confined(source.url, source.confine, (repo) => list(['ls-remote', STRICT_UPLOAD_PACK, '--heads', '--', repo.gitDir]));
  else await list(['ls-remote', '--heads', '--', normaliseSourceUrl(source.url)]);
  return { branches: kept.sort(byNewestLine).slice(0, MAX_RELEASE_BRANCHES), matched };
}

/** Fetch refspecs of the tracked branch and the release branches: each force-updated (a force-push replaces our copy). */
const branchRefspecs = (branch: string, release: readonly string[]) => [branch, ...release].map((b) => `+refs/heads/${b}:refs/heads/${b}`);

async function listBranches(args: string[], source: GitSource, options: { branch?: string }): Promise<RemoteBranches> {
  let defaultBranch: string | null = null;
  const branches = new Set<string>();
  const kept: string[] = [];
  let total = 0;
  const lines = streamGitTokens(args, {
    ...sourceOptions(source),
    timeoutMs: LS_REMOTE_TIMEOUT_MS,
    separator: 0x0a,
    // A longer line is no branch git would list (ref names are far shorter).
    maxTokenBytes: 4096,
  });
  for await (const batch of lines) {
    for (const line of batch) {
      const symref = /^ref: refs\/heads\/(.+)\tHEAD$/.exec(line);
      if (symref) defaultBranch = symref[1]!;
      const head = /^[0-9a-f]{40,64}\trefs\/heads\/(.+)$/.exec(line);
      if (!head) continue;
      total++;
      const name = head[1]!;
      if (kept.length < MAX_LISTED_BRANCHES || name === defaultBranch || name === options.branch) {
        kept.push(name);
        branches.add(name);
      }
    }
  }
  kept.sort();
  // HEAD can name a branch that does not exist yet (an empty repository).
  return { defaultBranch: defaultBranch !== null && branches.has(defaultBranch) ? defaultBranch : null, branches: kept, total };
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

/** Whether the mirror is a partial (blobless) clone, which fetches missing objects from its source when read. */
const isPartialMirror = (dir: string) => {
  try {
    return /partialclone/i.test(readFileSync(join(dir, 'config'), 'utf8'));
  } catch {
    return false;
  }
};

/**
 * Runs `read` on a confined source checked just before, then checks the source again: git may have
 * read something swapped in while it ran (a symlink, a commondir, alternates). Then what it made is
 * dropped (`discard`) and the read fails. What remains is a swap made and undone while git ran.
 */
async function confined<T>(path: string, confinement: Confinement, read: (repo: ConfinedRepository) => Promise<T>, discard?: () => Promise<void>): Promise<T> {
  const before = await inspectRepository(path, confinement);
  const result = await read(before);
  let after: ConfinedRepository;
  try {
    after = await inspectRepository(path, confinement);
  } catch (error) {
    await discard?.();
    throw error;
  }
  if (after.gitDir !== before.gitDir || after.alternates !== before.alternates) {
    await discard?.();
    throw new ConfinementError('The repository changed while git read it; nothing read was kept', true);
  }
  return result;
}

/**
 * The mirror of a confined source: a clone that holds its own objects (git's local clone hardlinks
 * the source's object files, or copies them across file systems, after refusing symlinks among
 * them; through the transport when the source has alternates, which a local clone would borrow),
 * then plain fetches. Mirrors made before (shared, or blobless) are made again this way.
 */
async function syncConfined(dir: string, source: GitSource & { confine: Confinement }, branch: string, release: readonly string[]): Promise<void> {
  const options = sourceOptions(source);
  if (existsSync(join(dir, 'HEAD')) && (isSharedMirror(dir) || isPartialMirror(dir))) await rm(dir, { recursive: true, force: true });
  if (!existsSync(join(dir, 'HEAD'))) {
    await mkdir(dirname(dir), { recursive: true });
    const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
    try {
      await confined(source.url, source.confine, async (repo) => {
        // No --local: git hardlinks by default, and copies where it cannot (--local would fail instead).
        const how = repo.alternates ? ['--no-local'] : [];
        await runGit(['clone', '--bare', '--quiet', ...how, STRICT_UPLOAD_PACK, '--single-branch', '--branch', branch, '--', repo.gitDir, tmp], options);
        if (isSharedMirror(tmp)) throw new ConfinementError('The mirror would borrow objects from the source (alternates appeared while it was made)', true);
      });
      await rm(dir, { recursive: true, force: true });
      await rename(tmp, dir);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    // The clone brought the tracked branch alone: release branches come with a fetch.
    if (!release.length) return;
  }
  await confined(
    source.url,
    source.confine,
    async (repo) => {
      await runGit(['remote', 'set-url', 'origin', repo.gitDir], { gitDir: dir });
      await runGit(['fetch', STRICT_UPLOAD_PACK, '--quiet', '--prune', '--no-tags', 'origin', ...branchRefspecs(branch, release), '+refs/tags/*:refs/tags/*'], {
        ...options,
        gitDir: dir,
      });
    },
    // Whatever this fetch brought may come from outside: the next sync makes the mirror again.
    () => rm(dir, { recursive: true, force: true }),
  );
}

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
export async function syncMirror(dir: string, source: GitSource, branch: string, release: readonly string[] = []): Promise<void> {
  if (source.confine) return syncConfined(dir, { ...source, confine: source.confine }, branch, release);
  try {
    await syncOnce(dir, source, branch, release);
  } catch (error) {
    if (!isSharedMirror(dir)) throw error;
    // The source may have pruned objects our refs name: start again from the source as it is.
    await rm(dir, { recursive: true, force: true });
    await syncOnce(dir, source, branch, release);
  }
}

async function syncOnce(dir: string, source: GitSource, branch: string, release: readonly string[]): Promise<void> {
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
      // The clone brings the branch and the tags in its history: what a fetch right after it would
      // add, one git process (and one fork of this process) less on a first sync.
      await runGit(['clone', '--bare', '--quiet', ...how, '--single-branch', '--branch', branch, '--', url, tmp], options);
      await rm(dir, { recursive: true, force: true });
      await rename(tmp, dir);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    // The clone brought the tracked branch alone: release branches come with a fetch.
    if (!release.length) return;
  }
  // The URL is kept current (an installation token is never part of it) and the tracked branch
  // is force-updated, so a force-push replaces our copy of the branch. Most syncs find the URL as
  // it was: then no git process for it (each one is a fork of this process).
  if (!remoteUrlIs(dir, url)) await runGit(['remote', 'set-url', 'origin', url], { gitDir: dir });
  // A shared mirror is no partial clone (git refuses --filter there): it fetches refs, and the
  // objects are already reachable through the alternates.
  const filter = shared ? [] : ['--filter=blob:none'];
  await runGit(['fetch', '--quiet', '--prune', '--no-tags', ...filter, 'origin', ...branchRefspecs(branch, release), '+refs/tags/*:refs/tags/*'], {
    ...options,
    gitDir: dir,
  });
}

/**
 * Whether the mirror's config names `url` as origin's URL, exactly as `git remote set-url` writes it:
 * only a URL that git writes unquoted counts (anything else is set again, which is always right).
 */
function remoteUrlIs(dir: string, url: string): boolean {
  if (!/^[^\s"\\;#]+$/.test(url)) return false;
  let config: string;
  try {
    config = readFileSync(join(dir, 'config'), 'utf8');
  } catch {
    return false;
  }
  const section = /^\[remote "origin"\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(config);
  if (!section) return false;
  const urls = [...section[1]!.matchAll(/^\s*url\s*=\s*(.*?)\s*$/gm)].map((m) => m[1]);
  return urls.length === 1 && urls[0] === url;
}

/**
 * Tags read per link: the newest MAX_TAGS by creation date (a tag's own date, a lightweight tag's
 * commit's). Every tag can become a release note and rides on its commit through generation, so a
 * repository with a million tags must not mean a million of either; an ingest that leaves tags out
 * says so in the link's status (`tagsCut`).
 */
export const MAX_TAGS = 10_000;

/**
 * The tip of `branch` in the mirror and the tags per commit (as `tagsByCommit`), read by one git
 * process: each process costs a fork of this one, which is slow when the process is large (the
 * embedded database's memory). At most MAX_TAGS tags, the newest; `tagsCut` when there were more.
 */
export async function mirrorRefs(dir: string, branch: string, maxTags = MAX_TAGS): Promise<{ tip: string; tags: Map<string, string[]>; tagsCut: boolean }> {
  const head = `refs/heads/${branch}`;
  // Newest first, one more than kept: seeing it tells that tags were left out.
  const listed = await listRefs({ gitDir: dir }, [head, 'refs/tags'], maxTags + 2);
  let tip: string | null = null;
  let tagCount = 0;
  const tags = new Map<string, string[]>();
  for (const ref of listed) {
    if (ref.name === head) {
      if (ref.type !== 'commit') throw new GitError(`${head} is not a commit`, null, '');
      tip = ref.object;
    } else if (ref.name.startsWith('refs/tags/') && tagCount < maxTags) {
      tagCount++;
      addTag(tags, ref.peeled || ref.object, ref.name.slice('refs/tags/'.length));
    }
  }
  const tagsCut = listed.length - (tip === null ? 0 : 1) > maxTags;
  if (tip === null && listed.length === maxTags + 2) {
    // Tags newer than the branch's tip filled the listing: the branch alone.
    const [ref] = await listRefs({ gitDir: dir }, [head], 1);
    if (ref && ref.name === head) {
      if (ref.type !== 'commit') throw new GitError(`${head} is not a commit`, null, '');
      tip = ref.object;
    }
  }
  if (tip === null) throw new GitError(`git for-each-ref failed: no branch ${branch} in the mirror`, null, '');
  for (const list of tags.values()) list.sort();
  return { tip, tags, tagsCut };
}

const REF_FORMAT = '%(objectname) %(objecttype) %(*objectname) %(refname)';

type Ref = { object: string; type: string; peeled: string; name: string };

/** The refs matching `patterns`, newest first, at most `count` (git sorts them; only these reach us). */
async function listRefs(at: GitOptions, patterns: string[], count: number): Promise<Ref[]> {
  const out = await runGit(['for-each-ref', `--count=${count}`, '--sort=-creatordate', `--format=${REF_FORMAT}`, ...patterns], at);
  const refs: Ref[] = [];
  for (const line of out.split('\n')) {
    const ref = parseRefLine(line);
    if (ref) refs.push(ref);
  }
  return refs;
}

function parseRefLine(line: string): Ref | null {
  const [object, type, peeled, name] = line.split(' ');
  if (!object || !type || peeled === undefined || !name) return null;
  return { object, type, peeled, name };
}

function addTag(tags: Map<string, string[]>, sha: string, name: string): void {
  const list = tags.get(sha);
  if (list) list.push(name);
  else tags.set(sha, [name]);
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

/** The tips of `branches` in the mirror (a branch the mirror lacks is left out). */
export async function branchTips(dir: string, branches: readonly string[]): Promise<Map<string, string>> {
  const tips = new Map<string, string>();
  if (!branches.length) return tips;
  const wanted = new Set(branches.map((b) => `refs/heads/${b}`));
  // for-each-ref matches a pattern as a prefix up to a `/`: only the exact names are kept.
  const out = await runGit(['for-each-ref', `--format=${REF_FORMAT}`, ...wanted], { gitDir: dir });
  for (const line of out.split('\n')) {
    const ref = parseRefLine(line);
    if (ref && ref.type === 'commit' && wanted.has(ref.name)) tips.set(ref.name.slice('refs/heads/'.length), ref.object);
  }
  return tips;
}

/** The commits reachable from `include` and from none of `exclude` (`git rev-list include --not exclude`). */
export async function revList(dir: string, include: readonly string[], exclude: readonly string[]): Promise<Set<string>> {
  const shas = new Set<string>();
  if (!include.length) return shas;
  const out = await runGit(['rev-list', ...include, '--not', ...exclude, '--'], { gitDir: dir });
  for (const line of out.split('\n')) if (line) shas.add(line);
  return shas;
}

/** Every commit reachable from `tip`, streamed. */
export async function reachableShas(dir: string, tip: string): Promise<Set<string>> {
  const shas = new Set<string>();
  const out = await runGit(['rev-list', tip, '--'], { gitDir: dir });
  for (const line of out.split('\n')) if (line) shas.add(line);
  return shas;
}

/** Tag names per commit they point at (annotated tags peeled to their commit): the newest MAX_TAGS. */
export async function tagsByCommit(at: GitOptions, maxTags = MAX_TAGS): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  for (const ref of await listRefs(at, ['refs/tags'], maxTags)) addTag(map, ref.peeled || ref.object, ref.name.slice('refs/tags/'.length));
  for (const list of map.values()) list.sort();
  return map;
}

/** Where GitHub (in this order) and GitLab look for CODEOWNERS. */
export const CODEOWNERS_PATHS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'];
const CODEOWNERS_MAX_BYTES = 3 * 1024 * 1024; // GitHub ignores larger files

/** What to read of a tip's tree: the first of `paths` that is there, at most `maxBytes`. */
export interface TipFileRequest {
  paths: readonly string[];
  maxBytes: number;
  /** Whether this object id is the one read at an earlier ingest: that blob is not read again (no text returned). */
  known?: (blob: string) => boolean;
}

/** A file found at the tip; `text` is absent when it was the known blob, or larger than allowed. */
export interface TipFile {
  path: string;
  blob: string;
  text?: string;
}

/**
 * Files at `tip`, one of each request (the first of its paths the tree has): null where the tree has
 * none, `undefined` where reading failed (so that a flaky fetch does not forget a file read before).
 * One `git ls-tree` for all of them; a blob is read only when it is not the known one. The mirror is
 * blobless, so a blob is fetched from the source (with its credential).
 */
export async function readTipFiles<K extends string>(
  dir: string,
  source: GitSource,
  tip: string,
  requests: Record<K, TipFileRequest>,
): Promise<Record<K, TipFile | null | undefined>> {
  const all = [...new Set(Object.values<TipFileRequest>(requests).flatMap((r) => r.paths))];
  // No `-l`: a blob's size needs the blob, which a blobless mirror would fetch here, outside the source's settings.
  const listed = await runGit(['ls-tree', tip, '--', ...all], { gitDir: dir });
  const found = new Map<string, string>();
  for (const line of listed.split('\n')) {
    const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line);
    if (match) found.set(match[2]!, match[1]!);
  }
  // A confined source's mirror holds every object: nothing is fetched here (no protocol allowed).
  const at = source.confine ? { gitDir: dir } : { ...sourceOptions(source), gitDir: dir };
  const out = {} as Record<K, TipFile | null | undefined>;
  for (const key of Object.keys(requests) as K[]) {
    const request = requests[key];
    const path = request.paths.find((p) => found.has(p));
    if (!path) {
      out[key] = null;
      continue;
    }
    const blob = found.get(path)!;
    if (request.known?.(blob)) {
      out[key] = { path, blob };
      continue;
    }
    try {
      if (Number((await runGit(['cat-file', '-s', blob], at)).trim()) > request.maxBytes) out[key] = { path, blob };
      else out[key] = { path, blob, text: await runGit(['cat-file', 'blob', blob], at) };
    } catch {
      out[key] = undefined;
    }
  }
  return out;
}

/** The object id of a text read before (CODEOWNERS is stored as text), to compare with a tree's. */
export const knownBlobOf = (known: string | null | undefined, like: string): string | null =>
  typeof known === 'string' ? blobId(known, like.length === 64 ? 'sha256' : 'sha1') : null;

/** CODEOWNERS as readTipFiles reads it: `known`, the text read before, is not read again. */
export const codeownersRequest = (known?: string | null): TipFileRequest => ({
  paths: CODEOWNERS_PATHS,
  maxBytes: CODEOWNERS_MAX_BYTES,
  known: (blob) => knownBlobOf(known, blob) === blob,
});

/** What readTipFiles found of CODEOWNERS as its text (`known` when the blob was the one read before). */
export function codeownersText(file: TipFile | null | undefined, known?: string | null): string | null | undefined {
  if (file === undefined || file === null) return file;
  if (file.text !== undefined) return file.text;
  // Not read: the known blob, or one larger than GitHub reads.
  return typeof known === 'string' && knownBlobOf(known, file.blob) === file.blob ? known : null;
}

/** Manifest versions fetched for one ingest at most: past it the commits go without manifest facts. */
export const MAX_MANIFEST_BLOBS = 20_000;
/** Object ids per fetch: one command line stays far below the system's argument limit. */
const BLOBS_PER_FETCH = 1_000;
const NULL_OID = /^0+$/;

/**
 * What each commit of `range` changes in its manifests' dependencies, release configuration and change
 * fragments (manifest-log.ts `readCommitFacts`), read from a
 * mirror. A blobless mirror has no file contents: the manifests' versions the range changes are listed
 * first (`git log --raw`, object ids only) and fetched in a few batches with the link's settings, as
 * CODEOWNERS is; then the one `git log -p` reads them with no network allowed, so a blob still missing
 * fails the read instead of being fetched per commit or outside the link's settings. Bounded by
 * MANIFEST_LOG_BUDGET_MS for the whole and MAX_MANIFEST_BLOBS; the caller treats a failure as "not read".
 */
export async function readMirrorCommitFacts(dir: string, source: GitSource, range: string[]): Promise<Map<string, CommitFacts>> {
  const deadline = Date.now() + MANIFEST_LOG_BUDGET_MS;
  const left = () => Math.max(1, deadline - Date.now());
  if (!source.confine && isPartialMirror(dir)) {
    const blobs = new Set<string>();
    const listing = streamGitTokens(
      ['log', '--raw', '--no-abbrev', '--full-history', '--no-renames', '--diff-merges=first-parent', '--format=', ...range, '--', ...MANIFEST_PATHSPECS],
      { gitDir: dir, separator: 10, maxTokenBytes: 8 * 1024, timeoutMs: left() },
    );
    for await (const batch of listing) {
      for (const line of batch) {
        // `:100644 100644 <old> <new> M\tpath`: both versions are read (before and after).
        if (!line.startsWith(':')) continue;
        const [, , before, after] = line.slice(0, line.indexOf('\t')).split(' ');
        for (const oid of [before, after]) if (oid && !NULL_OID.test(oid)) blobs.add(oid);
      }
      if (blobs.size > MAX_MANIFEST_BLOBS) throw new GitError(`more than ${MAX_MANIFEST_BLOBS} manifest versions to read`, null, '');
    }
    const wanted = [...blobs];
    const options = { ...sourceOptions(source), gitDir: dir };
    // What git's own lazy fetch runs, with the link's settings and many objects per process.
    const config = { ...options.config, 'fetch.negotiationAlgorithm': 'noop' };
    for (let i = 0; i < wanted.length; i += BLOBS_PER_FETCH) {
      await runGit(
        [
          'fetch',
          '--quiet',
          '--no-tags',
          '--no-write-fetch-head',
          '--recurse-submodules=no',
          '--filter=blob:none',
          'origin',
          ...wanted.slice(i, i + BLOBS_PER_FETCH),
        ],
        { ...options, config, timeoutMs: left() },
      );
    }
  }
  return readCommitFacts(range, { gitDir: dir, timeoutMs: left() });
}

/** The object id git gives a blob of `text` (UTF-8): the hash of `blob <size>\0` and the bytes. */
function blobId(text: string, algorithm: 'sha1' | 'sha256'): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
