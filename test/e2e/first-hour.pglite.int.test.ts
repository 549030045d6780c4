// The first hour of a new installation, as a person lives it: `changelog serve` (the built command)
// on the embedded database, the setup link it prints, an account, an organization and a project in
// the dashboard, a local repository linked by its path, its history published in order, new work
// reviewed and published, and the public page, feeds and widget showing it — with the CLI used
// beside the running server throughout, agreeing with what the browser shows.
//
// Screenshots of each step go to test-results/screenshots/first-hour-*.png; with
// UPDATE_DOCS_SCREENSHOTS=1 they are also copied to docs/screenshots/ (the README's pictures).
// A `.pglite.int.test.ts` file: it runs once, on the embedded database, whatever TEST_DB says.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_ACCOUNT, launchChromium, runE2e, screenshot, setUpFirstAccount } from '../helpers/browser.js';
import { buildIfStale, runBuiltCli, startServerProcess, type ServerProcess } from '../helpers/process.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed CLI and feed output, checked field by field
type Json = any;

const SLUG = FIRST_ACCOUNT.project.slug;
const DAY = 86_400_000;
/** Monday 00:00 UTC of this ISO week: history ends before it, so no rollup of history is still open (an open period is new work). */
const WEEK_START = (() => {
  const now = new Date();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return midnight - ((now.getUTCDay() + 6) % 7) * DAY;
})();
/** `days` before this week began, at 10:00 UTC. */
const before = (days: number) => new Date(WEEK_START - days * DAY + 10 * 3_600_000);
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Commit entries of the history, by the date each change reached trunk (a merged branch's commits: their merge's), newest first. */
const HISTORY_TITLES = [
  'Improve error messages when the database is down',
  'Drop the legacy config format',
  'Faster startup',
  // Made on feature/export before "Describe the configuration", but they reached trunk with the merge after it.
  'CSV export',
  'Fixed a typo in the export header',
  'Describe the configuration',
  'Handle empty pages',
  'Add a README with install steps',
  'Initial project skeleton',
];
const NEW_WORK = ['Webhooks for published entries', 'Fix crash when the feed is empty'];

