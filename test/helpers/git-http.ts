import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname } from 'node:path';

export interface GitHttpServer {
  /** The repository's URL with the credential in it, as an operator would give it to `changelog repos link`. */
  urlWithCredentials: string;
  /** The same URL without the credential. */
  url: string;
  /** Requests seen, as `METHOD path`, and whether each carried the right credential. */
  requests: { line: string; authorized: boolean }[];
  /** From now on every request is refused with 401 (the token was revoked): fetches fail. */
  revoke(): void;
  close(): Promise<void>;
}

/**
 * A git smart-HTTP server (git's own `git http-backend`, run as a CGI) for one bare repository, which
 * answers only requests carrying HTTP basic auth `user:token`: a stand-in for a private repository on
 * a self-hosted git server, linked by a URL that carries a deploy token.
 */
export async function startGitHttpServer(bareRepo: string, credentials: { user: string; token: string }): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`${credentials.user}:${credentials.token}`).toString('base64')}`;
  const requests: GitHttpServer['requests'] = [];
  let revoked = false;
  const name = basename(bareRepo);

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const authorized = !revoked && req.headers.authorization === expected;
    requests.push({ line: `${req.method} ${url.pathname}`, authorized });
    if (!authorized) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: dirname(bareRepo),
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: credentials.user,
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let sent = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (sent) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const key = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (key.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else res.setHeader(key, value);
      }
      res.writeHead(status);
      sent = true;
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => {
      if (!sent) res.writeHead(500);
      res.end();
    });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const path = `/${name}`;
  return {
    urlWithCredentials: `http://${credentials.user}:${credentials.token}@127.0.0.1:${port}${path}`,
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    revoke: () => void (revoked = true),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
