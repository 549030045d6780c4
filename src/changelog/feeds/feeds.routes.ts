import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ResponseCache } from '../../cache/response-cache.js';
import type { Config } from '../../config.js';
import { replyCachedText, type TextResponse } from '../../cache/cached-text.js';
import { errorResponses, NotModified, SlugParam, StringEnum } from '../../http/schemas.js';
import { AVAILABLE_VIEWS, type AvailableView } from '../../projects/public-view.js';
import { FEED_FORMATS, FEED_SIZE, type FeedFormat, type FeedsService } from './feeds.service.js';

const FORMATS: Record<FeedFormat, { name: string; spec: string }> = {
  atom: { name: 'Atom 1.0', spec: 'RFC 4287' },
  rss: { name: 'RSS 2.0', spec: 'https://www.rssboard.org/rss-specification' },
  json: { name: 'JSON Feed 1.1', spec: 'https://www.jsonfeed.org/version/1.1/' },
};

const FeedQuery = Type.Object({
  view: Type.Optional(
    // An enum: anything else is a 400 naming the allowed values, before any work or cache lookup.
    StringEnum(AVAILABLE_VIEWS, {
      description:
        'Which view of the changelog the feed carries, as on the public page: `releases` (published release notes of tagged ' +
        'releases), one entry type (`weekly`, `monthly`, `daily`, `commit`) or `all` (every type interleaved). Default: the ' +
        "view the public page opens on (the project's choice, else releases once it has published the note of a tagged release, else the first of " +
        'weekly, monthly, daily and commit it has published).',
    }),
  ),
});

/** Public feeds of a project's newest published entries: Atom, RSS and JSON Feed. */
export const feedRoutes: FastifyPluginAsyncTypebox<{ services: { feeds: FeedsService }; config: Config; cache: ResponseCache }> = async (
  app,
  { services, config, cache },
) => {
  const cacheControl = `public, max-age=${config.publicCacheMaxAge}`;

  /** One feed route per format: `path(format)`, answered from the response cache under `key`. */
  function feed(
    route: { path: (format: FeedFormat) => string; key: string; tags: string[] },
    describe: (f: { name: string; spec: string }) => { summary: string; description: string },
    render: (slug: string, format: FeedFormat, view: AvailableView | undefined) => Promise<TextResponse>,
    query?: typeof FeedQuery,
  ) {
    for (const format of Object.keys(FEED_FORMATS) as FeedFormat[]) {
      const type = FEED_FORMATS[format];
      const mediaType = type.split(';')[0]!;
      app.get(
        route.path(format),
        {
          schema: {
            ...describe(FORMATS[format]),
            tags: route.tags,
            params: Type.Object({ slug: SlugParam }),
            ...(query ? { querystring: query } : {}),
            response: {
              200: {
                description: `The ${FORMATS[format].name} document.`,
                content: { [mediaType]: { schema: format === 'json' ? { type: 'object' } : { type: 'string' } } },
              },
              304: NotModified,
              ...errorResponses(400, 404, 500),
            },
          },
          config: { publicCache: true },
        },
        async (request, reply) => {
          reply.header('cache-control', cacheControl);
          // The view as asked is in the key (none: the page's default); a change of what the default
          // stands for (a first release published, the project's setting) drops the project's cached feeds.
          const view = (request.query as { view?: AvailableView }).view;
          return replyCachedText(request, reply, cache, `${route.key}:${format}:${request.params.slug}:${view ?? ''}`, type, () =>
            render(request.params.slug, format, view),
          );
        },
      );
    }
  }

  feed(
    { path: (format) => `/v1/changelog/:slug/feed.${format}`, key: 'feed', tags: ['changelog'] },
    ({ name, spec }) => ({
      summary: `${name} feed of a project's changelog`,
      description:
        `Public. The ${FEED_SIZE} newest published entries of one view (\`view\`: the public page's default unless given; ` +
        `release notes in the \`releases\` view) as ${name} (${spec}), ` +
        'content rendered from Markdown to HTML (raw HTML in the source is escaped); titles render their inline Markdown in Atom ' +
        '(HTML titles) and are plain text in RSS and JSON Feed. An unknown `view` is a 400. Ids are `urn:uuid:<entry id>` ' +
        '(`<note id>` for release notes); links point to the entry on the public page `/c/{slug}`. Sends `ETag`, `Last-Modified` (the last change of any ' +
        'kind to what the feed lists: publish, unpublish, edit, archive, project name or theme) and `Cache-Control`; answers `If-None-Match` or `If-Modified-Since` with 304. Drafts never appear. ' +
        'Not part of the API contract: an addition.',
    }),
    (slug, format, view) => services.feeds.render(slug, format, view),
    FeedQuery,
  );
  feed(
    { path: (format) => `/v1/changelog/:slug/releases.${format}`, key: 'release-feed', tags: ['releases'] },
    ({ name }) => ({
      summary: `${name} feed of a project's release notes`,
      description:
        `Public. The ${FEED_SIZE} newest published release notes of tagged releases (Unreleased is left out) as ${name}, ` +
        'newest release first; ids are `urn:uuid:<note id>`, links point to `/c/{slug}/releases/{tag}`. Sends `ETag`, ' +
        '`Last-Modified` and `Cache-Control`; answers 304. Part of the release-notes extension outside the API contract.',
    }),
    (slug, format) => services.feeds.renderReleases(slug, format),
  );
};
