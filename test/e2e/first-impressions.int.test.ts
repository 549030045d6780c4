import { testConfig } from '../helpers/config.js';
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { seedDemo } from '../../src/demo/seed.js';
import { createServices, type Services } from '../../src/services.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

// Debian's chromium package; playwright-core never downloads a browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// SCREENSHOTS_DIR=docs/screenshots (and SCREENSHOTS_SUFFIX) keeps the pictures for the documentation.
const SCREENSHOTS = process.env.SCREENSHOTS_DIR ?? new URL('../../test-results/screenshots/', import.meta.url).pathname;
const SUFFIX = process.env.SCREENSHOTS_SUFFIX ?? '';
const runE2e = existsSync(CHROMIUM) || process.env.CI === 'true';

/**
 * What a newcomer sees first, in a real browser: the dashboard's own Content-Security-Policy blocks
 * no style of its pages, inputs look alike, lists of cards have no bullets, buttons do not touch
 * the panel below, and the generation settings form uses the page's width.
 */
describe.runIf(runE2e)('first impressions of the dashboard in headless Chromium', () => {
  let database: TestDatabase;
  let services: Services;
  let app: FastifyInstance;
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
    database = await createTestDatabase();
    const config = testConfig();
    services = createServices(database, config);
    await seedDemo(services);
    app = await buildApp({ config, database, services });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    // The first account, an organization and a project in it, through the dashboard.
    const setup = await services.accounts.firstAccountSetupLink();
    await page.goto(`${base}/dashboard/setup/${setup!.token}`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada Lovelace');
    await page.getByLabel('E-mail').fill('ada@example.com');
    await page.getByLabel('Password').fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${base}/dashboard?notice=welcome`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Acme Inc.');
    await page.getByRole('textbox', { name: 'Slug', exact: true }).fill('acme');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.waitForURL(`${base}/dashboard/orgs/acme?notice=org-created`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Acme App');
    await page.getByRole('textbox', { name: 'Slug', exact: true }).fill('acme-app');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(`${base}/dashboard/projects/acme-app?notice=project-created`);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await database?.close();
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
