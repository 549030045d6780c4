import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp } from '../../src/app.js';
import { seedDemo } from '../../src/demo/seed.js';
import { createServices, type Services } from '../../src/services.js';
import { testConfig } from './config.js';
import { createTestDatabase, type TestDatabase } from './database.js';

// Debian's chromium package (.ci/run installs it); playwright-core never downloads a browser.
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Without a browser the end-to-end tests are skipped, except in CI, where a missing browser is a failure. */
export const runE2e = existsSync(CHROMIUM) || process.env.CI === 'true';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where every run's screenshots go (git-ignored). */
export const SCREENSHOTS_DIR = join(ROOT, 'test-results', 'screenshots');
/** The README's pictures, rewritten only with UPDATE_DOCS_SCREENSHOTS=1 (so that a test run never dirties the tree). */
export const DOCS_SCREENSHOTS_DIR = join(ROOT, 'docs', 'screenshots');
export const updateDocsScreenshots = process.env.UPDATE_DOCS_SCREENSHOTS === '1';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * A full-page screenshot into test-results/screenshots/NAME.png; with `docs` and
 * UPDATE_DOCS_SCREENSHOTS=1, copied to docs/screenshots/NAME.png as well.
 */
export async function screenshot(page: Page, name: string, options: { docs?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const path = join(SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  if (options.docs && updateDocsScreenshots) {
    mkdirSync(DOCS_SCREENSHOTS_DIR, { recursive: true });
    copyFileSync(path, join(DOCS_SCREENSHOTS_DIR, `${name}.png`));
  }
}

/** The people and names the browser tests set an installation up with. */
export const FIRST_ACCOUNT = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  password: 'correct-horse-battery',
  org: { name: 'Acme Inc.', slug: 'acme' },
  project: { name: 'Acme App', slug: 'acme-app' },
} as const;

export type SetupStep = 'signup' | 'organization' | 'project';

/** The installation's first account (Grace Hopper), from its setup link, and nothing else: signed in on `page`. */
export async function createFirstAccount(page: Page, base: string, services: Pick<Services, 'accounts'>): Promise<{ email: string }> {
  const setup = await services.accounts.firstAccountSetupLink();
  if (!setup) throw new Error('the installation already has its first account');
  await page.goto(`${base}/dashboard/setup/${setup.token}`);
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Grace Hopper');
  await page.getByLabel('E-mail').fill('grace@example.com');
  await page.getByLabel('Password').fill('correct-horse-battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/dashboard/);
  return { email: 'grace@example.com' };
}

/**
 * What a newcomer does first, through the dashboard: opens the setup link the server printed,
 * creates the first account, an organization, and a project in it. `beforeSubmit` runs with each
 * form filled in, before it is sent (for screenshots and checks of the page it is on).
 */
export async function setUpFirstAccount(
  page: Page,
  base: string,
  setupPath: string,
  beforeSubmit: (step: SetupStep) => Promise<void> = async () => {},
): Promise<void> {
  const { name, email, password, org, project } = FIRST_ACCOUNT;
  await page.goto(`${base}${setupPath}`);
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await beforeSubmit('signup');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${base}/dashboard?notice=welcome`);

  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(org.name);
  await page.getByRole('textbox', { name: 'Slug', exact: true }).fill(org.slug);
  await beforeSubmit('organization');
  await page.getByRole('button', { name: 'Create organization' }).click();
  await page.waitForURL(`${base}/dashboard/orgs/${org.slug}?notice=org-created`);

  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(project.name);
  await page.getByRole('textbox', { name: 'Slug', exact: true }).fill(project.slug);
  await beforeSubmit('project');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.waitForURL(`${base}/dashboard/projects/${project.slug}?notice=project-created`);
}

/** The app in this process on a fresh test database with the demo seeded, listening on a free port. */
export interface DashboardApp {
  database: TestDatabase;
  services: Services;
  app: FastifyInstance;
  base: string;
  close(): Promise<void>;
}

export async function startDashboardApp(env: Record<string, string> = {}): Promise<DashboardApp> {
  const database = await createTestDatabase();
  const config = testConfig(env);
  const services = createServices(database, config);
  await seedDemo(services);
  const app = await buildApp({ config, database, services });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    database,
    services,
    app,
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
