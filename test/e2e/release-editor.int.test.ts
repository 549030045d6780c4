// The release editor in headless Chromium (issue 23): publish the release history in one action, edit
// one note (text, hide, move, headline, introduction), publish it, and read exactly that on the public
// page and in the API; then a new commit and a new tag arrive under "draft for review", and nothing
// public changes (page, API, feeds, the widget's data) until the editor publishes. Screenshots of the
// editor, the public note, the review queue with a pending revision and the page after the publish
// (docs/screenshots with UPDATE_DOCS_SCREENSHOTS=1).
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCommit } from '../helpers/commits.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { buildProject } from '../helpers/factories.js';
import { launchChromium, runE2e, screenshot } from '../helpers/browser.js';
import { storeCommits } from '../helpers/releases.js';

function history() {
  const a = buildCommit({ message: 'feat: first feature', tags: ['v1.0.0'], date: '2024-03-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], message: 'feat: search box', date: '2024-03-02T10:00:00Z' });
  const c = buildCommit({ parents: [b.sha], message: 'fix: crash on start (#12)', date: '2024-03-03T10:00:00Z' });
  const d = buildCommit({ parents: [c.sha], message: 'feat: dark mode', date: '2024-03-04T10:00:00Z' });
  const e = buildCommit({ parents: [d.sha], message: 'fix: typo in footer', tags: ['v1.1.0'], date: '2024-03-05T10:00:00Z' });
  return [a, b, c, d, e];
}

describe.runIf(runE2e)('the release editor in headless Chromium', () => {
  let ctx: TestContext;
  let browser: Browser;
  let page: Page;
  let base: string;
  let slug: string;

  beforeAll(async () => {
    // No response cache: every read below is what the database holds now, not what was cached before.
    ctx = await createTestContext({ UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0', RESPONSE_CACHE: 'false' });
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
  });

  let commits: ReturnType<typeof history> = [];
  const item = (text: string) => page.locator('li.edit-item', { has: page.locator(`input[name="text"][value="${text}"]`) });

  it('publishes the history, edits a note, publishes it, and the public page and API show exactly that', async () => {
    const setup = await ctx.services.accounts.firstAccountSetupLink();
    await page.goto(`${base}/dashboard/setup/${setup!.token}`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Grace Hopper');
    await page.getByLabel('E-mail').fill('grace@example.com');
    await page.getByLabel('Password').fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/dashboard/);
    const project = await buildProject(ctx.services, { type: 'user', email: 'grace@example.com' }, { slug: 'grace-app', name: 'Grace App' });
    slug = project.slug;
    commits = history();
    await storeCommits(ctx.services, project.id, commits);
    await ctx.services.generation.generate(slug);

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

    await page.goto(`${base}/c/${slug}?view=releases`);
    const article = page.locator('article', { has: page.getByRole('heading', { name: 'v1.1.0' }) });
    expect(await article.locator('.content strong').first().textContent()).toBe('search');
    expect(await article.locator('.content li').allTextContents()).toEqual(['A search box on every page', 'Dark mode', 'Crash on start (#12)']);
    expect(await article.locator('.content code').first().textContent()).toBe('search');
    expect(await page.getByText('Typo in footer').count()).toBe(0);
    await article.screenshot({ path: 'test-results/screenshots/release-editor-public-note.png' });
    await page.goto(`${base}/c/${slug}/releases/v1.1.0`);
    await screenshot(page, 'release-editor-public-note', { docs: true });
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

    // A new commit in the already-published week of v1.1.0, and a new tag on the next one.
    const f = buildCommit({ parents: [commits[4]!.sha], message: 'feat: export to CSV (#20)', date: '2024-03-06T10:00:00Z' });
    const g = buildCommit({ parents: [f.sha], message: 'fix: slow start', tags: ['v1.2.0'], date: '2024-03-07T10:00:00Z' });
    const project = (await ctx.services.projects.findBySlug(slug))!;
    await storeCommits(ctx.services, project.id, [f, g]);
    await ctx.services.generation.generate(slug);

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
