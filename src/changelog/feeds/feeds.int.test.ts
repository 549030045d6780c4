import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, getFrom, type TestContext } from '../../../test/helpers/context.js';
import { buildProject, buildUser, insertEntries } from '../../../test/helpers/factories.js';
import { eventually } from '../../../test/helpers/eventually.js';
import { listingDate, untilListingDatePast } from '../../../test/helpers/listing-date.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const SCHEMA = JSON.parse(readFileSync(new URL('../../../test/fixtures/jsonfeed-1.1.schema.json', import.meta.url), 'utf8'));
const HOSTILE_TITLE = '<script>alert(1)</script> ]]> & "quotes"\u0001';
const HOSTILE_CONTENT = '<img src=x onerror=alert(1)>\n\n[click me](javascript:alert(1)) and ]]> too\n\n<script>alert(2)</script>';

let ctx: TestContext;
let project: { id: string; slug: string };
let ids: string[];
let hostileId: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed XML, checked element by element
type Parsed = Record<string, any>;

const get = getFrom(() => ctx);
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['entry', 'item', 'link', 'category'].includes(name) });

beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://changes.example.com' });
  const user = await buildUser(ctx.services);
  project = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'acme-app', name: 'Acme App' });
  const base = Date.parse('2026-03-01T00:00:00Z');
  ids = await insertEntries(
    ctx.services,
    project.id,
    [0, 1, 2].map((i) => ({
      status: 'published' as const,
      entry_type: 'weekly' as const,
      title: `Week ${i}`,
      content: `## Features\n\n- **api:** thing ${i}`,
      component_tags: ['api'],
      published_at: new Date(base + i * 86_400_000),
      updated_at: new Date(base + i * 86_400_000 + 1000),
    })),
  );
  hostileId = (
    await insertEntries(ctx.services, project.id, [
      { status: 'published', title: HOSTILE_TITLE, content: HOSTILE_CONTENT, published_at: new Date(base - 86_400_000), updated_at: new Date(base - 86_400_000) },
    ])
  )[0]!;
  await insertEntries(ctx.services, project.id, [
    { status: 'draft', title: 'Secret draft', content: 'not yet' },
    { status: 'archived', title: 'Archived thing', content: 'gone', published_at: null },
  ]);
});

afterAll(async () => ctx?.close());

describe('Atom 1.0', () => {
  it('is well-formed Atom with the required elements, newest first, drafts never', async () => {
    const res = await get('/v1/changelog/acme-app/feed.atom');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(XMLValidator.validate(res.body)).toBe(true);
    const { feed } = xml.parse(res.body);
    expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.id).toBe(`urn:uuid:${project.id}`);
    expect(feed.title).toBe('Acme App changelog');
    // The listing's last change (here: the entries' insertion), not the newest entry's own date.
    expect(feed.updated).toBe((await listingDate(ctx.services, project.id)).toISOString());
    expect(feed.link).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ '@rel': 'alternate', '@href': 'https://changes.example.com/c/acme-app' }),
        expect.objectContaining({ '@rel': 'self', '@href': 'https://changes.example.com/v1/changelog/acme-app/feed.atom' }),
      ]),
    );
    const entries = feed.entry as Record<string, unknown>[];
    // The page's default view (weekly here), not every type interleaved: the commit entry is in ?view=commit.
    expect(entries.map((e) => e.id)).toEqual([...ids].reverse().map((id) => `urn:uuid:${id}`));
    const first = entries[0] as Parsed;
    expect(first.title['#text']).toBe('Week 2');
    expect(first.updated).toBe('2026-03-03T00:00:01.000Z');
    expect(first.published).toBe('2026-03-03T00:00:00.000Z');
    expect(first.link[0]['@href']).toBe(`https://changes.example.com/c/acme-app/entries/${ids[2]}`);
    expect(first.content['@type']).toBe('html');
    expect(first.content['#text']).toContain('<h2>Features</h2>');
    expect(first.content['#text']).toContain('<strong>api:</strong> thing 2');
    expect(first.category[0]['@term']).toBe('api');
    expect(res.body).not.toContain('Secret draft');
    expect(res.body).not.toContain('Archived thing');
  });

  it('escapes untrusted commit text: no markup, no javascript: links, still well-formed', async () => {
    const res = await get('/v1/changelog/acme-app/feed.atom?view=all');
    expect(XMLValidator.validate(res.body)).toBe(true);
    const entry = (xml.parse(res.body).feed.entry as Parsed[]).find((e) => e.id === `urn:uuid:${hostileId}`)!;
    // type="html": readers decode this once and show the text; it is never markup.
    expect(entry.title['#text']).toBe('&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; &quot;quotes&quot;');
    const content = entry.content['#text'] as string;
    expect(content).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(content).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(content).not.toMatch(/<img|<script|href="javascript:/i);
  });
});

