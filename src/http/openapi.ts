import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const API_VERSION = '0.1.0';

const DESCRIPTION = `Published changelog entries of projects, generated from their commit history.

**Decisions where the contract is silent** (part of this document's contract):
- Invalid parameters (out of range, not an integer, malformed uuid or slug, duplicated scalar parameters) are
  answered **400** with an ErrorResponse whose \`details\` name each offending parameter
  (the first 20, then one entry counting the rest). Unknown query parameters are ignored.
- Unknown routes are **404** ErrorResponse; every 5xx body is \`{error, code}\` with no stack or internals.
- \`GET /v1/changelog/{slug}\`: \`limit\` defaults to 20 and \`offset\` to 0; entries are ordered by \`published_at\`
  descending, then \`id\` descending; \`meta.count\` is the number of entries in the page, and \`meta.total\` and
  \`meta.has_more\` are additions.
- Public routes send \`ETag\` and \`Cache-Control: public, max-age=N\` and answer \`If-None-Match\` with 304.
- \`GET /v1/projects\` lists projects by slug. Authenticated routes check credentials before validating anything else
  (a missing or invalid key is 401 whatever the body or query) and send \`Cache-Control: private, no-store\`, errors included.
- Entry \`status\` is one of draft, published, archived; public routes only ever return published entries.
- Error bodies carry an additional machine-readable \`code\`.

**Additions outside the contract** (public, any origin): Atom, RSS and JSON Feed 1.1 feeds at
\`/v1/changelog/{slug}/feed.atom|rss|json\`, the public HTML page \`/c/{slug}\` with a permalink page per entry, and the
embeddable \`<changelog-feed>\` web component at \`/widget.js\`.

**Extension: release notes** (tag \`releases\`, operations and schemas marked \`x-extension: true\`; outside the contract,
whose \`entry_type\` enum is unchanged): \`GET /v1/changelog/{slug}/releases\` and \`GET /v1/changelog/{slug}/releases/{tag}\`,
public like the listing and only for published notes; their feeds at \`/v1/changelog/{slug}/releases.atom|rss|json\`; HTML
pages at \`/c/{slug}/releases\` and \`/c/{slug}/releases/{tag}\`.

**Extension: publishing from CI** (tag \`publishing\`, marked \`x-extension: true\`; outside the contract): with a key of
the \`publish\` scope (named in each operation's security requirement, \`bearerAuth: [publish]\`; a key without it gets 403),
list the drafts and pending revisions of a project, publish or unpublish an entry by id or a release note by tag, sync a
repository link, and preview the note a ref would produce. The key's context and selected projects bound what it reaches:
anything else is 404, the same as what does not exist.`;

/** The OpenAPI 3.1 document, generated from the route schemas, at /openapi.json; a reference at /docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Changelog Service API', version: API_VERSION, description: DESCRIPTION },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'API key as `Authorization: Bearer <API key>`. Operations that name `publish` need a key created with the `publish` scope.',
          },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'API key (GET /v1/projects only).' },
        },
      },
      tags: [
        { name: 'health', description: 'Liveness' },
        { name: 'projects', description: 'Authenticated project listing' },
        { name: 'changelog', description: 'Public changelog reads, and feeds of them' },
        { name: 'public page', description: 'Public HTML changelog page and the embeddable widget' },
        { name: 'scm', description: 'GitHub App installations and repository links' },
        { name: 'releases', description: 'Release notes per tag: an extension outside the API contract (x-extension)' },
        { name: 'publishing', description: 'Publishing from CI with a `publish`-scoped key: an extension outside the API contract (x-extension)' },
      ],
    },
    // Operations of the release-notes extension say so in the document itself, not only in prose.
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      for (const operations of Object.values(document.openapiObject.paths ?? {})) {
        for (const operation of Object.values(operations as Record<string, { tags?: string[] } & Record<string, unknown>>)) {
          if (operation?.tags?.includes('releases') || operation?.tags?.includes('publishing')) operation['x-extension'] = true;
        }
      }
      return document.openapiObject;
    },
    // Shared schemas keep their names ($id) as component names instead of def-0, def-1, ….
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) ?? `def-${i}` },
  });

  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return app.swagger();
  });
}
