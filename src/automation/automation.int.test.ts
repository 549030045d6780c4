// The API for CI (issue #25): a key with the `publish` scope lists what waits, publishes and unpublishes
// entries and release notes (what readers see changes only then), syncs a link and previews a note; a
// read-only key, another tenant's key, a key limited to other projects, a revoked or expired one, and
// forged or malformed ids get the same refusals as anything that does not exist, and change nothing.
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantLimitsEnv } from '../../test/helpers/config.js';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildCommit } from '../../test/helpers/commits.js';
import { eventually } from '../../test/helpers/eventually.js';
import { buildOrg, buildProject, buildUser, generatedJson, insertEntries } from '../../test/helpers/factories.js';
import { releaseHistory, storeCommits } from '../../test/helpers/releases.js';

let ctx: TestContext;
const db = () => ctx.services.database.db;
const history = releaseHistory();

let acme: { id: string; slug: string };
let bobProject: { id: string; slug: string };
let draftId: string;
let publishedId: string;
let bobDraftId: string;
let linkId: string;
let bobLinkId: string;
const keys: Record<'publish' | 'read' | 'selectedOther' | 'bob' | 'revoked' | 'expired', string> = {} as never;

const TENANT_ACTIONS_MAX = 6;

function call(key: string | undefined, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method,
    url,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/** A public read, once readers see `ok` (the response cache drops an answer a moment after the commit). */
const publicRead = (url: string, ok: (res: LightMyRequestResponse) => boolean) => eventually(() => ctx.app.inject({ method: 'GET', url }), ok);

const statusOf = async (table: 'changelog_entries' | 'release_notes', where: string, value: string) => {
  const { rows } = await sql<{ status: string }>`SELECT status FROM ${sql.table(table)} WHERE ${sql.ref(where)} = ${value}`.execute(db());
  return rows.map((r) => r.status);
};

beforeAll(async () => {
  ctx = await createTestContext(tenantLimitsEnv(TENANT_ACTIONS_MAX));
  const { services } = ctx;
  const alice = await buildUser(services, { email: 'alice@example.com' });
  const bob = await buildUser(services, { email: 'bob@example.com' });
  await buildOrg(services, alice.email, { slug: 'acme' });
  acme = await buildProject(services, { type: 'org', slug: 'acme' }, { slug: 'acme-app' });
  // A second project of the org: a key limited to it sees nothing of acme-app.
  await buildProject(services, { type: 'org', slug: 'acme' }, { slug: 'acme-other' });
  bobProject = await buildProject(services, { type: 'user', email: bob.email }, { slug: 'bob-app' });

  // Tagged history: generation makes its release notes, drafts (no link, so nothing is history).
  await storeCommits(services, acme.id, history.commits);
  await services.generation.generate(acme.slug, { types: [] });
  [draftId, publishedId] = (await insertEntries(services, acme.id, [
    { status: 'draft', title: 'A draft entry', generated_json: JSON.stringify(generatedJson('A draft entry')) },
    {
      status: 'published',
      title: 'A published entry',
      generated_json: JSON.stringify(generatedJson('A published entry')),
      published_at: new Date('2024-03-01T00:00:00Z'),
    },
  ])) as [string, string];
  [bobDraftId] = (await insertEntries(services, bobProject.id, [{ status: 'draft', title: 'Bob draft' }])) as [string];
  // No service links without asking git; these rows are what linking stores (never fetched here: the worker does not run).
  const link = (projectId: string, path: string) =>
    db()
      .insertInto('repo_links')
      .values({
        project_id: projectId,
        kind: 'local',
        installation_id: null,
        repo_owner: null,
        repo_name: null,
        source_url: path,
        source_key: `local:${path}`,
        tracked_branch: 'main',
        default_branch: 'main',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  linkId = (await link(acme.id, '/srv/git/acme.git')).id;
  bobLinkId = (await link(bobProject.id, '/srv/git/bob.git')).id;

  const org = { type: 'org' as const, slug: 'acme' };
  keys.publish = (await services.keys.create({ name: 'ci', context: org, publish: true })).secret;
  keys.read = (await services.keys.create({ name: 'read-only', context: org })).secret;
  keys.selectedOther = (await services.keys.create({ name: 'other only', context: org, projectSlugs: ['acme-other'], publish: true })).secret;
  keys.bob = (await services.keys.create({ name: 'bob ci', context: { type: 'user', email: bob.email }, publish: true })).secret;
  const revoked = await services.keys.create({ name: 'revoked', context: org, publish: true });
  await services.keys.revoke(revoked.key.id);
  keys.revoked = revoked.secret;
  const expired = await services.keys.create({ name: 'expired', context: org, publish: true, expiresAt: new Date(Date.now() + 3_600_000) });
  // No service sets an expiry in the past; the expiry arriving is what this stands for.
  await db()
    .updateTable('api_keys')
    .set({ expires_at: new Date(Date.now() - 60_000) })
    .where('id', '=', expired.key.id)
    .execute();
  keys.expired = expired.secret;
});

afterAll(async () => {
  await ctx?.close();
});

/** Every automation route once, with valid parameters of acme-app. */
const ROUTES = (): [method: 'GET' | 'POST', url: string, payload?: unknown][] => [
  ['GET', '/v1/projects/acme-app/drafts/entries'],
  ['GET', '/v1/projects/acme-app/drafts/releases'],
  ['POST', `/v1/projects/acme-app/entries/${draftId}/publish`],
  ['POST', `/v1/projects/acme-app/entries/${publishedId}/unpublish`],
  ['POST', '/v1/projects/acme-app/releases/v1.1.0/publish'],
  ['POST', '/v1/projects/acme-app/releases/v1.0.0/unpublish'],
  ['POST', `/v1/projects/acme-app/repos/${linkId}/sync`],
  ['POST', '/v1/projects/acme-app/releases/preview', { ref: 'v1.1.0' }],
];

describe('who may call the automation routes', () => {
  it('refuses a key without the publish scope with 403 naming the scope, before anything changes', async () => {
    for (const [method, url, payload] of ROUTES()) {
      const res = await call(keys.read, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', error: expect.stringContaining('publish scope') });
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    expect(await statusOf('changelog_entries', 'id', draftId)).toEqual(['draft']);
    expect(await statusOf('changelog_entries', 'id', publishedId)).toEqual(['published']);
    // The read-only key still reads what it always could.
    expect((await call(keys.read, 'GET', '/v1/projects')).statusCode).toBe(200);
  });

  it('refuses no key, a revoked and an expired key with the same 401', async () => {
    for (const [method, url, payload] of ROUTES()) {
      const answers = await Promise.all([undefined, keys.revoked, keys.expired].map((k) => call(k, method, url, payload)));
      for (const res of answers) expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(answers[1]!.body).toBe(answers[2]!.body);
    }
  });

  it("answers another tenant's key, and a key limited to other projects, as if the project did not exist", async () => {
    const missing = await call(keys.publish, 'GET', '/v1/projects/no-such-project/drafts/entries');
    expect(missing.statusCode).toBe(404);
    for (const key of [keys.bob, keys.selectedOther]) {
      for (const [method, url, payload] of ROUTES()) {
        const res = await call(key, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().error).toBe('Project acme-app not found');
      }
    }
    expect(await statusOf('changelog_entries', 'id', draftId)).toEqual(['draft']);
    expect(await statusOf('release_notes', 'tag', 'v1.1.0')).toEqual(['draft']);
    // The limited key works on the project it was given.
    const own = await call(keys.selectedOther, 'GET', '/v1/projects/acme-other/drafts/entries');
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ project: { id: expect.any(String), slug: 'acme-other' }, entries: [], next: null });
  });

  it('stops a key at once when it is revoked', async () => {
    const created = await ctx.services.keys.create({ name: 'short-lived', context: { type: 'org', slug: 'acme' }, publish: true });
    expect((await call(created.secret, 'GET', '/v1/projects/acme-app/drafts/entries')).statusCode).toBe(200);
    await ctx.services.keys.revoke(created.key.id);
    expect((await call(created.secret, 'GET', '/v1/projects/acme-app/drafts/entries')).statusCode).toBe(401);
  });
});

describe('checking what callers send', () => {
  it("answers an id of another tenant's entry exactly as an id nobody has", async () => {
    const forged = await call(keys.publish, 'POST', `/v1/projects/acme-app/entries/${bobDraftId}/publish`);
    const unknown = await call(keys.publish, 'POST', '/v1/projects/acme-app/entries/00000000-0000-4000-8000-000000000000/publish');
    expect(forged.statusCode).toBe(404);
    expect(forged.body).toBe(unknown.body);
    expect(await statusOf('changelog_entries', 'id', bobDraftId)).toEqual(['draft']);
    // A link of another project, and a tag the project does not have.
    const foreignLink = await call(keys.publish, 'POST', `/v1/projects/acme-app/repos/${bobLinkId}/sync`);
    expect(foreignLink.statusCode).toBe(404);
    expect(foreignLink.body).toBe((await call(keys.publish, 'POST', '/v1/projects/acme-app/repos/00000000-0000-4000-8000-000000000000/sync')).body);
    expect((await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/v9.9.9/publish')).statusCode).toBe(404);
  });

  it('answers malformed input with a 400 naming the parameter, and changes nothing', async () => {
    const badId = await call(keys.publish, 'POST', '/v1/projects/acme-app/entries/not-a-uuid/publish');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ parameter: 'id' })]));
    const badSlug = await call(keys.publish, 'GET', '/v1/projects/Not_A_Slug/drafts/entries');
    expect(badSlug.statusCode).toBe(400);
    const badLimit = await call(keys.publish, 'GET', '/v1/projects/acme-app/drafts/entries?limit=1e3');
    expect(badLimit.statusCode).toBe(400);
    const badCursor = await call(keys.publish, 'GET', '/v1/projects/acme-app/drafts/releases?after=garbage');
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().details).toEqual([expect.objectContaining({ parameter: 'after' })]);
    const unknownField = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/preview', { ref: 'v1.1.0', publish: true });
    expect(unknownField.statusCode).toBe(400);
    const noRef = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/preview', {});
    expect(noRef.statusCode).toBe(400);
    expect(JSON.stringify(noRef.json().details)).toContain('ref');
    const huge = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/preview', { ref: 'x'.repeat(100_000) });
    expect(huge.statusCode).toBe(413);
    const badTag = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/preview', { ref: 'v1.1.0', tag: 'no spaces allowed' });
    expect(badTag.statusCode).toBe(400);
    expect(badTag.json().details).toEqual([expect.objectContaining({ parameter: 'tag' })]);
    expect(await statusOf('changelog_entries', 'id', draftId)).toEqual(['draft']);
  });
});