describe('RSS 2.0', () => {
  it('is well-formed RSS with channel and item elements, guid and pubDate per entry', async () => {
    const res = await get('/v1/changelog/acme-app/feed.rss');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(XMLValidator.validate(res.body)).toBe(true);
    const { rss } = xml.parse(res.body);
    expect(rss['@version']).toBe('2.0');
    const channel = rss.channel;
    expect(channel.title).toBe('Acme App changelog');
    expect(channel.link).toEqual(['https://changes.example.com/c/acme-app']);
    expect(channel.description).toBe('What changed in Acme App');
    const items = channel.item as Parsed[];
    expect(items).toHaveLength(3);
    expect(items[0]!.title).toBe('Week 2');
    expect(items[0]!.link).toEqual([`https://changes.example.com/c/acme-app/entries/${ids[2]}`]);
    expect(items[0]!.guid).toEqual({ '#text': `urn:uuid:${ids[2]}`, '@isPermaLink': 'false' });
    expect(items[0]!.pubDate).toBe('Tue, 03 Mar 2026 00:00:00 GMT');
    expect(items[0]!['content:encoded']).toContain('<h2>Features</h2>');
    expect(res.body).not.toContain('Secret draft');
    const all = (xml.parse((await get('/v1/changelog/acme-app/feed.rss?view=all')).body).rss.channel.item as Parsed[]);
    expect(all).toHaveLength(4);
    const hostile = all.find((i) => i.guid['#text'] === `urn:uuid:${hostileId}`)!;
    expect(hostile['content:encoded']).not.toMatch(/<img|<script|href="javascript:/i);
    // RSS titles are text: the attacker's markup escaped, never an element.
    expect(hostile.title).toBe('&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; &quot;quotes&quot;');
  });
});

describe('JSON Feed 1.1', () => {
  it('validates against the JSON Feed 1.1 schema, with plain-text titles and real dates', async () => {
    const res = await get('/v1/changelog/acme-app/feed.json?view=all');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/feed+json; charset=utf-8');
    const body = res.json();
    const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
    const validate = ajv.compile(SCHEMA);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body.version).toBe('https://jsonfeed.org/version/1.1');
    expect(body.feed_url).toBe('https://changes.example.com/v1/changelog/acme-app/feed.json?view=all');
    expect(body.items[0]).toMatchObject({
      id: `urn:uuid:${ids[2]}`,
      url: `https://changes.example.com/c/acme-app/entries/${ids[2]}`,
      title: 'Week 2',
      date_published: '2026-03-03T00:00:00.000Z',
      date_modified: '2026-03-03T00:00:01.000Z',
      tags: ['api'],
    });
    const hostile = body.items.find((i: { id: string }) => i.id === `urn:uuid:${hostileId}`);
    expect(hostile.title).toBe('<script>alert(1)</script> ]]> & "quotes"');
    expect(hostile.content_html).not.toMatch(/<img|<script|href="javascript:/i);
    expect(res.body).not.toContain('Secret draft');
  });

  it('schema check can fail: a JSON Feed 1 document is refused', async () => {
    const validate = addFormats(new Ajv({ strict: false })).compile(SCHEMA);
    expect(validate({ version: 'https://jsonfeed.org/version/1', title: 't', items: [{ id: '1' }] })).toBe(false);
  });
});

describe('caching and errors', () => {
  it.each(['atom', 'rss', 'json'])('%s: ETag and Last-Modified, 304 on either, a new ETag once an entry is published', async (format) => {
    const url = `/v1/changelog/acme-app/feed.${format}`;
    await untilListingDatePast(ctx.services, project.id);
    const first = await get(url);
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(new Date(lastModified).getTime()).toBeGreaterThan(0);
    expect((await get(url, { 'if-none-match': etag })).statusCode).toBe(304);
    const since = await get(url, { 'if-modified-since': lastModified });
    expect(since.statusCode).toBe(304);
    expect(since.body).toBe('');
    expect((await get(url, { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).statusCode).toBe(200);
    // A stale ETag wins over a current date: If-None-Match is the stronger validator.
    expect((await get(url, { 'if-none-match': '"stale"', 'if-modified-since': lastModified })).statusCode).toBe(200);
    expect((await get(url)).headers.etag).toBe(etag);
  });

  it('drops the cached feed when an entry is published or unpublished', async () => {
    const url = '/v1/changelog/acme-app/feed.atom?view=commit';
    await untilListingDatePast(ctx.services, project.id);
    const before = await get(url);
    const [draft] = await insertEntries(ctx.services, project.id, [{ status: 'draft', title: 'Launch day', content: 'It is here.' }]);
    await ctx.services.entries.publish(draft!);
    await untilListingDatePast(ctx.services, project.id);
    const after = await eventually(() => get(url), (res) => res.body.includes('Launch day'));
    expect(after.body).toContain('Launch day');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(new Date(after.headers['last-modified'] as string).getTime()).toBeGreaterThan(new Date(before.headers['last-modified'] as string).getTime());
    await ctx.services.entries.unpublish(draft!);
    const again = await eventually(() => get(url), (res) => !res.body.includes('Launch day'));
    expect(again.body).not.toContain('Launch day');
  });

  it('an unknown slug is a 404 JSON error, a malformed one a 400', async () => {
    for (const format of ['atom', 'rss', 'json']) {
      const missing = await get(`/v1/changelog/no-such-project/feed.${format}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['content-type']).toMatch(/^application\/json/);
      expect(missing.json()).toEqual({ error: 'Changelog not found', code: 'not_found' });
      const bad = await get(`/v1/changelog/Bad_Slug!/feed.${format}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0]).toMatchObject({ parameter: 'slug' });
    }
  });

  it('an empty changelog is a valid feed dated by its project', async () => {
    const user = await buildUser(ctx.services);
    await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'quiet', name: 'Quiet' });
    const atom = await get('/v1/changelog/quiet/feed.atom');
    expect(XMLValidator.validate(atom.body)).toBe(true);
    expect(xml.parse(atom.body).feed.entry).toBeUndefined();
    expect(atom.headers['last-modified']).toBeDefined();
    expect((await get('/v1/changelog/quiet/feed.atom')).headers.etag).toBe(atom.headers.etag);
  });

  it('answers any origin (CORS), since feeds are read from other sites', async () => {
    const res = await get('/v1/changelog/acme-app/feed.json', { origin: 'https://customer.example' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/v1/changelog/acme-app/feed.json',
      headers: { origin: 'https://customer.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('Last-Modified after a retraction', () => {
  it.each(['atom', 'rss', 'json'])('%s: an unpublished entry is not kept alive by If-Modified-Since', async (format) => {
    const user = await buildUser(ctx.services);
    const own = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: `retract-${format}`, name: 'Retract' });
    const [a, b] = await insertEntries(ctx.services, own.id, [
      { status: 'draft', title: 'Entry Alpha', content: 'first' },
      { status: 'draft', title: 'Entry Bravo', content: 'second' },
    ]);
    await ctx.services.entries.publish(a!);
    await ctx.services.entries.publish(b!);
    await untilListingDatePast(ctx.services, own.id);
    const url = `/v1/changelog/retract-${format}/feed.${format}`;
    const first = await get(url);
    expect(first.body).toContain('Entry Bravo');
    const l1 = first.headers['last-modified'] as string;
    // The reader's revalidation while nothing changed.
    expect((await get(url, { 'if-modified-since': l1 })).statusCode).toBe(304);

    // The attacker's case: the newest entry is retracted (usually within the same second as l1).
    await ctx.services.entries.unpublish(b!);
    const again = await eventually(() => get(url), (res) => !res.body.includes('Entry Bravo'));
    expect(again.body).not.toContain('Entry Bravo');
    expect(again.body).toContain('Entry Alpha');
    expect(Date.parse(again.headers['last-modified'] as string)).toBeGreaterThanOrEqual(Date.parse(l1));
    const revalidated = await get(url, { 'if-modified-since': l1 });
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.body).toBe(again.body);

    // Once the clock has caught up with the change, the date is a later second and revalidates again.
    await untilListingDatePast(ctx.services, own.id);
    const settled = await get(url);
    const l2 = settled.headers['last-modified'] as string;
    expect(Date.parse(l2)).toBeGreaterThan(Date.parse(l1));
    expect((await get(url, { 'if-modified-since': l2 })).statusCode).toBe(304);
  });

  it('an edit of a published entry right after a read is a later Last-Modified than the one read', async () => {
    const user = await buildUser(ctx.services);
    const own = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'edit-soon', name: 'Edit soon' });
    const [a] = await insertEntries(ctx.services, own.id, [{ status: 'published', title: 'Typo here', content: 'text', published_at: new Date() }]);
    await untilListingDatePast(ctx.services, own.id);
    const url = '/v1/changelog/edit-soon/feed.atom';
    const l1 = (await get(url)).headers['last-modified'] as string;
    await ctx.services.entries.editText(a!, { title: 'Typo fixed', content: 'text' });
    const revalidated = await eventually(() => get(url, { 'if-modified-since': l1 }), (res) => res.statusCode === 200);
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.body).toContain('Typo fixed');
    // In whole seconds, as HTTP dates are.
    expect(Date.parse((await listingDate(ctx.services, own.id)).toUTCString())).toBeGreaterThan(Date.parse(l1));
  });
});
