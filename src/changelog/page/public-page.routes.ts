import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { projectTag, type ResponseCache } from '../../cache/response-cache.js';
import type { Config } from '../../config.js';
import { ENTRY_TYPES } from '../../entries/entry.schemas.js';
import { replyCachedText } from '../../cache/cached-text.js';
import { AppError } from '../../errors.js';
import { errorResponses, NotModified, SlugParam, Uuid } from '../../http/schemas.js';
import type { MarkdownRenderer } from '../../html/markdown-thread.js';
import type { PublicProject } from '../changelog.repository.js';
import { TagParam } from '../changelog.schemas.js';
import type { ReleasesService } from '../releases.service.js';
import { entryTitle, type PublicPageService } from './public-page.service.js';
import { bodyOf, changelogPage, entryPage, notFoundPage, releasePage, releasesPage } from './views.js';
import { AVAILABLE_VIEWS } from '../../projects/public-view.js';
import { checkedLogo } from '../../projects/theme.js';

const HTML = 'text/html; charset=utf-8';
const MAX_PAGE = 500;

const PageQuery = Type.Object({
  view: Type.Optional(
    // An enum: anything else is a 400 before any work or cache lookup.
    Type.Union([Type.Literal(''), ...AVAILABLE_VIEWS.map((v) => Type.Literal(v))], {
      description:
        "What to show: published release notes (releases), one kind of entry (weekly, monthly, daily, commit: every change) or all entries. " +
        "Default: the project's choice, else releases once it has published the note of a tagged release, else the first of weekly, monthly, daily and commit it has published.",
    }),
  ),
  type: Type.Optional(Type.Union([Type.Literal(''), ...ENTRY_TYPES.map((t) => Type.Literal(t))], { description: 'Only entries of this type.' })),
  component: Type.Optional(Type.String({ maxLength: 100, description: 'Only entries tagged with this component.' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page of 20 entries, 1 first.' })),
});
const HtmlPage = { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } };
const NotFound = { description: 'Unknown project or entry: a small HTML page.', content: { 'text/html': { schema: { type: 'string' } } } };

/**
 * Content-Security-Policy of the public pages: no script at all, styles only inline, images from
 * this origin and the project's logo host. Stricter than the app-wide default, and it names the one
 * outside host the owner chose, assembled from its checked parts (checkedLogo): a stored value is
 * never copied into the header. The dashboard's release preview sends it too (not framed there).
 */
export function publicPageCsp(project: Pick<PublicProject, 'logo_url'>, frameAncestors = "'self'"): string {
  const checked = checkedLogo(project.logo_url);
  const logo = checked ? ` ${checked.source}` : '';
  return [
    "default-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
    `img-src 'self' data:${logo}`,
    "style-src 'unsafe-inline'",
  ].join('; ');
}

/** The public changelog page `/c/{slug}` and a permalink page per entry: server-rendered HTML, no script. */
export const publicPageRoutes: FastifyPluginAsyncTypebox<{
  services: { publicPage: PublicPageService; releases: ReleasesService; markdown: MarkdownRenderer };
  config: Config;
  cache: ResponseCache;
}> = async (
  app,
  { services, config, cache },
) => {
  const cacheControl = `public, max-age=${config.publicCacheMaxAge}`;

  /** Renders a page through the response cache; an unknown project or entry becomes an HTML 404. */
  async function send(
    request: Parameters<typeof replyCachedText>[0],
    reply: FastifyReply,
    key: string,
    produce: () => Promise<{ project: PublicProject; body: string; lastModified: Date; transient: boolean }>,
  ) {
    try {
      reply.header('cache-control', cacheControl);
      await replyCachedText(request, reply, cache, key, HTML, async () => {
        const { project, body, lastModified, transient } = await produce();
        return { body, tags: [projectTag(project.id)], lastModified, headers: { 'content-security-policy': publicPageCsp(project) }, transient };
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'not_found') throw error;
      return reply.code(404).header('cache-control', 'no-store').type(HTML).send(notFoundPage(error.message));
    }
    return reply;
  }

  app.get(
    '/c/:slug',
    {
      schema: {
        summary: 'Public changelog page of a project (HTML)',
        description:
          'Public, server-rendered HTML for projects without a site of their own: published entries newest first, 20 a page, ' +
          'one view at a time (`view`: the project\'s default unless the reader picks releases, weekly, monthly, daily, every change ' +
          'or all; the default is releases when the project has published the note of a tagged release and its managers chose nothing else), ' +
          'filterable by component (entry views), each with a permalink and its date (a rollup\'s period start, a release\'s date). ' +
          'Titles render their inline Markdown. Themed with the project\'s colour and logo. ' +
          'Sends `ETag`, `Last-Modified`, `Cache-Control`; answers 304. Links its feeds with `<link rel="alternate">`.',
        tags: ['public page'],
        params: Type.Object({ slug: SlugParam }),
        querystring: PageQuery,
        response: { 200: HtmlPage, 304: NotModified, ...errorResponses(400, 500), 404: NotFound },
      },
      config: { publicCache: true },
    },
    async (request, reply) => {
      const { slug } = request.params;
      const filters = {
        view: request.query.view || undefined,
        type: request.query.type || undefined,
        component: request.query.component?.trim() || undefined,
        page: request.query.page ?? 1,
      };
      // Everything the reader chose is in the key; the project's default view is not, and changing
      // it drops the project's cached pages (projects_notify, migrations/0022).
      const key = `page:${slug}:${filters.view ?? ''}:${filters.type ?? ''}:${filters.page}:${filters.component ?? ''}`;
      return send(request, reply, key, async () => {
        const view = await services.publicPage.changelog(slug, filters, filters.page);
        const shown = view.view === 'releases' ? view.releases.map((r) => ({ content: r.content, title: r.title })) : view.entries.map((e) => ({ content: bodyOf(e), title: entryTitle(e) }));
        const [contents, titles] = await Promise.all([
          services.markdown.render(shown.map((s) => s.content)),
          services.markdown.render(shown.map((s) => s.title), { inline: true }),
        ]);
        const body = changelogPage(config.publicUrl, view, filters, { contents: contents.html, titles: titles.html });
        return { project: view.project, body, lastModified: view.project.published_changed_at, transient: contents.transient || titles.transient };
      });
    },
  );

  app.get(
    '/c/:slug/entries/:id',
    {
      schema: {
        summary: 'Permalink page of one published entry (HTML)',
        description: 'Public HTML page of one entry. Drafts, archived entries and entries of other projects are 404.',
        tags: ['public page'],
        params: Type.Object({ slug: SlugParam, id: Uuid }),
        response: { 200: HtmlPage, 304: NotModified, ...errorResponses(400, 500), 404: NotFound },
      },
      config: { publicCache: true },
    },
    async (request, reply) => {
      const { slug } = request.params;
      const id = request.params.id.toLowerCase();
      return send(request, reply, `entry-page:${slug}:${id}`, async () => {
        const { project, entry } = await services.publicPage.entry(slug, id);
        const [content, title] = await Promise.all([
          services.markdown.render([bodyOf(entry)]),
          services.markdown.render([entryTitle(entry)], { inline: true }),
        ]);
        const body = entryPage(config.publicUrl, project, entry, content.html[0]!, title.html[0]!);
        // The project's date, not the entry's: it also moves when the entry is retracted and republished.
        return { project, body, lastModified: project.published_changed_at, transient: content.transient || title.transient };
      });
    },
  );
  app.get(
    '/c/:slug/releases',
    {
      schema: {
        summary: 'Release notes of a project (HTML)',
        description:
          'Public HTML page of the published release notes, newest release first (Unreleased on top), 20 a page, each linking its ' +
          'permalink page. Links the release feeds. Part of the release-notes extension outside the API contract.',
        tags: ['public page'],
        params: Type.Object({ slug: SlugParam }),
        querystring: Type.Object({
          page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page of 20 release notes, 1 first.' })),
        }),
        response: { 200: HtmlPage, 304: NotModified, ...errorResponses(400, 500), 404: NotFound },
      },
      config: { publicCache: true },
    },
    async (request, reply) => {
      const { slug } = request.params;
      const page = request.query.page ?? 1;
      return send(request, reply, `releases-page:${slug}:${page}`, async () => {
        const listed = await services.releases.page(slug, { limit: 20, offset: (page - 1) * 20 });
        const view = { project: listed.project, releases: listed.releases, hasMore: listed.meta.has_more, page };
        const [contents, titles] = await Promise.all([
          services.markdown.render(listed.releases.map((r) => r.content)),
          services.markdown.render(listed.releases.map((r) => r.title), { inline: true }),
        ]);
        const body = releasesPage(config.publicUrl, view, { contents: contents.html, titles: titles.html });
        return { project: listed.project, body, lastModified: listed.project.published_changed_at, transient: contents.transient || titles.transient };
      });
    },
  );

  app.get(
    '/c/:slug/releases/:tag',
    {
      schema: {
        summary: 'Permalink page of one published release note (HTML)',
        description: 'Public HTML page of one release note by URL-encoded tag (`unreleased`: the Unreleased note). Drafts, archived notes and tags of other projects are 404.',
        tags: ['public page'],
        params: Type.Object({ slug: SlugParam, tag: TagParam }),
        response: { 200: HtmlPage, 304: NotModified, ...errorResponses(400, 500), 404: NotFound },
      },
      config: { publicCache: true },
    },
    async (request, reply) => {
      const { slug, tag } = request.params;
      return send(request, reply, `release-page:${slug}:${tag}`, async () => {
        const { project, release } = await services.releases.release(slug, tag);
        const [content, title] = await Promise.all([services.markdown.render([release.content]), services.markdown.render([release.title], { inline: true })]);
        const body = releasePage(config.publicUrl, project, release, content.html[0]!, title.html[0]!);
        return { project, body, lastModified: project.published_changed_at, transient: content.transient || title.transient };
      });
    },
  );
};

