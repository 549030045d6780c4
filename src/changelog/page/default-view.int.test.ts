// What readers see first: the public page, its feeds and the listing's `view=default` open on release
// notes when a project has published any, else on its first entry view; each feed carries one view.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, getFrom, type TestContext } from '../../../test/helpers/context.js';
import { buildCommit } from '../../../test/helpers/commits.js';
import { buildProject, buildUser } from '../../../test/helpers/factories.js';
import { storeCommits } from '../../../test/helpers/releases.js';

let ctx: TestContext;
let tagged: string;
let untagged: string;
const get = getFrom(() => ctx);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed XML, checked element by element
type Parsed = Record<string, any>;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['entry', 'item', 'link'].includes(name) });

beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://changes.example.com' });
  const owner = (await buildUser(ctx.services)).email;
  const a = buildCommit({ message: 'feat: add `--fast` mode', changes: [['M', 'src/a.ts']], tags: ['v1.0.0'], date: '2024-03-04T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], message: 'fix: handle `null` input', changes: [['M', 'src/b.ts']], tags: ['v1.1.0'], date: '2024-03-06T10:00:00Z' });
  const withTags = await buildProject(ctx.services, { type: 'user', email: owner }, { slug: 'tagged', name: 'Tagged' });
  tagged = withTags.slug;
  await storeCommits(ctx.services, withTags.id, [a, b]);
  await ctx.services.generation.configure(tagged, { publish: 'auto' });
  await ctx.services.generation.generate(tagged);

  const c = buildCommit({ message: 'feat: plain `change`', changes: [['M', 'src/c.ts']], date: '2024-03-06T10:00:00Z' });
  const withoutTags = await buildProject(ctx.services, { type: 'user', email: owner }, { slug: 'untagged', name: 'Untagged' });
  untagged = withoutTags.slug;
  await storeCommits(ctx.services, withoutTags.id, [c]);
  await ctx.services.generation.configure(untagged, { publish: 'auto' });
  await ctx.services.generation.generate(untagged);
});
afterAll(async () => ctx?.close());

describe('the public page', () => {
  it('opens on release notes when the project has published any, dated by their release', async () => {
    const res = await get(`/c/${tagged}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<a href="/c/${tagged}?view=releases" aria-current="page">Releases</a>`);
    expect(res.body).toContain(`href="/c/${tagged}/releases/v1.1.0"`);
    expect(res.body).toContain('<time datetime="2024-03-06T10:00:00.000Z">6 March 2024</time>');
    // Release notes' items render their code spans; no raw backticks reach the reader.
    expect(res.body).toContain('<code>null</code>');
    expect(res.body).not.toContain('`null`');
    // The feeds the page names are its default view's; the other views are one click away.
    expect(res.body).toContain(`href="/v1/changelog/${tagged}/feed.atom"`);
    for (const v of ['weekly', 'commit', 'all']) expect(res.body).toContain(`href="/c/${tagged}?view=${v}"`);
  });

  it('opens on weekly entries without releases, each dated by the start of its week', async () => {
    const res = await get(`/c/${untagged}`);
    expect(res.body).toContain(`<a href="/c/${untagged}?view=weekly" aria-current="page">Weekly</a>`);
    expect(res.body).not.toContain('?view=releases');
    // 6 March 2024 is a Wednesday: its week starts on Monday 4 March.
    expect(res.body).toContain('<time datetime="2024-03-04T00:00:00.000Z">4 March 2024</time>');
  });

  it('shows a single change once: its title with code spans, its section, no repeated body', async () => {
    const res = await get(`/c/${untagged}?view=commit`);
    const article = res.body.slice(res.body.indexOf('<article '), res.body.indexOf('</article>'));
    expect(article).toContain('<code>change</code>');
    expect(article.match(/plain/gi)).toHaveLength(1);
    // Only the team's attribution is left of the body.
    expect(article).toContain('<div class="content"><p><em>By Ada Lovelace</em></p>');
  });
});

