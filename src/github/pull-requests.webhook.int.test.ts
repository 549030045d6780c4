// The pull requests of a GitHub link through the running worker (issue 24): a fresh link's backfill
// reads its merged pull requests before its history is generated, and a signed push reads only the
// pull requests updated since (one GraphQL request), then generates the pushed commits.
import { execFileSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { pushCommits, removeRepoCopy, smallRepo } from '../../test/helpers/git-fixtures.js';
import { createScmTestContext, waitFor, WEBHOOK_SECRET, type ScmTestContext } from '../../test/helpers/scm.js';
import { startWorker } from '../jobs/worker.js';

let ctx: ScmTestContext;
let origin: string;
let linkId: string;
let projectId: string;
const db = () => ctx.services.database.db;
const graphqlCalls = () => ctx.github.requests.filter((r) => r.path === '/graphql').length;
const cachedNumbers = async () =>
  (await db().selectFrom('github_pull_requests').select('number').where('link_id', '=', linkId).orderBy('number').execute()).map((r) => r.number);
/** Entries generated from a commit (by SHA). */
const entriesOf = async (sha: string) =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM changelog_entries WHERE project_id = ${projectId} AND ${sha} = ANY(commit_shas)`.execute(db())).rows[0]!.n);

const push = (after: string) => {
  const body = JSON.stringify({ ref: 'refs/heads/main', after, repository: { name: 'app', full_name: 'acme/app', owner: { login: 'acme', name: 'acme' } }, installation: { id: 101 } });
  return ctx.app.inject({
    method: 'POST',
    url: '/webhooks/github',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`,
    },
    payload: body,
  });
};

beforeAll(async () => {
  ctx = await createScmTestContext({ GITHUB_TRUSTED_ACCOUNTS: 'acme' });
  origin = smallRepo({ defaultBranch: 'main', commits: 3 });
  ctx.github.addInstallation({
    id: 101,
    account: { login: 'acme', type: 'Organization' },
    permissions: { contents: 'read', metadata: 'read', pull_requests: 'read' },
    repos: [{ owner: 'acme', name: 'app', cloneUrl: `file://${origin}` }],
  });
  ctx.github.addMergedPullRequests('acme/app', { number: 1, title: 'feat: first change', mergedAt: '2026-01-01T10:00:00Z', labels: ['enhancement'] });
  ctx.github.addMergedPullRequests('acme/app', { number: 2, title: 'feat: change 0', mergedAt: '2026-01-02T10:00:00Z' });
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
    payload: { scmInstallationId: installation.installationId, repoOwner: 'acme', repoName: 'app' },
  });
  expect(res.statusCode).toBe(200);
  linkId = res.json().id;
});

afterAll(async () => {
  await ctx?.close();
  if (origin) removeRepoCopy(origin);
});

describe('a GitHub link through the worker', () => {
  it('reads the merged pull requests of a fresh link, then generates its history', async () => {
    await waitFor(async () => ((await cachedNumbers()).length === 2 ? true : undefined), 30_000, 'the pull requests');
    const first = await db().selectFrom('commits').select('sha').where('project_id', '=', projectId).orderBy('committed_at').executeTakeFirstOrThrow();
    await waitFor(async () => ((await entriesOf(first.sha)) > 0 ? true : undefined), 30_000, 'the generation');
  });

  it('reads on a push only the pull requests updated since, in one request, and generates the pushed commit', async () => {
    await waitFor(async () => (await ctx.services.jobs.pending('github-pull-requests', linkId)) ? undefined : true, 30_000, 'an idle fetch');
    const before = graphqlCalls();
    const [sha] = pushCommits(origin, 1, { message: () => 'feat: add a search box (#3)' });
    ctx.github.addMergedPullRequests('acme/app', { number: 3, title: 'feat: add a search box', mergedAt: new Date().toISOString(), mergeCommit: sha! });
    expect((await push(sha!)).statusCode).toBe(200);
    await waitFor(async () => ((await cachedNumbers()).includes(3) ? true : undefined), 30_000, 'pull request #3');
    await waitFor(async () => ((await entriesOf(sha!)) > 0 ? true : undefined), 30_000, 'the pushed commit\'s entry');
    expect(graphqlCalls() - before).toBe(1);
    expect(await cachedNumbers()).toEqual([1, 2, 3]);
    expect((await ctx.services.pullRequests.pullRequestsFor(projectId)).map((p) => p.number)).toContain(3);
  });

  it('lists a merged pull request in its release note as its maintainers labelled it (release.yml), in the words of its description', async () => {
    await waitFor(async () => (await ctx.services.jobs.pending('github-pull-requests', linkId)) ? undefined : true, 30_000, 'an idle fetch');
    const releaseYml = 'changelog:\n  exclude:\n    labels: [skip-changelog]\n  categories:\n    - title: Bug fixes 🐛\n      labels: [bug]\n    - title: Other\n      labels: ["*"]\n';
    const [sha] = pushCommits(origin, 1, { message: () => 'Improve the search box (#4)', files: () => ({ '.github/release.yml': releaseYml, 'src/search.ts': 'export {};\n' }) });
    execFileSync('git', ['-C', origin, 'tag', 'v1.0.0', sha!]);
    ctx.github.addMergedPullRequests('acme/app', {
      number: 4,
      title: 'Improve the search box',
      body: 'Refactors the input handling.\n\n## Release notes\n\nSearch no longer drops the last character you typed.\n',
      labels: ['bug'],
      mergedAt: new Date().toISOString(),
      mergeCommit: sha!,
    });
    expect((await push(sha!)).statusCode).toBe(200);
    const note = await waitFor(
      async () => (await db().selectFrom('release_notes').select(['generated_json', 'content']).where('project_id', '=', projectId).where('tag', '=', 'v1.0.0').executeTakeFirst()) ?? undefined,
      30_000,
      'the note of v1.0.0',
    );
    const sections = (note.generated_json as { sections: { section_type_key: string; items: { text: string }[] }[] }).sections;
    const fix = sections.find((s) => s.items.some((i) => i.text.includes('(#4)')));
    expect(fix?.section_type_key).toBe('fix');
    expect(fix?.items.find((i) => i.text.includes('(#4)'))?.text).toBe('Search no longer drops the last character you typed. (#4)');
  });

  it('refreshes the pull requests on a sync that finds no new commit (a label added after the merge)', async () => {
    await waitFor(async () => (await ctx.services.jobs.pending('github-pull-requests', linkId)) ? undefined : true, 30_000, 'an idle fetch');
    ctx.github.addMergedPullRequests('acme/app', { number: 2, title: 'feat: change 0', mergedAt: '2026-01-02T10:00:00Z', updatedAt: new Date().toISOString(), labels: ['breaking'] });
    await ctx.services.repos.syncNow(linkId);
    await waitFor(
      async () => {
        const row = await db().selectFrom('github_pull_requests').select('labels').where('link_id', '=', linkId).where('number', '=', 2).executeTakeFirst();
        return row?.labels.includes('breaking') ? true : undefined;
      },
      30_000,
      'the new label',
    );
  });
});
