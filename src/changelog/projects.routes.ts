import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { etagOf } from '../cache/response-cache.js';
import { sendJson } from '../cache/cached-reply.js';
import { principalOf } from '../http/route-policy.js';
import { errorResponses, NotModified } from '../http/schemas.js';
import type { ChangelogService } from './changelog.service.js';
import { ProjectsResponse, ProjectSummary } from './projects.schemas.js';

const ProjectsQuery = Type.Object({
  entries_limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 200,
      default: 50,
      description: 'Maximum number of published entries per project, in decimal digits.',
    }),
  ),
});

const ProjectsHeaders = Type.Object({
  'x-identity-user-id': Type.Optional(
    Type.String({
      description:
        'User id (uuid) asserted by a trusted gateway; lists that user\'s personal projects. Honoured only when the ' +
        'operator sets IDENTITY_HEADER_ENABLED and the request carries X-Gateway-Secret; otherwise ignored. ' +
        'An API key, when present, takes precedence.',
    }),
  ),
  'x-gateway-secret': Type.Optional(Type.String({ description: 'Shared secret proving the request came from the trusted gateway.' })),
});

export const projectsRoutes: FastifyPluginAsyncTypebox<{ services: { changelog: ChangelogService } }> = async (app, { services }) => {
  app.addSchema(ProjectSummary);

  app.get(
    '/v1/projects',
    {
      schema: {
        summary: 'List the projects the caller may see, with their newest published entries',
        description:
          'Projects are ordered by slug. Each project lists at most `entries_limit` published entries, newest ' +
          '`published_at` first, ties by `id` descending. Every invalid credential (malformed, unknown, revoked, ' +
          'deleted or expired key) gets the same 401.',
        tags: ['projects'],
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        querystring: ProjectsQuery,
        headers: ProjectsHeaders,
        response: { 200: ProjectsResponse, 304: NotModified, ...errorResponses(400, 401, 500) },
      },
    },
    async (request, reply) => {
      // The caller was authenticated before anything else (http/route-policy.ts), on every request. The
      // answer is read fresh each time, never from the response cache: that cache (and its fast path)
      // answers anyone asking for the same URL. The ETag, hashed from this body, still allows a 304.
      const { body } = await services.changelog.listVisibleProjectsJson(principalOf(request), request.query.entries_limit ?? 50);
      return sendJson(reply, body, etagOf(body));
    },
  );
};
