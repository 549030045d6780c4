/**
 * Markdown that cannot be rendered in time is shown as escaped text, never a failed page: past
 * MARKDOWN_TIME_LIMIT_MS for good (the page is kept like any other, since the source fails the same
 * way each time), or while every render thread is busy (the page is then neither stored nor
 * cacheable, so the next request renders it again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testConfig } from '../../../test/helpers/config.js';
import { createTestContext, type TestContext } from '../../../test/helpers/context.js';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { buildProject, buildUser, insertEntries } from '../../../test/helpers/factories.js';
import { buildApp } from '../../app.js';
import { createMarkdownRenderer, INLINE_CHARS } from '../../html/markdown-thread.js';
import { createServices } from '../../services.js';

/** About 1.7 s of markdown-it's CPU: far past a 50 ms limit on any machine. */
const SLOW = `<script>alert(1)</script>\n\n${'!['.repeat(499_000)}`;
const SHOWN_AS_TEXT = '<pre class="markdown-text">&lt;script&gt;alert(1)&lt;/script&gt;\n\n![![![';

describe('past the time limit', () => {
  let ctx: TestContext;
  let entryId: string;
  /** Misses of the page: each renders the slow entry (from memory after the first). */
  let pageRenders = 0;

  beforeAll(async () => {
    ctx = await createTestContext({ MARKDOWN_TIME_LIMIT_MS: '50', METRICS_TOKEN: 'm'.repeat(32) });
    const user = await buildUser(ctx.services);
    const project = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'slow-one' });
    [entryId] = (await insertEntries(ctx.services, project.id, [
      { status: 'published', title: 'Slow', content: SLOW, published_at: new Date('2026-01-03T00:00:00Z') },
      { status: 'published', title: 'Ordinary', content: '## Fixes\n\n- **api:** faster', published_at: new Date('2026-01-02T00:00:00Z') },
    ])) as [string];
  });
  afterAll(async () => ctx?.close());

  it('the page shows that entry as escaped text and the others rendered, and is kept like any page', async () => {
    // On PostgreSQL the inserts' change notifications can arrive after the first render and drop it
    // from the cache; the page is then rendered again, until a second request finds it stored.
    let res = await ctx.app.inject({ url: '/c/slow-one?view=all' });
    let again = res;
    pageRenders++;
    for (let attempt = 0; attempt < 5; attempt++) {
      again = await ctx.app.inject({ url: '/c/slow-one?view=all' });
      if (again.headers['x-cache'] === 'hit') break;
      pageRenders++;
      res = again;
    }
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(SHOWN_AS_TEXT);
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('<h3>Fixes</h3>');
    expect(res.body).toContain('<strong>api:</strong> faster');
    expect(res.headers['cache-control']).toMatch(/^public/);
    expect(again.headers['x-cache']).toBe('hit');
    expect(again.body).toBe(res.body);
  });

  it('so do its permalink page and its feeds', async () => {
    const permalink = await ctx.app.inject({ url: `/c/slow-one/entries/${entryId}` });
    expect(permalink.statusCode).toBe(200);
    expect(permalink.body).toContain(SHOWN_AS_TEXT);
    const feed = await ctx.app.inject({ url: '/v1/changelog/slow-one/feed.json' });
    expect(feed.statusCode).toBe(200);
    const items = (feed.json() as { items: Array<{ title: string; content_html: string }> }).items;
    expect(items.find((i) => i.title === 'Slow')!.content_html.startsWith(SHOWN_AS_TEXT)).toBe(true);
    expect(items.find((i) => i.title === 'Ordinary')!.content_html).toContain('<strong>api:</strong> faster');
    const atom = await ctx.app.inject({ url: '/v1/changelog/slow-one/feed.atom' });
    expect(atom.statusCode).toBe(200);
    expect(atom.body).toContain(`<content type="html"><![CDATA[${SHOWN_AS_TEXT}`);
  });

  it('operators see it in the metrics', async () => {
    const metrics = await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${'m'.repeat(32)}` } });
    // Once past the limit on the first page, then from memory for each other render of the page,
    // the permalink page and the two feeds.
    expect(metrics.body).toMatch(new RegExp(`^markdown_shown_as_text_total\\{reason="costly"\\} ${pageRenders + 3}$`, 'm'));
    expect(pageRenders).toBeGreaterThanOrEqual(1);
    expect(metrics.body).toMatch(/^markdown_shown_as_text_total\{reason="busy"\} 0$/m);
    expect(metrics.body).toMatch(/^markdown_render_threads\{state="queued"\} 0$/m);
  });
});

describe('while every render thread is busy', () => {
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig();
    // One thread and no queue: of two sources past the inline budget, the second finds no thread.
    const markdown = createMarkdownRenderer({ timeLimitMs: 60_000, maxThreads: 1, maxQueued: 0 });
    const services = createServices(database, config, { markdown });
    app = await buildApp({ config, database, services });
    await app.ready();
    const user = await buildUser(services);
    const project = await buildProject(services, { type: 'user', email: user.email }, { slug: 'busy-one' });
    const prose = (word: string) => `${word} `.repeat(INLINE_CHARS / 4);
    await insertEntries(services, project.id, [
      { status: 'published', title: 'First', content: prose('first'), published_at: new Date('2026-01-03T00:00:00Z') },
      { status: 'published', title: 'Second', content: prose('second'), published_at: new Date('2026-01-02T00:00:00Z') },
    ]);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('shows the source as text, and the page is neither stored nor cacheable', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ url: '/c/busy-one?view=all' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<p>first first');
      expect(res.body).toContain('<pre class="markdown-text">second second');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-cache']).toBe('miss');
      expect(res.headers.etag).toBeDefined();
    }
    const feed = await app.inject({ url: '/v1/changelog/busy-one/feed.atom' });
    expect(feed.headers['cache-control']).toBe('no-store');
    expect((await app.inject({ url: '/v1/changelog/busy-one/feed.atom' })).headers['x-cache']).toBe('miss');
  });
});
