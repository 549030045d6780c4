/**
 * Attacker tests: a URL link's mirror is a blobless partial clone, so any git command that needs an
 * object the mirror lacks fetches it from `origin` on its own ("lazy fetch"). Such a fetch must go
 * out with the link's settings (pinned address, https only, no redirects, the installation token),
 * never with git's defaults: otherwise a link made from the dashboard to a public https host gets
 * a second, unchecked connection (DNS looked up again, redirects followed to internal http
 * addresses), and a private GitHub repository is fetched without its token.
 *
 * Stand-in for "the remote, reached later": the mirror's origin is pointed at a local http server.
 * The link's pinned settings refuse http outright, so any request that server sees was made
 * outside them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { readCommits } from './git-log.js';
import { codeownersRequest, codeownersText, mirrorRefs, readTipFiles, syncMirror, type GitSource } from './mirror.js';

/** CODEOWNERS as ingest reads it at a tip (with the changelog, in one ls-tree). */
const readCodeownersAt = async (dir: string, source: GitSource, tip: string) =>
  codeownersText((await readTipFiles(dir, source, tip, { codeowners: codeownersRequest() })).codeowners);

const git = (args: string[], cwd?: string) =>
  execFileSync('git', args, {
    ...(cwd ? { cwd } : {}),
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' },
  }).trim();

let root: string;
let source: string;
let seen: string[];
let internalSeen: string[];
let servers: Server[];
let remoteUrl: string;

const listen = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  root = tempDir('lazy-fetch');
  source = join(root, 'source');
  mkdirSync(join(source, '.github'), { recursive: true });
  git(['init', '-q', '-b', 'main', source]);
  writeFileSync(join(source, '.github', 'CODEOWNERS'), '* @team\n');
  writeFileSync(join(source, 'a.txt'), 'a\n');
  git(['add', '.'], source);
  git(['commit', '-qm', 'feat: first'], source);
  // In the source's own config: git drops GIT_CONFIG_* from the environment of a local upload-pack,
  // so the `uploadpack.allowFilter` mirror.ts passes does not reach it and file:// clones are full.
  git(['config', 'uploadpack.allowFilter', 'true'], source);

  seen = [];
  internalSeen = [];
  // "Public" host: answers every request with a redirect to an "internal" plain-http address.
  const internal = createServer((req, res) => {
    internalSeen.push(`${req.method} ${req.url}`);
    res.writeHead(200).end('internal');
  });
  const internalPort = await listen(internal);
  const publicHost = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(302, { location: `http://127.0.0.1:${internalPort}/latest/meta-data/` }).end();
  });
  const publicPort = await listen(publicHost);
  servers = [internal, publicHost];
  remoteUrl = `http://127.0.0.1:${publicPort}/repo.git`;
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  rmSync(root, { recursive: true, force: true });
});

/** A link's settings as a dashboard https link has them: pinned, https only, redirects off. */
const pinned: GitSource = { url: 'https://repo.example/repo.git', pinned: { host: 'repo.example', port: 443, address: '127.0.0.1' } };

/** A blobless mirror of the source (as a URL link has), whose origin then points at the "remote". */
async function blobless(name: string, filter = 'blob:none'): Promise<string> {
  const dir = join(root, `${name}.git`);
  if (filter === 'blob:none') {
    await syncMirror(dir, { url: `file://${source}` }, 'main');
  } else {
    // What a remote that leaves objects out of its pack produces (a promisor pack without trees).
    git(['clone', '-q', '--bare', `--filter=${filter}`, '--single-branch', '--branch', 'main', `file://${source}`, dir]);
  }
  git(['--git-dir', dir, 'remote', 'set-url', 'origin', remoteUrl]);
  return dir;
}

describe('a blobless mirror never reaches its remote outside the link’s settings', () => {
  it('reading CODEOWNERS: no request but the pinned one (here: none, http is refused), and a failed fetch is not a failed ingest', async () => {
    const dir = await blobless('codeowners');
    const { tip } = await mirrorRefs(dir, 'main');
    // A fetch that fails is `undefined` ("keep what was read before"), not an exception that fails the ingest.
    await expect(readCodeownersAt(dir, pinned, tip)).resolves.toBeUndefined();
    expect(seen).toEqual([]);
    expect(internalSeen).toEqual([]);
  });

  it('reading CODEOWNERS through the source’s own settings still fetches the one blob', async () => {
    const dir = await blobless('codeowners-ok');
    git(['--git-dir', dir, 'remote', 'set-url', 'origin', `file://${source}`]);
    const { tip } = await mirrorRefs(dir, 'main');
    await expect(readCodeownersAt(dir, { url: `file://${source}` }, tip)).resolves.toBe('* @team\n');
  });

  it('reading history from a mirror the remote left trees out of: no unpinned request', async () => {
    const dir = await blobless('treeless', 'tree:0');
    const { tip } = await mirrorRefs(dir, 'main');
    seen.length = 0;
    internalSeen.length = 0;
    try {
      // As the ingest reads it (src/repos/ingest.service.ts).
      for await (const commit of readCommits(dir, [tip])) void commit;
    } catch {
      // Failing is fine (the objects are missing); fetching them outside the link's settings is not.
    }
    expect(internalSeen).toEqual([]);
    expect(seen).toEqual([]);
  });
});
