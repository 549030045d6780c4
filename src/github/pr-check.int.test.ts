// A check on every pull request (issue 25): a signed `pull_request` delivery (opened, synchronize,
// edited, labeled) queues a job, which reads the pull request from the fake GitHub, previews it with the
// project's settings and the release notes' renderer, and reports a completed check run: neutral or
// success, failure on warnings only when the project asks. Unsigned deliveries, other actions, other
// branches and links that did not opt in queue nothing; a missing permission and a rate limit are handled.
import { createHmac, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { commitFiles, git } from '../../test/helpers/git.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { preview } from '../generation/preview.js';
import { createScmTestContext, linkAcmeApp, WEBHOOK_SECRET, type ScmTestContext } from '../../test/helpers/scm.js';
import type { RepoLinkRow } from '../db/schema.js';

let ctx: ScmTestContext;
let project: { id: string; slug: string };
let link: RepoLinkRow;
const REPO = 'acme/app';
const db = () => ctx.services.database.db;
const sign = (body: string) => `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;

const payload = (action: string, number: number, base = 'main') => ({
  action,
  number,
  pull_request: { number, title: 'ignored: the job reads GitHub', base: { ref: base }, head: { sha: 'a'.repeat(40) } },
  repository: { name: 'app', full_name: REPO, owner: { login: 'acme' } },
  installation: { id: 101 },
});

const deliver = (body: unknown, signature?: string | null) => {
  const text = JSON.stringify(body);
  return ctx.app.inject({
    method: 'POST',
    url: '/webhooks/github',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': randomUUID(),
      ...(signature === null ? {} : { 'x-hub-signature-256': signature ?? sign(text) }),
    },
    payload: text,
  });
};

const queued = async () =>
  (
    await sql<{
      data: { linkId: string; number: number };
    }>`SELECT data FROM pgboss.job WHERE name = 'github-pr-check' AND state = 'created' ORDER BY created_on`.execute(db())
  ).rows.map((r) => r.data);
const clearJobs = () => sql`DELETE FROM pgboss.job WHERE name = 'github-pr-check'`.execute(db());
const lastRun = () => ctx.github.checkRuns.at(-1)!;

/** Opens pull request `number` on the fake GitHub and runs its check as the worker would. */
async function check(number: number, title: string, body = '', files = ['src/index.ts']) {
  ctx.github.setPullRequest(REPO, { number, title, body, user: 'octo', headSha: number.toString(16).padStart(40, 'b'), base: 'main', files });
  return ctx.services.prChecks.report({ linkId: link.id, number });
}

beforeAll(async () => {
  ctx = await createScmTestContext({ GITHUB_TRUSTED_ACCOUNTS: 'acme' });
  const alice = await buildUser(ctx.services);
  project = await buildProject(ctx.services, { type: 'user', email: alice.email });
  ctx.github.addInstallation({
    id: 101,
    account: { login: 'acme', type: 'Organization' },
    permissions: { contents: 'read', metadata: 'read', checks: 'write', pull_requests: 'read' },
    repos: [{ owner: 'acme', name: 'app', cloneUrl: '/nonexistent/app.git' }],
  });
  ({ link } = await linkAcmeApp(ctx, { type: 'user', userId: alice.id }, project.id));
  await ctx.services.publishing.configure(project.id, link.id, { releases: false, prChecks: 'report' });
});

afterAll(async () => ctx?.close());

beforeEach(async () => {
  ctx.github.clearFaults();
  ctx.github.installation(101)!.permissions = { contents: 'read', metadata: 'read', checks: 'write', pull_requests: 'read' };
  await clearJobs();
});

describe('pull_request deliveries', () => {
  it.each(['opened', 'synchronize', 'edited', 'labeled'])('queue the check on %s, and call no GitHub inside the request', async (action) => {
    const before = ctx.github.requests.length;
    const res = await deliver(payload(action, 7));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, event: 'pull_request', outcome: 'queued the check of pull request #7 for 1 link(s)' });
    expect(await queued()).toEqual([{ linkId: link.id, number: 7 }]);
    expect(ctx.github.requests.length).toBe(before);
  });

  it('queue nothing unsigned, wrongly signed, for other actions, other branches, or links that did not opt in', async () => {
    expect((await deliver(payload('opened', 8), null)).statusCode).toBe(401);
    expect((await deliver(payload('opened', 8), sign('something else'))).statusCode).toBe(401);
    expect((await deliver(payload('closed', 8))).json().outcome).toBe('ignored: pull_request closed');
    expect((await deliver(payload('opened', 8, 'release-2.x'))).json().outcome).toBe('ignored: no link checks this pull request');
    expect((await deliver({ ...payload('opened', 8), installation: { id: 999 } })).json().outcome).toBe('ignored: unknown or inactive installation');
    expect((await deliver({ ...payload('opened', 8), pull_request: 'nope' })).statusCode).toBe(400);
    await ctx.services.publishing.configure(project.id, link.id, { releases: false, prChecks: 'off' });
    expect((await deliver(payload('opened', 8))).json().outcome).toBe('ignored: no link checks this pull request');
    await ctx.services.publishing.configure(project.id, link.id, { releases: false, prChecks: 'report' });
    expect(await queued()).toEqual([]);
  });
});

describe('the check run', () => {
  it('reports the section, text and component as the release note will show them: success without warnings', async () => {
    expect(await check(12, 'feat: add a search box', 'Searches everything.')).toEqual({ conclusion: 'success', problem: null });
    const run = lastRun();
    expect(run).toMatchObject({
      name: 'Changelog',
      status: 'completed',
      conclusion: 'success',
      head_sha: (12).toString(16).padStart(40, 'b'),
      external_id: 'pr-12',
    });
    expect(run.output.title).toBe('Features: Add a search box (#12)');
    expect(run.output.summary).toContain('| Features | — | Add a search box (#12) |');
    expect(run.output.summary).toContain('No warnings.');
    expect(run.output.text).toBe(`As the release note will show it:\n\n### Features\n\n- Add a search box ([#12](${ctx.env.GITHUB_WEB_URL}/acme/app/pull/12))`);
  });

  it('warns, neutrally, of a title without a conventional type, a hidden change and a breaking change without a description', async () => {
    expect(await check(13, 'Update the search box')).toMatchObject({ conclusion: 'neutral' });
    expect(lastRun().output.summary).toContain('The title has no conventional type');

    expect(await check(14, 'chore: tidy the build scripts')).toMatchObject({ conclusion: 'neutral' });
    expect(lastRun().output.title).toBe('Hidden from the release note');
    expect(lastRun().output.summary).toContain('It would be hidden from the release note: its section (Maintenance) is hidden.');
    expect(lastRun().output.text).toBeUndefined();

    expect(await check(15, 'feat!: drop Node 18')).toMatchObject({ conclusion: 'neutral' });
    expect(lastRun().output.summary).toContain('It is marked breaking but says nothing about it');
    expect(await check(16, 'feat!: drop Node 18', 'BREAKING CHANGE: upgrade to Node 20 first.')).toMatchObject({ conclusion: 'success' });
  });

  it('reads as `changelog preview --type release` shows the same squash commit', async () => {
    const dir = tempDir('pr-preview');
    try {
      git(dir, ['init', '-q', '--initial-branch=main']);
      const title = 'feat(search): add `fuzzy` matching';
      commitFiles(dir, `${title} (#23)\n\nMatches words that are nearly right.`, { 'src/search.ts': 'x' });
      const shown = (await preview({ path: dir, type: 'release' })).text;
      await check(23, title, 'Matches words that are nearly right.', ['src/search.ts']);
      // The check links the pull request to the repository; otherwise the same line under the same section.
      const checked = lastRun().output.text!.replace(/\[#(\d+)\]\([^)]*\)/g, '#$1');
      const line = checked.split('\n').find((l) => l.startsWith('- '))!;
      expect(line).toBe('- **search:** Add `fuzzy` matching (#23)');
      expect(shown).toContain(`### Features\n\n${line}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps commit text as text in the summary table and the note', async () => {
    await check(17, 'fix: handle a | pipe and [a link](javascript:alert(1))');
    const run = lastRun();
    expect(run.output.summary).toContain('Handle a \\| pipe');
    expect(run.output.text).toContain('\\[a link\\](javascript:alert(1))');
  });

  it('fails on warnings only when the project asks for it', async () => {
    await ctx.services.publishing.configure(project.id, link.id, { releases: false, prChecks: 'blocking' });
    expect(await check(18, 'Update things')).toMatchObject({ conclusion: 'failure' });
    expect(await check(19, 'fix: a real fix')).toMatchObject({ conclusion: 'success' });
    await ctx.services.publishing.configure(project.id, link.id, { releases: false, prChecks: 'report' });
  });

  it('says which permission is missing when GitHub refuses the check run', async () => {
    ctx.github.installation(101)!.permissions = { contents: 'read', metadata: 'read', pull_requests: 'read' };
    const before = ctx.github.checkRuns.length;
    const result = await check(20, 'feat: something');
    expect(result.problem).toMatch(/GitHub refused to create a check run \(GitHub said: Resource not accessible by integration\)\. .*"Checks: Read and write"/);
    expect(ctx.github.checkRuns.length).toBe(before);
    expect((await ctx.services.publishing.linkPublishing(link.id)).prChecksError).toMatch(/Checks: Read and write/);
    ctx.github.installation(101)!.permissions = { contents: 'read', metadata: 'read', checks: 'write', pull_requests: 'read' };
    expect(await check(20, 'feat: something')).toMatchObject({ conclusion: 'success' });
    expect((await ctx.services.publishing.linkPublishing(link.id)).prChecksError).toBeNull();
  });

  it('waits out a rate limit (429 with retry-after) by sending the job again for then', async () => {
    ctx.github.fault('POST', /\/check-runs$/, { kind: 'rate-limit', status: 429, retryAfterSeconds: 9 });
    const result = await check(21, 'feat: later');
    expect(result.problem).toMatch(/rate limit/);
    const { rows } = await sql<{ delay: number }>`
      SELECT extract(epoch FROM start_after - now())::int AS delay FROM pgboss.job WHERE name = 'github-pr-check' AND state = 'created'`.execute(db());
    expect(rows).toHaveLength(1);
    expect(rows[0]!.delay).toBeGreaterThanOrEqual(6);
    expect(rows[0]!.delay).toBeLessThanOrEqual(10);
  });

  it('throws on a failing GitHub so that the queue retries', async () => {
    ctx.github.fault('POST', /\/check-runs$/, { kind: 'status', status: 502 });
    await expect(check(22, 'feat: flaky')).rejects.toThrow(/GitHub did not answer to create a check run \(status 502\)/);
    expect(await check(22, 'feat: flaky')).toMatchObject({ conclusion: 'success' });
  });
});
