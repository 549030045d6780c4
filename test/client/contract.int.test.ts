// End-to-end checks of the contract routes through the typed client (packages/client) over real HTTP
// against a listening server: what a consumer of the generated client sees.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChangelogClient, type ChangelogClient } from '../../packages/client/src/index.js';
import { cachedDatasetRepo } from '../helpers/git-fixtures.js';
import { buildProject, buildUser, insertEntries } from '../helpers/factories.js';
import { createScmTestContext, type ScmTestContext } from '../helpers/scm.js';

let ctx: ScmTestContext;
let baseUrl: string;
let anonymous: ChangelogClient;
let authed: ChangelogClient;
let project: { id: string; slug: string };
let publishedIds: string[];
let draftId: string;

beforeAll(async () => {
  ctx = await createScmTestContext();
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  const user = await buildUser(ctx.services);
  project = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'client-e2e', name: 'Client E2E' });
  publishedIds = await insertEntries(
    ctx.services,
    project.id,
    Array.from({ length: 5 }, (_, i) => ({
      status: 'published' as const,
      title: `Release ${i + 1}`,
      published_at: new Date(Date.UTC(2026, 0, i + 1)),
    })),
  );
  draftId = (await insertEntries(ctx.services, project.id, [{ status: 'draft', title: 'Not yet' }]))[0]!;
  const key = (await ctx.services.keys.create({ name: 'client e2e', context: { type: 'user', email: user.email } })).secret;
  anonymous = createChangelogClient(baseUrl);
  authed = createChangelogClient(baseUrl, { apiKey: key });
  ctx.github.addInstallation({
    id: 707,
    account: { login: 'acme', type: 'Organization' },
    repos: [{ owner: 'acme', name: 'widgets', cloneUrl: `file://${cachedDatasetRepo()}`, defaultBranch: 'main' }],
    users: ['ada'],
    admins: ['ada'],
  });
});

afterAll(async () => ctx?.close());

describe('typed client against a listening server', () => {
  it('GET /health', async () => {
    const { data, response } = await anonymous.GET('/health');
    expect(response.status).toBe(200);
    expect(data?.status).toBe('ok');
  });

  it('GET /v1/projects needs a key and lists the key\'s projects with their newest entries', async () => {
    const refused = await anonymous.GET('/v1/projects');
    expect(refused.response.status).toBe(401);
    expect(refused.error?.code).toBe('unauthorized');

    const { data, response } = await authed.GET('/v1/projects', { params: { query: { entries_limit: 2 } } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const listed = data!.projects.find((p) => p.slug === project.slug);
    expect(listed?.name).toBe('Client E2E');
    expect(listed?.changelog_entries.map((e) => e.id)).toEqual([publishedIds[4], publishedIds[3]]);
  });

  it('pages through the public listing with limit/offset and with the cursor, never showing a draft', async () => {
    const first = await anonymous.GET('/v1/changelog/{slug}', { params: { path: { slug: project.slug }, query: { limit: 2 } } });
    expect(first.response.status).toBe(200);
    expect(first.data!.entries.map((e) => e.title)).toEqual(['Release 5', 'Release 4']);
    expect(first.data!.meta).toMatchObject({ count: 2, total: 5, has_more: true });

    const seen = [...first.data!.entries.map((e) => e.id)];
    let cursor = first.data!.meta.next_cursor;
    while (cursor) {
      const page = await anonymous.GET('/v1/changelog/{slug}', { params: { path: { slug: project.slug }, query: { limit: 2, cursor } } });
      expect(page.response.status).toBe(200);
      seen.push(...page.data!.entries.map((e) => e.id));
      cursor = page.data!.meta.next_cursor;
    }
    expect(seen).toEqual([...publishedIds].reverse());
    expect(seen).not.toContain(draftId);

    const offset = await anonymous.GET('/v1/changelog/{slug}', { params: { path: { slug: project.slug }, query: { limit: 2, offset: 4 } } });
    expect(offset.data!.entries.map((e) => e.title)).toEqual(['Release 1']);
    expect(offset.data!.meta.has_more).toBe(false);

    const bad = await anonymous.GET('/v1/changelog/{slug}', { params: { path: { slug: project.slug }, query: { limit: 0 } } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.details?.[0]?.parameter).toBe('limit');
  });

  it('lists one view with `view` (an addition): the typed client knows its values and meta.view', async () => {
    const weekly = await anonymous.GET('/v1/changelog/{slug}', { params: { path: { slug: project.slug }, query: { view: 'weekly' } } });
    expect(weekly.response.status).toBe(200);
    expect(weekly.data!.entries).toEqual([]);
    expect(weekly.data!.meta).toMatchObject({ total: 0, view: 'weekly' });
    // The project has published commit entries only: that is its default view.
    const byDefault = await anonymous.GET('/v1/changelog/{slug}', { params: { path: { slug: project.slug }, query: { view: 'default', limit: 2 } } });
    expect(byDefault.data!.meta).toMatchObject({ view: 'commit', total: 5, count: 2 });
    expect(byDefault.data!.entries.map((e) => e.title)).toEqual(['Release 5', 'Release 4']);
  });

  it('answers a conditional request with 304', async () => {
    const first = await anonymous.GET('/v1/changelog/{slug}', { params: { path: { slug: project.slug } } });
    const etag = first.response.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await anonymous.GET('/v1/changelog/{slug}', { params: { path: { slug: project.slug } }, headers: { 'if-none-match': etag! } });
    expect(again.response.status).toBe(304);
  });

  it('GET a single published entry; a draft is 404', async () => {
    const { data, response } = await anonymous.GET('/v1/changelog/{slug}/entries/{id}', {
      params: { path: { slug: project.slug, id: publishedIds[0]! } },
    });
    expect(response.status).toBe(200);
    expect(data?.entry.title).toBe('Release 1');
    expect(data?.entry.status).toBe('published');

    const draft = await anonymous.GET('/v1/changelog/{slug}/entries/{id}', { params: { path: { slug: project.slug, id: draftId } } });
    expect(draft.response.status).toBe(404);
    expect(draft.error?.code).toBe('not_found');
  });

  it('records a GitHub installation and links a repository', async () => {
    // The proof of ownership GitHub's user authorization gives: a code for an admin of the account.
    const code = ctx.github.authorize('ada');
    const installed = await authed.GET('/v1/scm/callback', { params: { query: { installation_id: 707, setup_action: 'install', code } } });
    expect(installed.response.status).toBe(200);
    const recorded = installed.data!;
    if (!('installationId' in recorded)) throw new Error('installation not recorded');
    const installationId = recorded.installationId;

    const linked = await authed.POST('/v1/projects/{projectId}/repos', {
      params: { path: { projectId: project.id } },
      body: { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'widgets', trackedBranch: 'main' },
    });
    expect(linked.response.status).toBe(200);
    expect(linked.data).toMatchObject({ projectId: project.id, repoOwner: 'acme', repoName: 'widgets', trackedBranch: 'main' });

    const unknown = await authed.POST('/v1/projects/{projectId}/repos', {
      params: { path: { projectId: project.id } },
      body: { scmInstallationId: installationId, repoOwner: 'acme', repoName: 'missing', trackedBranch: 'main' },
    });
    expect(unknown.response.status).toBe(422);
  });
});
