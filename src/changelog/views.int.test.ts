import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntryType } from '../db/schema.js';
import { createTestContext, getFrom, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser, generatedJson, insertEntries } from '../../test/helpers/factories.js';
import { eventually } from '../../test/helpers/eventually.js';

/**
 * GET /v1/changelog/{slug}?view=…: one kind of entry at a time, as on the public page, so that a
 * reader (the widget) does not see one change as its commit entry, in its week and in its month.
 */
let ctx: TestContext;
let base: string;
let project: { id: string; slug: string };
let other: { id: string; slug: string };
/** Published entry ids of `acme-app` by type, newest first. */
const byType: Record<EntryType, string[]> = { commit: [], daily: [], weekly: [], monthly: [] };
const hidden: string[] = [];

interface Listing {
  entries: { id: string; entry_type: string; status: string; published_at: string }[];
  meta: { limit: number; offset: number; count: number; total: number; has_more: boolean; next_cursor: string | null; view?: string };
}

const get = getFrom(() => ctx);
const list = async (query: string): Promise<Listing> => {
  const res = await get(`/v1/changelog/acme-app?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const ids = (listing: Listing) => listing.entries.map((e) => e.id);

const HOUR = 3_600_000;
const start = Date.parse('2026-01-05T00:00:00Z');

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  const user = await buildUser(ctx.services);
  project = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'acme-app', name: 'Acme App' });
  other = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'other-app' });

  // Four weeks as history publishes them: a commit entry every 8 hours, a daily at each day's end,
  // a weekly at each week's end, a monthly at the end. Entries of one instant tie-break by id.
  const rows: { type: EntryType; at: number }[] = [];
  for (let h = 8; h <= 28 * 24; h += 8) rows.push({ type: 'commit', at: start + h * HOUR });
  for (let d = 1; d <= 28; d++) rows.push({ type: 'daily', at: start + d * 24 * HOUR });
  for (let w = 1; w <= 4; w++) rows.push({ type: 'weekly', at: start + w * 7 * 24 * HOUR });
  rows.push({ type: 'monthly', at: start + 28 * 24 * HOUR });
  const inserted = await insertEntries(
    ctx.services,
    project.id,
    rows.map(({ type, at }, i) => ({
      entry_type: type,
      status: 'published' as const,
      title: `${type} ${i}`,
      published_at: new Date(at),
      generated_json: JSON.stringify(generatedJson(`${type} ${i}`)),
    })),
  );
  const order = rows.map((r, i) => ({ ...r, id: inserted[i]! })).sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
  for (const row of order) byType[row.type].push(row.id);

  // Never listed in any view: drafts and archived entries of every type, and another project's entries.
  for (const type of ['commit', 'daily', 'weekly', 'monthly'] as const) {
    hidden.push(
      ...(await insertEntries(ctx.services, project.id, [
        { entry_type: type, status: 'draft', title: `Secret ${type} draft` },
        { entry_type: type, status: 'archived', title: `Archived ${type}` },
      ])),
      ...(await insertEntries(ctx.services, other.id, [
        { entry_type: type, status: 'published', title: `Other ${type}`, published_at: new Date(start + 30 * 24 * HOUR) },
      ])),
    );
  }
  // Let the inserts' change notifications arrive before anything is cached.
  await new Promise((r) => setTimeout(r, 300));
}, 60_000);

afterAll(async () => ctx?.close());

describe('GET /v1/changelog/{slug}?view= (user)', () => {
  it.each(['commit', 'daily', 'weekly', 'monthly'] as const)('view=%s lists only %s entries, newest first, with their total', async (type) => {
    const body = await list(`view=${type}&limit=100`);
    expect(body.entries.every((e) => e.entry_type === type && e.status === 'published')).toBe(true);
    expect(ids(body)).toEqual(byType[type]);
    expect(body.meta).toEqual({ limit: 100, offset: 0, count: byType[type].length, total: byType[type].length, has_more: false, next_cursor: null, view: type });
  });

  it('view=all lists every type, the same entries as without a view', async () => {
    const all = await list('view=all&limit=100');
    const plain = await list('limit=100');
    expect(ids(all)).toEqual(ids(plain));
    expect(all.meta).toEqual({ ...plain.meta, view: 'all' });
    expect(new Set(all.entries.map((e) => e.entry_type))).toEqual(new Set(['commit', 'daily', 'weekly', 'monthly']));
  });

  it('without a view the response is as before views existed: no `view` in meta, the project total', async () => {
    const body = await list('limit=5');
    expect(Object.keys(body.meta)).toEqual(['limit', 'offset', 'count', 'total', 'has_more', 'next_cursor']);
    expect(body.meta.total).toBe(Object.values(byType).flat().length);
  });

  it('pages a view by cursor: every entry of the view once, in order, has_more until the last page', async () => {
    const walked: string[] = [];
    let url = 'view=daily&limit=6';
    for (let page = 0; page < 10; page++) {
      const body = await list(url);
      expect(body.meta.total).toBe(byType.daily.length);
      walked.push(...ids(body));
      if (!body.meta.next_cursor) {
        expect(body.meta.has_more).toBe(false);
        break;
      }
      expect(body.meta.has_more).toBe(true);
      url = `view=daily&limit=6&cursor=${body.meta.next_cursor}`;
    }
    expect(walked).toEqual(byType.daily);
  });

  it('pages a view by offset, counted within the view, also after a cursor', async () => {
    const pages = await Promise.all([0, 10, 20, 30].map((offset) => list(`view=commit&limit=10&offset=${offset}`)));
    expect(pages.flatMap(ids)).toEqual(byType.commit.slice(0, 40));
    expect(pages.map((p) => p.meta.has_more)).toEqual([true, true, true, true]);
    const last = await list(`view=commit&limit=100&offset=80`);
    expect(ids(last)).toEqual(byType.commit.slice(80));
    expect(last.meta).toMatchObject({ count: byType.commit.length - 80, total: byType.commit.length, has_more: false, next_cursor: null });
    const afterCursor = await list(`view=commit&limit=5&offset=3&cursor=${pages[0]!.meta.next_cursor}`);
    expect(ids(afterCursor)).toEqual(byType.commit.slice(13, 18));
    // Deep offsets (read on their own) count within the view too.
    const deep = await list('view=weekly&offset=2000');
    expect(deep.meta).toMatchObject({ count: 0, total: 4, has_more: false, view: 'weekly' });
  });

  it('concurrent requests for different views, read in one batch, each get their own view', async () => {
    const queries = ['view=weekly&limit=2', 'view=monthly', 'view=commit&limit=3', 'view=daily&offset=5&limit=2', 'limit=4', 'view=all&limit=4', 'view=default&limit=2'];
    const together = await Promise.all(queries.map((q) => get(`/v1/changelog/acme-app?${q}&together=1`)));
    for (const [i, q] of queries.entries()) {
      const alone = await get(`/v1/changelog/acme-app?${q}&alone=1`);
      expect(together[i]!.body, q).toBe(alone.body);
    }
    expect(ids(together[0]!.json())).toEqual(byType.weekly.slice(0, 2));
    expect(ids(together[3]!.json())).toEqual(byType.daily.slice(5, 7));
  });

  it("view=default lists the project's default view: its setting, else weekly, monthly, daily or every change, whichever it has", async () => {
    // Automatic: the project has weekly entries.
    expect(await list('view=default&limit=100')).toMatchObject({ meta: { view: 'weekly', total: 4 } });
    await ctx.services.projects.setPublicView(project.id, 'monthly');
    const monthly = await eventually(() => list('view=default&limit=100'), (b) => b.meta.view === 'monthly');
    expect(ids(monthly)).toEqual(byType.monthly);
    await ctx.services.projects.setPublicView(project.id, 'all');
    const all = await eventually(() => list('view=default&limit=100'), (b) => b.meta.view === 'all');
    expect(all.meta.total).toBe(Object.values(byType).flat().length);
    await ctx.services.projects.setPublicView(project.id, null);
    await eventually(() => list('view=default'), (b) => b.meta.view === 'weekly');
  });

  it('the automatic default follows what is published, as the public page does', async () => {
    const user = await buildUser(ctx.services);
    const fresh = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'fresh-app' });
    const viewOf = async () => (await get('/v1/changelog/fresh-app?view=default')).json().meta.view;
    const pageView = async () => /aria-current="page">([^<]+)</.exec((await get('/c/fresh-app')).body)?.[1];
    // Nothing published: everything (which is nothing).
    expect((await get('/v1/changelog/fresh-app?view=default')).json().meta).toMatchObject({ view: 'all', total: 0, count: 0 });
    const [commit] = await insertEntries(ctx.services, fresh.id, [{ entry_type: 'commit', status: 'published', published_at: new Date() }]);
    // A weekly draft does not count; the published commit entry does.
    await insertEntries(ctx.services, fresh.id, [{ entry_type: 'weekly', status: 'draft' }]);
    expect(await eventually(viewOf, (v) => v === 'commit')).toBe('commit');
    const [monthly] = await insertEntries(ctx.services, fresh.id, [{ entry_type: 'monthly', status: 'published', published_at: new Date() }]);
    expect(await eventually(viewOf, (v) => v === 'monthly')).toBe('monthly');
    expect(await pageView()).toBe('Monthly');
    await ctx.services.entries.archive(monthly!);
    expect(await eventually(viewOf, (v) => v === 'commit')).toBe('commit');
    // The page's cached copy goes when the change notification arrives, within the second the contract
    // allows; the API's read above may have gone to the database before that (its copy was never stored).
    expect(await eventually(pageView, (v) => v === 'Every change')).toBe('Every change');
    expect(commit).toBeDefined();
  });

  it('the page offers every type it has published, also one whose entries are all older than the newest thousand', async () => {
    const user = await buildUser(ctx.services);
    const busy = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'busy-app' });
    const long = Date.parse('2025-01-01T00:00:00Z');
    await insertEntries(ctx.services, busy.id, [{ entry_type: 'monthly', status: 'published', published_at: new Date(long) }]);
    await insertEntries(
      ctx.services,
      busy.id,
      Array.from({ length: 1001 }, (_, i) => ({ entry_type: 'commit' as const, status: 'published' as const, published_at: new Date(long + (i + 1) * HOUR) })),
    );
    // The monthly entry is the default view (a manager's readers see rollups first), and the menu offers
    // every change beside it.
    const page = await eventually(async () => (await get('/c/busy-app')).body, (body) => body.includes('view=commit'));
    expect(page).toMatch(/href="\/c\/busy-app\?view=commit"/);
    expect(page).toMatch(/aria-current="page">Monthly</);
    const all = (await get('/c/busy-app?view=all')).body;
    expect(all).toMatch(/href="\/c\/busy-app\?view=monthly"/);
  });
});

describe('GET /v1/changelog/{slug}?view= (attacker)', () => {
  it.each([
    ['view=bogus', 'bogus'],
    ['view=releases', 'releases'],
    ['view=WEEKLY', 'WEEKLY'],
    ['view=', ''],
    ['view=weekly&view=monthly', 'two values'],
    ['view=weekly%00', 'a NUL'],
    ['view=' + 'x'.repeat(5000), 'a long value'],
  ])('%s is a 400 naming `view` and its allowed values (%s)', async (query) => {
    const res = await get(`/v1/changelog/acme-app?${query}`);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('invalid_request');
    const detail = body.details.find((d: { parameter: string }) => d.parameter === 'view');
    expect(detail.message).toBe('must be one of: default, weekly, monthly, daily, commit, all');
    expect(body.error).toContain('view must be one of: default, weekly, monthly, daily, commit, all');
    expect(body.error.length).toBeLessThan(300);
  });

  it('a bad view is refused even for an unknown project, before any lookup; a bad cursor still names the cursor', async () => {
    expect((await get('/v1/changelog/no-such-app?view=bogus')).statusCode).toBe(400);
    const res = await get('/v1/changelog/acme-app?view=weekly&cursor=bm90LWEtY3Vyc29y');
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].parameter).toBe('cursor');
  });

  it('never lists drafts, archived entries or other projects, in any view', async () => {
    for (const view of ['commit', 'daily', 'weekly', 'monthly', 'all', 'default']) {
      const res = await get(`/v1/changelog/acme-app?view=${view}&limit=100`);
      const body: Listing = res.json();
      for (const id of hidden) expect(ids(body)).not.toContain(id);
      expect(res.body).not.toMatch(/Secret|Archived|Other /);
      expect(body.entries.every((e) => e.status === 'published')).toBe(true);
    }
    // The other project's views list its own entries only.
    const theirs = (await get('/v1/changelog/other-app?view=weekly')).json();
    expect(theirs.entries.map((e: { title: string }) => e.title)).toEqual(['Other weekly']);
    expect(theirs.meta.total).toBe(1);
  });

  it('an unknown project is a 404 in every view, as without one; a project with nothing published is an empty view', async () => {
    for (const query of ['', '?view=weekly', '?view=default', '?view=all', '?view=default&cursor=' + (await list('limit=1')).meta.next_cursor]) {
      const res = await get(`/v1/changelog/no-such-app${query}`);
      expect(res.statusCode, query).toBe(404);
      expect(res.json()).toEqual({ error: 'Changelog not found', code: 'not_found' });
    }
    const user = await buildUser(ctx.services);
    await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'quiet-app' });
    await insertEntries(ctx.services, (await ctx.services.projects.findBySlug('quiet-app'))!.id, [{ entry_type: 'weekly', status: 'draft', title: 'Secret' }]);
    for (const view of ['weekly', 'default']) {
      const res = await get(`/v1/changelog/quiet-app?view=${view}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().entries).toEqual([]);
      expect(res.body).not.toContain('Secret');
    }
  });

  it("the response cache and the fast path never answer one view's request with another's body or ETag", async () => {
    const http = async (query: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}/v1/changelog/acme-app?${query}`, { headers });
      return { status: res.status, cache: res.headers.get('x-cache'), etag: res.headers.get('etag'), body: await res.text() };
    };
    const queries = ['limit=3', 'limit=3&view=all', 'limit=3&view=weekly', 'limit=3&view=monthly', 'limit=3&view=default', 'limit=3&view=commit'];
    // Twice over: the second round is answered from the cache (the fast path, over HTTP).
    const rounds = [];
    for (let round = 0; round < 2; round++) rounds.push(await Promise.all(queries.map((q) => http(q))));
    for (const [i, query] of queries.entries()) {
      expect(rounds[1]![i]!.cache, query).toBe('hit');
      expect(rounds[1]![i]!.body, query).toBe(rounds[0]![i]!.body);
    }
    const bodies = rounds[0]!.map((r) => JSON.parse(r.body) as Listing);
    expect(bodies[2]!.entries.every((e) => e.entry_type === 'weekly')).toBe(true);
    expect(bodies[3]!.entries.every((e) => e.entry_type === 'monthly')).toBe(true);
    expect(bodies[5]!.entries.every((e) => e.entry_type === 'commit')).toBe(true);
    expect(bodies[0]!.meta.view).toBeUndefined();
    // Every view its own body and ETag; `default` lists what it stands for, and names the page's default view.
    const [weekly, byDefault] = [JSON.parse(rounds[0]![2]!.body) as Listing, JSON.parse(rounds[0]![4]!.body) as Listing];
    expect(byDefault.entries).toEqual(weekly.entries);
    expect(byDefault.meta).toEqual({ ...weekly.meta, default_view: 'weekly' });
    const distinct = rounds[0]!.filter((_, i) => i !== 4);
    expect(new Set(distinct.map((r) => r.body)).size).toBe(distinct.length);
    expect(new Set(distinct.map((r) => r.etag)).size).toBe(distinct.length);
    // One view's ETag revalidates nothing but that view.
    const weeklyTag = rounds[0]![2]!.etag!;
    expect((await http('limit=3&view=weekly', { 'if-none-match': weeklyTag })).status).toBe(304);
    for (const query of ['limit=3', 'limit=3&view=monthly', 'limit=3&view=all']) {
      expect((await http(query, { 'if-none-match': weeklyTag })).status, query).toBe(200);
    }
  });

  it("a change of the project's default drops the cached `view=default` answer (and no other view's is served for it)", async () => {
    const before = await get('/v1/changelog/acme-app?view=default&limit=2');
    expect(before.json().meta.view).toBe('weekly');
    expect((await get('/v1/changelog/acme-app?view=default&limit=2')).headers['x-cache']).toBe('hit');
    await ctx.services.projects.setPublicView(project.id, 'daily');
    const after = await eventually(() => get('/v1/changelog/acme-app?view=default&limit=2'), (r) => r.json().meta.view === 'daily');
    expect(ids(after.json())).toEqual(byType.daily.slice(0, 2));
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // The explicit view's cached answer is what it was.
    expect(ids(await list('view=weekly&limit=2'))).toEqual(byType.weekly.slice(0, 2));
    await ctx.services.projects.setPublicView(project.id, null);
  });

  it('a cursor from one view continues another only with entries of that other view', async () => {
    const weekly = await list('view=weekly&limit=1');
    const monthlyAfter = await list(`view=monthly&cursor=${weekly.meta.next_cursor}`);
    expect(monthlyAfter.entries.every((e) => e.entry_type === 'monthly')).toBe(true);
    const commitAfter = await list(`view=commit&limit=100&cursor=${weekly.meta.next_cursor}`);
    const [newest] = weekly.entries;
    // The commit entries after the weekly entry's place in published order (same instant: smaller id).
    const expected = (await list('view=commit&limit=100')).entries
      .filter((e) => e.published_at < newest!.published_at || (e.published_at === newest!.published_at && e.id < newest!.id))
      .map((e) => e.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(commitAfter)).toEqual(expected);
  });
});
