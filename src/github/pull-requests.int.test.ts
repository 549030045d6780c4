// Merged pull requests of GitHub links (issue 24), read through the App's GraphQL API from the fake
// GitHub (which answers in GitHub's shapes) into the cache generation reads: the first fetch caches
// the list, a push reads only what was updated since, a fresh link's history goes in batches; the
// installation's rate limit (its budget running low, RATE_LIMITED, a secondary limit's Retry-After)
// reschedules the job without calling GitHub before the reset; a stuck GitHub costs GITHUB_TIMEOUT_MS;
// a huge description is capped; a tenant reads only its own links' pull requests; and generation hands
// the engine those of the history it generates.
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCommit } from '../../test/helpers/commits.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import type { FakeMergedPullRequest } from '../../test/helpers/fake-github.js';
import { createScmTestContext, linkAcmeApp, type ScmTestContext } from '../../test/helpers/scm.js';
import type { RepoLinkRow } from '../db/schema.js';
import type { EngineRequest } from '../generation/engine-thread.js';
import { createGenerationService } from '../generation/generation.service.js';
import { JOB_GROUP_FIELD } from '../queue/queue.js';
import { commitsRepository } from '../repos/commits.repository.js';
import { githubSourceKey } from '../repos/repos.service.js';
import { PULL_REQUEST_LIMITS } from './github.client.js';
import { createPullRequestsService, PR_RATE_LIMIT_RESERVE } from './pull-requests.service.js';

const TIMEOUT_MS = 1500;
let ctx: ScmTestContext;
let alice: { id: string; email: string };
let project: { id: string; slug: string };
let link: RepoLinkRow;
/** acme/big: a second project's link to a repository with a long history of pull requests. */
let bigProject: { id: string };
let bigLink: RepoLinkRow;
const db = () => ctx.services.database.db;
const service = () => ctx.services.pullRequests;
const sha = (n: number, salt = 'c') => n.toString(16).padStart(40, salt);
const PERMISSIONS = { contents: 'read', metadata: 'read', pull_requests: 'read' } as const;

const pr = (number: number, fields: Partial<FakeMergedPullRequest> = {}): FakeMergedPullRequest => ({
  number,
  title: `feat: change ${number}`,
  body: `Body of ${number}`,
  labels: ['enhancement'],
  author: { login: 'octo', type: 'User' },
  mergedAt: new Date(Date.UTC(2026, 0, 1) + number * 60_000).toISOString(),
  mergeCommit: sha(number, 'e'),
  commits: [sha(number, 'b')],
  ...fields,
});

const graphqlCalls = () => ctx.github.requests.filter((r) => r.path === '/graphql').length;
/** Waiting jobs of a queue, their data without the fair queue's group (checked apart). */
const jobsOf = async (name: string) =>
  (
    await sql<{ data: Record<string, unknown>; start_after: Date; state: string }>`
      SELECT data, start_after, state FROM pgboss.job WHERE name = ${name} AND state IN ('created', 'retry') ORDER BY created_on`.execute(db())
  ).rows.map((row) => {
    const { [JOB_GROUP_FIELD]: _group, ...data } = row.data;
    return { ...row, data, group: _group };
  });
const clearJobs = () => sql`DELETE FROM pgboss.job WHERE name IN ('generate', 'github-pull-requests')`.execute(db());
const cached = async (linkId: string) =>
  db().selectFrom('github_pull_requests').selectAll().where('link_id', '=', linkId).orderBy('number').execute();
const forget = async (linkId: string) => {
  await db().deleteFrom('github_pull_requests').where('link_id', '=', linkId).execute();
  await db().deleteFrom('github_pr_syncs').where('link_id', '=', linkId).execute();
};
/** Seconds from now until `at`. */
const secondsUntil = (at: Date) => (at.getTime() - Date.now()) / 1000;

