// The release-notes extension of the public API: GET /v1/changelog/{slug}/releases(/{tag}), only
// published notes, the listing's pagination conventions, and clean 4xx answers to hostile tags.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, getFrom, type TestContext } from '../../test/helpers/context.js';
import { buildCommit } from '../../test/helpers/commits.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { releaseHistory, storeCommits } from '../../test/helpers/releases.js';
import type { components, paths } from '../../packages/client/src/index.js';

let ctx: TestContext;
let slug: string;
let otherSlug: string;
const get = getFrom(() => ctx);

// The shapes the typed client publishes for these routes: the test reads what a customer's code reads.
type Page = paths['/v1/changelog/{slug}/releases']['get']['responses'][200]['content']['application/json'];
type Release = components['schemas']['ReleaseNote'];

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = (await buildUser(ctx.services)).email;
  const project = await buildProject(ctx.services, { type: 'user', email: owner });
  slug = project.slug;
  const h = releaseHistory();
  // A scoped package's tag, which holds a slash: `@org/tool@1.0.0`.
  const scoped = buildCommit({ parents: [h.f.sha], message: 'feat(tool): scoped tool', changes: [['M', 'packages/tool/x.ts']], tags: ['@org/tool@1.0.0'], date: '2024-03-07T10:00:00Z' });
  await storeCommits(ctx.services, project.id, [...h.commits, scoped]);
  await ctx.services.generation.configure(slug, { publish: { release: 'auto' } });
  await ctx.services.generation.generate(slug);
  // A draft: never visible.
  await ctx.services.entries.unpublishRelease(slug, 'v1.0.0');

  const other = await buildProject(ctx.services, { type: 'user', email: owner });
  otherSlug = other.slug;
  const lone = buildCommit({ message: 'feat: elsewhere', changes: [['M', 'src/x.ts']], tags: ['v7.0.0'], date: '2024-01-01T00:00:00Z' });
  await storeCommits(ctx.services, other.id, [lone]);
  await ctx.services.generation.configure(otherSlug, { publish: 'auto' });
  await ctx.services.generation.generate(otherSlug);
});
afterAll(async () => ctx?.close());

