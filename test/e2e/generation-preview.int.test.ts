// The generation settings page in headless Chromium: change the form, press Preview, read what
// would be generated; nothing is saved until Save.
import { mkdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { buildProject } from '../helpers/factories.js';
import { datasetRepoCopy, removeRepoCopy, tempDir } from '../helpers/git-fixtures.js';
import { commitFiles, git } from '../helpers/git.js';
import { createFirstAccount, launchChromium, runE2e } from '../helpers/browser.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);

describe.runIf(runE2e)('generation preview in headless Chromium', () => {
  let ctx: TestContext;
  let reposDir: string;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let base: string;
  let slug: string;

  beforeAll(async () => {
    reposDir = tempDir('gen-e2e');
    ctx = await createTestContext({ REPOS_DIR: reposDir, UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    origin = datasetRepoCopy();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
    if (origin) removeRepoCopy(origin);
    if (reposDir) rmSync(reposDir, { recursive: true, force: true });
  });

  it('previews the edited form and leaves the saved settings alone', async () => {
    await createFirstAccount(page, base, ctx.services);
    const project = await buildProject(ctx.services, { type: 'user', email: 'grace@example.com' });
    slug = project.slug;
    const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: slug, source: origin, branch: 'main' });
    await ctx.services.ingest.ingestLink(link.id);

    await page.goto(`${base}/dashboard/projects/${slug}/generation`);
    await page.getByRole('checkbox', { name: 'monthly' }).check();
    await page.getByLabel('Label of fix').fill('Fixed');
    await page.getByLabel('Team by path (GLOB=TEAM, one per line, e.g. packages/compiler/**=Compiler team)').fill('git-cliff-core/**=Core team');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForURL(`${base}/dashboard/projects/${slug}/generation/preview#preview`);
    await expect.poll(() => page.getByRole('heading', { name: 'Preview of these settings' }).isVisible()).toBe(true);
    expect(await page.locator('#preview table').first().locator('th[scope=row]').allTextContents()).toEqual(['commit', 'weekly', 'monthly']);
    expect(await page.locator('#preview .preview-entry').count()).toBeGreaterThan(3);
    expect(await page.locator('#preview .preview-entry h4').first().textContent()).toMatch(/^monthly \w+ \d{4}/);
    expect(await page.getByLabel('Label of fix').inputValue()).toBe('Fixed');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: new URL(`${process.env.TEST_DB ?? 'pglite'}-generation-preview.png`, SCREENSHOTS).pathname, fullPage: true });
    await page.locator('#preview').screenshot({ path: new URL(`${process.env.TEST_DB ?? 'pglite'}-generation-preview-panel.png`, SCREENSHOTS).pathname });

    expect((await ctx.services.generation.settings(slug)).input).toEqual({});
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(`${base}/dashboard/projects/${slug}/generation?notice=generation-saved`);
    expect((await ctx.services.generation.settings(slug)).resolved.teams).toEqual([{ team: 'Core team', paths: ['git-cliff-core/**'] }]);
  }, 120_000);

  it("offers the sections of the repository's CHANGELOG.md, fills the form with them in one click, and saves nothing until asked", async () => {
    const repo = tempDir('calibration-e2e');
    git(repo, ['init', '-q', '--initial-branch=main']);
    const changelog = ['# Changelog', ...['1.2.0', '1.1.0', '1.0.0'].flatMap((v) => [`## [${v}]`, '### Added', `- Something new in ${v}`, '### Fixed', `- A fix in ${v}`])].join('\n\n');
    commitFiles(repo, 'feat: add search', { 'src/search.ts': 'export {};\n', 'CHANGELOG.md': `${changelog}\n` });
    commitFiles(repo, 'fix: keep the last character', { 'src/search.ts': 'export const a = 1;\n' });
    commitFiles(repo, 'docs: explain search', { 'docs/search.md': '# Search\n' });
    const project = await buildProject(ctx.services, { type: 'user', email: 'grace@example.com' }, { slug: 'calibrated' });
    const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: repo, branch: 'main' });
    await ctx.services.ingest.ingestLink(link.id);
    try {
      await page.goto(`${base}/dashboard/projects/${project.slug}/generation`);
      await expect.poll(() => page.getByRole('heading', { name: 'Your CHANGELOG.md' }).isVisible()).toBe(true);
      expect(await page.locator('table', { hasText: 'Their section' }).locator('th[scope=row]').allTextContents()).toEqual(['Added', 'Fixed']);
      await page.getByRole('link', { name: 'Fill the form with these sections' }).click();
      await page.waitForURL(`${base}/dashboard/projects/${project.slug}/generation?from_changelog=1#gen-settings-h`);
      expect(await page.getByLabel('Label of feature').inputValue()).toBe('Added');
      expect(await page.getByLabel('Label of fix').inputValue()).toBe('Fixed');
      expect(await page.getByRole('checkbox', { name: 'documentation' }).isChecked()).toBe(false);
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Preview of these settings' }).isVisible()).toBe(true);
      const shown = await page.locator('#preview table', { hasText: 'Commits per section' }).locator('tr', { hasText: '(documentation)' }).textContent();
      expect(shown).toContain('hidden');
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.goto(`${base}/dashboard/projects/${project.slug}/generation`);
      await page.locator('section', { has: page.getByRole('heading', { name: 'Your CHANGELOG.md' }) }).screenshot({
        path: new URL(`${process.env.TEST_DB ?? 'pglite'}-generation-calibration.png`, SCREENSHOTS).pathname,
      });
      // On a phone the panel is the screen's width.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.screenshot({ path: new URL(`${process.env.TEST_DB ?? 'pglite'}-generation-phone.png`, SCREENSHOTS).pathname, fullPage: true });
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 900 });
      expect((await ctx.services.generation.settings(project.slug)).input).toEqual({});
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  }, 120_000);

  it('suggests the rule that editors’ hides in the release editor would make, fills the form with it, and previews what it would change', async () => {
    const repo = tempDir('edit-suggestions-e2e');
    git(repo, ['init', '-q', '--initial-branch=main']);
    for (const [i, v] of ['1.0.0', '1.1.0'].entries()) {
      commitFiles(repo, `fix: keep character ${i}`, { 'src/search.ts': `export const a = ${i};\n` });
      commitFiles(repo, `docs: explain search ${i}`, { [`docs/search-${i}.md`]: '# Search\n' });
      commitFiles(repo, `docs: explain filters ${i}`, { [`docs/filters-${i}.md`]: '# Filters\n' });
      git(repo, ['tag', `v${v}`]);
    }
    const project = await buildProject(ctx.services, { type: 'user', email: 'grace@example.com' }, { slug: 'edited' });
    const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: repo, branch: 'main' });
    await ctx.services.ingest.ingestLink(link.id);
    await ctx.services.generation.generate(project.slug);
    try {
      // An editor hid every documentation item of both notes in the release editor.
      for (const tag of ['v1.0.0', 'v1.1.0']) {
        const view = await ctx.services.entries.releaseEditor(project.id, tag);
        const docs = view.sections.find((s) => s.key === 'documentation')!.items;
        expect(docs).toHaveLength(2);
        for (const item of docs) await ctx.services.entries.editRelease(project.id, tag, { action: 'hide', key: item.key });
      }
      await page.goto(`${base}/dashboard/projects/${project.slug}/generation`);
      const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Suggested by your edits' }) });
      await expect.poll(() => panel.isVisible()).toBe(true);
      expect(await panel.locator('li').allTextContents()).toEqual(['Hide Documentation (documentation): editors hid 4 of its 4 items, in 2 release notes.']);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await panel.screenshot({ path: new URL(`${process.env.TEST_DB ?? 'pglite'}-generation-edit-suggestions.png`, SCREENSHOTS).pathname });
      await page.getByRole('link', { name: 'Fill the form with this rule' }).click();
      await page.waitForURL(`${base}/dashboard/projects/${project.slug}/generation?from_edits=1#gen-settings-h`);
      expect(await page.getByRole('checkbox', { name: 'documentation' }).isChecked()).toBe(false);
      expect(await page.getByRole('checkbox', { name: 'fix' }).isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Preview of these settings' }).isVisible()).toBe(true);
      const shown = await page.locator('#preview table', { hasText: 'Commits per section' }).locator('tr', { hasText: '(documentation)' }).textContent();
      expect(shown).toContain('hidden');
      // Nothing saved: the settings are the defaults they were.
      expect((await ctx.services.generation.settings(project.slug)).input).toEqual({});
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  }, 120_000);
});
