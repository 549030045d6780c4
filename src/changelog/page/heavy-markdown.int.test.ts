/**
 * Entry Markdown that is slow to render must not stall the server. A project's manager may store
 * 1,000,000 characters of content that markdown-it needs seconds for (`*a` or `![` repeated: linear,
 * but about 1–2 µs of CPU a character); rendered on the event loop, every uncached page, feed or
 * dashboard view of it held every tenant's requests. These tests run a real server and check the
 * order of events, not durations: while such an entry renders, /health and another tenant's page
 * are answered, and the slow response still comes, with the content in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/helpers/context.js';
import { DashboardClient } from '../../../test/helpers/dashboard-client.js';
import { insertEntries } from '../../../test/helpers/factories.js';
import { waitFor } from '../../../test/helpers/scm.js';
import { seedTenant, type Tenant } from '../../../test/helpers/tenants.js';

/** A million characters of content markdown-it renders slowly; `*` and letters cross a form unescaped. */
const SLOW_FORM = `slow-a ${'*a'.repeat(499_990)}`;
const SLOW_IMAGES = `slow-b ${'!['.repeat(499_990)}`;

let ctx: TestContext;
let base: string;
let a: Tenant;
let b: Tenant;
let heavyEntry: string;

beforeAll(async () => {
  // A time limit far beyond these renders: they run to the end in their thread, however slow the machine.
  // (The seeded tenants have a webhook endpoint on this machine.)
  ctx = await createTestContext({ MARKDOWN_TIME_LIMIT_MS: '60000', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  a = await seedTenant(ctx.services, 'a');
  b = await seedTenant(ctx.services, 'b');
  const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString();
  [heavyEntry] = await insertEntries(ctx.services, a.project.id, [
    { status: 'published', title: 'Heavy images', content: SLOW_IMAGES, published_at: at(5) },
    { status: 'published', title: 'Ordinary A', content: '## Fixes\n\n- **api:** faster for A', published_at: at(4) },
  ]) as [string];
  await insertEntries(ctx.services, b.project.id, [
    { status: 'published', title: 'Ordinary B', content: '## Fixes\n\n- **api:** faster for B', published_at: at(4) },
  ]);

  // Tenant A's owner writes the other slow entry the way any manager can: the dashboard's edit form.
  const owner = new DashboardClient(ctx.app);
  owner.cookies.set('cl_session', a.session);
  const saved = await owner.submit(`/dashboard/entries/${a.entryId}`, `/dashboard/entries/${a.entryId}`, {
    title: 'Heavy stars',
    content: SLOW_FORM,
    intent: 'save',
  });
  expect(saved.status).toBe(303);

  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const address = ctx.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => ctx?.close());

/**
 * Starts the slow requests, waits until their Markdown is rendering in a thread, then checks that
 * `meanwhile` completes while that render is still going on and every slow request is unanswered;
 * returns their answers. (This process is the server and the client: a render on the event loop
 * would hold both, so only "during the render" tells the two apart, not the order of answers.)
 */
async function whileRendering(slow: Array<{ url: string; headers?: Record<string, string> }>, meanwhile: () => Promise<void>) {
  let answered = 0;
  const pending = slow.map(({ url, headers }) =>
    fetch(`${base}${url}`, headers ? { headers } : {}).then(async (res) => {
      const body = await res.text();
      answered++;
      return { status: res.status, body };
    }),
  );
  await waitFor(async () => (ctx.services.markdown.stats().running > 0 ? true : undefined), 30_000, 'a render in a thread');
  expect(answered).toBe(0);
  await meanwhile();
  expect(ctx.services.markdown.stats().running).toBeGreaterThan(0);
  expect(answered).toBe(0);
  return Promise.all(pending);
}

describe('slow Markdown renders off the event loop', () => {
  it("a manager's 1 MB entry holds up neither /health nor another tenant's page (attacker test)", async () => {
    const [page] = await whileRendering([{ url: `/c/${a.project.slug}?view=all` }], async () => {
      for (let i = 0; i < 3; i++) expect((await fetch(`${base}/health`)).status).toBe(200);
      const other = await fetch(`${base}/c/${b.project.slug}?view=all`);
      expect(other.status).toBe(200);
      const body = await other.text();
      expect(body).toContain('<strong>api:</strong> faster for B');
      expect(body).not.toContain('slow-');
    });
    // The slow page still comes, with every entry: the huge ones rendered in full (the limit was not reached).
    expect(page!.status).toBe(200);
    expect(page!.body).toContain('<strong>api:</strong> faster for A');
    expect(page!.body).toContain(`<p>slow-a ${'<em>a</em>a'.repeat(100)}`);
    expect(page!.body).toContain(`<p>slow-b ${'!['.repeat(100)}`);
    expect(page!.body).not.toContain('markdown-text');
  }, 120_000);

  it('feeds, the permalink page and the dashboard preview render it off the event loop too', async () => {
    const cookie = { cookie: `cl_session=${a.session}` };
    const answers = await whileRendering(
      [
        { url: `/v1/changelog/${a.project.slug}/feed.json` },
        { url: `/c/${a.project.slug}/entries/${heavyEntry}` },
        { url: `/dashboard/entries/${a.entryId}`, headers: cookie },
      ],
      async () => {
        for (let i = 0; i < 3; i++) expect((await fetch(`${base}/health`)).status).toBe(200);
      },
    );
    const [feed, permalink, dashboard] = answers;
    expect(feed!.status).toBe(200);
    const items = (JSON.parse(feed!.body) as { items: Array<{ title: string; content_html?: string }> }).items;
    expect(items.find((i) => i.title === 'Heavy images')?.content_html).toMatch(/^<p>slow-b !\[!\[/);
    expect(items.find((i) => i.title === 'Ordinary A')?.content_html).toContain('<strong>api:</strong> faster for A');
    expect(permalink!.status).toBe(200);
    expect(permalink!.body).toContain(`<p>slow-b ${'!['.repeat(100)}`);
    expect(dashboard!.status).toBe(200);
    expect(dashboard!.body).toContain(`<div class="preview"><p>slow-a ${'<em>a</em>a'.repeat(100)}`);
  }, 180_000);
});
