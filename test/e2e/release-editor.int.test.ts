// The release editor in headless Chromium (issue 23): link a real repository with tags from the
// project page (history drafted for review), publish the release history in one action, edit one note
// (text, hide, move, headline, introduction), publish it, and read exactly that on the public page, in
// the API, the feeds and the widget on another origin; then a new commit and a new tag arrive under
// "draft for review", and nothing public changes (page, API, feeds, the widget's data) until the editor
// publishes. Screenshots of the editor, the public note, the review queue with a pending revision and
// the page after the publish (docs/screenshots with UPDATE_DOCS_SCREENSHOTS=1).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { buildProject } from '../helpers/factories.js';
import { createFirstAccount, launchChromium, runE2e, screenshot } from '../helpers/browser.js';
import { datedRepository } from '../helpers/git-fixtures.js';

/**
 * A real repository: v1.0.0, then four changes and v1.1.0 (annotated tags), in `work`; `origin` is
 * what the project links (a bare clone), and new work is pushed to it.
 */
function repository(root: string) {
  const repo = datedRepository(join(root, 'work'), { extension: 'ts' });
  repo.commit('03-01', 'feat: first feature');
  repo.git('tag', '-a', 'v1.0.0', '-m', 'v1.0.0');
  repo.commit('03-02', 'feat: search box');
  repo.commit('03-03', 'fix: crash on start (#12)');
  repo.commit('03-04', 'feat: dark mode');
  repo.commit('03-05', 'fix: typo in footer');
  repo.git('tag', '-a', 'v1.1.0', '-m', 'v1.1.0');
  const origin = join(root, 'origin.git');
  repo.git('clone', '--quiet', '--bare', repo.work, origin);
  return { ...repo, origin, push: () => repo.git('push', '--quiet', '--follow-tags', origin, 'main') };
}

