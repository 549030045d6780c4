// The dashboard's review queue: newest first by each entry's own date, filters, counts, keyset
// pages, bulk publish/archive/regenerate of ticked entries or of all matching a filter, and who may.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import type { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { dashboardCast } from '../../test/helpers/dashboard-cast.js';
import { buildProject, insertEntries } from '../../test/helpers/factories.js';
import { removeRepoCopy, smallRepo } from '../../test/helpers/git-fixtures.js';
import { BULK_LIMIT } from '../entries/entries.service.js';

let ctx: TestContext;
let alice: DashboardClient;
let carol: DashboardClient;
let repo: string;
let app: { id: string; slug: string };
let other: { id: string; slug: string };
let otherIds: string[];
/** Titles of acme-app's entries, newest first by their own date (the order the queue must show). */
const ordered: string[] = [];

const db = () => ctx.services.database.db;
const review = (query = '') => `/dashboard/projects/${app.slug}/review${query}`;
const bulk = () => `/dashboard/projects/${app.slug}/review/bulk`;
const titlesOn = (body: string) => [...body.matchAll(/<a href="\/dashboard\/entries\/[0-9a-f-]{36}">([^<]*)<\/a>/g)].map((m) => m[1]!);
const idsOn = (body: string) => [...body.matchAll(/name="ids" value="([0-9a-f-]{36})"/g)].map((m) => m[1]!);
const statusOf = async (ids: string[]) =>
  Object.fromEntries((await db().selectFrom('changelog_entries').select(['id', 'status']).where('id', 'in', ids).execute()).map((r) => [r.id, r.status]));
const week = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 7 * 86_400_000).toISOString();
const json = (sections: string[]) => JSON.stringify({ title: 't', headline_items: [], sections: sections.map((k) => ({ section_type_key: k, label: k, items: [{ text: 'x', component: null }] })), component_tags: [], team_attribution: null });

beforeAll(async () => {
  ctx = await createTestContext({ SIGNUP_OPEN: 'true' });
  ({ alice, carol, app, other } = await dashboardCast(ctx, 'dave-blog'));

  // Stored newest first and oldest last: the queue must order by the entries' own dates, not by storing.
  await insertEntries(ctx.services, app.id, [5, 4, 3].map((i) => ({ entry_type: 'weekly' as const, title: `W${i}`, period_start: week(i), period_end: week(i + 1), generated_json: json(i % 2 ? ['fix'] : ['feature']) })));
  await insertEntries(ctx.services, app.id, [2, 1, 0].map((i) => ({ entry_type: 'weekly' as const, title: `W${i}`, period_start: week(i), period_end: week(i + 1), generated_json: json(i % 2 ? ['fix', 'feature'] : ['feature']) })));
  // Two entries of one date: the id decides, so no page repeats or skips one.
  await insertEntries(ctx.services, app.id, ['Ma', 'Mb'].map((title) => ({ entry_type: 'monthly' as const, title, period_start: week(2), period_end: week(6) })));
  await insertEntries(ctx.services, app.id, [{ entry_type: 'weekly', title: 'Wpub', status: 'published', published_at: week(7), period_start: week(6), period_end: week(7) }]);
  otherIds = await insertEntries(ctx.services, other.id, [{ entry_type: 'weekly', title: 'Dave W', period_start: week(1), period_end: week(2) }]);

  const rows = await db().selectFrom('changelog_entries').select(['title', 'occurred_at', 'id']).where('project_id', '=', app.id).orderBy('occurred_at', 'desc').orderBy('id', 'desc').execute();
  ordered.push(...rows.map((r) => r.title!));
  repo = smallRepo({ commits: 4 });
});

afterAll(async () => {
  await ctx?.close();
  if (repo) removeRepoCopy(repo);
});