describe('feeds per view', () => {
  it('default to the page\'s view: release notes when there are some', async () => {
    const res = await get(`/v1/changelog/${tagged}/feed.atom`);
    expect(res.statusCode).toBe(200);
    expect(XMLValidator.validate(res.body)).toBe(true);
    const entries = xml.parse(res.body).feed.entry as Parsed[];
    expect(entries.map((e) => e.link[0]['@href'])).toEqual([
      `https://changes.example.com/c/${tagged}/releases/v1.1.0`,
      `https://changes.example.com/c/${tagged}/releases/v1.0.0`,
    ]);
    const weekly = await get(`/v1/changelog/${untagged}/feed.atom`);
    const weeks = xml.parse(weekly.body).feed.entry as Parsed[];
    expect(weeks).toHaveLength(1);
    expect(weeks[0]!.link[0]['@href']).toMatch(new RegExp(`/c/${untagged}/entries/`));
  });

  it('carry the view asked for, with titles rendered in Atom and plain text in JSON Feed', async () => {
    const atom = await get(`/v1/changelog/${untagged}/feed.atom?view=commit`);
    const [entry] = xml.parse(atom.body).feed.entry as Parsed[];
    expect(entry!.title['@type']).toBe('html');
    expect(entry!.title['#text']).toContain('<code>change</code>');
    expect(xml.parse(atom.body).feed.link).toContainEqual(
      expect.objectContaining({ '@rel': 'self', '@href': `https://changes.example.com/v1/changelog/${untagged}/feed.atom?view=commit` }),
    );
    const json = (await get(`/v1/changelog/${untagged}/feed.json?view=commit`)).json();
    expect(json.items).toHaveLength(1);
    expect(json.items[0].title).not.toContain('`');
    expect(json.items[0].title).toMatch(/plain change/i);
    const rss = await get(`/v1/changelog/${tagged}/feed.rss?view=weekly`);
    expect(XMLValidator.validate(rss.body)).toBe(true);
    const items = xml.parse(rss.body).rss.channel.item as Parsed[];
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item.link[0]).toMatch(/\/entries\//);
  });

  it('refuse an unknown view with a 400 JSON error naming it', async () => {
    for (const view of ['bogus', 'Releases', '<script>', 'x'.repeat(500)]) {
      const res = await get(`/v1/changelog/${tagged}/feed.atom?view=${encodeURIComponent(view)}`);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json().details[0]).toMatchObject({ parameter: 'view' });
      expect(res.body).not.toContain('<script>');
    }
  });

  it('are cached per view: each its own ETag, each a hit the second time', async () => {
    const plain = await get(`/v1/changelog/${tagged}/feed.json`);
    const weekly = await get(`/v1/changelog/${tagged}/feed.json?view=weekly`);
    expect(weekly.headers.etag).not.toBe(plain.headers.etag);
    expect(weekly.json().items.map((i: { url: string }) => i.url).every((u: string) => u.includes('/entries/'))).toBe(true);
    const again = await get(`/v1/changelog/${tagged}/feed.json?view=weekly`);
    expect(again.headers['x-cache']).toBe('hit');
    expect(again.headers.etag).toBe(weekly.headers.etag);
    const plainAgain = await get(`/v1/changelog/${tagged}/feed.json`);
    expect(plainAgain.headers.etag).toBe(plain.headers.etag);
    expect(plainAgain.json().items[0].url).toContain('/releases/');
  });
});

describe('GET /v1/changelog/{slug}?view=default', () => {
  it('names the view the page opens on, and lists the first entry view', async () => {
    const withReleases = (await get(`/v1/changelog/${tagged}?view=default`)).json();
    expect(withReleases.meta).toMatchObject({ view: 'weekly', default_view: 'releases' });
    const without = (await get(`/v1/changelog/${untagged}?view=default`)).json();
    expect(without.meta).toMatchObject({ view: 'weekly', default_view: 'weekly' });
    // Release notes are not entries: that view has its own route.
    expect((await get(`/v1/changelog/${tagged}?view=releases`)).statusCode).toBe(400);
  });
});
