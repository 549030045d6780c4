import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, getFrom, type TestContext } from '../../../test/helpers/context.js';
import { buildProject, buildUser, insertEntries } from '../../../test/helpers/factories.js';
import { eventually } from '../../../test/helpers/eventually.js';
import { untilListingDatePast } from '../../../test/helpers/listing-date.js';

let ctx: TestContext;
let project: { id: string; slug: string };
let weekly: string;
let fix: string;
let hostile: string;
let draft: string;

const get = getFrom(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://changes.example.com' });
  const user = await buildUser(ctx.services);
  project = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'acme-app', name: 'Acme App' });
  const day = (n: number) => new Date(Date.parse('2026-02-01T00:00:00Z') + n * 86_400_000);
  [weekly, fix, hostile] = await insertEntries(ctx.services, project.id, [
    { status: 'published', entry_type: 'weekly', title: 'Faster exports', version_label: 'v2.1.0', content: '## Features\n\n- **api:** RSS export', component_tags: ['api'], published_at: day(3) },
    { status: 'published', entry_type: 'commit', title: 'Fix login loop', content: 'Sessions no longer expire twice.', component_tags: ['auth'], published_at: day(2) },
    { status: 'published', entry_type: 'commit', title: '<img src=x onerror=alert(1)>', content: '<script>alert(1)</script>\n\n[x](javascript:alert(1))', component_tags: ['"><b>tag'], published_at: day(1) },
  ]) as [string, string, string];
  [draft] = await insertEntries(ctx.services, project.id, [{ status: 'draft', title: 'Secret draft', content: 'unreleased' }]) as [string];
  // 25 more, for paging.
  await insertEntries(ctx.services, project.id, Array.from({ length: 25 }, (_, i) => ({ status: 'published' as const, entry_type: 'daily' as const, title: `Day ${i}`, published_at: day(-i - 1) })));
});

afterAll(async () => ctx?.close());

