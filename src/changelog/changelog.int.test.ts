import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, getFrom, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser, generatedJson, insertEntries } from '../../test/helpers/factories.js';
import { eventually } from '../../test/helpers/eventually.js';

let ctx: TestContext;
let project: { id: string; slug: string };
let other: { id: string; slug: string };
const published: string[] = [];
let draftId: string;
let archivedId: string;
let otherEntryId: string;

const get = getFrom(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  const user = await buildUser(ctx.services);
  project = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'acme-app', name: 'Acme App' });
  other = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'other' });

  // 25 published entries; entries 10..12 share one published_at so ordering falls back to id.
  const base = Date.parse('2026-01-01T00:00:00Z');
  const rows = Array.from({ length: 25 }, (_, i) => ({
    status: 'published' as const,
    title: `Entry ${i}`,
    published_at: new Date(i >= 10 && i <= 12 ? base + 10 * 3_600_000 : base + i * 3_600_000),
    generated_json: JSON.stringify(generatedJson(`Entry ${i}`)),
    component_tags: ['core'],
    commit_shas: ['a'.repeat(40)],
  }));
  published.push(...(await insertEntries(ctx.services, project.id, rows)));
  draftId = (await insertEntries(ctx.services, project.id, [{ status: 'draft', title: 'Secret draft' }]))[0]!;
  archivedId = (await insertEntries(ctx.services, project.id, [{ status: 'archived', title: 'Old' }]))[0]!;
  otherEntryId = (await insertEntries(ctx.services, other.id, [
    { status: 'published', title: 'Other', published_at: new Date(base) },
  ]))[0]!;
});

afterAll(async () => ctx?.close());

