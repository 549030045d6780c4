import { realpath, stat } from 'node:fs/promises';
import { isIP } from 'node:net';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { AppError } from '../errors.js';
import { ConfinementError, inspectRepository } from '../git/confine.js';
import type { GitSource } from '../git/mirror.js';
import { blockedReason, dnsResolver, type Resolver } from '../webhooks/ssrf.js';

/**
 * What the dashboard may link (the CLI, run by the operator, may link anything): local paths under
 * the operator's REPO_PATHS_ALLOWED, by the users the operator granted them to (`SourceGrant`), and
 * https:// URLs whose host resolves to public addresses only (the rule outbound webhooks follow,
 * src/webhooks/ssrf.ts). Checked when the link is made and again before every fetch, which then
 * connects to the address checked (GitSource.pinned) or reads only inside the allowed directories
 * (GitSource.confine: git directory, commondir, alternates and symlinks, src/git/confine.ts).
 */
export interface SourcePolicy {
  /** Absolute directories (REPO_PATHS_ALLOWED); empty = no local path. */
  pathsAllowed: readonly string[];
  resolve?: Resolver;
}

/**
 * Whether the one linking may link local paths at all (dashboard/access.ts decides: the installation
 * owner, and owners of the organizations in REPO_PATHS_ORGS). A stored link re-checked before a fetch
 * was made by someone who could.
 */
export interface SourceGrant {
  localPaths: boolean;
}

/** A stored link checked again before a fetch: whoever made it was granted what it names. */
export const STORED_LINK: SourceGrant = Object.freeze({ localPaths: true });

export interface CheckedSource {
  /** What is stored as the link's source: the real path (symlinks and `..` resolved), or the URL. */
  stored: string;
  git: GitSource;
}

const MAX_SOURCE_LENGTH = 2000;

const refuse = (message: string) => new AppError('invalid_request', message, [{ in: 'body', parameter: 'source', message }]);

// DNS within a time budget, off libuv's thread pool (see dnsResolver).
const publicResolver: Resolver = dnsResolver();

/** Whether `source` is a URL (scheme://… or scp-like user@host:path) rather than a path. */
export const looksLikeUrl = (source: string) => /^[a-z][a-z0-9+.-]*:/i.test(source) || /^[\w.-]+@[\w.-]+:/.test(source);

const inside = (dir: string, path: string) => {
  const rel = relative(dir, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
};

/** The answer to anyone not granted local paths, whatever the path: nothing about the disk is looked at. */
const notGranted = () =>
  refuse('Only the installation owner (and owners of the organizations the operator lists in REPO_PATHS_ORGS) may link local paths from the dashboard; use an https:// URL');

async function checkPath(raw: string, policy: SourcePolicy, grant: SourceGrant): Promise<CheckedSource> {
  // One message whether the path is outside, missing outside, or a symlink out: no probing of the disk.
  const outside = refuse(
    policy.pathsAllowed.length === 0
      ? 'Local paths cannot be linked from the dashboard on this server (the operator lists allowed directories in REPO_PATHS_ALLOWED); use an https:// URL'
      : `Local paths must be inside ${policy.pathsAllowed.join(', ')} (REPO_PATHS_ALLOWED)`,
  );
  if (policy.pathsAllowed.length > 0 && !grant.localPaths) throw notGranted();
  if (!isAbsolute(raw)) throw refuse('A local path must be absolute (start with /)');
  const lexical = resolve(raw);
  const allowed = await Promise.all(policy.pathsAllowed.map((dir) => realpath(dir).catch(() => null)));
  const roots = allowed.filter((dir): dir is string => dir !== null);
  if (!policy.pathsAllowed.some((dir) => inside(dir, lexical)) && !roots.some((dir) => inside(dir, lexical))) throw outside;
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    throw refuse(`No directory at ${lexical}`);
  }
  // Symlinks and `..` resolved: the real place must be inside an allowed directory (itself resolved).
  if (!roots.some((dir) => inside(dir, real))) throw outside;
  if (!(await stat(real)).isDirectory()) throw refuse(`No directory at ${lexical}`);
  const confine = { roots };
  try {
    await inspectRepository(real, confine);
  } catch (error) {
    // Not a repository at all: git says so when asked for the branches (422, as before).
    if (!(error instanceof ConfinementError) || error.escape) throw error instanceof ConfinementError ? refuse(`${real}: ${error.message}`) : error;
  }
  return { stored: real, git: { url: real, confine } };
}

/** Checks an https URL and resolves its host to a public address, which the fetch is pinned to. */
export async function checkGitUrl(raw: string, resolveHost: Resolver = publicResolver): Promise<CheckedSource> {
  if (/^ssh:\/\//i.test(raw) || /^[\w.-]+@[\w.-]+:/.test(raw)) {
    throw refuse('SSH URLs cannot be linked from the dashboard (no key is configured for it); use an https:// URL, or ask the operator to run `changelog repos link`');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('Not a valid URL');
  }
  if (url.protocol !== 'https:') throw refuse(`Only https:// URLs can be linked from the dashboard (got ${url.protocol}//)`);
  if (url.username || url.password) throw refuse('The URL must not contain a user name, password or token: only public repositories can be linked by URL');
  if (url.search || url.hash) throw refuse('The URL must not have a query or a fragment');
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const literal = isIP(hostname) !== 0;
  const unreachable = () => refuse(`The URL host ${hostname} does not resolve to a public address; repositories may only be fetched from public addresses`);
  let addresses: string[];
  if (literal) addresses = [hostname];
  else {
    try {
      addresses = (await resolveHost(hostname)).map((a) => a.address);
    } catch {
      throw unreachable();
    }
  }
  if (addresses.length === 0) throw unreachable();
  for (const address of addresses) {
    const reason = blockedReason(address);
    if (reason) throw literal ? refuse(`The URL host ${reason}; repositories may only be fetched from public addresses`) : unreachable();
  }
  const port = url.port ? Number(url.port) : 443;
  return { stored: url.toString(), git: { url: url.toString(), pinned: { host: hostname, port, address: addresses[0]! } } };
}

/** Checks a source given in the dashboard (or a restricted link's stored source, before a fetch). */
export async function checkRestrictedSource(raw: string, policy: SourcePolicy, grant: SourceGrant): Promise<CheckedSource> {
  const source = raw.trim();
  if (source.length === 0) throw refuse('Give a local path or an https:// URL');
  if (source.length > MAX_SOURCE_LENGTH) throw refuse(`At most ${MAX_SOURCE_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(source)) throw refuse('The source must not contain control characters');
  if (source.startsWith('-')) throw refuse('The source must not start with "-"');
  return looksLikeUrl(source) ? checkGitUrl(source, policy.resolve) : checkPath(source, policy, grant);
}
