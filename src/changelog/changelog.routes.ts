import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Config } from '../config.js';
import { ChangelogEntry } from '../entries/entry.schemas.js';
import { errorResponses, Uuid } from '../http/schemas.js';
import { SLUG_PATTERN } from '../projects/slug.js';
import type { Services } from '../services.js';

const Project = Type.Object({ id: Uuid, name: Type.String(), slug: Type.String() }, { $id: 'Project' });

const SlugParam = Type.String({
  minLength: 2,
  maxLength: 64,
  pattern: SLUG_PATTERN,
  description: 'Project slug: lowercase letters, digits and single hyphens, 2–64 characters. A malformed slug is a 400; a well-formed unknown one a 404.',
});

const ListQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size.' }),
  // The bound keeps huge values (and 1e309, which coerces to Infinity) a 400 instead of a SQL error.
  offset: Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0, description: 'Number of entries to skip.' }),
});

const ListResponse = Type.Object({
  project: Type.Ref(Project),
  entries: Type.Array(Type.Ref(ChangelogEntry), {
    description: 'Published entries, newest `published_at` first; ties by `id` descending.',
  }),
  meta: Type.Object({
    limit: Type.Integer(),
    offset: Type.Integer(),
    count: Type.Integer({ description: 'Number of entries in this page.' }),
    total: Type.Integer({ description: 'Addition: number of published entries of the project.' }),
    has_more: Type.Boolean({ description: 'Addition: whether entries exist past this page.' }),
  }),
});

const EntryResponse = Type.Object({ entry: Type.Ref(ChangelogEntry) });

/** Public, cacheable reads. Only published entries are ever returned. */
export const changelogRoutes: FastifyPluginAsyncTypebox<{ services: Services; config: Config }> = async (
  app,
  { services, config },
) => {
  app.addSchema(Project);
  const cacheControl = `public, max-age=${config.publicCacheMaxAge}`;

  app.get(
    '/v1/changelog/:slug',
    {
      schema: {
        summary: 'A page of the published changelog of a project',
        description:
          'Public. Sends `ETag` and `Cache-Control`; answers `If-None-Match` with 304. Unknown query parameters are ignored.',
        tags: ['changelog'],
        params: Type.Object({ slug: SlugParam }),
        querystring: ListQuery,
        response: { 200: ListResponse, ...errorResponses(400, 404, 500) },
      },
    },
    async (request, reply) => {
      const { limit, offset } = request.query;
      const page = await services.changelog.page(request.params.slug, limit, offset);
      reply.header('cache-control', cacheControl);
      return page;
    },
  );

  app.get(
    '/v1/changelog/:slug/entries/:id',
    {
      schema: {
        summary: 'One published entry of a project',
        description: 'Public. Drafts, archived entries and entries of other projects are 404.',
        tags: ['changelog'],
        params: Type.Object({ slug: SlugParam, id: Uuid }),
        response: { 200: EntryResponse, ...errorResponses(400, 404, 500) },
      },
    },
    async (request, reply) => {
      const entry = await services.changelog.entry(request.params.slug, request.params.id.toLowerCase());
      reply.header('cache-control', cacheControl);
      return { entry };
    },
  );
};