beforeAll(async () => {
  ctx = await createScmTestContext({ GITHUB_TRUSTED_ACCOUNTS: 'acme,other', GITHUB_TIMEOUT_MS: String(TIMEOUT_MS) });
  alice = await buildUser(ctx.services);
  project = await buildProject(ctx.services, { type: 'user', email: alice.email });
  ctx.github.addInstallation({
    id: 101,
    account: { login: 'acme', type: 'Organization' },
    permissions: { ...PERMISSIONS },
    repos: [
      { owner: 'acme', name: 'app', cloneUrl: '/nonexistent/app.git' },
      { owner: 'acme', name: 'big', cloneUrl: '/nonexistent/big.git' },
    ],
  });
  ({ link } = await linkAcmeApp(ctx, { type: 'user', userId: alice.id }, project.id));
  bigProject = await buildProject(ctx.services, { type: 'user', email: alice.email });
  ({ link: bigLink } = await ctx.services.repos.linkGitHubRepo({
    projectId: bigProject.id,
    installationId: link.installation_id!,
    repoOwner: 'acme',
    repoName: 'big',
    cloneUrl: 'https://github.com/acme/big.git',
    sourceKey: githubSourceKey('acme', 'big'),
    trackedBranch: 'main',
    defaultBranch: 'main',
  }));
  // 120 pull requests: three pages of 50.
  ctx.github.addMergedPullRequests('acme/big', ...Array.from({ length: 120 }, (_, i) => pr(i + 1)));
});

afterAll(async () => ctx?.close());

beforeEach(async () => {
  ctx.github.clearFaults();
  ctx.github.setGraphqlRateLimit({ remaining: 5000, cost: 1 });
  ctx.github.installation(101)!.permissions = { ...PERMISSIONS };
  await clearJobs();
});