describe.runIf(runE2e)('the release editor in headless Chromium', () => {
  let ctx: TestContext;
  let browser: Browser;
  let page: Page;
  let base: string;
  let slug: string;

  let root: string;
  let repo: ReturnType<typeof repository>;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'release-editor-e2e-'));
    repo = repository(root);
    // No response cache: every read below is what the database holds now, not what was cached before.
    ctx = await createTestContext({
      UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      RESPONSE_CACHE: 'false',
      REPO_PATHS_ALLOWED: root,
      REPOS_DIR: join(root, 'mirrors'),
    });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The history action asks for confirmation (dashboard.js).
    page.on('dialog', (dialog) => void dialog.accept());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** What the worker does after a link or a push: the link's sync, then generation (no worker runs in this file). */
  const sync = async () => {
    const project = (await ctx.services.projects.findBySlug(slug))!;
    for (const link of await ctx.services.repos.listLinksOfProject(project.id)) await ctx.services.ingest.ingestLink(link.id);
    await ctx.services.generation.generate(slug);
  };
  const item = (text: string) => page.locator('li.edit-item', { has: page.locator(`input[name="text"][value="${text}"]`) });

  it('publishes the history, edits a note, publishes it, and the public page and API show exactly that', async () => {
    await createFirstAccount(page, base, ctx.services);
    const project = await buildProject(ctx.services, { type: 'user', email: 'grace@example.com' }, { slug: 'grace-app', name: 'Grace App' });
    slug = project.slug;
    // The team reviews its history before it goes public: history is drafted, not published at link time.
    await page.goto(`${base}/dashboard/projects/${slug}/generation`);
    await page.locator('#f-history').selectOption('draft');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/generation/);
    // The real repository, linked by its path from the project page.
    await page.goto(`${base}/dashboard/projects/${slug}`);
    await page.getByLabel('Local path or git URL').fill(repo.origin);
    await page.getByRole('button', { name: 'Link repository' }).click();
    await page.waitForURL(`${base}/dashboard/projects/${slug}?notice=repo-linked`);
    await sync();

    // The whole release history in one action.
    await page.goto(`${base}/dashboard/projects/${slug}/releases`);
    await page.getByRole('button', { name: 'Publish the whole history of releases' }).click();
    await page.waitForURL(/done=publish&changed=2/);

    await page.getByRole('link', { name: 'v1.1.0', exact: true }).click();
    await page.waitForURL(`${base}/dashboard/projects/${slug}/releases/v1.1.0`);

    await item('Search box').locator('input[name="text"]').fill('A `search` box on every page');
    await item('Search box').getByRole('button', { name: 'Save text' }).click();
    await page.waitForURL(/done=editPublished/);
    await item('Typo in footer').getByRole('button', { name: 'Hide' }).click();
    await page.waitForURL(/done=editPublished/);
    await item('Crash on start (#12)').locator('select[name="section"]').selectOption('feature');
    await item('Crash on start (#12)').getByRole('button', { name: 'Move' }).click();
    await page.waitForURL(/done=editPublished/);
    await item('Crash on start (#12)').getByRole('button', { name: 'Make headline' }).click();
    await page.waitForURL(/done=editPublished/);
    await page.getByLabel('Shown before the changes (Markdown; empty: none)').fill('The **search** release: find anything, anywhere.');
    await page.getByRole('button', { name: 'Save introduction' }).click();
    await page.waitForURL(/done=editPublished/);
    expect(await page.getByText('changes waiting').isVisible()).toBe(true);
    await screenshot(page, 'release-editor', { docs: true });

    // Not public until published.
    const api = async () =>
      (await ctx.app.inject({ method: 'GET', url: `/v1/changelog/${slug}/releases` }))
        .json<{
          releases: Array<{
            tag: string;
            introduction: string | null;
            generated_json: { sections: Array<{ section_type_key: string; items: Array<{ text: string }> }>; headline_items: Array<{ title: string }> };
          }>;
        }>()
        .releases.find((r) => r.tag === 'v1.1.0')!;
    expect((await api()).introduction).toBeNull();

    await page.getByRole('button', { name: 'Publish changes' }).click();
    await page.waitForURL(/done=publish/);
    await expect.poll(async () => (await api()).introduction).toBe('The **search** release: find anything, anywhere.');
    const note = await api();
    expect(note.generated_json.sections.map((s) => [s.section_type_key, s.items.map((i) => i.text)])).toEqual([
      ['feature', ['A `search` box on every page', 'Dark mode', 'Crash on start (#12)']],
    ]);
    expect(note.generated_json.headline_items.map((h) => h.title)).toContain('Crash on start (#12)');
    // The feeds and what the widget fetches say the same: the introduction, the edited item, not the hidden one.
    for (const url of [`/v1/changelog/${slug}/releases.atom`, `/v1/changelog/${slug}/feed.atom?view=releases`, `/v1/changelog/${slug}/releases?limit=10`]) {
      const body = (await ctx.app.inject({ method: 'GET', url })).body;
      expect(body, url).toMatch(/find anything, anywhere/);
      expect(body, url).toMatch(/box on every page/);
      expect(body, url).not.toContain('Typo in footer');
    }

    await page.goto(`${base}/c/${slug}?view=releases`);
    const article = page.locator('article', { has: page.getByRole('heading', { name: 'v1.1.0' }) });
    expect(await article.locator('.content strong').first().textContent()).toBe('search');
    expect(await article.locator('.content li').allTextContents()).toEqual(['A search box on every page', 'Dark mode', 'Crash on start (#12)']);
    expect(await article.locator('.content code').first().textContent()).toBe('search');
    expect(await page.getByText('Typo in footer').count()).toBe(0);
    await article.screenshot({ path: 'test-results/screenshots/release-editor-public-note.png' });
    await page.goto(`${base}/c/${slug}/releases/v1.1.0`);
    await screenshot(page, 'release-editor-public-note', { docs: true });

    // The widget on a customer's site (another origin: host name and port), as its readers see the note.
    const site = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Grace's site</title><script src="${base}/widget.js" defer></script></head>
<body><changelog-feed project="${slug}" view="releases" limit="5"></changelog-feed></body></html>`),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const customer = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    await customer.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
    const inWidget = customer.locator('changelog-feed article', { hasText: 'v1.1.0' });
    await expect.poll(() => inWidget.count()).toBe(1);
    const shown = (await inWidget.textContent()) ?? '';
    expect(shown).toContain('find anything, anywhere');
    expect(shown).toContain('box on every page');
    expect(shown).toContain('Crash on start (#12)');
    expect(shown).not.toContain('Typo in footer');
    await customer.close();
    await new Promise((resolve) => site.close(resolve));
  }, 120_000);

  it('under "draft for review", a new commit and a new tag change nothing public until the editor publishes', async () => {
    // The project's policy, as the generation settings show it: release notes and weekly entries are drafts for review.
    await page.goto(`${base}/dashboard/projects/${slug}/generation`);
    expect(await page.locator('#f-publish-release').inputValue()).toBe('manual');
    expect(await page.locator('#f-publish-weekly').inputValue()).toBe('manual');
    // The weekly entries are published too (all of them, from the review queue), so a new commit has one to change.
    await page.goto(`${base}/dashboard/projects/${slug}/review?type=weekly`);
    await page.locator('input[name="scope"][value="matching"]').check();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.waitForURL(/notice=|done=/);
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/changelog/${slug}?view=weekly` })).json<{ entries: unknown[] }>().entries.length).toBeGreaterThan(
      0,
    );

    // Every public surface: the page (releases and weekly views), the API, the feeds and what the widget fetches.
    const surfaces = [
      `/c/${slug}`,
      `/c/${slug}?view=releases`,
      `/c/${slug}?view=weekly`,
      `/c/${slug}/releases/v1.1.0`,
      `/v1/changelog/${slug}/releases`,
      `/v1/changelog/${slug}/releases?limit=10`,
      `/v1/changelog/${slug}?view=weekly&limit=10`,
      `/v1/changelog/${slug}/feed.atom`,
      `/v1/changelog/${slug}/feed.atom?view=weekly`,
      `/v1/changelog/${slug}/releases.atom`,
    ];
    const read = async () =>
      Promise.all(
        surfaces.map(async (url) => {
          const res = await ctx.app.inject({ method: 'GET', url });
          expect(res.statusCode, url).toBe(200);
          return { url, body: res.body };
        }),
      );
    const before = await read();
    expect(before[1]!.body).toContain('The <strong>search</strong> release');

    // A push: a new commit in the already-published week of v1.1.0, and a new tag on the next one.
    repo.commit('03-06', 'feat: export to CSV (#20)');
    repo.commit('03-07', 'fix: slow start');
    repo.git('tag', '-a', 'v1.2.0', '-m', 'v1.2.0');
    repo.push();
    await sync();

    // Byte for byte what it was: no new note, no new item in the published weekly entry, no feed entry.
    expect(await read()).toEqual(before);

    // The review queue: the published weekly entry's new content waits, with its diff against what is public.
    await page.goto(`${base}/dashboard/projects/${slug}/review`);
    const waiting = page.locator('tr[data-entry]', { has: page.getByText('new content waiting') });
    expect(await waiting.count()).toBe(1);
    await waiting.locator('details.revision summary').click();
    expect(await waiting.locator('pre.diff').textContent()).toContain('Export to CSV');
    await screenshot(page, 'release-editor-review-queue', { docs: true });
    // The Releases screen: the new tag's note is a draft; the edited note keeps its badge.
    await page.goto(`${base}/dashboard/projects/${slug}/releases`);
    const row = (tag: string) => page.locator('tr[data-entry]', { has: page.getByRole('link', { name: tag, exact: true }) });
    expect(await row('v1.2.0').locator('.badge.draft').first().textContent()).toBe('draft');
    expect(await row('v1.1.0').getByText('edited', { exact: true }).count()).toBe(1);
    expect(await read()).toEqual(before);

    // The editor publishes: the weekly entry's revision from the review queue, the new note from its editor.
    await page.goto(`${base}/dashboard/projects/${slug}/review`);
    await waiting.locator('input[name="ids"]').check();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.waitForURL(/review/);
    await page.goto(`${base}/dashboard/projects/${slug}/releases`);
    await row('v1.2.0').getByRole('link', { name: 'v1.2.0', exact: true }).click();
    await page.waitForURL(`${base}/dashboard/projects/${slug}/releases/v1.2.0`);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.waitForURL(/done=publish/);

    const after = Object.fromEntries((await read()).map((r) => [r.url, r.body]));
    expect(after[`/v1/changelog/${slug}/releases`]).toContain('"tag":"v1.2.0"');
    expect(after[`/v1/changelog/${slug}/releases.atom`]).toContain('v1.2.0');
    expect(after[`/v1/changelog/${slug}/feed.atom`]).toContain('v1.2.0');
    expect(after[`/v1/changelog/${slug}?view=weekly&limit=10`]).toContain('Export to CSV');
    expect(after[`/v1/changelog/${slug}/feed.atom?view=weekly`]).toContain('Export to CSV');
    // The edited note is still exactly as its editor published it.
    expect(after[`/c/${slug}/releases/v1.1.0`]).toBe(before.find((r) => r.url === `/c/${slug}/releases/v1.1.0`)!.body);

    // A reader who has not been here before (this page's browser cache holds the page as it was: public, max-age).
    const reader = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await reader.goto(`${base}/c/${slug}?view=releases`);
    const note = reader.locator('article', { has: reader.getByRole('heading', { name: 'v1.2.0' }) });
    expect(await note.locator('.content li').allTextContents()).toEqual(expect.arrayContaining(['Export to CSV (#20)', 'Slow start']));
    expect(await reader.getByText('The search release').count()).toBe(1);
    await screenshot(reader, 'release-editor-after-publish', { docs: true });
    await reader.close();
  }, 120_000);
});