describe('GET /v1/changelog/{slug}', () => {
  it('returns the first page of published entries with the defaults limit=20, offset=0', async () => {
    const res = await get('/v1/changelog/acme-app');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.project).toEqual({ id: project.id, name: 'Acme App', slug: 'acme-app' });
    expect(body.entries).toHaveLength(20);
    expect(body.meta).toEqual({ limit: 20, offset: 0, count: 20, total: 25, has_more: true, next_cursor: expect.any(String) });
    expect(body.entries.every((e: { status: string }) => e.status === 'published')).toBe(true);
  });

  it('orders entries by published_at desc, then id desc for ties', async () => {
    const body = (await get('/v1/changelog/acme-app?limit=100')).json();
    const entries = body.entries as { id: string; published_at: string }[];
    expect(entries).toHaveLength(25);
    for (let i = 1; i < entries.length; i++) {
      const [a, b] = [entries[i - 1]!, entries[i]!];
      const byDate = Date.parse(a.published_at) - Date.parse(b.published_at);
      expect(byDate > 0 || (byDate === 0 && a.id > b.id)).toBe(true);
    }
    const tied = entries.filter((e) => e.published_at === '2026-01-01T10:00:00.000Z').map((e) => e.id);
    expect(tied).toHaveLength(3);
    expect(tied).toEqual([...tied].sort().reverse());
  });

  it('never shows drafts, archived entries or other projects', async () => {
    const body = (await get('/v1/changelog/acme-app?limit=100')).json();
    const ids = body.entries.map((e: { id: string }) => e.id);
    expect(ids).not.toContain(draftId);
    expect(ids).not.toContain(archivedId);
    expect(ids).not.toContain(otherEntryId);
    expect(new Set(ids)).toEqual(new Set(published));
  });

  it('pages with offset, and reports the last page', async () => {
    const body = (await get('/v1/changelog/acme-app?limit=10&offset=20')).json();
    expect(body.entries).toHaveLength(5);
    expect(body.meta).toEqual({ limit: 10, offset: 20, count: 5, total: 25, has_more: false, next_cursor: null });
    const beyond = (await get('/v1/changelog/acme-app?offset=1000')).json();
    expect(beyond.entries).toEqual([]);
    expect(beyond.meta).toMatchObject({ count: 0, has_more: false });
  });

  it.each([
    ['limit=1', 1],
    ['limit=100', 25],
    ['offset=0', 20],
  ])('accepts the boundary %s', async (query, expected) => {
    const res = await get(`/v1/changelog/acme-app?${query}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().entries).toHaveLength(expected);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=2.5', 'offset'],
    ['offset=x', 'offset'],
    ['limit=1&limit=2', 'limit'],
    // Forms Ajv's coercion would read as numbers: an integer in a URL is decimal digits.
    ['limit=1e1', 'limit'],
    ['limit=0x10', 'limit'],
    ['limit=+5', 'limit'],
    ['limit=%205', 'limit'],
    ['offset=1e2', 'offset'],
  ])('rejects %s with a 400 naming the parameter', async (query, parameter) => {
    const res = await get(`/v1/changelog/acme-app?${query}`);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toEqual(expect.any(String));
    expect(body.details.map((d: { parameter: string }) => d.parameter)).toContain(parameter);
  });

  it('names every offending parameter at once', async () => {
    const res = await get('/v1/changelog/acme-app?limit=0&offset=-1');
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { parameter: string }) => d.parameter).sort()).toEqual(['limit', 'offset']);
  });

  it('ignores unknown query parameters', async () => {
    const res = await get('/v1/changelog/acme-app?utm_source=x&limit=2');
    expect(res.statusCode).toBe(200);
    expect(res.json().entries).toHaveLength(2);
  });

  it('answers 404 for an unknown slug and 400 for a malformed one', async () => {
    const missing = await get('/v1/changelog/no-such-project');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'Changelog not found', code: 'not_found' });
    for (const bad of ['Bad_Slug', 'a', 'x'.repeat(65), 'a--b']) {
      const res = await get(`/v1/changelog/${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].parameter).toBe('slug');
    }
  });

  it('sends ETag and Cache-Control, and 304 for a matching If-None-Match', async () => {
    const first = await get('/v1/changelog/acme-app');
    expect(first.headers['cache-control']).toBe('public, max-age=30');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const again = await get('/v1/changelog/acme-app', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const otherPage = await get('/v1/changelog/acme-app?limit=5');
    expect(otherPage.headers.etag).not.toBe(etag);
  });

  it('changes the ETag when a published entry changes', async () => {
    const before = (await get('/v1/changelog/acme-app')).headers.etag;
    await ctx.services.entries.unpublish(published[24]!);
    const after = await eventually(() => get('/v1/changelog/acme-app'), (r) => r.headers.etag !== before);
    expect(after.headers.etag).not.toBe(before);
    expect(after.json().meta.total).toBe(24);
    await ctx.services.entries.publish(published[24]!);
    const restored = await eventually(() => get('/v1/changelog/acme-app'), (r) => r.json().meta.total === 25);
    expect(restored.json().meta.total).toBe(25);
  });

  it('serializes every field of a ChangelogEntry', async () => {
    const body = (await get('/v1/changelog/acme-app?limit=1')).json();
    expect(Object.keys(body.entries[0]).sort()).toEqual(
      [
        'id', 'project_id', 'entry_type', 'status', 'title', 'content', 'generated_json', 'version_label',
        'team_attribution', 'component_tags', 'commit_id', 'commit_shas', 'period_start', 'period_end',
        'published_at', 'created_at', 'updated_at',
      ].sort(),
    );
    expect(body.entries[0].generated_json.sections[0].items[0]).toEqual({ text: 'Add a thing', component: 'core' });
    expect(body.entries[0].published_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.entries[0].period_start).toBeNull();
  });
});

