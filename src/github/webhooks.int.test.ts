import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../jobs/worker.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { DATASET_COMMITS, datasetRepoCopy, removeRepoCopy, pushCommits, revParse } from '../../test/helpers/git-fixtures.js';
import { createScmTestContext, waitFor, WEBHOOK_SECRET, type ScmTestContext } from '../../test/helpers/scm.js';

let ctx: ScmTestContext;
let origin: string;
let linkId: string;
let projectId: string;

const sign = (body: string | Buffer, secret = WEBHOOK_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const deliver = (event: string, payload: unknown, options: { delivery?: string; signature?: string | null; body?: string; contentType?: string } = {}) => {
  const body = options.body ?? JSON.stringify(payload);
  const signature = options.signature === undefined ? sign(body) : options.signature;
  return ctx.app.inject({
    method: 'POST',
    url: '/webhooks/github',
    headers: {
      'content-type': options.contentType ?? 'application/json',
      'x-github-event': event,
      'x-github-delivery': options.delivery ?? randomUUID(),
      ...(signature !== null ? { 'x-hub-signature-256': signature } : {}),
    },
    payload: body,
  });
};

const pushPayload = (after: string, installationId = 101, ref = 'refs/heads/main') => ({
  ref,
  after,
  repository: { name: 'git-cliff', full_name: 'acme/git-cliff', owner: { login: 'acme', name: 'acme' } },
  installation: { id: installationId },
});

const deliveries = async () =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM webhook_deliveries`.execute(ctx.services.database.db)).rows[0]!.n);

const commitStats = async () => {
  const { rows } = await sql<{ total: string; distinct_shas: string }>`
    SELECT count(*) AS total, count(DISTINCT sha) AS distinct_shas FROM commits WHERE repo_link_id = ${linkId}`.execute(ctx.services.database.db);
  return { total: Number(rows[0]!.total), distinct: Number(rows[0]!.distinct_shas) };
};

const linkRow = () => ctx.services.database.db.selectFrom('repo_links').selectAll().where('id', '=', linkId).executeTakeFirstOrThrow();

beforeAll(async () => {
  ctx = await createScmTestContext({ GITHUB_TRUSTED_ACCOUNTS: 'acme' });
  origin = datasetRepoCopy();
  ctx.github.addInstallation({
    id: 101,
    account: { login: 'acme', type: 'Organization' },
    repos: [{ owner: 'acme', name: 'git-cliff', cloneUrl: `file://${origin}` }],
  });
  const user = await buildUser(ctx.services);
  const project = await buildProject(ctx.services, { type: 'user', email: user.email });
  projectId = project.id;
  const key = (await ctx.services.keys.create({ name: 'k', context: { type: 'user', email: user.email } })).secret;
  const auth = { authorization: `Bearer ${key}` };
  const installation = (await ctx.app.inject({ method: 'GET', url: '/v1/scm/callback?installation_id=101', headers: auth })).json();
  await startWorker(ctx.services);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/v1/projects/${project.id}/repos`,
    headers: auth,
    payload: { scmInstallationId: installation.installationId, repoOwner: 'acme', repoName: 'git-cliff' },
  });
  expect(res.statusCode).toBe(200);
  linkId = res.json().id;
});

afterAll(async () => {
  await ctx?.close();
  if (origin) removeRepoCopy(origin);
});

/** Ingest jobs waiting or running (pg-boss's table): an idle link may be between two of them. */
const ingestsInQueue = async () =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM pgboss.job WHERE name = 'repo-ingest' AND state IN ('created', 'retry', 'active')`.execute(ctx.services.database.db)).rows[0]!.n);

describe('backfill through GitHub', () => {
  it('clones through an installation token and stores the whole branch once', async () => {
    const link = await waitFor(async () => {
      const row = await linkRow();
      return row.status === 'active' ? row : undefined;
    }, 60_000, 'the backfill');
    expect(link.last_ingested_sha).toBe(revParse(origin, 'main'));
    expect(await commitStats()).toEqual({ total: DATASET_COMMITS, distinct: DATASET_COMMITS });
    expect(ctx.github.requests.some((r) => r.method === 'POST' && r.path === '/app/installations/101/access_tokens' && r.status === 201)).toBe(true);
  });
});