describe('GET /v1/changelog/{slug}/releases', () => {
  it('lists published notes newest first, Unreleased on top, drafts left out', async () => {
    const res = await get(`/v1/changelog/${slug}/releases`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/^public, max-age=/);
    expect(res.headers.etag).toEqual(expect.any(String));
    const body = res.json<Page>();
    expect(body.releases.map((r) => r.tag)).toEqual([null, '@org/tool@1.0.0', 'v1.1.0', 'v1.1.0-beta.1', 'pkg@2.0.0']);
    expect(body.meta).toEqual({ limit: 20, offset: 0, count: 5, total: 5, has_more: false, next_cursor: null });
    const final = body.releases.find((r) => r.tag === 'v1.1.0')!;
    expect(final).toMatchObject({ package: null, version: '1.1.0', prerelease: false, previous_tag: 'v1.0.0', released_at: '2024-03-05T10:00:00.000Z' });
    expect(final.commit_shas).toHaveLength(2);
    expect(body.releases.find((r) => r.tag === 'pkg@2.0.0')).toMatchObject({ package: 'pkg', version: '2.0.0' });
    expect(body.releases[0]).toMatchObject({ title: 'Unreleased', released_at: null, version: null });
    // Nothing internal is serialized.
    expect(Object.keys(body.releases[0]!)).not.toContain('fingerprint');
    expect(Object.keys(body.releases[0]!)).not.toContain('status');
    expect((await get(`/v1/changelog/${slug}/releases`, { 'if-none-match': res.headers.etag as string })).statusCode).toBe(304);
  });

  it('pages by cursor and by offset like the listing, without skipping or repeating', async () => {
    const all = (await get(`/v1/changelog/${slug}/releases`)).json<Page>().releases.map((r) => r.id);
    const seen: string[] = [];
    let url = `/v1/changelog/${slug}/releases?limit=2`;
    for (;;) {
      const page = (await get(url)).json<Page>();
      seen.push(...page.releases.map((r) => r.id));
      if (!page.meta.next_cursor) {
        expect(page.meta.has_more).toBe(false);
        break;
      }
      expect(page.meta).toMatchObject({ limit: 2, count: 2, total: 5, has_more: true });
      url = `/v1/changelog/${slug}/releases?limit=2&cursor=${page.meta.next_cursor}`;
    }
    expect(seen).toEqual(all);
    const offset = (await get(`/v1/changelog/${slug}/releases?limit=2&offset=3`)).json<Page>();
    expect(offset.releases.map((r) => r.id)).toEqual(all.slice(3, 5));
    expect(offset.meta).toMatchObject({ offset: 3, count: 2, has_more: false });
  });

  it('answers bad parameters 400 and an unknown project 404, like the listing', async () => {
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'cursor=nope']) {
      const res = await get(`/v1/changelog/${slug}/releases?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('invalid_request');
    }
    // An entry listing's cursor is not a release cursor.
    const entryCursor = Buffer.from(`2024-01-01T00:00:00.000000Z|${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`).toString('base64url');
    expect((await get(`/v1/changelog/${slug}/releases?cursor=${entryCursor}`)).statusCode).toBe(400);
    expect((await get('/v1/changelog/no-such-project/releases')).statusCode).toBe(404);
    expect((await get('/v1/changelog/no-such-project/releases/v1.0.0')).statusCode).toBe(404);
  });
});

describe('GET /v1/changelog/{slug}/releases/{tag}', () => {
  it('serves a note by URL-encoded tag, of any series, and Unreleased as `unreleased`', async () => {
    const one = async (tag: string) => {
      const res = await get(`/v1/changelog/${slug}/releases/${tag}`);
      expect(res.statusCode, tag).toBe(200);
      return res.json<{ release: Release }>().release;
    };
    expect(await one('v1.1.0')).toMatchObject({ tag: 'v1.1.0', previous_tag: 'v1.0.0' });
    expect(await one('v1.1.0-beta.1')).toMatchObject({ prerelease: true });
    expect(await one('pkg%402.0.0')).toMatchObject({ tag: 'pkg@2.0.0', package: 'pkg' });
    expect(await one('pkg@2.0.0')).toMatchObject({ tag: 'pkg@2.0.0' });
    expect(await one(encodeURIComponent('@org/tool@1.0.0'))).toMatchObject({ tag: '@org/tool@1.0.0', package: '@org/tool' });
    expect(await one('unreleased')).toMatchObject({ tag: null, title: 'Unreleased', previous_tag: 'v1.1.0' });
  });

  it('is 404 for unknown tags, drafts, and tags of another project', async () => {
    for (const tag of ['v9.9.9', 'v1.0.0', 'v7.0.0', 'release:v1.1.0', 'V1.1.0']) {
      const res = await get(`/v1/changelog/${slug}/releases/${encodeURIComponent(tag)}`);
      expect(res.statusCode, tag).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect((await get(`/v1/changelog/${otherSlug}/releases/v7.0.0`)).statusCode).toBe(200);
    expect((await get(`/v1/changelog/${otherSlug}/releases/v1.1.0`)).statusCode).toBe(404);
  });

  it('answers hostile tags with a clean 4xx, never a 5xx or another resource', async () => {
    const cases: Array<[string, number]> = [
      ['x'.repeat(256), 400],
      ['v'.repeat(5000), 400],
      ['..', 404],
      ['%2e%2e', 404],
      ['..%2F..%2Fentries', 404],
      ['%2F', 404],
      ['v1.1.0%2F..', 404],
      ['%00', 400],
      ['v1%0A', 400],
      ['%ff%fe', 400],
      ["v1.1.0'%20OR%20'1'%3D'1", 404],
    ];
    for (const [tag, status] of cases) {
      const res = await get(`/v1/changelog/${slug}/releases/${tag}`);
      expect(res.statusCode, tag.slice(0, 40)).toBe(status);
      expect(res.json().error).toEqual(expect.any(String));
      expect(res.body).not.toMatch(/at |\.ts|stack/);
    }
  });

  it('stops serving a note once it is unpublished (the cached answer is dropped)', async () => {
    const url = `/v1/changelog/${slug}/releases/v1.1.0-beta.1`;
    expect((await get(url)).statusCode).toBe(200);
    expect((await get(url)).statusCode).toBe(200);
    await ctx.services.entries.unpublishRelease(slug, 'v1.1.0-beta.1');
    await expect.poll(async () => (await get(url)).statusCode).toBe(404);
    await expect.poll(async () => (await get(`/v1/changelog/${slug}/releases`)).json<Page>().meta.total).toBe(4);
    await ctx.services.entries.publishRelease(slug, 'v1.1.0-beta.1');
    await expect.poll(async () => (await get(url)).statusCode).toBe(200);
  });
});

describe('public page and feeds', () => {
  it('opens the changelog page on the release notes only when some are published', async () => {
    expect((await get(`/c/${slug}`)).body).toContain(`<a href="/c/${slug}?view=releases" aria-current="page">Releases</a>`);
    const owner = (await buildUser(ctx.services)).email;
    const bare = await buildProject(ctx.services, { type: 'user', email: owner });
    expect((await get(`/c/${bare.slug}`)).body).not.toContain('view=releases');
    expect((await get(`/c/${bare.slug}/releases`)).body).toContain('No release notes have been published yet.');
  });

  it('shows the release notes newest first, each linking its permalink page, with the release feeds', async () => {
    const res = await get(`/c/${slug}/releases`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = res.body;
    expect(page.match(/<h1[ >]/g)).toHaveLength(1);
    expect(page).toContain(`<a href="/c/${slug}/releases/unreleased">Unreleased</a>`);
    expect(page).toContain(`<a href="/c/${slug}/releases/%40org%2Ftool%401.0.0">@org/tool@1.0.0</a>`);
    expect(page.indexOf('>v1.1.0<')).toBeLessThan(page.indexOf('>v1.1.0-beta.1<'));
    expect(page).toContain('<span>Pre-release</span>');
    expect(page).toContain('<span>Package pkg</span>');
    expect(page).toContain(`href="/v1/changelog/${slug}/releases.atom"`);
    expect(page).not.toContain('>v1.0.0<'); // the draft
    expect(page).not.toMatch(/<script/);
  });

  it('serves a permalink page per release, 404 (HTML) for drafts and unknown tags', async () => {
    const res = await get(`/c/${slug}/releases/v1.1.0`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1 id="release-title">v1.1.0</h1>');
    expect(res.body).toContain('<span>Changes since v1.0.0</span>');
    expect(res.body).toMatch(new RegExp(`<link rel="canonical" href="[^"]*/c/${slug}/releases/v1\\.1\\.0">`));
    expect((await get(`/c/${slug}/releases/${encodeURIComponent('@org/tool@1.0.0')}`)).statusCode).toBe(200);
    for (const tag of ['v1.0.0', 'v9.9.9', '..%2F..']) {
      const missing = await get(`/c/${slug}/releases/${tag}`);
      expect(missing.statusCode, tag).toBe(404);
      expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    }
    expect((await get(`/c/${slug}/releases/${'x'.repeat(300)}`)).statusCode).toBe(400);
  });

  it('has feeds of the tagged release notes (no Unreleased, no drafts) in Atom, RSS and JSON Feed', async () => {
    const atom = await get(`/v1/changelog/${slug}/releases.atom`);
    expect(atom.statusCode).toBe(200);
    expect(atom.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(atom.headers['last-modified']).toEqual(expect.any(String));
    expect(atom.body).toContain('<title type="html"><![CDATA[v1.1.0]]></title>');
    expect(atom.body).toContain('/releases/pkg%402.0.0');
    expect(atom.body).not.toContain('Unreleased');
    expect(atom.body).not.toContain('<![CDATA[v1.0.0]]>');
    expect(atom.body).toMatch(/<id>urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}<\/id>/);
    const rss = await get(`/v1/changelog/${slug}/releases.rss`);
    expect(rss.statusCode).toBe(200);
    expect(rss.body).toContain('<rss');
    const json = await get(`/v1/changelog/${slug}/releases.json`);
    expect(json.statusCode).toBe(200);
    const feed = json.json<{ version: string; items: { title: string; url: string }[] }>();
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.items.map((i) => i.title)).toEqual(['@org/tool@1.0.0', 'v1.1.0', 'v1.1.0-beta.1', 'pkg@2.0.0']);
    expect((await get('/v1/changelog/no-such-project/releases.atom')).statusCode).toBe(404);
    // The changelog's feed of entries has none of them; its default view, like the page's, is the release notes.
    expect((await get(`/v1/changelog/${slug}/feed.atom?view=all`)).body).not.toContain('[v1.1.0-beta.1]');
    expect((await get(`/v1/changelog/${slug}/feed.atom`)).body).toContain(`/c/${slug}/releases/v1.1.0`);
  });
});