describe('GET /v1/changelog/{slug}/entries/{id}', () => {
  it('returns a published entry of the project', async () => {
    const res = await get(`/v1/changelog/acme-app/entries/${published[3]}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().entry).toMatchObject({ id: published[3], project_id: project.id, status: 'published' });
    expect(res.headers.etag).toBeDefined();
    expect(res.headers['cache-control']).toBe('public, max-age=30');
  });

  it('accepts an upper-case uuid', async () => {
    const res = await get(`/v1/changelog/acme-app/entries/${published[3]!.toUpperCase()}`);
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['a draft', () => draftId],
    ['an archived entry', () => archivedId],
    ["another project's entry", () => otherEntryId],
    ['an unknown id', () => '00000000-0000-4000-8000-000000000000'],
  ])('answers 404 for %s', async (_label, id) => {
    const res = await get(`/v1/changelog/acme-app/entries/${id()}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Entry not found', code: 'not_found' });
  });

  it('answers 404 for an unknown project', async () => {
    expect((await get(`/v1/changelog/nope/entries/${published[0]}`)).statusCode).toBe(404);
  });

  it.each(['not-a-uuid', '123', `urn:uuid:${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(11)}`])(
    'answers 400 for the malformed id %s',
    async (id) => {
      const res = await get(`/v1/changelog/acme-app/entries/${encodeURIComponent(id)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0]).toMatchObject({ in: 'params', parameter: 'id' });
    },
  );
});

describe('errors in general', () => {
  it('answers unknown routes with a 404 ErrorResponse', async () => {
    const res = await get('/v2/nothing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Route GET /v2/nothing not found', code: 'not_found' });
  });

  it('answers GET /health', async () => {
    const res = await get('/health');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ status: 'ok', timestamp: expect.any(String), service: 'changelog-service', nodeEnv: 'test' });
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
  });
});

describe('cursor pagination (addition)', () => {
  it('walks every published entry exactly once, in order, with next_cursor', async () => {
    const all = (await get('/v1/changelog/acme-app?limit=100')).json().entries.map((e: { id: string }) => e.id);
    const walked: string[] = [];
    let url = '/v1/changelog/acme-app?limit=7';
    for (let pages = 0; pages < 10; pages++) {
      const body = (await get(url)).json();
      walked.push(...body.entries.map((e: { id: string }) => e.id));
      if (!body.meta.next_cursor) {
        expect(body.meta.has_more).toBe(false);
        break;
      }
      expect(body.meta.has_more).toBe(true);
      url = `/v1/changelog/acme-app?limit=7&cursor=${body.meta.next_cursor}`;
    }
    expect(walked).toEqual(all);
  });

  it('does not repeat entries when a new one is published between pages', async () => {
    const first = (await get('/v1/changelog/acme-app?limit=5')).json();
    const [fresh] = await insertEntries(ctx.services, project.id, [
      { status: 'published', title: 'Brand new', published_at: new Date() },
    ]);
    const second = (await get(`/v1/changelog/acme-app?limit=5&cursor=${first.meta.next_cursor}`)).json();
    const ids = [...first.entries, ...second.entries].map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(10);
    expect(ids).not.toContain(fresh);
    await ctx.services.entries.archive(fresh!);
  });

  it('refuses a cursor it did not issue', async () => {
    const res = await get('/v1/changelog/acme-app?cursor=bm90LWEtY3Vyc29y');
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].parameter).toBe('cursor');
  });
});

describe('response cache', () => {
  it('answers a repeated request from the cache with the same bytes and ETag', async () => {
    await new Promise((r) => setTimeout(r, 300)); // let earlier tests' change notifications arrive
    const first = await get('/v1/changelog/acme-app?limit=3&offset=1');
    const second = await get('/v1/changelog/acme-app?limit=3&offset=1');
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it('never lets a draft through, and shows a change made by plain SQL at once', async () => {
    const before = await get('/v1/changelog/acme-app?limit=100');
    await insertEntries(ctx.services, project.id, [{ status: 'draft', title: 'Another secret draft' }]);
    const afterDraft = await get('/v1/changelog/acme-app?limit=100');
    expect(afterDraft.body).not.toContain('secret draft');
    expect(afterDraft.json().entries).toHaveLength(before.json().entries.length);

    await ctx.database.db.updateTable('changelog_entries').set({ title: 'Retitled by SQL' }).where('id', '=', published[0]!).execute();
    const after = await eventually(() => get('/v1/changelog/acme-app?limit=100'), (r) => r.body.includes('Retitled by SQL'));
    expect(after.body).toContain('Retitled by SQL');
    const entry = await get(`/v1/changelog/acme-app/entries/${published[0]}`);
    expect(entry.json().entry.title).toBe('Retitled by SQL');
  });
});