describe('review queue listing', () => {
  it("dates each entry by its period's start, newest first, drafts by default", async () => {
    const rows = await db().selectFrom('changelog_entries').select(['title', 'occurred_at', 'period_start']).where('project_id', '=', app.id).execute();
    for (const r of rows) expect(r.occurred_at).toEqual(r.period_start);
    expect(ordered.slice(0, 3)).toEqual(['Wpub', 'W5', 'W4']);
    const page = await alice.get(review());
    expect(page.status).toBe(200);
    expect(titlesOn(page.body)).toEqual(ordered.filter((t) => t !== 'Wpub'));
    expect(page.body).toContain('8 matching');
  });

  it('orders the project page the same way, not by when entries were stored (a first sync stores years at once)', async () => {
    const page = await alice.get(`/dashboard/projects/${app.slug}`);
    expect(titlesOn(page.body)).toEqual(ordered);
    expect(page.body).not.toContain('The newest 200 by date');
  });

  it('filters by status, type, section and dates, and counts per status and type for the filter', async () => {
    expect(titlesOn((await alice.get(review('?status=all'))).body)).toEqual(ordered);
    expect(titlesOn((await alice.get(review('?status=published'))).body)).toEqual(['Wpub']);
    expect(titlesOn((await alice.get(review('?type=monthly'))).body).sort()).toEqual(['Ma', 'Mb']);
    expect(titlesOn((await alice.get(review('?type=weekly&section=fix'))).body)).toEqual(['W5', 'W3', 'W1']);
    // Dates are whole days: `until` includes its day.
    const since = week(1).slice(0, 10);
    const until = week(3).slice(0, 10);
    expect(titlesOn((await alice.get(review(`?type=weekly&since=${since}&until=${until}`))).body)).toEqual(['W3', 'W2', 'W1']);

    const counts = await ctx.services.entries.reviewCounts(app.id, { type: 'weekly' });
    expect(counts).toEqual({ total: 7, byStatus: { draft: 6, published: 1, archived: 0 }, byType: { commit: 0, daily: 0, weekly: 7, monthly: 2 }, revisions: 0 });
    const page = (await alice.get(review('?type=weekly'))).body;
    expect(page).toMatch(/>draft <span class="count">6<\/span>/);
    expect(page).toMatch(/>monthly <span class="count">2<\/span>/);

    const bad = await alice.get(review('?status=maybe&since=yesterday'));
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('Invalid filter');
  });

  it('pages by (date, id): every entry once, in order', async () => {
    const seen: string[] = [];
    let url = review('?status=all&limit=3');
    for (let i = 0; i < 10 && url; i++) {
      const page = await alice.get(url);
      expect(page.status).toBe(200);
      seen.push(...titlesOn(page.body));
      url = /<a rel="next" href="([^"]+)"/.exec(page.body)?.[1]?.replace(/&amp;/g, '&') ?? '';
    }
    expect(seen).toEqual(ordered);
    // A cursor that no page gave is refused, and the first page shown.
    const forged = await alice.get(review('?after=not-a-cursor'));
    expect(forged.status).toBe(400);
    expect(forged.body).toContain('Invalid page cursor');
    // Past a bigint (and any date the database holds): a 400 too, never the database's overflow (a 500).
    const far = await alice.get(review('?after=9223372036854775808.0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'));
    expect(far.status).toBe(400);
    expect(far.body).toContain('Invalid page cursor');
  });
});