describe('the first fetch and a push', () => {
  it('caches every merged pull request of a fresh link, then queues the generation its ingest handed over', async () => {
    ctx.github.addMergedPullRequests(
      'acme/app',
      pr(1, { labels: ['bug', 'ui'], mergedAt: '2026-02-01T10:00:00Z' }),
      pr(2, { author: { login: 'dependabot', type: 'Bot' }, labels: [], mergedAt: '2026-02-02T10:00:00Z', commits: [sha(21, 'b'), sha(22, 'b')] }),
      pr(3, { author: null, mergeCommit: null, mergedAt: '2026-02-03T10:00:00Z' }),
    );
    const generate = { projectId: project.id, storedSince: new Date().toISOString(), full: false, retagged: false };
    const before = graphqlCalls();
    const outcome = await service().sync({ linkId: link.id, generate });
    expect(outcome).toMatchObject({ status: 'complete', pages: 1, changed: 3 });
    expect(graphqlCalls() - before).toBe(1);
    const rows = await cached(link.id);
    expect(rows.map((r) => [r.number, r.labels, r.author_login, r.author_is_bot, r.merge_sha, r.commit_shas])).toEqual([
      [1, ['bug', 'ui'], 'octo', false, sha(1, 'e'), [sha(1, 'b')]],
      [2, [], 'dependabot', true, sha(2, 'e'), [sha(21, 'b'), sha(22, 'b')]],
      [3, ['enhancement'], null, false, null, [sha(3, 'b')]],
    ]);
    expect((await service().state(link.id))?.watermark?.toISOString()).toBe('2026-02-03T10:00:00.000Z');
    // The generation that waited for them: as the ingest asked (its commits are all new).
    expect((await jobsOf('generate')).map((j) => j.data)).toEqual([generate]);
  });

  it('reads on a push only what was updated since (one page), stores edits, and queues nothing when nothing changed', async () => {
    await clearJobs();
    ctx.github.addMergedPullRequests(
      'acme/app',
      pr(4, { mergedAt: '2026-02-04T10:00:00Z' }),
      // Relabelled after its merge: it comes back to the top of the list.
      pr(1, { labels: ['bug', 'ui', 'breaking'], mergedAt: '2026-02-01T10:00:00Z', updatedAt: '2026-02-05T10:00:00Z' }),
    );
    const before = graphqlCalls();
    const outcome = await service().sync({ linkId: link.id });
    expect(outcome).toMatchObject({ status: 'complete', pages: 1, changed: 2 });
    expect(graphqlCalls() - before).toBe(1);
    expect((await cached(link.id)).map((r) => [r.number, r.labels])).toEqual([
      [1, ['bug', 'ui', 'breaking']],
      [2, []],
      [3, ['enhancement']],
      [4, ['enhancement']],
    ]);
    // Changes without an ingest's run to ride on: a full run of their own.
    expect((await jobsOf('generate')).map((j) => j.data)).toEqual([{ projectId: project.id, full: true }]);

    await clearJobs();
    const again = await service().sync({ linkId: link.id });
    expect(again).toMatchObject({ status: 'complete', pages: 1, changed: 0 });
    expect(await jobsOf('generate')).toEqual([]);
  });

  it('reads a long history in batches of pages, each job queueing the next, and generates once the walk ends', async () => {
    const batched = createPullRequestsService({ db: db(), github: ctx.services.githubClient, repos: ctx.services.repos, jobs: ctx.services.jobs, pagesPerJob: 1 });
    const generate = { projectId: bigProject.id, storedSince: new Date().toISOString(), full: false, retagged: false };
    expect(await batched.sync({ linkId: bigLink.id, generate })).toMatchObject({ status: 'more', pages: 1, changed: 50 });
    // The ingest's generation does not wait for the whole history; the rest of the walk is a job of its own.
    expect((await jobsOf('generate')).map((j) => j.data)).toEqual([generate]);
    // The rest of the walk shares the fair queue's slots by installation (whose rate limit it shares).
    expect((await jobsOf('github-pull-requests')).map((j) => [j.data, j.group])).toEqual([[{ linkId: bigLink.id }, bigLink.installation_id]]);
    await clearJobs();
    expect(await batched.sync({ linkId: bigLink.id })).toMatchObject({ status: 'more', changed: 50 });
    expect(await jobsOf('generate')).toEqual([]);
    await clearJobs();
    expect(await batched.sync({ linkId: bigLink.id })).toMatchObject({ status: 'complete', changed: 20 });
    expect((await cached(bigLink.id)).length).toBe(120);
    expect((await jobsOf('generate')).map((j) => j.data)).toEqual([{ projectId: bigProject.id, full: true }]);
    expect(await jobsOf('github-pull-requests')).toEqual([]);
  });

  it('takes over the generation of a GitHub link\'s ingest, once: a second push while the fetch waits generates directly', async () => {
    const generate = { projectId: project.id, storedSince: new Date().toISOString(), full: false, retagged: false };
    expect(await service().queueAfterIngest(link.id, generate)).toBe(true);
    expect((await jobsOf('github-pull-requests')).map((j) => j.data)).toEqual([{ linkId: link.id, generate }]);
    expect(await service().queueAfterIngest(link.id, generate)).toBe(false);
    // Not a GitHub link (nor any link): the ingest queues its generation itself.
    expect(await service().queueAfterIngest('00000000-0000-4000-8000-000000000000', generate)).toBe(false);
    expect(await service().sync({ linkId: '00000000-0000-4000-8000-000000000000', generate })).toMatchObject({ status: 'skipped', pages: 0 });
  });
});

