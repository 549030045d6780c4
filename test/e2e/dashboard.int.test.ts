import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { Services } from '../../src/services.js';
import { launchChromium, runE2e, setUpFirstAccount, startDashboardApp, type DashboardApp } from '../helpers/browser.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);

describe.runIf(runE2e)('dashboard in headless Chromium', () => {
  let server: DashboardApp;
  let services: Services;
  let base: string;
  let browser: Browser;
  let page: Page;
  let receiver: Server;

  const shot = async (name: string) => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: new URL(`${process.env.TEST_DB ?? 'pglite'}-${name}.png`, SCREENSHOTS).pathname, fullPage: true });
  };
  const api = (secret: string) => fetch(`${base}/v1/projects`, { headers: { authorization: `Bearer ${secret}` } });
  const secretOnPage = async () => {
    const secret = await page.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^clk_[0-9A-Za-z]{39}$/);
    return secret;
  };

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    // The local webhook receiver is on loopback, which only the operator's allow-list opens.
    server = await startDashboardApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    ({ services, base } = server);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('dialog', (dialog) => void dialog.accept());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('sets up the first account, creates an org, a project and a scoped key, and rename/rotate/revoke/delete take effect at once', async () => {
    await page.goto(`${base}/dashboard`);
    await expect.poll(() => page.url()).toBe(`${base}/dashboard/signup`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Set up this installation');
    // The operator opens the setup link the server printed at start-up.
    const setup = await services.accounts.firstAccountSetupLink();
    await setUpFirstAccount(page, base, `/dashboard/setup/${setup!.token}`, async (step) => {
      if (step === 'signup') await shot('signup');
      if (step === 'organization') {
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Hello, Ada Lovelace');
        await shot('overview');
      }
    });
    // Keyboard users reach the skip link first.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await services.entries.import('acme-app', [
      { entry_type: 'weekly', status: 'published', title: 'Week of faster exports', content: '## Features\n\n- **api:** RSS export' },
      { entry_type: 'commit', title: 'Fix pagination ties', content: 'Entries that share a publish time are ordered by id.' },
    ]);
    await page.reload();
    await shot('project');

    await page.getByRole('link', { name: 'Acme Inc.' }).click();
    await page.getByRole('link', { name: 'Manage API keys →' }).click();
    await page.waitForURL(`${base}/dashboard/orgs/acme/keys`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('website');
    await page.getByLabel('Only the projects ticked below').check();
    await page.getByLabel(/Acme App/).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'Your new key “website”' }).waitFor();
    const secret = await secretOnPage();
    await page.getByRole('button', { name: 'Copy' }).click();
    await shot('key-created');

    const listed = await api(secret);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { projects: { slug: string }[] }).projects.map((p) => p.slug)).toEqual(['acme-app']);

    // The secret is shown once: the key's own page and the list never show it.
    await page.getByRole('link', { name: 'Done' }).click();
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('website-prod');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('Key renamed.').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('website-prod');
    await shot('key');

    await page.getByLabel('Keep the old secret working for').selectOption('0');
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByRole('heading', { name: 'New secret for “website-prod”' }).waitFor();
    const rotated = await secretOnPage();
    expect(rotated).not.toBe(secret);
    expect((await api(secret)).status).toBe(401);
    expect((await api(rotated)).status).toBe(200);

    await page.getByRole('link', { name: 'All keys' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('ci');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('link', { name: 'All keys' }).click();
    expect(await page.getByRole('row').count()).toBe(3);
    await shot('keys');

    await page.getByRole('link', { name: 'website-prod' }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Key revoked: it is refused from now on.').waitFor();
    expect((await api(rotated)).status).toBe(401);

    await page.getByRole('button', { name: 'Delete key' }).click();
    await page.getByText('Key deleted.').waitFor();
    expect(await page.getByRole('link', { name: 'website-prod' }).count()).toBe(0);
    expect((await api(rotated)).status).toBe(401);
  });

  it('reviews an entry: Markdown preview, save and publish', async () => {
    await page.goto(`${base}/dashboard/projects/acme-app`);
    await page.getByRole('link', { name: 'Fix pagination ties' }).click();
    await page.getByLabel('Content (Markdown)').fill('## Fixes\n\n- Ties are ordered by **id**\n\n<script>alert(1)</script>');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Preview (not saved yet)' }).waitFor();
    expect(await page.locator('.preview strong').textContent()).toBe('id');
    expect(await page.locator('.preview').textContent()).toContain('<script>alert(1)</script>');
    await shot('entry');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Entry saved.').waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Entry published.').waitFor();
    const body = (await (await fetch(`${base}/v1/changelog/acme-app`)).json()) as { entries: { title: string }[] };
    expect(body.entries.map((e) => e.title)).toContain('Fix pagination ties');
  });

  it('reaches the GitHub settings from the navigation, which say what to configure on this server', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'GitHub' }).click();
    await page.waitForURL(`${base}/dashboard/settings/github`);
    await page.getByRole('heading', { name: 'Acme Inc.' }).waitFor();
    expect(await page.getByRole('status').textContent()).toContain('GITHUB_APP_ID');
    expect(await page.getByRole('button', { name: /Connect GitHub/ }).count()).toBe(0);
    await shot('github-settings');
  });

  it('adds a webhook endpoint, sends a test event and reads the delivery log', async () => {
    await page.goto(`${base}/dashboard/projects/acme-app`);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/changelog`;
    await page.getByLabel('Payload URL (https)').fill(url);
    await page.getByRole('checkbox', { name: /entry\.updated/ }).uncheck();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
    await shot('webhook-created');
    await page.getByRole('link', { name: 'Delivery log' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Test event queued').waitFor();
    // No worker runs in this file: the job's one attempt, as the worker would make it.
    const [endpoint] = await services.webhooks.list((await services.projects.findBySlug('acme-app'))!.id);
    expect(endpoint!.eventTypes).toEqual(['entry.published', 'entry.unpublished']);
    const [delivery] = await services.webhooks.deliveries(endpoint!.projectId, endpoint!.id);
    await services.webhooks.deliver(delivery!.id);
    await page.reload();
    await page.locator('.badge.delivered').waitFor();
    expect(await page.locator('tr.delivery td').nth(3).textContent()).toBe('204');
    await shot('webhook-deliveries');
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/dashboard/orgs/acme/keys`);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('keys-phone');
    await page.setViewportSize({ width: 1280, height: 860 });
  });
});
