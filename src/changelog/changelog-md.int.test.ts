// GET /v1/changelog/{slug}/changelog.md and `changelog export`: the published release notes as one Keep a
// Changelog document, through the response cache; drafts, pending revisions and other projects' notes never.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, getFrom, type TestContext } from '../../test/helpers/context.js';
import { buildCommit } from '../../test/helpers/commits.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { releaseHistory, storeCommits } from '../../test/helpers/releases.js';
import { noteBlocks } from './changelog-md.js';

let ctx: TestContext;
let slug: string;
let projectId: string;
let otherSlug: string;
const get = getFrom(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = (await buildUser(ctx.services)).email;
  const project = await buildProject(ctx.services, { type: 'user', email: owner });
  slug = project.slug;
  projectId = project.id;
  const h = releaseHistory();
  // A security fix and a deprecation in v2.0.0, so more than Added and Fixed shows.
  const sec = buildCommit({ parents: [h.f.sha], message: 'fix(security): escape the title', changes: [['M', 'src/s.ts']], date: '2024-03-07T10:00:00Z' });
  const dep = buildCommit({ parents: [sec.sha], message: 'deprecate: old flag', changes: [['M', 'src/d.ts']], date: '2024-03-08T10:00:00Z' });
  const perf = buildCommit({ parents: [dep.sha], message: 'perf: faster list', changes: [['M', 'src/p.ts']], tags: ['v2.0.0'], date: '2024-03-09T10:00:00Z' });
  const draft = buildCommit({ parents: [perf.sha], message: 'feat: still unreleased', changes: [['M', 'src/u.ts']], date: '2024-03-10T10:00:00Z' });
  await storeCommits(ctx.services, project.id, [...h.commits, sec, dep, perf, draft]);
  await ctx.services.generation.configure(slug, { publish: { release: 'auto' }, pullRequestUrl: 'https://github.com/acme/widget/pull/{number}' });
  await ctx.services.generation.generate(slug);
  await ctx.services.entries.unpublishRelease(slug, 'v1.0.0');

  const other = await buildProject(ctx.services, { type: 'user', email: owner });
  otherSlug = other.slug;
  const lone = buildCommit({ message: 'feat: elsewhere only', changes: [['M', 'src/x.ts']], tags: ['v7.0.0'], date: '2024-01-01T00:00:00Z' });
  await storeCommits(ctx.services, other.id, [lone]);
  await ctx.services.generation.configure(otherSlug, { publish: 'auto' });
  await ctx.services.generation.generate(otherSlug);
});
afterAll(async () => ctx?.close());