describe('publishing from CI', () => {
  it('lists drafts and pending revisions of entries and release notes', async () => {
    const entries = await call(keys.publish, 'GET', '/v1/projects/acme-app/drafts/entries');
    expect(entries.statusCode).toBe(200);
    expect(entries.json().entries.map((e: { id: string }) => e.id)).toEqual([draftId]);
    const releases = await call(keys.publish, 'GET', '/v1/projects/acme-app/drafts/releases?limit=2');
    expect(releases.statusCode).toBe(200);
    const page = releases.json();
    expect(page.releases.map((r: { tag: string | null }) => r.tag)).toEqual([null, 'v1.1.0']);
    expect(page.next).toEqual(expect.any(String));
    const rest = await call(keys.publish, 'GET', `/v1/projects/acme-app/drafts/releases?after=${encodeURIComponent(page.next)}`);
    expect(rest.json().releases.map((r: { tag: string | null }) => r.tag)).toEqual(['v1.1.0-beta.1', 'pkg@2.0.0', 'v1.0.0']);
  });

  it('publishes and unpublishes a release note by tag: readers see it only in between', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/changelog/acme-app/releases/v1.1.0' })).statusCode).toBe(404);
    const published = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/v1.1.0/publish');
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({
      project: { slug: 'acme-app' },
      release: { tag: 'v1.1.0', status: 'published', url: '/v1/changelog/acme-app/releases/v1.1.0' },
    });
    expect((await publicRead('/v1/changelog/acme-app/releases/v1.1.0', (r) => r.statusCode === 200)).statusCode).toBe(200);
    // Again: nothing waits, nothing changes.
    expect((await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/v1.1.0/publish')).json().release.status).toBe('published');
    // A package's tag, URL-encoded.
    expect((await call(keys.publish, 'POST', `/v1/projects/acme-app/releases/${encodeURIComponent('pkg@2.0.0')}/publish`)).json().release.tag).toBe(
      'pkg@2.0.0',
    );

    const unpublished = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/v1.1.0/unpublish');
    expect(unpublished.json().release).toMatchObject({ status: 'draft', published_at: null });
    expect((await publicRead('/v1/changelog/acme-app/releases/v1.1.0', (r) => r.statusCode === 404)).statusCode).toBe(404);
  });

  it('publishes the pending revision of a published note, which the listing shows until then', async () => {
    await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/v1.0.0/publish');
    await ctx.services.entries.editRelease(acme.id, 'v1.0.0', { action: 'introduction', text: 'Our first release, introduced.' });
    const waiting = (await call(keys.publish, 'GET', '/v1/projects/acme-app/drafts/releases')).json().releases.find((r: { tag: string }) => r.tag === 'v1.0.0');
    expect(waiting).toMatchObject({ status: 'published', pending_revision: true });
    const publicBefore = (await ctx.app.inject({ method: 'GET', url: '/v1/changelog/acme-app/releases/v1.0.0' })).json().release;
    expect(publicBefore.introduction).toBeNull();
    await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/v1.0.0/publish');
    const publicAfter = (await publicRead('/v1/changelog/acme-app/releases/v1.0.0', (r) => r.json().release?.introduction !== null)).json().release;
    expect(publicAfter.introduction).toBe('Our first release, introduced.');
  });

  it('publishes only the content CI looked at when it sends `content_version`: a change since is refused with 409, nothing published', async () => {
    const listed = (await call(keys.publish, 'GET', '/v1/projects/acme-app/drafts/releases')).json().releases;
    const beta = listed.find((r: { tag: string | null }) => r.tag === 'v1.1.0-beta.1');
    expect(beta.content_version).toEqual(expect.any(String));
    // An editor (or a generation run) changes the note after CI's look.
    await ctx.services.entries.editRelease(acme.id, 'v1.1.0-beta.1', { action: 'introduction', text: 'Written after CI looked.' });
    const stale = await call(keys.publish, 'POST', `/v1/projects/acme-app/releases/v1.1.0-beta.1/publish?content_version=${beta.content_version}`);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'conflict', error: expect.stringMatching(/changed since/) });
    expect(await statusOf('release_notes', 'tag', 'v1.1.0-beta.1')).toEqual(['draft']);
    const fresh = (await call(keys.publish, 'GET', '/v1/projects/acme-app/drafts/releases')).json().releases.find((r: { tag: string | null }) => r.tag === 'v1.1.0-beta.1');
    expect(fresh.content_version).not.toBe(beta.content_version);
    const ok = await call(keys.publish, 'POST', `/v1/projects/acme-app/releases/v1.1.0-beta.1/publish?content_version=${fresh.content_version}`);
    expect(ok.json().release).toMatchObject({ status: 'published' });
    await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/v1.1.0-beta.1/unpublish');

    const entry = (await call(keys.publish, 'GET', '/v1/projects/acme-app/drafts/entries')).json().entries.find((e: { id: string }) => e.id === draftId);
    await sql`UPDATE changelog_entries SET title = 'Regenerated', updated_at = now() + interval '1 second' WHERE id = ${draftId}`.execute(db());
    const refused = await call(keys.publish, 'POST', `/v1/projects/acme-app/entries/${draftId}/publish?content_version=${entry.content_version}`);
    expect(refused.statusCode).toBe(409);
    expect(await statusOf('changelog_entries', 'id', draftId)).toEqual(['draft']);
    // A malformed version is a 400 naming it, and changes nothing.
    const malformed = await call(keys.publish, 'POST', `/v1/projects/acme-app/entries/${draftId}/publish?content_version=x%20y`);
    expect(malformed.statusCode).toBe(400);
    expect(JSON.stringify(malformed.json())).toContain('content_version');
    expect(await statusOf('changelog_entries', 'id', draftId)).toEqual(['draft']);
  });

  it('publishes and unpublishes an entry by id', async () => {
    const published = await call(keys.publish, 'POST', `/v1/projects/acme-app/entries/${draftId}/publish`);
    expect(published.statusCode).toBe(200);
    expect(published.json().entry).toMatchObject({ id: draftId, status: 'published', published_at: expect.any(String) });
    expect((await publicRead(`/v1/changelog/acme-app/entries/${draftId}`, (r) => r.statusCode === 200)).statusCode).toBe(200);
    const unpublished = await call(keys.publish, 'POST', `/v1/projects/acme-app/entries/${draftId}/unpublish`);
    expect(unpublished.json().entry).toMatchObject({ status: 'draft', published_at: null });
    expect((await publicRead(`/v1/changelog/acme-app/entries/${draftId}`, (r) => r.statusCode === 404)).statusCode).toBe(404);
  });

  it('unpublishes only what is published: an archived entry or note stays archived (a draft could later be published by an `auto` policy)', async () => {
    await ctx.services.entries.archive(draftId);
    const entry = await call(keys.publish, 'POST', `/v1/projects/acme-app/entries/${draftId}/unpublish`);
    expect(entry.statusCode).toBe(200);
    expect(entry.json().entry).toMatchObject({ id: draftId, status: 'archived' });
    await ctx.services.entries.archiveRelease('acme-app', 'v1.0.0');
    const release = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/v1.0.0/unpublish');
    expect(release.statusCode).toBe(200);
    expect(release.json().release).toMatchObject({ tag: 'v1.0.0', status: 'archived' });
  });
});

