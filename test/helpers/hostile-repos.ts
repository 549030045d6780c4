/**
 * Repositories and remotes made to hurt the service (security issue #21): a commit message of 40 MB,
 * a repository with a hundred thousand tags, a commit whose author line holds a NUL byte, and a
 * smart-HTTP remote that advertises its refs and then never answers a fetch. Each is real git (or
 * git's real protocol), so the code under test meets them exactly as it would meet an attacker's.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './git-fixtures.js';

/** The size of the message: 40 MB. */
export const GIANT_MESSAGE_BYTES = 40 * 1024 * 1024;

export interface HostileRepo {
  /** A non-bare repository (branch `main`): link it by this path. */
  dir: string;
  /** The commits, oldest first, with their shas. */
  commits: { sha: string; subject: string }[];
  /** Deletes the repository. */
  remove(): void;
}

const IDENTITY = { GIT_AUTHOR_NAME: 'Mallory', GIT_AUTHOR_EMAIL: 'mallory@example.com', GIT_COMMITTER_NAME: 'Mallory', GIT_COMMITTER_EMAIL: 'mallory@example.com' };

function gitIn(dir: string) {
  return (args: string[], input?: string | Buffer) =>
    execFileSync('git', ['-C', dir, ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      env: { ...process.env, ...IDENTITY, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      ...(input !== undefined ? { input } : {}),
    }).trim();
}

function newRepo(prefix: string) {
  const parent = tempDir(prefix);
  const dir = join(parent, 'repo');
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', dir]);
  return { parent, dir, git: gitIn(dir), remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/**
 * Three commits on `main`: "feat: before the giant message", then one whose message is `bytes` long
 * (40 MB by default: a subject line, then lines of prose with no NUL, about 0.3 MB once compressed,
 * made in about a second), then "fix: after the giant message". Its neighbours show whether a reader
 * stays in step past the giant.
 */
export function createGiantMessageRepo(options: { bytes?: number } = {}): HostileRepo & { giantSubject: string; bytes: number } {
  const bytes = options.bytes ?? GIANT_MESSAGE_BYTES;
  const repo = newRepo('giant-message');
  const subject = 'feat: a giant message';
  const line = 'All work and no play makes Jack a dull boy; the quick brown fox jumps over the lazy dog 0123456789.\n';
  const head = `${subject}\n\n`;
  const body = line.repeat(Math.ceil((bytes - head.length) / line.length)).slice(0, bytes - head.length - 1);
  const messageFile = join(repo.parent, 'giant-message.txt');
  writeFileSync(messageFile, `${head}${body}\n`);
  const commits: { sha: string; subject: string }[] = [];
  const commit = (message: string[], file: string) => {
    writeFileSync(join(repo.dir, file), `${file}\n`);
    repo.git(['add', '-A']);
    repo.git(['commit', '--quiet', '--no-verify', ...message]);
    commits.push({ sha: repo.git(['rev-parse', 'HEAD']), subject: '' });
  };
  commit(['-m', 'feat: before the giant message'], 'before.txt');
  commits[0]!.subject = 'feat: before the giant message';
  commit(['--cleanup=verbatim', '-F', messageFile], 'giant.txt');
  commits[1]!.subject = subject;
  commit(['-m', 'fix: after the giant message'], 'after.txt');
  commits[2]!.subject = 'fix: after the giant message';
  rmSync(messageFile);
  return { dir: repo.dir, commits, giantSubject: subject, bytes, remove: repo.remove };
}

/**
 * `commits` commits on `main` (an hour apart from 2024-01-01), `tags` lightweight semver tags
 * (`v0.<i / 1000>.<i % 1000>`, spread over the commits, newer commits tagged with higher versions) and
 * `branches` more branches (`branch-000001`…, at the first commit), written straight into packed-refs:
 * a hundred thousand refs take about a second.
 */
export function createManyRefsRepo(options: { tags?: number; branches?: number; commits?: number } = {}): HostileRepo & { tags: number; branches: number } {
  const tags = options.tags ?? 100_000;
  const branches = options.branches ?? 0;
  const count = options.commits ?? 200;
  const repo = newRepo('many-tags');
  // fast-import: `count` commits in one process.
  const start = Date.UTC(2024, 0, 1) / 1000;
  let stream = '';
  for (let i = 0; i < count; i++) {
    const message = `feat: change ${i}\n`;
    stream += `commit refs/heads/main\nmark :${i + 1}\ncommitter Mallory <mallory@example.com> ${start + i * 3600} +0000\ndata ${Buffer.byteLength(message)}\n${message}`;
    if (i > 0) stream += `from :${i}\n`;
    stream += `M 644 inline file-${i}.txt\ndata ${String(i).length + 1}\n${i}\n\n`;
  }
  repo.git(['fast-import', '--quiet'], stream);
  repo.git(['checkout', '--quiet', 'main']);
  const shas = repo.git(['rev-list', '--reverse', 'main']).split('\n');
  const lines = ['# pack-refs with: peeled fully-peeled sorted '];
  const refs: string[] = [];
  for (let i = 0; i < tags; i++) {
    const sha = shas[Math.min(shas.length - 1, Math.floor((i * shas.length) / tags))]!;
    refs.push(`${sha} refs/tags/v0.${Math.floor(i / 1000)}.${i % 1000}`);
  }
  for (let i = 1; i <= branches; i++) refs.push(`${shas[0]} refs/heads/branch-${String(i).padStart(6, '0')}`);
  const main = repo.git(['rev-parse', 'refs/heads/main']);
  // Loose refs win over packed ones; the branch stays loose, everything else is packed (sorted, as git writes it).
  refs.sort((a, b) => (a.slice(41) < b.slice(41) ? -1 : 1));
  writeFileSync(join(repo.dir, '.git', 'packed-refs'), `${[...lines, ...refs].join('\n')}\n`);
  if (repo.git(['rev-parse', 'refs/heads/main']) !== main) throw new Error('packed-refs broke the branch');
  return { dir: repo.dir, commits: shas.map((sha, i) => ({ sha, subject: `feat: change ${i}` })), tags, branches, remove: repo.remove };
}

/**
 * A commit object written byte for byte (`git hash-object --literally`): git's own commands refuse
 * what it holds, yet a pushed repository can contain it. `author` is the author line's value
 * (`Name <email> seconds offset`), NUL bytes and all; the message may hold a NUL too.
 */
export function createRawCommitRepo(raw: { author: string; message: string }[]): HostileRepo {
  const repo = newRepo('raw-commit');
  writeFileSync(join(repo.dir, 'file.txt'), 'x\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '--quiet', '-m', 'feat: an ordinary first commit']);
  const commits = [{ sha: repo.git(['rev-parse', 'HEAD']), subject: 'feat: an ordinary first commit' }];
  const tree = repo.git(['rev-parse', 'HEAD^{tree}']);
  for (const { author, message } of raw) {
    const object = `tree ${tree}\nparent ${commits.at(-1)!.sha}\nauthor ${author}\ncommitter Mallory <mallory@example.com> 1700000000 +0000\n\n${message}`;
    const file = join(repo.parent, 'object');
    writeFileSync(file, object);
    const sha = repo.git(['hash-object', '-t', 'commit', '-w', '--literally', file]);
    commits.push({ sha, subject: message.split('\n', 1)[0]! });
  }
  repo.git(['update-ref', 'refs/heads/main', commits.at(-1)!.sha]);
  repo.git(['commit', '--quiet', '--allow-empty', '-m', 'fix: an ordinary commit after them']);
  commits.push({ sha: repo.git(['rev-parse', 'HEAD']), subject: 'fix: an ordinary commit after them' });
  return { dir: repo.dir, commits, remove: repo.remove };
}

export interface StuckRemote {
  /** The repository's URL: `http://127.0.0.1:PORT/stuck.git`. */
  url: string;
  /** What the remote advertises (the repository it was made from, branch `main`). */
  repo: string;
  /** Fetches (POST git-upload-pack) received so far, each held open and never answered. */
  fetchesHeld(): number;
  /** Connections open now: a client that gave up (its process stopped) closed its own. */
  openConnections(): number;
  /** Closes the server and every connection it holds. */
  close(): Promise<void>;
}

const pktLine = (text: string) => `${(Buffer.byteLength(text) + 4).toString(16).padStart(4, '0')}${text}`;

/**
 * A git server over smart HTTP on 127.0.0.1 that answers `info/refs` (the protocol v0 advertisement
 * of a small real repository, so `git ls-remote` and linking work) and then never answers
 * `git-upload-pack`: every clone or fetch hangs after the advertisement, as with a remote that
 * accepts connections and stalls. `repo` is the repository to advertise (one commit on `main` is made
 * when none is given).
 */
export async function startStuckRemote(options: { repo?: string } = {}): Promise<StuckRemote> {
  let made: ReturnType<typeof newRepo> | null = null;
  let repo = options.repo;
  if (!repo) {
    made = newRepo('stuck-remote');
    writeFileSync(join(made.dir, 'README.md'), 'stuck\n');
    made.git(['add', '-A']);
    made.git(['commit', '--quiet', '-m', 'feat: a commit nobody will fetch']);
    repo = made.dir;
  }
  // Protocol v0: the refs are in the advertisement itself, so listing them needs no POST.
  const advertisement = Buffer.concat([
    Buffer.from(`${pktLine('# service=git-upload-pack\n')}0000`),
    execFileSync('git', ['-c', 'uploadpack.allowFilter=true', 'upload-pack', '--stateless-rpc', '--advertise-refs', repo], { env: { ...process.env, GIT_PROTOCOL: '' } }),
  ]);
  let held = 0;
  const sockets = new Set<Socket>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0]!;
    if (request.method === 'GET' && path === '/stuck.git/info/refs' && request.url!.includes('service=git-upload-pack')) {
      response.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement', 'cache-control': 'no-cache' });
      response.end(advertisement);
      return;
    }
    if (request.method === 'POST' && path === '/stuck.git/git-upload-pack') {
      held++;
      // Read the request, answer nothing, keep the connection open.
      request.resume();
      return;
    }
    response.writeHead(404).end();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/stuck.git`,
    repo,
    fetchesHeld: () => held,
    openConnections: () => sockets.size,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      made?.remove();
    },
  };
}
