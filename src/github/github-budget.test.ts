// A GitHub (or a GitHub Enterprise Server) that hangs, trickles, streams without end or paginates
// without end costs each call GITHUB_TIMEOUT_MS, GITHUB_MAX_RESPONSE_BYTES and GITHUB_MAX_PAGES at
// most: a dashboard request, an API call or an ingest waiting on GitHub ends with a 502 naming the budget.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { appKeyPair } from '../../test/helpers/fake-github.js';
import { AppError } from '../errors.js';
import { createGitHubClient, GITHUB_MAX_PAGES, GITHUB_MAX_RESPONSE_BYTES, GitHubWriteError, type GitHubClient } from './github.client.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler = () => {};
const sockets = new Set<Socket>();
/** Bytes the server managed to write to one answer before the client went away. */
let written = 0;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.shouldKeepAlive = false;
    handler(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  requests.length = 0;
  written = 0;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const TIMEOUT_MS = 400;
const { privateKey } = appKeyPair();
const client = (): GitHubClient =>
  createGitHubClient({
    ...testConfig({ GITHUB_API_URL: baseUrl, GITHUB_WEB_URL: baseUrl, GITHUB_TIMEOUT_MS: String(TIMEOUT_MS) }).github,
    appId: 1,
    privateKey,
    clientId: 'client',
    clientSecret: 'secret',
  })!;

/** How a call ended, and after how long. */
async function outcome(call: () => Promise<unknown>): Promise<{ ms: number; value?: unknown; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await call();
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
};

/** Writes `chunk` again and again, as fast as the client reads, until it goes away. */
function endless(res: ServerResponse, chunk: Buffer) {
  const pump = () => {
    while (!res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

describe('GitHub under a budget', () => {
  it('gives up on a GitHub that accepts the connection and never answers, for app, installation and OAuth calls alike', async () => {
    handler = () => {}; // never answers
    const github = client();
    for (const call of [
      () => github.getInstallation(1),
      () => github.installationToken(1),
      () => github.getRepository(1, 'acme', 'app'),
      () => github.proveUser('code', 1),
      () => github.createRelease(1, 'acme', 'app', 'v1.0.0', { body: 'x' }),
      () => github.createCheckRun(1, 'acme', 'app', { name: 'changelog', headSha: 'a'.repeat(40), conclusion: 'neutral', title: 't', summary: 's' }),
    ]) {
      const result = await outcome(call);
      // Writes report a GitHubWriteError (failed: to be retried) with the same words.
      if (!(result.error instanceof GitHubWriteError)) {
        expect(result.error).toBeInstanceOf(AppError);
        expect((result.error as AppError).code).toBe('bad_gateway');
      } else expect(result.error.kind).toBe('failed');
      expect((result.error as Error).message).toMatch(/^GitHub did not answer .*: no complete answer within 400 ms \(GITHUB_TIMEOUT_MS\)$/);
      expect(result.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(result.ms).toBeLessThan(TIMEOUT_MS + 2_000);
    }
  }, 20_000);

  it('gives up on an answer whose headers came but whose body trickles a byte at a time', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.write('{');
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    };
    const result = await outcome(() => client().getInstallation(1));
    expect((result.error as AppError).message).toBe('GitHub did not answer about the installation: no complete answer within 400 ms (GITHUB_TIMEOUT_MS)');
    expect(result.ms).toBeLessThan(TIMEOUT_MS + 2_000);
  });

  it('stops reading an answer past GITHUB_MAX_RESPONSE_BYTES, declared or streamed without end', async () => {
    // Streamed as fast as it is read: without a cap the process would buffer it until its memory ran out.
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.write('{"id": 1, "padding": "');
      endless(res, Buffer.alloc(64 * 1024, 'a'));
    };
    const streamed = await outcome(() => client().getInstallation(1));
    expect((streamed.error as AppError).message).toBe(`GitHub did not answer about the installation: an answer over ${GITHUB_MAX_RESPONSE_BYTES} bytes`);
    expect(written).toBeLessThan(GITHUB_MAX_RESPONSE_BYTES * 2);

    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(GITHUB_MAX_RESPONSE_BYTES + 1) });
      res.write('{');
    };
    const declared = await outcome(() => client().getInstallation(1));
    expect((declared.error as AppError).message).toBe(`GitHub did not answer about the installation: an answer over ${GITHUB_MAX_RESPONSE_BYTES} bytes`);
    expect(declared.ms).toBeLessThan(TIMEOUT_MS);
  });

  it('follows GITHUB_MAX_PAGES pages of a listing that never ends, and proves nothing it did not see', async () => {
    handler = (req, res) => {
      const url = new URL(req.url ?? '/', baseUrl);
      if (url.pathname === '/login/oauth/access_token') return json(res, 200, { access_token: 'ghu_token', token_type: 'bearer', scope: '' });
      if (url.pathname === '/user') return json(res, 200, { login: 'mallory', id: 7 });
      if (url.pathname === '/app/installations/1/access_tokens') return json(res, 201, { token: 'ghs_token', expires_at: new Date(Date.now() + 3_600_000).toISOString() });
      const page = Number(url.searchParams.get('page') ?? 1);
      const next = new URL(url.pathname, baseUrl);
      next.searchParams.set('per_page', '100');
      next.searchParams.set('page', String(page + 1));
      const link = { link: `<${next.toString()}>; rel="next"` };
      if (url.pathname === '/user/installations') return json(res, 200, { total_count: 1e9, installations: [{ id: 1_000_000 + page }] }, link);
      if (url.pathname === '/installation/repositories') {
        const repo = { name: `r${page}`, full_name: `acme/r${page}`, owner: { login: 'acme' }, clone_url: 'https://example.com/r.git', default_branch: 'main' };
        return json(res, 200, { total_count: 1e9, repositories: [repo] }, link);
      }
      return json(res, 404, { message: 'Not Found' });
    };
    const github = client();
    const proof = await outcome(() => github.proveUser('code', 42));
    expect(proof.error).toBeUndefined();
    expect(proof.value).toEqual({ userId: 7, login: 'mallory', canAccessInstallation: false });
    expect(requests.filter((r) => r.startsWith('GET /user/installations'))).toHaveLength(GITHUB_MAX_PAGES.userInstallations);

    const repos = await outcome(() => github.listRepositories(1));
    expect(repos.value).toHaveLength(GITHUB_MAX_PAGES.repositories);
    expect(requests.filter((r) => r.startsWith('GET /installation/repositories'))).toHaveLength(GITHUB_MAX_PAGES.repositories);
  }, 30_000);
});
