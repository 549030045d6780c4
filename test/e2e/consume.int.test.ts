import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { renderMarkdown } from '../../src/generation/engine/render.js';
import { createServices, type Services } from '../../src/services.js';
import { testConfig } from '../helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { buildProject, buildUser, insertEntries } from '../helpers/factories.js';
import { launchChromium, runE2e } from '../helpers/browser.js';
import { buildCommit } from '../helpers/commits.js';
import { storeCommits } from '../helpers/releases.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
// UPDATE_DOCS_SCREENSHOTS=1 refreshes the README's pictures in docs/screenshots/.
const DOCS = new URL('../../docs/screenshots/', import.meta.url);
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="144" height="36" viewBox="0 0 144 36"><rect width="36" height="36" rx="8" fill="#fff"/><path d="M10 18h16M18 10v16" stroke="#6d28d9" stroke-width="4"/></svg>`;

const day = (n: number) => new Date(Date.parse('2026-03-02T09:00:00Z') + n * 86_400_000);
/** A commit subject that is a Markdown link to a phishing page, and one that froze a visitor's tab (80,000 `[`). */
const PHISH = '[phish](https://evil.example/login)';
const BRACKETS = '['.repeat(80_000);
const phishJson = (title: string) => ({
  title,
  headline_items: [{ section_type_key: 'fix', title: PHISH, body: PHISH }],
  sections: [{ section_type_key: 'fix', label: 'Fixes', items: [{ text: PHISH, component: null }] }],
  component_tags: [],
  team_attribution: null,
});
const json = (title: string, version: string | null, headline: string, items: [string, string | null][]) => ({
  title,
  headline_items: [{ section_type_key: 'feature', title: headline, body: null }],
  sections: [{ section_type_key: 'feature', label: 'Features', items: items.map(([text, component]) => ({ text, component })) }],
  component_tags: [...new Set(items.map(([, c]) => c).filter((c): c is string => c !== null))],
  team_attribution: null,
  ...(version ? {} : {}),
});

/** Pages of the customer's site by path, and the widget's attributes on each. */
const EMBEDS: Record<string, string> = {
  '/': 'project="acme-app" view="all" limit="5"',
  '/default': 'project="acme-api" limit="5"',
  '/default-small': 'project="acme-api" limit="4"',
  '/daily': 'project="acme-api" type="daily" limit="4"',
  '/both': 'project="acme-api" view="commit" type="daily" limit="20"',
  '/bogus': 'project="acme-api" view="everything"',
  '/releases': 'project="acme-cli" view="releases" limit="5"',
  '/releases-default': 'project="acme-cli" limit="5"',
};

/** acme-api's commit entries as generation writes them: the one change is the title, in its section. */
const API_COMMITS = [
  { title: 'Sign-in survives a password reset', section: ['fix', 'Bug fixes'], component: 'auth' },
  { title: 'Drop the v0 endpoints', section: ['breaking', 'Breaking changes'], component: 'api', explanation: 'Clients on v0 move to /v1 first.' },
  { title: 'Export as JSON Feed', section: ['feature', 'Features'], component: null },
] as const;
const commitJson = ({ title, section, component, ...rest }: (typeof API_COMMITS)[number]) => ({
  title,
  headline_items: [{ section_type_key: section[0], title, body: 'explanation' in rest ? rest.explanation : null }],
  sections: [{ section_type_key: section[0], label: section[1], items: [{ text: title, component }] }],
  component_tags: component ? [component] : [],
  team_attribution: null,
});
/** A rollup as generation writes it: its headline items are its most significant changes, also in their sections. */
const rollupJson = (title: string) => ({
  title,
  headline_items: [{ section_type_key: 'feature', title: 'Export as JSON Feed', body: null }],
  sections: [
    { section_type_key: 'feature', label: 'Features', items: [{ text: 'Export as JSON Feed', component: null }] },
    { section_type_key: 'fix', label: 'Bug fixes', items: [{ text: 'Sign-in survives a password reset', component: 'auth' }] },
  ],
  component_tags: ['auth'],
  team_attribution: null,
});

describe.runIf(runE2e)('feeds, public page and widget in headless Chromium', () => {
  let database: TestDatabase;
  let services: Services;
  let app: FastifyInstance;
  let customer: Server;
  let base: string;
  let customerSite: string;
  let browser: Browser;
  let page: Page;
  let weeklyId: string;
  let phishId: string;
  let apiProjectId: string;
  const cspViolations: string[] = [];
  const outside: string[] = [];

  const seenKey = () => `changelog-feed:seen:${base}:acme-app`;
  const shot = async (name: string) => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: new URL(`${process.env.TEST_DB ?? 'pglite'}-${name}.png`, SCREENSHOTS).pathname, fullPage: true });
    if (process.env.UPDATE_DOCS_SCREENSHOTS === '1' && (process.env.TEST_DB ?? 'pglite') === 'pglite') {
      mkdirSync(DOCS, { recursive: true });
      await page.screenshot({ path: new URL(`${name}.png`, DOCS).pathname });
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig();
    services = createServices(database, config);
    const user = await buildUser(services);
    const project = await buildProject(services, { type: 'user', email: user.email }, { slug: 'acme-app', name: 'Acme App' });
    await services.projects.updateTheme(project.id, { color: '#6d28d9', logoUrl: 'https://cdn.example.com/acme.svg' });
    const ids = await insertEntries(services, project.id, [
      {
        status: 'published', entry_type: 'weekly', title: 'Faster exports and RSS', version_label: 'v2.4.0', published_at: day(14),
        content: '## Features\n\n- **exports:** CSV exports stream instead of buffering\n- **api:** RSS and Atom feeds',
        component_tags: ['exports', 'api'],
        generated_json: JSON.stringify(json('Faster exports and RSS', 'v2.4.0', 'Exports are up to 10× faster', [['CSV exports stream instead of buffering', 'exports'], ['RSS and Atom feeds', 'api']])),
      },
      {
        status: 'published', entry_type: 'commit', title: '<img src=x onerror="window.__pwned=1">Hostile title', published_at: day(13),
        content: 'Fix <img src=x onerror="window.__pwned=2"> and [click me](javascript:window.__pwned=3) and <script>window.__pwned=4</script> **bold**',
        component_tags: ['auth'],
      },
      {
        status: 'published', entry_type: 'commit', title: 'Structured hostile entry', published_at: new Date(day(12).getTime() + 43_200_000),
        component_tags: ['ui'],
        generated_json: JSON.stringify({
          title: 'Structured hostile entry',
          headline_items: [{ section_type_key: 'fix', title: '<img src=x onerror="window.__pwned=5">headline', body: '[body link](javascript:window.__pwned=6)' }],
          sections: [{ section_type_key: 'fix', label: '<b>Fixes</b>', items: [{ text: '<svg onload="window.__pwned=7"></svg>item', component: '<i>ui</i>' }] }],
          component_tags: ['ui'],
          team_attribution: null,
        }),
      },
      { status: 'published', entry_type: 'commit', title: 'Fix login loop after password reset', published_at: day(12), content: 'Sessions no longer expire twice. See [the report](https://example.com/issues/42).', component_tags: ['auth'] },
      ...Array.from({ length: 9 }, (_, i) => ({
        status: 'published' as const, entry_type: 'daily' as const, title: `Daily changes ${i + 1}`, published_at: day(11 - i),
        content: `- **ui:** polish ${i + 1}\n- fix typo in \`settings\``, component_tags: ['ui'],
      })),
      // Markdown as the server writes it from commit text (escaped), then the structured form (raw text).
      { status: 'published', entry_type: 'commit', title: 'Phish as Markdown', published_at: day(2), content: `${renderMarkdown(phishJson('Phish as Markdown'))}\n${BRACKETS}` },
      { status: 'published', entry_type: 'commit', title: 'Phish as structure', published_at: day(1), generated_json: JSON.stringify(phishJson('Phish as structure')) },
      { status: 'draft', title: 'Unreleased: secret pricing page', content: 'not yet', published_at: null },
    ]);
    weeklyId = ids[0]!;
    phishId = ids[13]!;

    // acme-api: every kind of entry over two weeks, as history publishes them (each rollup at its period's end).
    const apiProject = await buildProject(services, { type: 'user', email: user.email }, { slug: 'acme-api', name: 'Acme API' });
    apiProjectId = apiProject.id;
    await insertEntries(services, apiProject.id, [
      ...API_COMMITS.map((commit, i) => ({
        status: 'published' as const, entry_type: 'commit' as const, title: commit.title, published_at: new Date(day(i).getTime() + 3_600_000),
        generated_json: JSON.stringify(commitJson(commit)),
      })),
      ...Array.from({ length: 5 }, (_, i) => ({
        status: 'published' as const, entry_type: 'daily' as const, title: `Daily ${i + 1}`, published_at: day(i + 1),
        generated_json: JSON.stringify(rollupJson(`Daily ${i + 1}`)),
      })),
      ...[1, 2].map((w) => ({
        status: 'published' as const, entry_type: 'weekly' as const, title: `Week ${w}`, published_at: day(7 * w),
        generated_json: JSON.stringify(rollupJson(`Week ${w}`)),
      })),
      { status: 'published', entry_type: 'monthly', title: 'March', published_at: day(14), generated_json: JSON.stringify(rollupJson('March')) },
      { status: 'draft', entry_type: 'weekly', title: 'Secret week', published_at: null },
    ]);
    // acme-cli: tagged releases whose commit subjects hold code spans, their notes published.
    const cli = await buildProject(services, { type: 'user', email: user.email }, { slug: 'acme-cli', name: 'Acme CLI' });
    const first = buildCommit({ message: 'feat: add `--fast` mode', changes: [['M', 'src/a.ts']], tags: ['v1.0.0'], date: '2024-03-04T10:00:00Z' });
    const second = buildCommit({ parents: [first.sha], message: 'fix: handle `null` input', changes: [['M', 'src/b.ts']], tags: ['v1.1.0'], date: '2024-03-06T10:00:00Z' });
    await storeCommits(services, cli.id, [first, second]);
    await services.generation.configure('acme-cli', { publish: 'auto' });
    await services.generation.generate('acme-cli');
    app = await buildApp({ config, database, services });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    // The customer's site: another origin (other host name and port) that only embeds the widget, on
    // each page with other attributes (EMBEDS).
    customer = createServer((request, response) => {
      const attributes = EMBEDS[request.url ?? ''];
      if (attributes === undefined) return void response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Elsewhere</title><p>Another page');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme blog</title>
<script src="${base}/widget.js" defer></script>
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:44rem;color:#222}
changelog-feed{--changelog-accent:#6d28d9;--changelog-radius:12px}</style></head>
<body><main><h1>Acme blog</h1><p>What we shipped lately:</p>
<changelog-feed ${attributes}></changelog-feed></main></body></html>`);
    });
    await new Promise<void>((resolve) => customer.listen(0, '127.0.0.1', resolve));
    customerSite = `http://localhost:${(customer.address() as AddressInfo).port}`;

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    // Nothing leaves this machine; the project's logo host answers locally.
    await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, async (route) => {
      if (route.request().url() === 'https://cdn.example.com/acme.svg') return route.fulfill({ contentType: 'image/svg+xml', body: LOGO });
      outside.push(route.request().url());
      return route.abort();
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => customer?.close(resolve));
    await app?.close();
    await database?.close();
  });

  it('the widget on another origin shows entries, marks what is new, loads more, and renders hostile Markdown inertly', async () => {
    // A visit a while ago (stored on the customer's origin before the widget first runs): entries published since are new.
    await page.goto(`${customerSite}/elsewhere`);
    await page.evaluate(`localStorage.setItem(${JSON.stringify(seenKey())}, ${JSON.stringify(day(10).toISOString())})`);
    await page.goto(customerSite);
    expect(new URL(page.url()).origin).not.toBe(base);

    const articles = page.locator('changelog-feed article');
    await expect.poll(() => articles.count()).toBe(5);
    expect(await page.locator('changelog-feed h2').textContent()).toBe('Acme App changelog');
    const first = articles.first();
    expect(await first.locator('h3').textContent()).toBe('Faster exports and RSSNew');
    expect(await first.locator('.version').textContent()).toBe('v2.4.0');
    expect(await first.locator('time').getAttribute('datetime')).toBe(day(14).toISOString());
    // The rollup's headline item is one of its changes: shown once, in its section (not again in bold on top).
    expect(await first.locator('h4').textContent()).toBe('Features');
    expect(await first.locator('li').allTextContents()).toEqual(['exports: CSV exports stream instead of buffering', 'api: RSS and Atom feeds']);
    expect(await first.textContent()).not.toContain('Exports are up to 10× faster');
    expect(await page.locator('changelog-feed [part="badge"]').textContent()).toBe('5 new since your last visit');
    await expect.poll(() => page.evaluate(`localStorage.getItem(${JSON.stringify(seenKey())})`)).toBe(day(14).toISOString());

    // Hostile commit text shows as text; nothing in it runs or becomes an element.
    const hostile = articles.nth(1);
    expect(await hostile.locator('h3').textContent()).toContain('<img src=x onerror="window.__pwned=1">Hostile title');
    expect(await hostile.textContent()).toContain('<script>window.__pwned=4</script>');
    expect(await hostile.locator('strong').textContent()).toBe('bold');
    expect(await page.locator('changelog-feed img, changelog-feed script').count()).toBe(0);
    expect(await page.locator('changelog-feed a[href^="javascript:"]').count()).toBe(0);
    expect(await hostile.getByText('click me').evaluate((el) => el.tagName)).not.toBe('A');
    expect(await page.locator('changelog-feed a[href="https://example.com/issues/42"]').count()).toBe(1);
    // The structured form (sections) is text too.
    const structured = articles.nth(2);
    expect(await structured.locator('h4').textContent()).toBe('<b>Fixes</b>');
    expect(await structured.locator('.component').textContent()).toBe('<i>ui</i>: ');
    expect(await structured.textContent()).toContain('<svg onload="window.__pwned=7"></svg>item');
    expect(await page.locator('changelog-feed svg, changelog-feed b, changelog-feed i').count()).toBe(0);
    await hostile.getByText('click me').click();
    expect(await page.evaluate('window.__pwned')).toBeUndefined();

    await shot('widget');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => articles.count()).toBe(10);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => articles.count()).toBe(15);
    expect(await page.getByRole('button', { name: 'Load more' }).isHidden()).toBe(true);
    // Commit text that is a Markdown link shows as text, escaped by the server or not; 80,000 `[` show at once, as text.
    const phishMarkdown = articles.nth(13);
    const phishStructure = articles.nth(14);
    expect(await phishMarkdown.locator('li').first().textContent()).toBe(PHISH);
    expect(await phishMarkdown.textContent()).toContain(BRACKETS);
    expect(await phishStructure.locator('ul li').textContent()).toBe(PHISH);
    expect((await phishStructure.textContent())!.split(PHISH)).toHaveLength(2);
    expect(await page.locator('changelog-feed a[href^="https://evil.example"]').count()).toBe(0);
    // The public page's full-page screenshot cannot hold 80,000 characters in one line: the entry loses them.
    await services.entries.editText(phishId, { title: 'Phish as Markdown', content: renderMarkdown(phishJson('Phish as Markdown')) });
    // The widget's own tree (the host element's textContent would read only its empty light DOM).
    expect(await page.locator('changelog-feed section').textContent()).not.toContain('secret pricing');
    expect(await page.evaluate('window.__pwned')).toBeUndefined();

    // A second visit: nothing new.
    await page.reload();
    await expect.poll(() => articles.count()).toBe(5);
    expect(await page.locator('changelog-feed [part="badge"]').isHidden()).toBe(true);
    expect(outside).toEqual([]);
  });

  it('the widget shows release notes (view="releases", and by default when the project has some) with code spans and release dates', async () => {
    const articles = page.locator('changelog-feed article');
    for (const path of ['/releases', '/releases-default']) {
      await page.goto(`${customerSite}${path}`);
      await expect.poll(() => articles.count(), { message: path }).toBeGreaterThanOrEqual(2);
      expect(await page.locator('changelog-feed h2').textContent()).toBe('Acme CLI releases');
      const section = (await page.locator('changelog-feed section').textContent()) ?? '';
      expect(section, path).toContain('v1.1.0');
      expect(section, path).not.toContain('`');
      expect(await page.locator('changelog-feed article code').allTextContents(), path).toEqual(expect.arrayContaining(['null', '--fast']));
      // Dated by the release, in the reader's locale.
      const release = articles.filter({ has: page.locator('time[datetime="2024-03-06T10:00:00.000Z"]') });
      const expected = await page.evaluate(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date('2024-03-06T10:00:00Z')));
      expect(await release.locator('time').textContent()).toBe(expected);
    }
    await shot('widget-releases');
  });

  it("the widget shows the project's default view, or the view or type the embedder set, each change once", async () => {
    const articles = page.locator('changelog-feed article');
    const titles = () => page.locator('changelog-feed article h3').allTextContents();
    const occurrences = async (text: string) => ((await page.locator('changelog-feed section').textContent()) ?? '').split(text).length - 1;

    // No attribute: the project's default view, here automatic: weekly, since it has weekly entries.
    await page.goto(`${customerSite}/default`);
    await expect.poll(() => articles.count()).toBe(2);
    expect(await titles()).toEqual(['Week 2', 'Week 1']);
    expect(await page.getByRole('button', { name: 'Load more' }).isHidden()).toBe(true);
    // A rollup's headline item is also one of its changes: each change once per entry, in its section.
    expect(await articles.first().locator('h4').allTextContents()).toEqual(['Features', 'Bug fixes']);
    expect(await occurrences('Export as JSON Feed')).toBe(2);
    await shot('widget-default-view');

    // type="daily": that type only, paged with Load more.
    await page.goto(`${customerSite}/daily`);
    await expect.poll(() => articles.count()).toBe(4);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => articles.count()).toBe(5);
    expect(await titles()).toEqual(['Daily 5', 'Daily 4', 'Daily 3', 'Daily 2', 'Daily 1']);

    // view wins over type. A commit entry's one change is its title: shown once, with its section and component.
    await page.goto(`${customerSite}/both`);
    await expect.poll(() => articles.count()).toBe(3);
    expect(await titles()).toEqual(['Export as JSON Feed', 'Drop the v0 endpoints', 'Sign-in survives a password reset']);
    for (const { title } of API_COMMITS) expect(await occurrences(title), title).toBe(1);
    expect(await page.locator('changelog-feed .kind').allTextContents()).toEqual(['Features', 'Breaking changes · api', 'Bug fixes · auth']);
    // A breaking change's explanation, which only its headline item carries, shows under it.
    expect(await articles.nth(1).locator('.explanation').textContent()).toBe('Clients on v0 move to /v1 first.');
    expect(await page.locator('changelog-feed section').textContent()).not.toContain('Secret week');

    // An attribute the API would refuse: said at once, nothing asked of the server.
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/changelog/')) asked.push(request.url());
    });
    await page.goto(`${customerSite}/bogus`);
    await expect.poll(() => page.locator('changelog-feed [role="status"]').textContent()).toContain('Unknown view');
    expect(asked).toEqual([]);
    page.removeAllListeners('request');
  });

  it('the widget keeps to the view it opened with when the default changes before Load more', async () => {
    await services.projects.setPublicView(apiProjectId, 'daily');
    const articles = page.locator('changelog-feed article');
    await page.goto(`${customerSite}/default-small`);
    await expect.poll(() => articles.count()).toBe(4);
    await services.projects.setPublicView(apiProjectId, 'monthly');
    // The server's default has moved on (its cached answers with it)...
    await expect
      .poll(async () => ((await (await fetch(`${base}/v1/changelog/acme-api?view=default`)).json()) as { meta: { view: string } }).meta.view)
      .toBe('monthly');
    // ...and the next page is still the daily entries the reader was reading.
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => articles.count()).toBe(5);
    expect(await page.locator('changelog-feed article h3').allTextContents()).toEqual(['Daily 5', 'Daily 4', 'Daily 3', 'Daily 2', 'Daily 1']);
    await services.projects.setPublicView(apiProjectId, null);
  });

  it('the public page filters, links to permalinks, discovers its feeds, and runs under its CSP', async () => {
    // Everything: by default the page shows one view (the weekly entries here).
    await page.goto(`${base}/c/acme-app?view=all`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme App changelog');
    expect(await page.locator('article').count()).toBe(15);
    expect(await page.evaluate("document.querySelector('header img').naturalWidth")).toBeGreaterThan(0);
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('search', { name: 'Filter entries' }).count()).toBe(1);
    const feeds = await page.evaluate(`[...document.querySelectorAll('link[rel="alternate"]')].map((link) => link.type)`);
    expect(feeds).toEqual(['application/atom+xml', 'application/rss+xml', 'application/feed+json']);
    // Hostile text is text here too.
    expect(await page.locator('article img, article script, a[href^="javascript:"]').count()).toBe(0);
    await shot('public-page');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to the changelog');

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Every change' }).click();
    await page.waitForURL(`${base}/c/acme-app?view=commit`);
    expect(await page.locator('article').count()).toBe(5);
    await page.getByLabel('Component').selectOption('auth');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(`${base}/c/acme-app?view=commit&component=auth`);
    expect(await page.locator('article h2').allTextContents()).toEqual([
      '<img src=x onerror="window.__pwned=1">Hostile title',
      'Fix login loop after password reset',
    ]);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await page.waitForURL(`${base}/c/acme-app?view=commit`);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Weekly' }).click();
    await page.getByRole('link', { name: 'Faster exports and RSS' }).click();
    await page.waitForURL(`${base}/c/acme-app/entries/${weeklyId}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Faster exports and RSS');
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toBe('Features');
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(cspViolations).toEqual([]);
    expect(outside).toEqual([]);
  });
});
