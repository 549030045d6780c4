import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runE2e, setUpFirstAccount, startDashboardApp, type DashboardApp } from '../helpers/browser.js';

// SCREENSHOTS_DIR=docs/screenshots (and SCREENSHOTS_SUFFIX) keeps the pictures for the documentation.
const SCREENSHOTS = process.env.SCREENSHOTS_DIR ?? new URL('../../test-results/screenshots/', import.meta.url).pathname;
const SUFFIX = process.env.SCREENSHOTS_SUFFIX ?? '';

/**
 * What a newcomer sees first, in a real browser: the dashboard's own Content-Security-Policy blocks
 * no style of its pages, inputs look alike, lists of cards have no bullets, buttons do not touch
 * the panel below, and the generation settings form uses the page's width.
 */
describe.runIf(runE2e)('first impressions of the dashboard in headless Chromium', () => {
  let server: DashboardApp;
  let base: string;
  let browser: Browser;
  let page: Page;
  const blocked: string[] = [];

  const shot = async (name: string) => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOTS}/first-impressions-${name}${SUFFIX}.png`, fullPage: true });
  };
  const visit = async (path: string) => {
    blocked.length = 0;
    await page.goto(`${base}${path}`);
    await page.waitForLoadState('load');
  };

  beforeAll(async () => {
    server = await startDashboardApp();
    base = server.base;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    // The first account, an organization and a project in it, through the dashboard.
    const setup = await server.services.accounts.firstAccountSetupLink();
    await setUpFirstAccount(page, base, `/dashboard/setup/${setup!.token}`);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('GET / lands on the dashboard, with a favicon', async () => {
    await visit('/');
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    const icon = await page.evaluate(async () => (await fetch('/favicon.ico')).headers.get('content-type'));
    expect(icon).toBe('image/svg+xml');
  });

  it('overview: the workspace cards have no list bullets', async () => {
    await visit('/dashboard');
    await shot('overview');
    // Strings run in the page (this project's TypeScript has no DOM types).
    const styles = (await page.evaluate(
      `[...document.querySelectorAll('main ul.grid')].map((ul) => ({ list: getComputedStyle(ul).listStyleType, padding: getComputedStyle(ul).paddingLeft }))`,
    )) as { list: string; padding: string }[];
    expect(styles.length).toBeGreaterThan(0);
    for (const style of styles) expect(style).toEqual({ list: 'none', padding: '0px' });
    expect(blocked).toEqual([]);
  });

  it('organization page: no inline style blocked by the Content-Security-Policy', async () => {
    await visit('/dashboard/orgs/acme');
    await shot('organization');
    expect(blocked).toEqual([]);
    // The invitation form's "Role" label sits beside its select, without the blocked inline margin.
    expect(await page.evaluate(`getComputedStyle(document.querySelector('label[for="invite-role"]')).marginBottom`)).toBe('0px');
  });

  it('project settings: the logo URL input looks like the other inputs', async () => {
    await visit('/dashboard/projects/acme-app');
    await shot('project');
    const look = (selector: string) =>
      page.evaluate(
        `(({ borderTopColor, borderTopLeftRadius, paddingLeft, fontFamily }) => ({ borderTopColor, borderTopLeftRadius, paddingLeft, fontFamily }))(getComputedStyle(document.querySelector('${selector}')))`,
      );
    expect(await look('#f-logo_url')).toEqual(await look('#f-theme_color'));
    expect(blocked).toEqual([]);
  });

  it('generation page: "Generate now" keeps its distance, and the settings form uses the page width', async () => {
    await visit('/dashboard/projects/acme-app/generation');
    await shot('generation');
    const button = await page.getByRole('button', { name: 'Generate now' }).boundingBox();
    const queue = await page.locator('section[aria-labelledby="queue-h"]').boundingBox();
    expect(queue!.y - (button!.y + button!.height)).toBeGreaterThanOrEqual(12);
    const panel = await page.locator('section[aria-labelledby="gen-settings-h"]').boundingBox();
    const form = await page.locator('section[aria-labelledby="gen-settings-h"] form.stack').boundingBox();
    // The form fills its panel (less the padding), so that its many fields lay out side by side.
    expect(form!.width).toBeGreaterThan(panel!.width - 60);
    expect(form!.height).toBeLessThan(3000);
    expect(blocked).toEqual([]);
  });
});