describe('rate limits', () => {
  it('stops when the installation\'s budget runs low, calls nothing before the reset, and goes on from where it stopped', async () => {
    await forget(bigLink.id);
    ctx.github.setGraphqlRateLimit({ remaining: PR_RATE_LIMIT_RESERVE + 1, resetInSeconds: 600 });
    const generate = { projectId: bigProject.id, storedSince: new Date().toISOString(), full: false, retagged: false };
    const outcome = await service().sync({ linkId: bigLink.id, generate });
    expect(outcome).toMatchObject({ status: 'rate_limited', pages: 2, changed: 100 });
    expect(secondsUntil(outcome.retryAt!)).toBeGreaterThan(590);
    // Rescheduled for the reset, not failed; the generation that waited went at once.
    const [retry] = await jobsOf('github-pull-requests');
    expect(retry!.data).toEqual({ linkId: bigLink.id });
    expect(secondsUntil(retry!.start_after)).toBeGreaterThan(590);
    expect((await jobsOf('generate')).map((j) => j.data)).toEqual([generate]);

    // A push meanwhile: no call to GitHub, and its generation is not held back.
    await clearJobs();
    const before = graphqlCalls();
    expect(await service().queueAfterIngest(bigLink.id, generate)).toBe(false);
    expect(await service().sync({ linkId: bigLink.id })).toMatchObject({ status: 'rate_limited', pages: 0 });
    expect(graphqlCalls()).toBe(before);
    // The walk resumed after the reset is past the top: the push asks for another one from the top.
    expect((await service().state(bigLink.id))?.rewalk).toBe(true);

    // The reset: the walk goes on from its third page.
    ctx.github.setGraphqlRateLimit({ remaining: 5000 });
    await db().updateTable('github_pr_syncs').set({ retry_at: new Date(Date.now() - 1000) }).where('link_id', '=', bigLink.id).execute();
    expect(await service().sync({ linkId: bigLink.id })).toMatchObject({ status: 'complete', pages: 1, changed: 20 });
    expect(graphqlCalls() - before).toBe(1);
    expect((await cached(bigLink.id)).length).toBe(120);
  });

  it('honours a spent budget (RATE_LIMITED) until its reset', async () => {
    ctx.github.setGraphqlRateLimit({ remaining: 0, resetInSeconds: 300 });
    const outcome = await service().sync({ linkId: link.id });
    expect(outcome.status).toBe('rate_limited');
    expect(secondsUntil(outcome.retryAt!)).toBeGreaterThan(290);
    expect(secondsUntil(outcome.retryAt!)).toBeLessThanOrEqual(300);
    expect(secondsUntil((await jobsOf('github-pull-requests'))[0]!.start_after)).toBeGreaterThan(290);
    await db().updateTable('github_pr_syncs').set({ retry_at: null }).where('link_id', '=', link.id).execute();
  });

  it.each([403, 429] as const)('honours a secondary limit\'s Retry-After (%i): the job waits that long, and is not failed', async (status) => {
    ctx.github.fault('POST', /^\/graphql$/, { kind: 'rate-limit', status, retryAfterSeconds: 45 });
    const outcome = await service().sync({ linkId: link.id });
    expect(outcome.status).toBe('rate_limited');
    expect(secondsUntil(outcome.retryAt!)).toBeGreaterThan(40);
    expect(secondsUntil(outcome.retryAt!)).toBeLessThanOrEqual(45);
    const [retry] = await jobsOf('github-pull-requests');
    expect(secondsUntil(retry!.start_after)).toBeGreaterThan(40);
    expect((await service().state(link.id))?.last_error).toMatch(/rate limit/);
    await db().updateTable('github_pr_syncs').set({ retry_at: null }).where('link_id', '=', link.id).execute();
  });
});

describe('a push during a walk', () => {
  it('walks again from the top once the walk under way ends, so what the push brought is not left for the next one', async () => {
    await forget(bigLink.id);
    const batched = createPullRequestsService({ db: db(), github: ctx.services.githubClient, repos: ctx.services.repos, jobs: ctx.services.jobs, pagesPerJob: 1 });
    expect(await batched.sync({ linkId: bigLink.id })).toMatchObject({ status: 'more' });
    // A push now: its pull request is newer than the walk's top, and the walk's next job already waits.
    ctx.github.addMergedPullRequests('acme/big', pr(121, { mergedAt: new Date().toISOString() }));
    const generate = { projectId: bigProject.id, storedSince: new Date().toISOString(), full: false, retagged: false };
    expect(await batched.queueAfterIngest(bigLink.id, generate)).toBe(false);
    await clearJobs();
    expect(await batched.sync({ linkId: bigLink.id })).toMatchObject({ status: 'more' });
    await clearJobs();
    expect(await batched.sync({ linkId: bigLink.id })).toMatchObject({ status: 'complete', changed: 20 });
    expect((await cached(bigLink.id)).some((r) => r.number === 121)).toBe(false);
    expect((await jobsOf('github-pull-requests')).map((j) => j.data)).toEqual([{ linkId: bigLink.id }]);
    await clearJobs();
    const before = graphqlCalls();
    expect(await batched.sync({ linkId: bigLink.id })).toMatchObject({ status: 'complete', pages: 1, changed: 1 });
    expect(graphqlCalls() - before).toBe(1);
    expect((await cached(bigLink.id)).length).toBe(121);
    // That walk started from the top: nothing more to do.
    expect(await jobsOf('github-pull-requests')).toEqual([]);
  });
});