describe('bulk actions', () => {
  it('needs the CSRF token', async () => {
    const ids = idsOn((await alice.get(review())).body).slice(0, 2);
    expect((await alice.post(bulk(), { _csrf: null, action: 'publish', ids })).status).toBe(403);
    expect(Object.values(await statusOf(ids))).toEqual(['draft', 'draft']);
  });

  it('publishes the ticked entries, in one go', async () => {
    const ids = idsOn((await alice.get(review('?type=monthly'))).body);
    const res = await alice.post(bulk(), { action: 'publish', ids, type: 'monthly', status: 'draft' });
    expect(res.status).toBe(303);
    expect(res.location).toContain('done=publish&changed=2');
    expect(Object.values(await statusOf(ids))).toEqual(['published', 'published']);
    expect((await alice.get(res.location!)).body).toContain('Published 2 entries.');
    const stamped = await db().selectFrom('changelog_entries').select('published_at').where('id', 'in', ids).execute();
    expect(stamped.every((r) => r.published_at instanceof Date)).toBe(true);
  });

  it("refuses a selection with another project's entry, and changes nothing", async () => {
    const own = idsOn((await alice.get(review())).body).slice(0, 1);
    const res = await alice.post(bulk(), { action: 'archive', ids: [...own, otherIds[0]!] });
    expect(res.status).toBe(404);
    expect(res.body).toContain('One selected entry is not in this project; nothing was changed');
    expect(await statusOf([...own, otherIds[0]!])).toEqual({ [own[0]!]: 'draft', [otherIds[0]!]: 'draft' });
    // Nor through the service directly.
    await expect(ctx.services.entries.bulkStatus(app.id, 'publish', { ids: otherIds })).rejects.toMatchObject({ code: 'not_found' });
    expect(await statusOf(otherIds)).toEqual({ [otherIds[0]!]: 'draft' });
    // dave's project is not alice's to open at all.
    expect((await alice.post(`/dashboard/projects/${other.slug}/review/bulk`, { action: 'publish', ids: otherIds })).status).toBe(404);
  });

  it('archives everything matching a filter, beyond the page shown, once confirmed', async () => {
    const filter = { status: 'draft', type: 'weekly', section: 'fix' };
    const page = await alice.get(review('?status=draft&type=weekly&section=fix&limit=1'));
    expect(idsOn(page.body)).toHaveLength(1);
    // More match than the person confirmed: nothing changes.
    const stale = await alice.post(bulk(), { action: 'archive', scope: 'matching', expected: '2', ...filter });
    expect(stale.status).toBe(409);
    expect(await ctx.services.entries.reviewCounts(app.id, { status: 'archived' })).toMatchObject({ total: 0 });

    await alice.get(review());
    const res = await alice.post(bulk(), { action: 'archive', scope: 'matching', expected: '3', ...filter });
    expect(res.status).toBe(303);
    expect(res.location).toContain('changed=3');
    const archived = await db().selectFrom('changelog_entries').select('title').where('project_id', '=', app.id).where('status', '=', 'archived').execute();
    expect(archived.map((r) => r.title).sort()).toEqual(['W1', 'W3', 'W5']);
    expect(await statusOf(otherIds)).toEqual({ [otherIds[0]!]: 'draft' });
  });

  it(`refuses a filter matching more than ${BULK_LIMIT} entries`, async () => {
    const big = await buildProject(ctx.services, { type: 'org', slug: 'acme' });
    await insertEntries(ctx.services, big.id, Array.from({ length: BULK_LIMIT + 1 }, (_, i) => ({ title: `E${i}` })));
    await expect(ctx.services.entries.bulkStatus(big.id, 'publish', { filter: { status: 'draft' } })).rejects.toMatchObject({ code: 'invalid_request' });
    expect((await ctx.services.entries.reviewCounts(big.id, { status: 'published' })).total).toBe(0);
    const page = await alice.get(`/dashboard/projects/${big.slug}/review`);
    expect(page.body).toMatch(/name="scope" value="matching" disabled/);
    // A page of thousands is read from an index in (date, id) order, not sorted.
    await sql`ANALYZE changelog_entries`.execute(db());
    for (const status of [sql``, sql`AND status = 'draft'`]) {
      const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT id FROM changelog_entries WHERE project_id = ${big.id} ${status} ORDER BY occurred_at DESC, id DESC LIMIT 51`.execute(db());
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Index (Only )?Scan using changelog_entries_review/);
      expect(text).not.toMatch(/Sort/);
    }
  }, 60_000);

  it("regenerates the selected entries from their commits, dropping people's edits", async () => {
    const gen = await buildProject(ctx.services, { type: 'org', slug: 'acme' });
    const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: gen.slug, source: repo, branch: 'trunk' });
    await ctx.services.ingest.ingestLink(link.id);
    // History (commits from before the link) as drafts, so there is something to review.
    await ctx.services.generation.configure(gen.slug, { entryTypes: ['commit'], history: 'draft' });
    await ctx.services.generation.generate(gen.slug);
    // A commit entry is dated by its commit.
    const entries = await db()
      .selectFrom('changelog_entries as e')
      .innerJoin('commits as c', 'c.id', 'e.commit_id')
      .select(['e.id', 'e.title', 'e.occurred_at', 'c.committed_at'])
      .where('e.project_id', '=', gen.id)
      .execute();
    expect(entries.length).toBe(4);
    for (const e of entries) expect(e.occurred_at).toEqual(e.committed_at);

    const [first, second] = entries;
    await ctx.services.entries.editText(first!.id, { title: 'Edited one', content: 'mine' });
    await ctx.services.entries.editText(second!.id, { title: 'Edited two', content: 'mine' });
    const url = `/dashboard/projects/${gen.slug}/review`;
    await alice.get(url);
    const one = await alice.post(`${url}/bulk`, { action: 'regenerate', ids: [first!.id] });
    expect(one.status, one.body).toBe(303);
    const after = await db().selectFrom('changelog_entries').select(['id', 'title', 'edited_at']).where('id', 'in', [first!.id, second!.id]).execute();
    expect(after.find((r) => r.id === first!.id)).toEqual({ id: first!.id, title: first!.title, edited_at: null });
    expect(after.find((r) => r.id === second!.id)?.title).toBe('Edited two');

    // All matching: the rest too.
    await alice.get(url);
    expect((await alice.post(`${url}/bulk`, { action: 'regenerate', scope: 'matching', status: 'draft' })).status).toBe(303);
    expect((await db().selectFrom('changelog_entries').select('title').where('id', '=', second!.id).executeTakeFirstOrThrow()).title).toBe(second!.title);
  }, 60_000);
});

describe('who may use the queue', () => {
  it('refuses an organization member without write access (403), page and actions', async () => {
    expect((await carol.get('/dashboard')).status).toBe(200);
    expect((await carol.get(review())).status).toBe(403);
    const draft = await db().selectFrom('changelog_entries').select('id').where('project_id', '=', app.id).where('status', '=', 'draft').executeTakeFirstOrThrow();
    expect((await carol.post(bulk(), { action: 'publish', ids: [draft.id] })).status).toBe(403);
    expect((await carol.post(bulk(), { action: 'publish', scope: 'matching', status: 'draft' })).status).toBe(403);
    expect(await statusOf([draft.id])).toEqual({ [draft.id]: 'draft' });
  });

  it('is named on a project page that pages its entries 50 at a time', async () => {
    const many = await buildProject(ctx.services, { type: 'org', slug: 'acme' });
    await insertEntries(ctx.services, many.id, Array.from({ length: 201 }, (_, i) => ({ title: `E${i}` })));
    const owner = await alice.get(`/dashboard/projects/${many.slug}`);
    expect(titlesOn(owner.body)).toHaveLength(50);
    expect(owner.body).toContain(`<a rel="next" href="/dashboard/projects/${many.slug}?page=2#entries-h">Older entries →</a>`);
    expect(owner.body).toContain(`The <a href="/dashboard/projects/${many.slug}/review">Review queue</a> filters every entry.`);
    const last = await alice.get(`/dashboard/projects/${many.slug}?page=5`);
    expect(titlesOn(last.body)).toHaveLength(1);
    expect(last.body).not.toContain('rel="next"');
    expect(last.body).toContain(`<a rel="prev" href="/dashboard/projects/${many.slug}?page=4#entries-h">`);
    expect((await alice.get(`/dashboard/projects/${many.slug}?page=9`)).body).toContain('No entries on this page.');
    for (const bad of ['0', '-1', 'x', '99999999']) expect((await alice.get(`/dashboard/projects/${many.slug}?page=${bad}`)).status).toBe(400);
    // A member, who may not use the queue, is not sent there.
    const member = await carol.get(`/dashboard/projects/${many.slug}`);
    expect(member.body.match(/<tr><td>E\d+<\/td>/g)).toHaveLength(50);
    expect(member.body).not.toContain(`/dashboard/projects/${many.slug}/review`);
    // The queue shows at most 50 rows a page, whatever limit is asked for.
    const queue = await alice.get(`/dashboard/projects/${many.slug}/review?status=all&limit=200`);
    expect(queue.body.match(/<tr data-entry>/g)).toHaveLength(50);
  });

  it('is linked from the project and generation pages', async () => {
    expect((await alice.get(`/dashboard/projects/${app.slug}`)).body).toContain(`href="${review()}"`);
    const gen = await alice.get(`/dashboard/projects/${app.slug}/generation`);
    expect(gen.body).toContain(`href="${review()}"`);
    expect(gen.body).toMatch(/\d+ drafts? to review/);
  });
});

describe('titles in the queue and on the project page', () => {
  it("render their inline Markdown, never an attacker's markup or link", async () => {
    const titled = await buildProject(ctx.services, { type: 'org', slug: 'acme' });
    await insertEntries(ctx.services, titled.id, [{ title: 'Fix `parser` **now** <script>alert(1)</script> [p](javascript:alert(1)) ![x](https://evil.example/p.png)' }]);
    for (const url of [`/dashboard/projects/${titled.slug}/review?status=all`, `/dashboard/projects/${titled.slug}`]) {
      const body = (await alice.get(url)).body;
      expect(body, url).toContain('Fix <code>parser</code> <strong>now</strong> &lt;script&gt;alert(1)&lt;/script&gt; [p](javascript:alert(1)) ![x](https://evil.example/p.png)</a>');
      expect(body, url).not.toMatch(/<script>alert|href="javascript:|src="https:\/\/evil/);
    }
    // A checkbox's label is text.
    expect((await alice.get(`/dashboard/projects/${titled.slug}/review?status=all`)).body).toContain('aria-label="Select Fix parser now &lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
