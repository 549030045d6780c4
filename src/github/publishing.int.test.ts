// GitHub Releases write-back (issue 25): a published release note creates or updates the GitHub
// Release of its tag through the fake GitHub (its real REST shapes), an edit updates it, an unpublish
// takes the service's text out (a release the service made is marked draft), drafts and pending
// revisions never reach GitHub, and the sync is idempotent across a crash mid-create, honours rate
// limits (403/429 with reset headers), degrades on a missing permission and is retried by the queue.
import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { buildCommit } from '../../test/helpers/commits.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { storeCommits } from '../../test/helpers/releases.js';
import { createScmTestContext, linkAcmeApp, WEBHOOK_SECRET, type ScmTestContext } from '../../test/helpers/scm.js';
import type { RepoLinkRow } from '../db/schema.js';
import { createServices } from '../services.js';
import { workReleaseSyncJobs } from './publishing.job.js';
import { BODY_BEGIN, BODY_END } from './release-body.js';

let ctx: ScmTestContext;
let project: { id: string; slug: string };
let link: RepoLinkRow;
const REPO = 'acme/app';
const TAGS = ['v1.0.0', 'v1.1.0-beta.1', 'v1.1.0', 'v1.2.0', 'v1.3.0', 'v1.3.1', 'v1.3.2', 'v1.4.0', 'v1.5.0'];
const db = () => ctx.services.database.db;
const publishing = () => ctx.services.publishing;
const releasesOf = (tag: string) => ctx.github.releases(REPO).filter((r) => r.tag_name === tag);
const onlyRelease = (tag: string) => {
  const found = releasesOf(tag);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const writes = () => ctx.github.requests.filter((r) => /\/releases/.test(r.path) && (r.method === 'POST' || r.method === 'PATCH'));
const syncRow = (tag: string) => db().selectFrom('github_release_syncs').selectAll().where('link_id', '=', link.id).where('tag', '=', tag).executeTakeFirst();
const queuedJobs = async () =>
  (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'github-release-sync' AND state IN ('created', 'retry')`.execute(db()))
    .rows[0]!.n;

/** Dispatches and runs the link's sync as the worker would, once. */
async function sync() {
  await publishing().dispatchPending();
  return publishing().syncLink(link.id);
}

beforeAll(async () => {
  ctx = await createScmTestContext({ GITHUB_TRUSTED_ACCOUNTS: 'acme' });
  const alice = await buildUser(ctx.services);
  project = await buildProject(ctx.services, { type: 'user', email: alice.email });
  // Nothing of the history is published on its own: each test publishes what it needs.
  await ctx.services.generation.configure(project.slug, { history: 'draft', pullRequestUrl: 'https://example.com/pr/{number}' });
  ctx.github.addInstallation({
    id: 101,
    account: { login: 'acme', type: 'Organization' },
    permissions: { contents: 'write', metadata: 'read' },
    repos: [{ owner: 'acme', name: 'app', cloneUrl: '/nonexistent/app.git', tags: TAGS }],
  });
  ({ link } = await linkAcmeApp(ctx, { type: 'user', userId: alice.id }, project.id));

  let parent: string[] = [];
  const commits = TAGS.flatMap((tag, i) => {
    const day = `2024-03-${String(i * 2 + 1).padStart(2, '0')}T10:00:00Z`;
    const a = buildCommit({
      parents: parent,
      message: `feat: feature of ${tag} (#${10 + i})`,
      date: day,
      email: `${500 + i}+dev${i}@users.noreply.github.com`,
      name: `Dev ${i}`,
    });
    const b = buildCommit({
      parents: [a.sha],
      message: `fix: fix of ${tag}`,
      tags: [tag],
      date: day.replace('T10', 'T11'),
      email: 'grace@example.com',
      name: 'Grace Hopper',
    });
    parent = [b.sha];
    return [a, b];
  });
  await storeCommits(ctx.services, project.id, commits);
  await ctx.services.generation.generate(project.slug);
  await publishing().configure(project.id, link.id, { releases: true, prChecks: 'off' });
});

afterAll(async () => ctx?.close());

