import type { FastifyPluginAsync } from 'fastify';
import { readFileSync } from 'node:fs';
import { etagOf } from '../../cache/response-cache.js';
import { errorResponses, NotModified } from '../../http/schemas.js';

/** The web component's source; the same path from src/ (tsx, tests) and dist/ (compiled), as it is not compiled. */
export const WIDGET_FILE = new URL('../../../src/changelog/widget/widget.js', import.meta.url);

/**
 * `/widget.js`: the `<changelog-feed>` web component, for any site to embed. Public like the reads it
 * makes (CORS and Cross-Origin-Resource-Policy allow every origin); the URL is not versioned, so
 * browsers revalidate after an hour with the ETag.
 */
export const widgetRoutes: FastifyPluginAsync = async (app) => {
  const body = readFileSync(WIDGET_FILE);
  const etag = etagOf(body);

  app.get(
    '/widget.js',
    {
      schema: {
        summary: 'The embeddable <changelog-feed> web component',
        description:
          'Public JavaScript, no dependencies: `<script src="{server}/widget.js" defer></script>` then ' +
          '`<changelog-feed project="slug" limit="10"></changelog-feed>`. It reads `GET /v1/changelog/{slug}` ' +
          'from the server it was loaded from (or its `server` attribute), one view at a time as the public page: ' +
          'the project\'s default view (`view=default`; when `meta.default_view` is `releases` it reads ' +
          '`GET /v1/changelog/{slug}/releases` instead) unless the embedder sets `view="releases"` (release notes), ' +
          '`view="weekly"` (or `monthly`, `daily`, `commit`: that entry type only), `view="all"` (every entry) or ' +
          '`type="weekly"` (the same as `view="weekly"`; `view` wins). Each change shows once, in its section; titles and ' +
          'items render code spans and emphasis (a link in commit text stays text); dates are a rollup\'s period start or a ' +
          'release\'s date, in the reader\'s locale. Sends `ETag`; answers 304.',
        tags: ['public page'],
        response: {
          200: { description: 'The script.', content: { 'text/javascript': { schema: { type: 'string' } } } },
          304: NotModified,
          ...errorResponses(500),
        },
      },
    },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').header('etag', etag).type('text/javascript; charset=utf-8').send(body),
  );
};