describe('sync and preview', () => {
  it("queues a sync of the project's link, and the owner's tenant limit stops a flood", async () => {
    for (let i = 0; i < TENANT_ACTIONS_MAX; i++) {
      const res = await call(keys.publish, 'POST', `/v1/projects/acme-app/repos/${linkId}/sync`);
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ project: { id: acme.id, slug: 'acme-app' }, link: { id: linkId }, queued: true });
    }
    const limited = await call(keys.publish, 'POST', `/v1/projects/acme-app/repos/${linkId}/sync`);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toContain('RATE_LIMIT_TENANT_ACTIONS_MAX');
    // Another tenant pays its own way.
    expect((await call(keys.bob, 'POST', `/v1/projects/bob-app/repos/${bobLinkId}/sync`)).statusCode).toBe(202);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'repo-ingest' AND singleton_key = ${linkId}`.execute(db());
    expect(rows[0]!.n).toBeGreaterThanOrEqual(1);
  });

  it('previews the note of a tag, of a tag about to be pushed, and what is unreleased at a commit, storing nothing', async () => {
    const before = await db().selectFrom('release_notes').select(['tag', 'status', 'updated_at']).where('project_id', '=', acme.id).orderBy('tag').execute();

    const tagged = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/preview', { ref: 'v1.1.0' });
    expect(tagged.statusCode).toBe(200);
    expect(tagged.json().preview).toMatchObject({ tag: 'v1.1.0', previous_tag: 'v1.0.0', sha: history.e.sha });
    expect(tagged.json().preview.content).toContain('Final fix');

    // The fixture's SHAs share their first 30 digits: an abbreviation names several commits.
    const ambiguous = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/preview', { ref: history.f.sha.slice(0, 12) });
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json().error).toContain('ambiguous');

    const upcoming = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/preview', { ref: history.f.sha, tag: 'v1.2.0' });
    expect(upcoming.statusCode).toBe(200);
    expect(upcoming.json().preview).toMatchObject({ tag: 'v1.2.0', previous_tag: 'v1.1.0', version: '1.2.0', prerelease: false, commits: 1 });
    expect(upcoming.json().preview.content).toContain('Not released yet');

    const unreleased = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/preview', { ref: history.f.sha });
    expect(unreleased.statusCode).toBe(200);
    expect(unreleased.json().preview).toMatchObject({ tag: null, previous_tag: 'v1.1.0' });
    // At an older commit the history ends there: what was unreleased then, nothing of the later commits.
    const earlier = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/preview', { ref: history.a.sha });
    expect(earlier.statusCode).toBe(200);
    expect(earlier.json().preview).toMatchObject({ tag: null, previous_tag: null, sha: history.a.sha, commits: 1 });
    expect(earlier.json().preview.content).toContain('First feature');
    expect(earlier.json().preview.content).not.toContain('Not released yet');

    const unknown = await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/preview', { ref: 'v7.0.0' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details).toEqual([expect.objectContaining({ parameter: 'ref' })]);

    expect(await db().selectFrom('release_notes').select(['tag', 'status', 'updated_at']).where('project_id', '=', acme.id).orderBy('tag').execute()).toEqual(
      before,
    );

    // The seventh preview of the window is over the tenant's limit (previews count apart from syncs).
    expect((await call(keys.publish, 'POST', '/v1/projects/acme-app/releases/preview', { ref: 'v1.1.0' })).statusCode).toBe(429);
  });

  it('refuses a preview tag that already names another commit', async () => {
    const commit = buildCommit({ parents: [history.f.sha], message: 'fix: later', date: '2024-03-07T10:00:00Z' });
    // Bob's project (a tenant of its own, whose preview budget is untouched).
    await storeCommits(ctx.services, bobProject.id, [...history.commits, commit]);
    const res = await call(keys.bob, 'POST', '/v1/projects/bob-app/releases/preview', { ref: commit.sha, tag: 'v1.0.0' });
    expect(res.statusCode).toBe(409);
    expect(res.json().details).toEqual([expect.objectContaining({ parameter: 'tag' })]);
  });
});

describe('the OpenAPI document', () => {
  it('marks every automation operation as an extension that needs the publish scope', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { tags: string[]; security: unknown; 'x-extension'?: boolean }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
    const publishing = operations.filter((o) => o.op.tags?.includes('publishing'));
    expect(publishing.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual(
      [
        'GET /v1/projects/{slug}/drafts/entries',
        'GET /v1/projects/{slug}/drafts/releases',
        'POST /v1/projects/{slug}/entries/{id}/publish',
        'POST /v1/projects/{slug}/entries/{id}/unpublish',
        'POST /v1/projects/{slug}/releases/{tag}/publish',
        'POST /v1/projects/{slug}/releases/{tag}/unpublish',
        'POST /v1/projects/{slug}/repos/{id}/sync',
        'POST /v1/projects/{slug}/releases/preview',
      ].sort(),
    );
    for (const { op } of publishing) {
      expect(op['x-extension']).toBe(true);
      expect(op.security).toEqual([{ bearerAuth: ['publish'] }]);
    }
  });
});