const headings = (doc: string) => doc.split('\n').filter((l) => /^#{1,3} /.test(l));

describe('GET /v1/changelog/{slug}/changelog.md', () => {
  it('is Keep a Changelog: header, Unreleased, releases newest first with dates, mapped sections, link references', async () => {
    const res = await get(`/v1/changelog/${slug}/changelog.md`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['cache-control']).toMatch(/^public, max-age=/);
    expect(res.headers.etag).toEqual(expect.any(String));
    const doc = res.body;
    const releases = headings(doc).filter((l) => l.startsWith('## '));
    // v1.0.0 is a draft: absent. A package's series is named by its tag.
    expect(releases).toEqual([
      '## [Unreleased]',
      '## [2.0.0] - 2024-03-09',
      '## [1.1.0] - 2024-03-05',
      '## [1.1.0-beta.1] - 2024-03-04',
      '## [pkg@2.0.0] - 2024-03-03',
    ]);
    expect(doc.startsWith('# Changelog\n')).toBe(true);
    const v2 = doc.slice(doc.indexOf('## [2.0.0]'), doc.indexOf('## [1.1.0]'));
    expect(headings(v2).slice(1)).toEqual(['### Added', '### Changed', '### Deprecated', '### Fixed']);
    expect(v2).toContain('aster list');
    expect(doc).toContain('[2.0.0]: https://github.com/acme/widget/compare/v1.1.0...v2.0.0');
    expect(doc).toMatch(/\[Unreleased\]: https:\/\/github\.com\/acme\/widget\/compare\/v2\.0\.0\.\.\.HEAD/);
    expect(doc).not.toContain('elsewhere only');
    expect((await get(`/v1/changelog/${slug}/changelog.md`, { 'if-none-match': res.headers.etag as string })).statusCode).toBe(304);
  });

  it('unknown project: 404; a bad slug: 400', async () => {
    expect((await get('/v1/changelog/no-such-project/changelog.md')).statusCode).toBe(404);
    expect((await get('/v1/changelog/Bad%20Slug/changelog.md')).statusCode).toBe(400);
  });

  it("shows a published note's published revision: an editor's pending edit and intro appear only once published", async () => {
    const view = await ctx.services.entries.releaseEditor(projectId, 'v2.0.0');
    const item = view.sections.flatMap((s) => s.items).find((i) => i.text.includes('aster list'))!;
    await ctx.services.entries.editRelease(projectId, 'v2.0.0', { action: 'hide', key: item.key });
    await ctx.services.entries.editRelease(projectId, 'v2.0.0', { action: 'introduction', text: 'A release about **speed**.' });
    // Stored as a pending revision: readers keep the published one.
    const pending = (await get(`/v1/changelog/${slug}/changelog.md`)).body;
    expect(pending).toContain('aster list');
    expect(pending).not.toContain('about **speed**');
    await ctx.services.entries.publishRelease(slug, 'v2.0.0');
    const body = async () => (await get(`/v1/changelog/${slug}/changelog.md`)).body;
    await expect.poll(body).toContain('## [2.0.0] - 2024-03-09\n\nA release about **speed**.\n\n### Added');
    await expect.poll(body).not.toContain('aster list');
    const doc = (await get(`/v1/changelog/${slug}/changelog.md`)).body;
    expect(headings(doc.slice(doc.indexOf('## [2.0.0]'), doc.indexOf('## [1.1.0]'))).slice(1)).toEqual(['### Added', '### Deprecated', '### Fixed']);
  });

  it('is documented in OpenAPI as part of the release-notes extension', async () => {
    const spec = (await get('/openapi.json')).json<{ paths: Record<string, { get: Record<string, unknown> }> }>();
    expect(spec.paths['/v1/changelog/{slug}/changelog.md']!.get).toMatchObject({ 'x-extension': true, tags: ['releases'] });
  });
});

describe('changelog export (the service it reads)', () => {
  it('formats: keep-a-changelog, markdown as published, json; --since cuts after the tag; an unknown tag is 404', async () => {
    const kac = await ctx.services.releases.document(slug, 'keep-a-changelog');
    expect(kac.body).toBe((await get(`/v1/changelog/${slug}/changelog.md`)).body);
    const md = await ctx.services.releases.document(slug, 'markdown');
    expect(headings(md.body).filter((l) => l.startsWith('## '))).toEqual(['## Unreleased', '## v2.0.0', '## v1.1.0', '## v1.1.0-beta.1', '## pkg@2.0.0']);
    expect(md.body).toContain('### Features');
    const json = JSON.parse((await ctx.services.releases.document(slug, 'json')).body) as { releases: { tag: string | null }[] };
    expect(json.releases.map((r) => r.tag)).toEqual([null, 'v2.0.0', 'v1.1.0', 'v1.1.0-beta.1', 'pkg@2.0.0']);
    const since = await ctx.services.releases.document(slug, 'keep-a-changelog', { since: 'v1.1.0' });
    expect(headings(since.body).filter((l) => l.startsWith('## '))).toEqual(['## [Unreleased]', '## [2.0.0] - 2024-03-09']);
    await expect(ctx.services.releases.document(slug, 'json', { since: 'v1.0.0' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(ctx.services.releases.document(otherSlug, 'json', { since: 'v2.0.0' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('caps with a closing line naming the older releases', async () => {
    const capped = await ctx.services.releases.document(slug, 'keep-a-changelog', { limit: 2, olderUrl: 'https://x.test/c/s/releases' });
    expect(headings(capped.body).filter((l) => l.startsWith('## '))).toEqual(['## [Unreleased]', '## [2.0.0] - 2024-03-09']);
    expect(capped.body).toContain('_3 older releases are not listed here: see <https://x.test/c/s/releases>._');
  });

  it('splits a note into its introduction and sections', () => {
    expect(noteBlocks({ introduction: 'Hi\n\n### Not a section', content: 'Hi\n\n### Not a section\n\n### Features\n\n- a\n\n_By Team_\n' })).toEqual({
      introduction: 'Hi\n\n### Not a section',
      blocks: [{ label: 'Features', body: '- a' }],
      tail: '_By Team_',
    });
  });
});
