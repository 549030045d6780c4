/**
 * Attacker test: the operator links a private repository by a URL that carries a deploy token
 * (`changelog repos link --path http://deploy:TOKEN@git.example.com/app.git`). git needs the token;
 * nothing else may show or keep it: not /metrics (whose scraper and dashboards see every label), the
 * logs, the dashboard (every member of the project's organization), the CLI's output, nor the job
 * queue's record of a failed ingest. The repository is served by git itself over HTTP and answers
 * only with the token, so the test also proves the token was used.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliSession, type CliSession } from '../../test/helpers/cli-session.js';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { signUpTeam, type DashboardClient } from '../../test/helpers/dashboard-client.js';
import { startGitHttpServer, type GitHttpServer } from '../../test/helpers/git-http.js';
import { removeRepoCopy, smallRepo, tempDir } from '../../test/helpers/git-fixtures.js';
import { waitFor } from '../../test/helpers/scm.js';
import { buildApp } from '../app.js';
import { startWorker } from '../jobs/worker.js';
import { createServices, type Services } from '../services.js';

const TOKEN = `glpat-${randomBytes(12).toString('hex')}`;
const METRICS_TOKEN = 'metrics-token-sources-0123456789';

let database: TestDatabase;
let services: Services;
let app: FastifyInstance;
let alice: DashboardClient;
let repo: string;
let server: GitHttpServer;
let reposDir: string;
const logLines: string[] = [];

beforeAll(async () => {
  repo = smallRepo({ commits: 2 });
  server = await startGitHttpServer(repo, { user: 'deploy', token: TOKEN });
  database = await createTestDatabase();
  reposDir = tempDir('source-credentials-mirrors');
  const config = testConfig({ SIGNUP_OPEN: 'true', METRICS_TOKEN, REPOS_DIR: reposDir, LOG_LEVEL: 'trace' });
  // A failed ingest waits a minute before its retry: its record stays "retry" while the test reads it.
  services = createServices(database, config, { jobs: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 60 } });
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await buildApp({ config, database, services, logStream });
  ({ alice } = await signUpTeam(app, services, {}));
  await alice.submit('/dashboard/personal', '/dashboard/personal/projects', { name: 'Private App', slug: 'private-app' });
});

afterAll(async () => {
  await services?.jobs.stop();
  await app?.close();
  await database?.close();
  await server?.close();
  if (repo) removeRepoCopy(repo);
  rmSync(reposDir, { recursive: true, force: true });
});

const metrics = async () => {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};

describe('a repository linked by a URL with a credential', () => {
  it('is fetched with the credential, and named without it in metrics, logs, the dashboard and the job queue', async () => {
    // What `changelog repos link` calls.
    const { link } = await services.repos.linkLocalRepo({ projectSlug: 'private-app', source: server.urlWithCredentials });
    const synced = await services.ingest.ingestLink(link.id);
    expect(synced).toMatchObject({ status: 'active', added: 2 });
    expect(server.requests.filter((r) => r.authorized).length).toBeGreaterThan(0);

    // /metrics: the ingest lag is labelled by the repository without its token.
    const text = await metrics();
    expect(text).toMatch(new RegExp(`^ingest_lag_seconds\\{project="private-app",repo="${server.url}",branch="trunk"\\} \\d`, 'm'));
    expect(text).not.toContain(TOKEN);

    // The dashboard's repository panel, and an error that names the repository.
    const page = await alice.get('/dashboard/projects/private-app');
    expect(page.body).toContain(`<code>${server.url}</code>`);
    const refused = await alice.submit('/dashboard/projects/private-app', `/dashboard/projects/private-app/repos/${link.id}/branch`, { branch: 'no-such-branch' });
    expect(refused.status).toBe(422);
    expect(refused.body).toContain(`Branch no-such-branch does not exist in ${server.url}`);

    // The token is revoked: the ingest queued when the link was made, run by the job queue, fails;
    // its error is kept for the page and by the queue.
    server.revoke();
    await startWorker(services);
    const failed = await waitFor(async () => {
      const { rows } = await services.database.executeSql(`SELECT output::text AS output FROM pgboss.job WHERE name = 'repo-ingest' AND state::text IN ('retry', 'failed')`);
      const row = await services.database.db.selectFrom('repo_links').select(['status', 'sync_state']).where('id', '=', link.id).executeTakeFirst();
      return rows[0] && row?.status === 'error' && row.sync_state === 'idle' ? (rows[0] as { output: string }) : undefined;
    }, 30_000, 'the failed ingest job');
    expect(failed.output).toMatch(/Authentication failed/);
    expect(failed.output).not.toContain(TOKEN);
    const errored = await alice.get('/dashboard/projects/private-app');
    expect(errored.body).toContain('Last error:');
    expect(errored.body).not.toContain(TOKEN);
    expect(await metrics()).not.toContain(TOKEN);

    // The log stream saw this test's requests (the failed branch change among them).
    const logs = logLines.join('');
    expect(logs).toContain(`/repos/${link.id}/branch`);
    expect(logs).not.toContain(TOKEN);
    // Nor percent-encoded, nor base64 as in an Authorization header.
    expect(logs).not.toContain(Buffer.from(`deploy:${TOKEN}`).toString('base64'));
  });
});

describe('the CLI', () => {
  let session: CliSession;
  let cliServer: GitHttpServer;
  beforeAll(async () => {
    session = await startCliSession('source-credentials-cli');
    cliServer = await startGitHttpServer(repo, { user: 'deploy', token: TOKEN });
  });
  afterAll(async () => {
    await cliServer?.close();
    await session?.close();
  });

  it('links, lists, syncs and reports failures of a URL with a credential without printing it', async () => {
    const outputs: string[] = [];
    const cli = async (...args: string[]) => {
      const run = await session.run(args);
      outputs.push(run.stdout, run.stderr);
      return run;
    };
    const linked = await cli('repos', 'link', '--project', 'cliff', '--path', cliServer.urlWithCredentials);
    expect(linked.code).toBe(0);
    expect(linked.stdout).toContain(`Linked ${cliServer.url} (trunk) to cliff`);
    const json = await cli('repos', 'list', '--project', 'cliff', '--json');
    expect(json.json<{ links: { sourceUrl: string }[] }>().links[0]!.sourceUrl).toBe(cliServer.url);
    expect((await cli('sync', '--project', 'cliff')).code).toBe(0);
    const wrongBranch = await cli('repos', 'link', '--project', 'cliff', '--path', cliServer.urlWithCredentials, '--branch', 'no-such-branch');
    expect(wrongBranch.code).toBe(1);
    expect(wrongBranch.stderr).toContain(`Branch no-such-branch does not exist in ${cliServer.url}`);

    cliServer.revoke();
    const sync = await cli('sync', '--project', 'cliff', '--json');
    expect(sync.code).toBe(1);
    expect(sync.stderr).toContain(cliServer.url);
    const list = await cli('repos', 'list', '--project', 'cliff');
    expect(list.stdout).toMatch(/last error: .*Authentication failed/);
    expect(outputs.join('\n')).not.toContain(TOKEN);
  });
});