describe('failures', () => {
  it('cuts a stuck GitHub at GITHUB_TIMEOUT_MS: the job fails for the queue\'s back-off, and the generation still goes', async () => {
    ctx.github.fault('POST', /^\/graphql$/, { kind: 'stall' });
    const generate = { projectId: project.id, storedSince: new Date().toISOString(), full: false, retagged: false };
    const started = Date.now();
    await expect(service().sync({ linkId: link.id, generate })).rejects.toThrow(/GitHub did not answer .*GITHUB_TIMEOUT_MS/);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
    expect((await service().state(link.id))?.last_error).toMatch(/GITHUB_TIMEOUT_MS/);
    expect((await jobsOf('generate')).map((j) => j.data)).toEqual([generate]);
  });

  it('records a missing pull_requests permission and waits for the next push (not retried)', async () => {
    ctx.github.installation(101)!.permissions = { contents: 'read', metadata: 'read' };
    const outcome = await service().sync({ linkId: link.id });
    expect(outcome).toMatchObject({ status: 'refused' });
    expect(outcome.problem).toMatch(/Resource not accessible by integration.*Pull requests: read/);
    expect(await jobsOf('github-pull-requests')).toEqual([]);
  });

  it('caps a huge description at 64 KiB of UTF-8 (never inside a character), and labels at 50', async () => {
    const body = 'é'.repeat(100_000);
    ctx.github.addMergedPullRequests(
      'acme/app',
      pr(5, { body, labels: Array.from({ length: 60 }, (_, i) => `label-${i}`), mergedAt: '2026-03-01T10:00:00Z' }),
    );
    expect(await service().sync({ linkId: link.id })).toMatchObject({ status: 'complete', changed: 1 });
    const row = (await cached(link.id)).find((r) => r.number === 5)!;
    expect(Buffer.byteLength(row.body)).toBe(PULL_REQUEST_LIMITS.bodyBytes);
    expect(body.startsWith(row.body)).toBe(true);
    // The fake sends the first 50, as GitHub does for labels(first: 50).
    expect(row.labels.length).toBe(50);
  });

  it('reads a long branch\'s commits past GraphQL\'s page of 100, to 250, oldest first', async () => {
    const commits = Array.from({ length: 260 }, (_, i) => sha(1000 + i, 'a'));
    ctx.github.addMergedPullRequests('acme/app', pr(6, { commits, mergedAt: '2026-03-02T10:00:00Z' }));
    const before = graphqlCalls();
    expect(await service().sync({ linkId: link.id })).toMatchObject({ status: 'complete', pages: 1, changed: 1 });
    // The page, then 100 and 50 more commits.
    expect(graphqlCalls() - before).toBe(3);
    const row = (await cached(link.id)).find((r) => r.number === 6)!;
    expect(row.commit_shas).toEqual(commits.slice(0, PULL_REQUEST_LIMITS.commits));
  });
});