describe.runIf(runE2e)('the first hour: changelog serve on the embedded database, the dashboard, the CLI, the public page', () => {
  let scratch: string;
  let repo: string;
  let env: Record<string, string>;
  let server: ServerProcess;
  let base: string;
  let browser: Browser;
  let page: Page;
  let customer: Server;
  const cspViolations: string[] = [];

  const git = (args: string[], date?: Date) =>
    execFileSync('git', args, {
      cwd: repo,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: scratch,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'Ada Lovelace',
        GIT_AUTHOR_EMAIL: 'ada@example.com',
        GIT_COMMITTER_NAME: 'Ada Lovelace',
        GIT_COMMITTER_EMAIL: 'ada@example.com',
        ...(date ? { GIT_AUTHOR_DATE: date.toISOString(), GIT_COMMITTER_DATE: date.toISOString() } : {}),
      },
    }).trim();
  /** A commit that changes `file` (source code unless said otherwise: what a change touches decides its section too). */
  const commit = (message: string, date: Date, file = `src/${message.replace(/^\w+(\(\w+\))?!?: /, '').replace(/\W+/g, '-').slice(0, 30).toLowerCase()}.ts`) => {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    writeFileSync(join(repo, file), `// ${message}\n`, { flag: 'a' });
    git(['add', '-A']);
    git(['commit', '--quiet', '-m', message], date);
  };
  /** `changelog ...` from a shell, beside the running server (it goes through the server's socket). */
  const cli = async (...args: string[]): Promise<Json> => {
    const run = await runBuiltCli([...args, '--json'], env, scratch);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    return run.json();
  };
  /** Each step's picture; docs/screenshots/ has them all (rewritten with UPDATE_DOCS_SCREENSHOTS=1), the README shows a few. */
  const shot = async (name: string) => {
    // A page that reloads itself (a sync under way) may navigate during the capture: take it again.
    for (let attempt = 1; ; attempt++) {
      try {
        await screenshot(page, `first-hour-${name}`, { docs: true });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
        await page.waitForLoadState('load');
      }
    }
  };
  /** What the project page's repository panel and entry table say, read from the page (which reloads itself while work is under way). */
  const projectPageState = async () => {
    const busy = await page.locator('[data-refresh-seconds]').count();
    const panel = (await page.locator('section[aria-labelledby="repos-h"]').innerText()).replace(/\s+/g, ' ');
    const statuses = await page.locator('section[aria-labelledby="entries-h"] tbody .badge').allTextContents();
    return { busy: busy > 0, panel, statuses };
  };
  const titlesOnPublicPage = () => page.locator('main article h2').allTextContents();
  const datesOnPublicPage = async () => (await page.locator('main article time').evaluateAll((els) => els.map((el) => el.getAttribute('datetime')))) as string[];
  const facet = async (name: 'By status' | 'By type') => page.getByRole('list', { name }).getByRole('link').allTextContents();
  const queueTitles = () => page.locator('table.queue tbody tr td:nth-child(2) a').allTextContents();
  const queueIds = () => page.locator('table.queue input[name="ids"]').evaluateAll((els) => els.map((el) => (el as unknown as { value: string }).value));

  beforeAll(async () => {
    // Compiles dist/ if the sources are newer (a no-op after `npm ci`): the test runs the command a user runs.
    buildIfStale();
    scratch = mkdtempSync(join(tmpdir(), 'first-hour-'));
    const code = join(scratch, 'code');
    repo = join(code, 'acme');
    mkdirSync(repo, { recursive: true });

    // A repository whose default branch is not `main`, with a few weeks of history: conventional and
    // free-form messages, two release tags, and a branch merged with a merge commit.
    git(['init', '--quiet', '--initial-branch=trunk']);
    commit('feat: initial project skeleton', before(33));
    commit('Add a README with install steps', before(31), 'README.md');
    commit('fix(api): handle empty pages', before(29));
    git(['tag', '-a', 'v0.1.0', '-m', 'v0.1.0'], before(29));
    git(['checkout', '--quiet', '-b', 'feature/export']);
    commit('feat(export): CSV export', before(25), 'src/export.ts');
    commit('Fixed a typo in the export header', before(24), 'src/export.ts');
    git(['checkout', '--quiet', 'trunk']);
    commit('docs: describe the configuration', before(23), 'docs/configuration.md');
    git(['merge', '--quiet', '--no-ff', 'feature/export', '-m', "Merge branch 'feature/export'"], before(22));
    commit('perf: faster startup', before(15));
    commit('feat!: drop the legacy config format', before(11));
    git(['tag', '-a', 'v0.2.0', '-m', 'v0.2.0'], before(11));
    commit('Improve error messages when the database is down', before(4));

    // The environment a user would have, less two things a loaded test machine trips over: load
    // shedding (event-loop delay) and rate limits (every request of the test comes from one address).
    env = { NODE_ENV: 'production', DATA_DIR: join(scratch, 'data') };
    server = await startServerProcess(
      { ...env, REPO_PATHS_ALLOWED: code, UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0', RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: 'warn' },
      { built: true, cwd: scratch, startSeconds: 90 },
    );
    base = server.url;

    // The customer's site, another origin, that embeds the widget.
    customer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme blog</title>
<script src="${base}/widget.js" defer></script>
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:44rem;color:#222}</style></head>
<body><main><h1>Acme blog</h1><p>What we shipped lately:</p>
<changelog-feed project="${SLUG}" limit="5"></changelog-feed></main></body></html>`);
    });
    await new Promise<void>((resolve) => customer.listen(0, '127.0.0.1', resolve));

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(30_000);
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => customer?.close(resolve));
    await server?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('1. sets up the first account from the printed link, then an organization and a project', async () => {
    // http://…/dashboard alone explains where the setup link is; the server printed it at start-up.
    await page.goto(`${base}/dashboard`);
    await page.waitForURL(`${base}/dashboard/signup`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Set up this installation');
    await expect.poll(() => /Set up the dashboard: \S+(\/dashboard\/setup\/[\w-]{43}) \(works once/.test(server.output()), { timeout: 30_000 }).toBe(true);
    const setupPath = /Set up the dashboard: \S+(\/dashboard\/setup\/[\w-]{43}) \(works once/.exec(server.output())![1]!;

    await setUpFirstAccount(page, base, setupPath, async (step) => {
      if (step === 'signup') await shot('01-signup');
      if (step === 'organization') expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Hello, ${FIRST_ACCOUNT.name}`);
      if (step === 'project') {
        expect(await page.getByText('Organization created. You are its owner.').count()).toBe(1);
        await shot('02-organization');
      }
    });
    expect(await page.getByText('Project created.').count()).toBe(1);
    expect(await page.getByText('No repository linked yet.').count()).toBe(1);
    // The form says where local paths may come from.
    expect(await page.locator('#f-source-hint').textContent()).toContain(join(scratch, 'code'));

    // The CLI, beside the running server, sees the project (and the demo a fresh installation seeds).
    const all = await cli('projects', 'list');
    expect(all.projects.map((p: Json) => [p.slug, p.owner])).toEqual([
      [SLUG, `org:${FIRST_ACCOUNT.org.slug}`],
      ['demo', 'user:demo@example.com'],
    ]);
    const ofOrg = await cli('projects', 'list', '--owner', `org:${FIRST_ACCOUNT.org.slug}`);
    await page.goto(`${base}/dashboard/orgs/${FIRST_ACCOUNT.org.slug}`);
    const onOrgPage = await page.locator('section[aria-labelledby="projects-h"] tbody td:nth-child(2)').allTextContents();
    expect(ofOrg.projects.map((p: Json) => p.slug)).toEqual(onOrgPage);
  }, 120_000);

  it('2. links the local repository by its path; the project page shows the sync and then the history, published', async () => {
    await page.goto(`${base}/dashboard/projects/${SLUG}`);
    await page.getByLabel('Local path or git URL').fill(repo);
    await shot('03-project');
    await page.getByRole('button', { name: 'Link repository' }).click();
    await page.waitForURL(`${base}/dashboard/projects/${SLUG}?notice=repo-linked`);
    expect(await page.getByText('Repository linked: its first sync is queued.').count()).toBe(1);
    // The default branch is found (trunk, not main), and the page shows the work under way.
    const row = page.locator('section[aria-labelledby="repos-h"] tbody tr');
    expect(await row.locator('td').nth(0).textContent()).toBe(repo);
    expect(await row.locator('td').nth(1).textContent()).toBe('trunk');
    const first = await projectPageState();
    expect(first.busy).toBe(true);
    expect(first.panel).toMatch(/A sync is under way|Generating entries/);
    await shot('04-syncing');

    // Done when the page, reloading itself, says so: commits stored and no work pending, every history entry published.
    const stored = Number(git(['rev-list', '--count', 'HEAD']));
    await expect
      .poll(projectPageState, { timeout: 90_000, interval: 500 })
      .toMatchObject({ busy: false, panel: expect.stringContaining(`${stored} commits stored`), statuses: expect.arrayContaining(['published']) });
    const done = await projectPageState();
    expect(done.statuses).toEqual(Array(HISTORY_TITLES.length + 5).fill('published'));
    // The notice of the link does not outlive the sync.
    expect(await page.getByText('its first sync is queued').count()).toBe(0);
    // Commit entries in the entry table, newest first by their own date (the date each was written, as the review queue orders them).
    const commitTitles = await page.locator('section[aria-labelledby="entries-h"] tbody tr').evaluateAll((rows) =>
      rows.filter((row) => row.children[1]?.textContent === 'commit').map((row) => row.children[0]?.textContent),
    );
    expect(commitTitles).toEqual([...HISTORY_TITLES.slice(0, 3), 'Describe the configuration', 'Fixed a typo in the export header', 'CSV export', ...HISTORY_TITLES.slice(6)]);
    await shot('05-synced');

    // The CLI agrees about the link.
    const { links, count } = await cli('repos', 'list', '--project', SLUG);
    expect(count).toBe(1);
    expect(links[0]).toMatchObject({ kind: 'local', sourceUrl: repo, trackedBranch: 'trunk', defaultBranch: 'trunk', status: 'active', lastIngestedSha: git(['rev-parse', 'HEAD']) });
  }, 150_000);

  it('3. the public page lists the history newest first by when each change reached the branch', async () => {
    await page.goto(`${base}/c/${SLUG}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${FIRST_ACCOUNT.project.name} changelog`);
    // By default one view: the release notes, as the history's two tags were published with it.
    expect(await titlesOnPublicPage()).toEqual(['v0.2.0', 'v0.1.0']);
    // The weekly rollups, five weeks of them.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Weekly' }).click();
    await page.waitForURL(`${base}/c/${SLUG}?view=weekly`);
    const weeks = await titlesOnPublicPage();
    expect(weeks).toHaveLength(5);
    for (const title of weeks) expect(title).toMatch(/^Week \d{4}-W\d{2} /);
    const weekDates = await datesOnPublicPage();
    expect(weekDates).toEqual([...weekDates].sort().reverse());
    expect(await page.getByText('v0.2.0').count()).toBeGreaterThan(0);
    await shot('06-public-history');

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Every change' }).click();
    await page.waitForURL(`${base}/c/${SLUG}?view=commit`);
    const titles = await titlesOnPublicPage();
    const dates = await datesOnPublicPage();
    expect(dates).toEqual([...dates].sort().reverse());
    // The two commits of the merged branch reached trunk together (in either order between them).
    expect(titles.slice(0, 3)).toEqual(HISTORY_TITLES.slice(0, 3));
    expect(new Set(titles.slice(3, 5))).toEqual(new Set(HISTORY_TITLES.slice(3, 5)));
    expect(titles.slice(5)).toEqual(HISTORY_TITLES.slice(5));
    // Dated by their arrival, not by when they were written or stored.
    expect(dates.at(-1)).toBe(before(33).toISOString());
    expect(dates[titles.indexOf('CSV export')]).toBe(before(22).toISOString());
    expect(await page.locator('main').textContent()).not.toMatch(/\*\*|\]\(|^#/m);
  }, 60_000);

  it('4. new commits after the link are drafts; the review queue filters and counts them, and agrees with the CLI', async () => {
    // Two changes made after the link (this week, so the week's rollup is new work too).
    const now = Date.now();
    commit('feat(api): webhooks for published entries', new Date(now));
    commit('Fix crash when the feed is empty', new Date(now + 1000));
    await page.goto(`${base}/dashboard/projects/${SLUG}`);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.waitForURL(`${base}/dashboard/projects/${SLUG}?notice=repo-sync-queued`);
    const stored = Number(git(['rev-list', '--count', 'HEAD']));
    await expect
      .poll(projectPageState, { timeout: 90_000, interval: 500 })
      .toMatchObject({ busy: false, panel: expect.stringContaining(`${stored} commits stored`), statuses: expect.arrayContaining(['draft']) });
    expect((await projectPageState()).statuses.filter((s) => s === 'draft')).toHaveLength(3);

    await page.getByRole('link', { name: 'Review queue' }).click();
    await page.waitForURL(`${base}/dashboard/projects/${SLUG}/review`);
    // It opens on the drafts: the two commits and this week's rollup, newest first.
    expect(await page.locator('#queue-count').textContent()).toBe("3 matching · newest first by each entry's own date");
    expect(await facet('By status')).toEqual(['all 17', 'draft 3', 'published 14', 'archived 0']);
    expect(await facet('By type')).toEqual(['all 3', 'commit 2', 'daily 0', 'weekly 1', 'monthly 0']);
    const drafts = await queueTitles();
    expect(drafts.slice(0, 2)).toEqual([...NEW_WORK].reverse());
    expect(drafts[2]).toMatch(/^Week \d{4}-W\d{2} /);

    // The CLI lists the same drafts, in the same order, with the same counts.
    const listed = await cli('entries', 'list', '--project', SLUG, '--status', 'draft');
    expect(listed.entries.map((e: Json) => e.id)).toEqual(await queueIds());
    expect(listed.counts).toEqual({ total: 3, byStatus: { draft: 3, published: 14, archived: 0 }, byType: { commit: 2, daily: 0, weekly: 1, monthly: 0 }, revisions: 0 });

    // Filters: the type, then a date range over the history (whole UTC days, both ends included).
    await page.getByLabel('Type', { exact: true }).selectOption('commit');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/type=commit/);
    expect(await queueTitles()).toEqual([...NEW_WORK].reverse());
    expect(await facet('By status')).toEqual(['all 11', 'draft 2', 'published 9', 'archived 0']);
    await page.getByLabel('Status', { exact: true }).selectOption('all');
    await page.getByLabel('From').fill(isoDay(before(25)));
    await page.getByLabel('To (inclusive)').fill(isoDay(before(23)));
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/since=/);
    // An entry's own date is its commit's: the branch's commits were written on these days.
    expect(await queueTitles()).toEqual(['Describe the configuration', 'Fixed a typo in the export header', 'CSV export']);
    expect(await facet('By status')).toEqual(['all 3', 'draft 0', 'published 3', 'archived 0']);
    await shot('07-review-filtered');

    // One draft published from the CLI is gone from the queue in the browser.
    const weekly = listed.entries.find((e: Json) => e.entry_type === 'weekly');
    expect(await cli('entries', 'publish', weekly.id)).toMatchObject({ id: weekly.id, status: 'published' });
    await page.goto(`${base}/dashboard/projects/${SLUG}/review`);
    expect(await queueTitles()).toEqual([...NEW_WORK].reverse());
    expect(await facet('By status')).toEqual(['all 17', 'draft 2', 'published 15', 'archived 0']);

    // Bulk: select the page, publish.
    await page.getByLabel('Select every entry on this page').check();
    expect(await page.locator('table.queue input[name="ids"]:checked').count()).toBe(2);
    await shot('08-review-queue');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.waitForURL(/done=publish/);
    expect(await page.getByText('Published 2 entries.').count()).toBe(1);
    expect(await page.getByText('Nothing matches this filter.').count()).toBe(1);
    expect(await facet('By status')).toEqual(['all 17', 'draft 0', 'published 17', 'archived 0']);
    expect((await cli('entries', 'list', '--project', SLUG, '--status', 'draft')).counts.total).toBe(0);
  }, 150_000);

  it('5. the public page, the feeds and the widget show what was published', async () => {
    // The browser kept the page it showed in step 3 for PUBLIC_CACHE_MAX_AGE (30 s), as any reader's
    // would; a reload asks again (If-None-Match), and the server's answer has changed.
    await page.goto(`${base}/c/${SLUG}?view=weekly`);
    await page.reload();
    // This week's rollup (published from the CLI) is on top, with both new changes.
    const top = page.locator('main article').first();
    expect(await top.locator('h2').textContent()).toMatch(/^Week \d{4}-W\d{2} /);
    for (const title of NEW_WORK) expect(await top.textContent()).toContain(title);
    await shot('09-public-page');
    await page.goto(`${base}/c/${SLUG}?view=commit`);
    await page.reload();
    expect(new Set((await titlesOnPublicPage()).slice(0, 2))).toEqual(new Set(NEW_WORK));
    expect((await titlesOnPublicPage()).slice(2)).toHaveLength(HISTORY_TITLES.length);
    expect(cspViolations).toEqual([]);

    // Feeds: the view of everything carries every published entry, the new ones first (the feed without
    // a view carries the page's default view, as the widget does).
    for (const [format, type] of [
      ['atom', 'application/atom+xml'],
      ['rss', 'application/rss+xml'],
      ['json', 'application/feed+json'],
    ] as const) {
      const response = await fetch(`${base}/v1/changelog/${SLUG}/feed.${format}?view=all`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(type);
      const body = await response.text();
      for (const title of NEW_WORK) expect(body).toContain(title);
      if (format === 'json') {
        const feed = JSON.parse(body) as Json;
        expect(feed.items).toHaveLength(17);
        expect(new Set(feed.items.slice(0, 2).map((item: Json) => item.title))).toEqual(new Set(NEW_WORK));
      }
    }

    // The widget on another origin shows what the public page shows first: the project's default view,
    // its release notes here (this week's changes are not released yet).
    await page.goto(`${base}/c/${SLUG}`);
    const defaultView = (await titlesOnPublicPage()).slice(0, 5);
    await page.goto(`http://localhost:${(customer.address() as AddressInfo).port}/`);
    const articles = page.locator('changelog-feed article');
    await expect.poll(() => articles.count(), { timeout: 30_000 }).toBe(defaultView.length);
    expect(await page.locator('changelog-feed article h3').allTextContents()).toEqual(defaultView);
    expect(defaultView).toEqual(['v0.2.0', 'v0.1.0']);
    await shot('10-widget');

    // The CLI's count of published entries is the organization page's.
    const [listed] = (await cli('projects', 'list', '--owner', `org:${FIRST_ACCOUNT.org.slug}`)).projects;
    expect(listed.published_entries).toBe(17);
    await page.goto(`${base}/dashboard/orgs/${FIRST_ACCOUNT.org.slug}`);
    expect(await page.locator('section[aria-labelledby="projects-h"] tbody td:nth-child(3)').textContent()).toBe('17');
  }, 90_000);
});
