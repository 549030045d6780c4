// The release editor in headless Chromium (issue 23): publish the release history in one action, edit
// one note (text, hide, move, headline, introduction), publish it, and read exactly that on the public
// page and in the API. Screenshots of the editor and the public note (docs/screenshots with
// UPDATE_DOCS_SCREENSHOTS=1).
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
    ctx = await createTestContext({ UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' });
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
    await storeCommits(ctx.services, project.id, history());
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
});