beforeEach(() => {
  ctx.github.clearFaults();
  ctx.github.installation(101)!.permissions = { contents: 'write', metadata: 'read' };
});

describe('GitHub Releases of published notes', () => {
  it('sends nothing for drafts: generation, the setting turned on and a dispatch leave GitHub untouched', async () => {
    expect(await publishing().dispatchPending()).toBe(0);
    expect(await publishing().syncLink(link.id)).toEqual({ synced: 0, problem: null });
    expect(ctx.github.releases(REPO)).toEqual([]);
    expect(writes()).toEqual([]);
  });

  it('creates the release of a published note: GitHub-flavoured Markdown with PR links, authors and the compare view', async () => {
    await ctx.services.entries.publishRelease(project.slug, 'v1.1.0');
    // Queued as a job on the queue, keyed by the link (never sent from the request that published).
    expect(await publishing().dispatchPending()).toBe(1);
    expect(await queuedJobs()).toBe(1);
    expect(await publishing().syncLink(link.id)).toEqual({ synced: 1, problem: null });

    const release = onlyRelease('v1.1.0');
    expect(release).toMatchObject({ name: 'v1.1.0', draft: false, prerelease: false, assets: [] });
    const body = release.body!;
    expect(body.startsWith(BODY_BEGIN)).toBe(true);
    expect(body.endsWith(BODY_END)).toBe(true);
    // Links to the repository's own pull requests, not the project's public-page setting.
    expect(body).toContain(`[#12](${ctx.env.GITHUB_WEB_URL}/acme/app/pull/12)`);
    expect(body).not.toContain('example.com/pr');
    expect(body).toContain('### Features');
    // GitHub no-reply addresses become @mentions (GitHub links them to the profile); others stay names.
    expect(body).toContain('**Contributors:** @dev1, Grace Hopper, @dev2\n');
    // A stable release compares with the previous stable one, as its note covers the betas between.
    expect(body).toContain(`**Full Changelog**: ${ctx.env.GITHUB_WEB_URL}/acme/app/compare/v1.0.0...v1.1.0\n${BODY_END}`);
    expect(await syncRow('v1.1.0')).toMatchObject({ created_by_service: true, last_error: null });
    expect(String((await syncRow('v1.1.0'))!.release_id)).toBe(String(release.id));
    expect((await publishing().linkPublishing(link.id)).sync).toMatchObject({ behind: 0, lastError: null, lastSyncedAt: expect.any(Date) });
  });

  it('is idempotent: running the sync again writes nothing', async () => {
    const before = writes().length;
    expect(before).toBeGreaterThan(0);
    expect(await sync()).toEqual({ synced: 0, problem: null });
    expect(await publishing().syncLink(link.id)).toEqual({ synced: 0, problem: null });
    expect(writes()).toHaveLength(before);
    onlyRelease('v1.1.0');
  });

  it('marks a pre-release version as a pre-release', async () => {
    await ctx.services.entries.publishRelease(project.slug, 'v1.1.0-beta.1');
    await sync();
    expect(onlyRelease('v1.1.0-beta.1')).toMatchObject({ prerelease: true, draft: false });
  });

  it('updates the same release when the published note is edited, and never sends a pending revision', async () => {
    const id = onlyRelease('v1.1.0').id;
    // An edit of a published note waits as its pending revision: readers, GitHub included, keep the published one.
    await ctx.services.entries.editRelease(project.id, 'v1.1.0', { action: 'introduction', text: 'A release **worth** reading.' });
    expect(await publishing().dispatchPending()).toBe(0);
    await publishing().syncLink(link.id);
    expect(onlyRelease('v1.1.0').body).not.toContain('worth');

    await ctx.services.entries.publishRelease(project.slug, 'v1.1.0');
    await sync();
    const release = onlyRelease('v1.1.0');
    expect(release.id).toBe(id);
    expect(release.body).toContain(`${BODY_BEGIN}\nA release **worth** reading.\n\n### `);
  });

  it('marks a release the service created as draft on unpublish, and brings it back on publish', async () => {
    const id = onlyRelease('v1.1.0').id;
    await ctx.services.entries.unpublishRelease(project.slug, 'v1.1.0');
    await sync();
    // By id: GitHub's by-tag read does not see drafts.
    expect(releasesOf('v1.1.0')).toEqual([expect.objectContaining({ id, draft: true, body: '' })]);

    await ctx.services.entries.publishRelease(project.slug, 'v1.1.0');
    await sync();
    expect(releasesOf('v1.1.0')).toEqual([expect.objectContaining({ id, draft: false, body: expect.stringContaining('### Features') })]);
  });

  it('adds its text to a release its owners made, keeps their name, text and assets, and takes only its text back', async () => {
    const owners = ctx.github.addRelease(REPO, {
      tag_name: 'v1.0.0',
      name: 'The first one',
      body: 'Hand-written notes.\n\nSee the blog.',
      assets: [{ id: 77, name: 'app-1.0.0.tar.gz', size: 1234 }],
    });
    await ctx.services.entries.publishRelease(project.slug, 'v1.0.0');
    await sync();
    const release = onlyRelease('v1.0.0');
    expect(release.id).toBe(owners.id);
    expect(release.name).toBe('The first one');
    expect(release.body).toMatch(new RegExp(`^Hand-written notes\\.\\n\\nSee the blog\\.\\n\\n${BODY_BEGIN.replace(/[()]/g, '\\$&')}\\n`));
    expect(release.assets).toEqual([{ id: 77, name: 'app-1.0.0.tar.gz', size: 1234 }]);
    expect(await syncRow('v1.0.0')).toMatchObject({ created_by_service: false });

    await ctx.services.entries.unpublishRelease(project.slug, 'v1.0.0');
    await sync();
    expect(onlyRelease('v1.0.0')).toMatchObject({ id: owners.id, draft: false, name: 'The first one', body: 'Hand-written notes.\n\nSee the blog.' });
    expect(onlyRelease('v1.0.0').assets).toHaveLength(1);
  });

  it('makes exactly one release after a crash mid-create: GitHub made it, the answer never came', async () => {
    ctx.github.fault('POST', /\/repos\/acme\/app\/releases$/, { kind: 'drop-after' });
    await ctx.services.entries.publishRelease(project.slug, 'v1.2.0');
    await publishing().dispatchPending();
    await expect(publishing().syncLink(link.id)).rejects.toThrow(/GitHub did not answer/);
    expect(releasesOf('v1.2.0')).toHaveLength(1);
    expect(await syncRow('v1.2.0')).toMatchObject({
      release_id: null,
      create_sent_at: expect.any(Date),
      last_error: expect.stringMatching(/GitHub did not answer/),
    });
    expect((await publishing().linkPublishing(link.id)).sync.lastError).toMatchObject({ tag: 'v1.2.0' });

    // The queue's retry: found by tag, recognised as the service's own, brought up to date, not created again.
    expect(await publishing().syncLink(link.id)).toEqual({ synced: 1, problem: null });
    const release = onlyRelease('v1.2.0');
    expect(release.body).toContain('Feature of v1.2.0');
    expect(await syncRow('v1.2.0')).toMatchObject({ created_by_service: true, last_error: null, create_sent_at: null });
    expect(String((await syncRow('v1.2.0'))!.release_id)).toBe(String(release.id));
    // And an unpublish then treats it as the service's: draft.
    await ctx.services.entries.unpublishRelease(project.slug, 'v1.2.0');
    await sync();
    expect(onlyRelease('v1.2.0').draft).toBe(true);
  });

  it.each([
    ['403 with x-ratelimit-remaining: 0 (waits until x-ratelimit-reset)', { kind: 'rate-limit', status: 403, resetInSeconds: 40 } as const, 40, 'v1.3.0'],
    ['429 with retry-after', { kind: 'rate-limit', status: 429, retryAfterSeconds: 7 } as const, 7, 'v1.3.1'],
    ['403 with retry-after (a secondary limit)', { kind: 'rate-limit', status: 403, retryAfterSeconds: 12 } as const, 12, 'v1.3.2'],
  ])('waits out a rate limit: %s', async (_name, fault, seconds, tag) => {
    await sql`DELETE FROM pgboss.job WHERE name = 'github-release-sync'`.execute(db());
    ctx.github.fault('GET', /\/releases\/tags\//, fault);
    await ctx.services.entries.publishRelease(project.slug, tag);
    await publishing().dispatchPending();
    await sql`DELETE FROM pgboss.job WHERE name = 'github-release-sync'`.execute(db());
    const result = await publishing().syncLink(link.id);
    expect(result.problem).toMatch(/rate limit/);
    expect(releasesOf(tag)).toHaveLength(0);
    expect((await syncRow(tag))?.last_error).toMatch(/rate limit for this installation was reached .* retrying after/);
    // Sent again for when the limit resets, not failed (a failure would count against the retries).
    const { rows } = await sql<{ delay: number }>`
      SELECT extract(epoch FROM start_after - now())::int AS delay FROM pgboss.job WHERE name = 'github-release-sync' AND state = 'created'`.execute(db());
    expect(rows).toHaveLength(1);
    expect(rows[0]!.delay).toBeGreaterThanOrEqual(seconds - 3);
    expect(rows[0]!.delay).toBeLessThanOrEqual(seconds + 1);

    expect(await publishing().syncLink(link.id)).toEqual({ synced: 1, problem: null });
    onlyRelease(tag);
  });

  it('says what is missing when the installation lacks contents: write, and resumes once GitHub says it was granted', async () => {
    ctx.github.installation(101)!.permissions = { contents: 'read', metadata: 'read' };
    // A new token carries the new permissions; the service's client caches one per installation, so
    // the fake refuses by the installation's current grant, as GitHub does once permissions change.
    await ctx.services.entries.publishRelease(project.slug, 'v1.4.0');
    const result = await sync();
    expect(result.synced).toBe(0);
    expect(result.problem).toMatch(
      /GitHub refused to create the release of v1\.4\.0 \(GitHub said: Resource not accessible by integration\)\. .*Contents: Read and write/,
    );
    const status = await publishing().linkPublishing(link.id);
    expect(status.sync).toMatchObject({ behind: 1, lastError: { tag: 'v1.4.0', error: expect.stringMatching(/Contents: Read and write/) } });
    expect(releasesOf('v1.4.0')).toHaveLength(0);
    // Nothing is retried on its own (the permission will not appear by waiting).
    expect(await publishing().dispatchPending()).toBe(0);

    // The owners grant it: GitHub's signed `installation` delivery queues what waited.
    ctx.github.installation(101)!.permissions = { contents: 'write', metadata: 'read' };
    const body = JSON.stringify({ action: 'new_permissions_accepted', installation: { id: 101, account: { login: 'acme' } } });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/webhooks/github',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'installation',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`,
      },
      payload: body,
    });
    expect(res.json()).toMatchObject({ outcome: 'installation permissions changed: 1 release note(s) queued for GitHub again' });
    expect(await publishing().dispatchPending()).toBe(1);
    expect(await publishing().syncLink(link.id)).toEqual({ synced: 1, problem: null });
    onlyRelease('v1.4.0');
    expect((await publishing().linkPublishing(link.id)).sync).toMatchObject({ behind: 0, lastError: null });
  });

  it("refuses to configure another project's link, or a link that is not GitHub's", async () => {
    const alice2 = await buildUser(ctx.services);
    const other = await buildProject(ctx.services, { type: 'user', email: alice2.email });
    await expect(publishing().configure(other.id, link.id, { releases: true, prChecks: 'off' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(publishing().configure(project.id, '00000000-0000-4000-8000-000000000000', { releases: true, prChecks: 'off' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(publishing().configure(project.id, link.id, { releases: true, prChecks: 'always' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it("names no one the project's settings exclude among the contributors", async () => {
    await ctx.services.generation.configure(project.slug, { excludeAuthors: ['grace@example.com'] });
    try {
      await ctx.services.entries.unpublishRelease(project.slug, 'v1.1.0');
      await sync();
      await ctx.services.entries.publishRelease(project.slug, 'v1.1.0');
      await sync();
      const body = onlyRelease('v1.1.0').body!;
      // The note's own "By …" line is the published text (generated before the setting changed); the list is the sync's.
      expect(body).toContain('**Contributors:** @dev1, @dev2\n');
      expect(body).not.toMatch(/\*\*Contributors:\*\*[^\n]*Grace/);
    } finally {
      await ctx.services.generation.configure(project.slug, { excludeAuthors: [] });
    }
  });

  it("retries one link's tags from the dashboard without queueing another tenant's", async () => {
    const bob = await buildUser(ctx.services);
    const theirs = await buildProject(ctx.services, { type: 'user', email: bob.email });
    // Another tenant's link with a release waiting for GitHub (a local link stands in: only rows matter here).
    const { rows } = await sql<{ id: string }>`
      INSERT INTO repo_links (project_id, kind, source_url, source_key, tracked_branch, status)
      VALUES (${theirs.id}::uuid, 'local', '/repos/theirs', 'local:/repos/theirs', 'main', 'active') RETURNING id`.execute(db());
    const theirLink = rows[0]!.id;
    await sql`INSERT INTO github_link_publishing (link_id, project_id, releases) VALUES (${theirLink}::uuid, ${theirs.id}::uuid, true)`.execute(db());
    await sql`INSERT INTO github_release_syncs (link_id, tag) VALUES (${theirLink}::uuid, 'v9.9.9')`.execute(db());
    try {
      await publishing().retryReleases(project.id, link.id);
      const theirRow = await db().selectFrom('github_release_syncs').select('queued').where('link_id', '=', theirLink).executeTakeFirstOrThrow();
      expect(theirRow.queued).toBe(0);
      // The dispatcher's own pass still takes it.
      expect(await publishing().dispatchPending()).toBeGreaterThanOrEqual(1);
      const after = await db().selectFrom('github_release_syncs').select('queued').where('link_id', '=', theirLink).executeTakeFirstOrThrow();
      expect(after.queued).toBe(1);
    } finally {
      await sql`DELETE FROM repo_links WHERE id = ${theirLink}::uuid`.execute(db());
      await sql`DELETE FROM pgboss.job WHERE name = 'github-release-sync' AND data->>'linkId' = ${theirLink}`.execute(db());
    }
  });

  it('stops when the setting is turned off: later publishes are not sent', async () => {
    await publishing().configure(project.id, link.id, { releases: false, prChecks: 'off' });
    await ctx.services.entries.unpublishRelease(project.slug, 'v1.4.0');
    expect(await publishing().dispatchPending()).toBe(0);
    expect(await publishing().syncLink(link.id)).toEqual({ synced: 0, problem: null });
    expect(onlyRelease('v1.4.0').draft).toBe(false);
    await publishing().configure(project.id, link.id, { releases: true, prChecks: 'off' });
  });
});

describe('through the job queue', () => {
  it('retries a failed sync with back-off until GitHub answers (the worker path)', async () => {
    // A worker of its own on the same database, with a short retry delay.
    const services = createServices(ctx.services.database, testConfig(ctx.env), {
      jobs: { pollingIntervalSeconds: 0.5, queues: { 'github-release-sync': { retryDelaySeconds: 1, retryLimit: 4 } } },
    });
    try {
      // The queue exists already (the test context made it with the default 5 s): its stored delay is what jobs get.
      await sql`UPDATE pgboss.queue SET retry_delay = 1 WHERE name = 'github-release-sync'`.execute(db());
      await sql`DELETE FROM pgboss.job WHERE name = 'github-release-sync'`.execute(db());
      ctx.github.fault('POST', /\/repos\/acme\/app\/releases$/, { kind: 'status', status: 502 }, 2);
      await ctx.services.entries.publishRelease(project.slug, 'v1.5.0');
      await workReleaseSyncJobs(services.jobs, services.publishing);
      await expect.poll(() => releasesOf('v1.5.0').length, { timeout: 45_000, interval: 200 }).toBe(1);
      await expect.poll(async () => (await syncRow('v1.5.0'))?.last_error ?? null, { timeout: 5_000 }).toBeNull();
      const creates = ctx.github.requests.filter((r) => r.method === 'POST' && r.path === '/repos/acme/app/releases');
      expect(creates.slice(-3).map((r) => r.status)).toEqual([502, 502, 201]);
      onlyRelease('v1.5.0');
    } finally {
      await services.jobs.stop();
    }
  }, 90_000);
});