describe('POST /webhooks/github', () => {
  it('rejects a missing or wrong signature with 401 and records nothing', async () => {
    const body = JSON.stringify(pushPayload(revParse(origin, 'main')));
    const before = await deliveries();
    const missing = await deliver('push', null, { body, signature: null });
    const tampered = await deliver('push', null, { body: body.replace('refs/heads/main', 'refs/heads/evil'), signature: sign(body) });
    const wrongSecret = await deliver('push', null, { body, signature: sign(body, 'not the secret') });
    const malformed = await deliver('push', null, { body, signature: 'sha256=xyz' });
    for (const res of [missing, tampered, wrongSecret, malformed]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    }
    expect(await deliveries()).toBe(before);
  });

  it('lands the commits of a signed push within 5 seconds, exactly once', async () => {
    const pushed = pushCommits(origin, 2);
    const started = Date.now();
    const res = await deliver('push', pushPayload(pushed[0]!));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, duplicate: false, event: 'push', outcome: 'queued ingest of 1 link(s)' });
    expect(Date.now() - started).toBeLessThan(1000);
    await waitFor(async () => ((await linkRow()).last_ingested_sha === pushed[0] ? true : undefined), 5_000, 'the pushed commits');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await commitStats()).toEqual({ total: DATASET_COMMITS + 2, distinct: DATASET_COMMITS + 2 });
  });

  it('handles a redelivery of the same delivery once, and a new delivery of the same commits stores nothing twice', async () => {
    const pushed = pushCommits(origin, 1);
    const delivery = randomUUID();
    const first = await deliver('push', pushPayload(pushed[0]!), { delivery });
    const again = await deliver('push', pushPayload(pushed[0]!), { delivery });
    expect(first.json().duplicate).toBe(false);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ duplicate: true, outcome: 'already handled' });
    const rows = await sql<{ n: string }>`SELECT count(*) AS n FROM webhook_deliveries WHERE delivery_id = ${delivery}`.execute(ctx.services.database.db);
    expect(Number(rows.rows[0]!.n)).toBe(1);
    await waitFor(async () => ((await linkRow()).last_ingested_sha === pushed[0] ? true : undefined), 5_000, 'the pushed commit');

    // A new delivery for commits already stored (a new push event, so other bytes): the ingest runs again and stores nothing.
    const before = (await linkRow()).last_ingested_at!.getTime();
    const sameCommits = await deliver('push', { ...pushPayload(pushed[0]!), before: pushed[0] });
    expect(sameCommits.json()).toMatchObject({ duplicate: false, outcome: 'queued ingest of 1 link(s)' });
    await waitFor(async () => ((await linkRow()).last_ingested_at!.getTime() > before ? true : undefined), 5_000, 'the second ingest');
    expect(await commitStats()).toEqual({ total: DATASET_COMMITS + 3, distinct: DATASET_COMMITS + 3 });
  });

  it('ignores pushes to other branches, other installations and other events', async () => {
    expect((await deliver('push', pushPayload('0'.repeat(40), 101, 'refs/heads/feature'))).json().outcome).toBe('ignored: no link tracks this branch');
    expect((await deliver('push', pushPayload('0'.repeat(40), 999))).json().outcome).toBe('ignored: no link tracks this branch');
    expect((await deliver('push', pushPayload('0'.repeat(40), 101, 'refs/tags/v1'))).json().outcome).toMatch(/^ignored/);
    expect((await deliver('push', { ...pushPayload('0'.repeat(40)), deleted: true })).json().outcome).toBe('ignored: branch deleted');
    const issue = await deliver('issues', { action: 'opened', installation: { id: 101 } });
    expect(issue.statusCode).toBe(200);
    expect(issue.json()).toMatchObject({ ok: true, outcome: 'ignored: issues' });
    expect((await deliver('ping', { zen: 'Keep it logically awesome.' })).json().outcome).toBe('ignored: ping');
  });

  it("queues a link's ingest for a push to one of its release branches, and to no other branch", async () => {
    await ctx.services.repos.setReleaseBranches(linkId, ['*.x']);
    try {
      // Other bodies than the test above sent (the same signed body again would be a replay).
      expect((await deliver('push', pushPayload('1'.repeat(40), 101, 'refs/heads/5.x'))).json().outcome).toBe('queued ingest of 1 link(s)');
      expect((await deliver('push', pushPayload('1'.repeat(40), 101, 'refs/heads/feature'))).json().outcome).toBe('ignored: no link tracks this branch');
    } finally {
      await ctx.services.repos.setReleaseBranches(linkId, []);
      // The queued ingests end before the next test counts commits (the origin has no 5.x: nothing is added):
      // none waiting or running in the queue, not only an idle link between two of them.
      await waitFor(async () => ((await ingestsInQueue()) === 0 && (await linkRow()).sync_state === 'idle' && (await linkRow()).status === 'active' ? true : undefined), 20_000, 'the ingests');
    }
  });

  it('accepts the form-encoded payload GitHub sends when configured so', async () => {
    const body = `payload=${encodeURIComponent(JSON.stringify({ zen: 'hi' }))}`;
    const res = await deliver('ping', null, { body, contentType: 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(200);
  });

  it('answers 400 for a signed body that is not JSON, and for missing event headers', async () => {
    expect((await deliver('push', null, { body: 'Hello, World!' })).statusCode).toBe(400);
    const body = '{}';
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/webhooks/github',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(body) },
      payload: body,
    });
    expect(res.statusCode).toBe(400);
  });

  it('accepts bodies over the API limit of 1 MB and refuses more than 25 MB with 413', async () => {
    const big = JSON.stringify({ zen: 'x'.repeat(2 * 1024 * 1024) });
    expect((await deliver('ping', null, { body: big })).statusCode).toBe(200);
    const huge = JSON.stringify({ zen: 'x'.repeat(26 * 1024 * 1024) });
    expect((await deliver('ping', null, { body: huge })).statusCode).toBe(413);
  });

  it('stops ingest when the installation is suspended or deleted, and resumes on unsuspend', async () => {
    // An ingest that began before the suspension would still fetch what is pushed below.
    await waitFor(async () => ((await ingestsInQueue()) === 0 ? true : undefined), 20_000, 'no ingest in flight');
    ctx.github.installation(101)!.suspended = true;
    const suspend = await deliver('installation', { action: 'suspend', installation: { id: 101 } });
    expect(suspend.json().outcome).toBe('installation suspended: ingest stopped');
    expect((await linkRow()).status).toBe('suspended');
    const pushed = pushCommits(origin, 1);
    expect((await deliver('push', pushPayload(pushed[0]!))).json().outcome).toBe('ignored: no link tracks this branch');
    expect((await ctx.services.ingest.ingestLink(linkId)).status).toBe('skipped');
    expect((await commitStats()).total).toBe(DATASET_COMMITS + 3);

    ctx.github.installation(101)!.suspended = false;
    await deliver('installation', { action: 'unsuspend', installation: { id: 101 } });
    await waitFor(async () => ((await linkRow()).last_ingested_sha === pushed[0] ? true : undefined), 5_000, 'the resumed ingest');
    expect((await commitStats()).total).toBe(DATASET_COMMITS + 4);

    ctx.github.removeInstallation(101);
    const deleted = await deliver('installation', { action: 'deleted', installation: { id: 101 } });
    expect(deleted.json().outcome).toBe('installation deleted: ingest stopped');
    expect((await linkRow()).status).toBe('suspended');
    const installation = await ctx.services.database.db.selectFrom('scm_installations').select('status').executeTakeFirstOrThrow();
    expect(installation.status).toBe('deleted');
    const project = await ctx.services.repos.commitCounts(projectId);
    expect(project.total).toBe(DATASET_COMMITS + 4);
  });
});