describe('what generation reads', () => {
  let bob: { id: string; email: string };
  let bobProject: { id: string; slug: string };
  let bobLink: RepoLinkRow;

  beforeAll(async () => {
    // Another tenant, with its own installation and repository; its history names the same numbers
    // and even one merge commit of acme/app.
    bob = await buildUser(ctx.services);
    bobProject = await buildProject(ctx.services, { type: 'user', email: bob.email });
    ctx.github.addInstallation({ id: 202, account: { login: 'other', type: 'Organization' }, permissions: { ...PERMISSIONS }, repos: [{ owner: 'other', name: 'lib', cloneUrl: '/nonexistent/lib.git' }] });
    const { installation } = await ctx.services.github.recordInstallation({ type: 'user', userId: bob.id }, { installationId: 202, setupAction: 'install' });
    ({ link: bobLink } = await ctx.services.repos.linkGitHubRepo({
      projectId: bobProject.id,
      installationId: installation!.id,
      repoOwner: 'other',
      repoName: 'lib',
      cloneUrl: 'https://github.com/other/lib.git',
      sourceKey: githubSourceKey('other', 'lib'),
      trackedBranch: 'main',
      defaultBranch: 'main',
    }));
    ctx.github.addMergedPullRequests('other/lib', pr(9, { title: 'fix: bob\'s own', mergeCommit: sha(9, 'f'), mergedAt: '2026-02-09T10:00:00Z' }));
    expect(await service().sync({ linkId: bobLink.id })).toMatchObject({ status: 'complete', changed: 1 });

    await commitsRepository.insertBatch(db(), project.id, link.id, [
      // Pull request 1's merge commit; pull request 2 by the number a squash put in its subject; not 3 nor 4.
      buildCommit({ sha: sha(1, 'e'), message: 'Merge pull request #1 from acme/feature' }),
      buildCommit({ sha: sha(2, 'd'), message: 'chore(deps): bump lodash (#2)' }),
    ]);
    await commitsRepository.insertBatch(db(), bobProject.id, bobLink.id, [
      buildCommit({ sha: sha(1, 'e'), message: 'feat: same sha as acme/app#1 (#1)' }),
      buildCommit({ sha: sha(3, 'd'), message: 'feat: names a number of acme/app (#2)' }),
      buildCommit({ sha: sha(9, 'f'), message: 'fix: bob\'s own (#9)' }),
    ]);
  });

  it('loads the pull requests of the project\'s history as the engine takes them', async () => {
    const prs = await service().pullRequestsFor(project.id);
    expect(prs).toEqual([
      {
        number: 1,
        title: 'feat: change 1',
        body: 'Body of 1',
        labels: ['bug', 'ui', 'breaking'],
        author: { login: 'octo', isBot: false },
        mergedAt: '2026-02-01T10:00:00.000Z',
        mergeCommitSha: sha(1, 'e'),
        commitShas: [sha(1, 'b')],
        // The commits of this repository whose message names the number (another repository's #2 does not).
        citedBy: [sha(1, 'e')],
      },
      {
        number: 2,
        title: 'feat: change 2',
        body: 'Body of 2',
        labels: [],
        author: { login: 'dependabot', isBot: true },
        mergedAt: '2026-02-02T10:00:00.000Z',
        mergeCommitSha: sha(2, 'e'),
        commitShas: [sha(21, 'b'), sha(22, 'b')],
        citedBy: [sha(2, 'd')],
      },
    ]);
  });

  it('never hands a tenant the pull requests of another tenant\'s repository, whatever its history names', async () => {
    const prs = await service().pullRequestsFor(bobProject.id);
    expect(prs.map((p) => [p.number, p.title])).toEqual([[9, 'fix: bob\'s own']]);
    // And a project of the same tenant without a link to acme/app reads none of its pull requests.
    expect(await service().pullRequestsFor(bigProject.id)).toEqual([]);
  });

  it('passes them to the engine in a run and in a release preview', async () => {
    const requests: EngineRequest[] = [];
    const generation = createGenerationService(db(), {
      engine: {
        run: async (request) => {
          requests.push(request);
          return null as never;
        },
        close: async () => {},
      },
      entries: ctx.services.entries,
      projects: ctx.services.projects,
      pullRequests: (projectId, executor) => ctx.services.pullRequests.pullRequestsFor(projectId, executor),
    });
    await expect(generation.previewRelease(project.id, sha(2, 'd'))).rejects.toThrow();
    await generation.generateProject(project.id).catch(() => {});
    expect(requests.map((r) => [r.kind, (r as { pullRequests?: { number: number }[] }).pullRequests?.map((p) => p.number)])).toEqual([
      ['release', [1, 2]],
      ['generate', [1, 2]],
    ]);
  });
});