describe('GET /c/{slug}', () => {
  // First: every change to the project moves its listing date a second ahead of the one before
  // (test/helpers/listing-date.ts), and the tests below change it a dozen times, which this one then
  // waited out (15 s) before a 304 for If-Modified-Since could be expected.
  it('sends ETag and Last-Modified and answers 304', async () => {
    await untilListingDatePast(ctx.services, project.id);
    const first = await get('/c/acme-app');
    expect((await get('/c/acme-app', { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    expect((await get('/c/acme-app', { 'if-modified-since': first.headers['last-modified'] as string })).statusCode).toBe(304);
  });

  it('is server-rendered HTML with landmarks, one h1, feed auto-discovery and no external resources', async () => {
    const res = await get('/c/acme-app?view=all');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = res.body;
    expect(page).toContain('<html lang="en">');
    expect(page.match(/<h1[ >]/g)).toHaveLength(1);
    expect(page).toMatch(/<main id="main">/);
    expect(page).toMatch(/<header class="masthead">/);
    expect(page).toContain('<nav class="views" aria-label="Views">');
    expect(page).toContain('<label for="filter-component">Component</label>');
    // The feeds of the view shown.
    expect(page).toContain('<link rel="alternate" type="application/atom+xml" title="Acme App changelog (everything) (Atom)" href="/v1/changelog/acme-app/feed.atom?view=all">');
    expect(page).toContain('type="application/rss+xml"');
    expect(page).toContain('type="application/feed+json"');
    expect(page).not.toMatch(/<script|(?:src|href)="(?:https?:)?\/\/(?!changes\.example\.com)/);
    // Newest first, 20 a page, drafts never.
    expect(page.indexOf('Faster exports')).toBeLessThan(page.indexOf('Fix login loop'));
    expect(page).not.toContain('Secret draft');
    expect(page).not.toContain(draft);
    expect(page.match(/<article /g)).toHaveLength(20);
    expect(page).toContain('<a rel="next" href="/c/acme-app?view=all&amp;page=2">');
    // Content headings sit below the entry's h2.
    expect(page).toContain('<h3>Features</h3>');
    expect(page).toContain('<span class="version">v2.1.0</span>');
  });

  it('filters by entry type and by component, and pages', async () => {
    const commits = (await get('/c/acme-app?type=commit')).body;
    expect(commits.match(/<article /g)).toHaveLength(2);
    expect(commits).toContain('Fix login loop');
    expect(commits).not.toContain('Faster exports');
    expect(commits).toContain('<a href="/c/acme-app?view=commit" aria-current="page">Every change</a>');
    const auth = (await get('/c/acme-app?view=all&component=auth')).body;
    expect(auth.match(/<article /g)).toHaveLength(1);
    expect(auth).toContain('Fix login loop');
    expect(auth).toContain('<option value="auth" selected>');
    expect(auth).toContain('Clear filters');
    expect((await get('/c/acme-app?type=weekly&component=auth')).body).toContain('No entries match these filters.');
    const second = (await get('/c/acme-app?view=all&page=2')).body;
    expect(second.match(/<article /g)).toHaveLength(8);
    expect(second).toContain('<a rel="prev" href="/c/acme-app?view=all">');
    expect((await get('/c/acme-app?type=bogus')).statusCode).toBe(400);
    expect((await get('/c/acme-app?page=0')).statusCode).toBe(400);
  });

  it('shows one view by default, chosen per project, and readers switch with ?view=', async () => {
    // No default chosen: the first of weekly, monthly, daily, every change with published entries.
    const auto = (await get('/c/acme-app')).body;
    expect(auto.match(/<article /g)).toHaveLength(1);
    expect(auto).toContain('Faster exports');
    expect(auto).not.toContain('Fix login loop');
    expect(auto).toContain('<a href="/c/acme-app?view=weekly" aria-current="page">Weekly</a>');
    // Links to the other views the project has entries of, and to everything.
    for (const v of ['daily', 'commit', 'all']) expect(auto).toContain(`href="/c/acme-app?view=${v}"`);
    expect(auto).not.toContain('href="/c/acme-app?view=monthly"');
    expect(auto).toContain('<link rel="canonical" href="https://changes.example.com/c/acme-app">');

    const daily = (await get('/c/acme-app?view=daily')).body;
    expect(daily.match(/<article /g)).toHaveLength(20);
    expect(daily).toContain('<a rel="next" href="/c/acme-app?view=daily&amp;page=2">');
    expect(daily).toContain('<input type="hidden" name="view" value="daily">');

    // The project's default, set by its managers: the cached default page is dropped at once.
    await ctx.services.projects.setPublicView(project.id, 'commit');
    const chosen = await eventually(() => get('/c/acme-app'), (res) => res.body.includes('Fix login loop'));
    expect(chosen.body.match(/<article /g)).toHaveLength(2);
    expect(chosen.body).not.toContain('Faster exports');
    // A reader's choice still wins, and is its own cache entry.
    expect((await get('/c/acme-app?view=weekly')).body).toContain('Faster exports');
    // Releases may be chosen before any is published: the page then says so (and still links the other views).
    await ctx.services.projects.setPublicView(project.id, 'releases');
    const releases = await eventually(() => get('/c/acme-app'), (res) => res.body.includes('No release notes have been published yet.'));
    expect(releases.body).toContain('<a href="/c/acme-app?view=releases" aria-current="page">Releases</a>');
    await expect(ctx.services.projects.setPublicView(project.id, 'yearly')).rejects.toMatchObject({ status: 400 });
    await ctx.services.projects.setPublicView(project.id, 'auto');
    await eventually(() => get('/c/acme-app'), (res) => res.body.includes('Faster exports'));
  });

  it('refuses hostile view values with a 400, before any page is rendered or cached', async () => {
    for (const view of ['bogus', 'WEEKLY', 'Releases', '<script>', 'weekly&type=commit', '../all', 'all ', '%00', 'x'.repeat(5000)]) {
      const res = await get(`/c/acme-app?view=${encodeURIComponent(view)}`);
      expect(res.statusCode, view.slice(0, 20)).toBe(400);
      expect(res.body).not.toContain('<script>');
    }
    const twice = await get('/c/acme-app?view=weekly&view=daily');
    expect([200, 400]).toContain(twice.statusCode);
  });

  it('escapes untrusted commit text everywhere', async () => {
    const page = (await get('/c/acme-app?type=commit')).body;
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toMatch(/<img src=x|<script>|href="javascript:|<b>tag/);
    expect(page).toContain('&quot;&gt;&lt;b&gt;tag');
  });

  it('is themed by the project owner, and the theme shows at once after a change', async () => {
    const plain = await get('/c/acme-app');
    expect(plain.body).toContain('--accent:#1f2937;--on-accent:#ffffff');
    expect(plain.body).not.toContain('<img');
    expect(plain.headers['content-security-policy']).toContain("img-src 'self' data:;");
    await ctx.services.projects.updateTheme(project.id, { color: '#FACC15', logoUrl: 'https://cdn.example.com/acme.svg' });
    const themed = await eventually(() => get('/c/acme-app'), (res) => res.body.includes('#facc15'));
    expect(themed.body).toContain('--accent:#facc15;--on-accent:#000000');
    expect(themed.body).toContain('<img src="https://cdn.example.com/acme.svg" alt=""');
    // No script may run at all; the one outside host is the logo's.
    expect(themed.headers['content-security-policy']).toBe(
      "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'; img-src 'self' data: https://cdn.example.com; style-src 'unsafe-inline'",
    );
    // Served from the cache, with the same policy.
    const hit = await get('/c/acme-app');
    expect(hit.headers['x-cache']).toBe('hit');
    expect(hit.headers['content-security-policy']).toBe(themed.headers['content-security-policy']);
    await ctx.services.projects.updateTheme(project.id, { color: '', logoUrl: '' });
  });

  it('names the logo host in its policy from checked parts only: a hostile value stored before the check changes nothing', async () => {
    const noLogo = "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'; img-src 'self' data:; style-src 'unsafe-inline'";
    // The database asks only for https://; the URL parser takes each of these hosts (or throws on the last).
    const stored = [
      'https://a.com;sandbox/logo.png',
      'https://a.com%3Bsandbox/logo.png',
      "https://a.com'unsafe-eval'/logo.png",
      'https://a.com,script-src/logo.png',
      'https://*/logo.png',
      'https://a.com\n;sandbox/logo.png',
      'https://a.com;script-src%20*/logo.png',
    ];
    for (const [i, logo] of stored.entries()) {
      const colour = `#12345${i}`;
      await ctx.services.database.db.updateTable('projects').set({ logo_url: logo, theme_color: colour }).where('id', '=', project.id).execute();
      const res = await eventually(() => get('/c/acme-app'), (r) => r.body.includes(`--accent:${colour}`));
      expect(res.statusCode, logo).toBe(200);
      expect(res.headers['content-security-policy'], logo).toBe(noLogo);
      expect(res.body, logo).not.toContain('<img');
      const feed = await get('/v1/changelog/acme-app/feed.atom');
      expect(feed.statusCode, logo).toBe(200);
      expect(feed.body, logo).not.toMatch(/sandbox|unsafe-eval|script-src|https:\/\/\*/);
    }
    // A port is kept, built from the parsed URL.
    await ctx.services.projects.updateTheme(project.id, { color: '#123460', logoUrl: 'https://CDN.example.com:8443/a.svg?v=1' });
    const ported = await eventually(() => get('/c/acme-app'), (r) => r.body.includes('--accent:#123460'));
    expect(ported.headers['content-security-policy']).toContain("img-src 'self' data: https://cdn.example.com:8443;");
    expect(ported.body).toContain('<img src="https://cdn.example.com:8443/a.svg?v=1"');
    await ctx.services.projects.updateTheme(project.id, { color: '', logoUrl: '' });
  });

  it('an unknown project is an HTML 404', async () => {
    const res = await get('/c/no-such-project');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('Changelog not found');
  });
});

describe('GET /c/{slug}/entries/{id}', () => {
  it('is a permalink page of one published entry', async () => {
    const res = await get(`/c/acme-app/entries/${weekly}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1 id="entry-title">Faster exports</h1>');
    expect(res.body).toContain('<h2>Features</h2>');
    expect(res.body).toContain(`<link rel="canonical" href="https://changes.example.com/c/acme-app/entries/${weekly}">`);
    expect(res.body).toContain('href="/v1/changelog/acme-app/feed.atom"');
    expect((await get(`/c/acme-app/entries/${fix}`)).body).toContain('Fix login loop');
    expect((await get(`/c/acme-app/entries/${hostile}`)).body).not.toMatch(/<img src=x|<script>/);
  });

  it('drafts, other projects\' entries and unknown ids are 404', async () => {
    expect((await get(`/c/acme-app/entries/${draft}`)).statusCode).toBe(404);
    const user = await buildUser(ctx.services);
    await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'other-app' });
    expect((await get(`/c/other-app/entries/${weekly}`)).statusCode).toBe(404);
    expect((await get('/c/acme-app/entries/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get('/c/acme-app/entries/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('Last-Modified after a retraction', () => {
  it('the page: an unpublished entry is not kept alive by If-Modified-Since; a theme change is a later date too', async () => {
    const user = await buildUser(ctx.services);
    const own = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'retract-page', name: 'Retract' });
    const [a, b] = await insertEntries(ctx.services, own.id, [
      { status: 'draft', title: 'Entry Alpha' },
      { status: 'draft', title: 'Entry Bravo' },
    ]);
    await ctx.services.entries.publish(a!);
    await ctx.services.entries.publish(b!);
    await untilListingDatePast(ctx.services, own.id);
    const first = await get('/c/retract-page');
    expect(first.body).toContain('Entry Bravo');
    const l1 = first.headers['last-modified'] as string;
    expect((await get('/c/retract-page', { 'if-modified-since': l1 })).statusCode).toBe(304);

    await ctx.services.entries.unpublish(b!);
    const again = await eventually(() => get('/c/retract-page'), (res) => !res.body.includes('Entry Bravo'));
    expect(again.body).not.toContain('Entry Bravo');
    expect(Date.parse(again.headers['last-modified'] as string)).toBeGreaterThanOrEqual(Date.parse(l1));
    const revalidated = await get('/c/retract-page', { 'if-modified-since': l1 });
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.body).toBe(again.body);

    await untilListingDatePast(ctx.services, own.id);
    const l2 = (await get('/c/retract-page')).headers['last-modified'] as string;
    expect(Date.parse(l2)).toBeGreaterThan(Date.parse(l1));
    await ctx.services.projects.updateTheme(own.id, { color: '#aa0000', logoUrl: '' });
    const themed = await eventually(() => get('/c/retract-page', { 'if-modified-since': l2 }), (res) => res.statusCode === 200);
    expect(themed.statusCode).toBe(200);
    expect(themed.body).toContain('#aa0000');
  });

  it('a permalink page: an edit or a retract-and-republish right after a read revalidates to the new page', async () => {
    const user = await buildUser(ctx.services);
    const own = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'retract-permalink', name: 'Retract' });
    const [a] = await insertEntries(ctx.services, own.id, [{ status: 'published', title: 'Original words', content: 'body', published_at: new Date() }]);
    const url = `/c/retract-permalink/entries/${a}`;
    await untilListingDatePast(ctx.services, own.id);
    const l1 = (await get(url)).headers['last-modified'] as string;
    expect((await get(url, { 'if-modified-since': l1 })).statusCode).toBe(304);

    await ctx.services.entries.editText(a!, { title: 'Corrected words', content: 'body' });
    const edited = await eventually(() => get(url, { 'if-modified-since': l1 }), (res) => res.statusCode === 200);
    expect(edited.statusCode).toBe(200);
    expect(edited.body).toContain('Corrected words');

    await untilListingDatePast(ctx.services, own.id);
    const l2 = (await get(url)).headers['last-modified'] as string;
    await ctx.services.entries.unpublish(a!);
    expect((await eventually(() => get(url), (res) => res.statusCode === 404)).statusCode).toBe(404);
    await ctx.services.entries.editText(a!, { title: 'Reworded', content: 'body' });
    await ctx.services.entries.publish(a!);
    const back = await eventually(() => get(url, { 'if-modified-since': l2 }), (res) => res.statusCode === 200);
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain('Reworded');
  });
});
