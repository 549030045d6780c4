import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ChangelogEntry } from '../entries/entry.schemas.js';
import { DateTime, errorResponses, Uuid } from '../http/schemas.js';
import type { Authenticator } from '../keys/authenticate.js';
import type { Services } from '../services.js';

export const ProjectSummary = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    slug: Type.String(),
    owner_type: Type.Union([Type.Literal('user'), Type.Literal('org')]),
    owner_id: Uuid,
    created_at: DateTime,
    updated_at: DateTime,
    changelog_entries: Type.Array(Type.Ref(ChangelogEntry), { description: 'Published entries only, newest first.' }),
  },
  { $id: 'ProjectSummary' },
);

const ProjectsQuery = Type.Object({
  entries_limit: Type.Integer({
    minimum: 1,
    maximum: 200,
    default: 50,
    description: 'Maximum number of published entries per project.',
  }),
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

const ProjectsResponse = Type.Object({
  projects: Type.Array(Type.Ref(ProjectSummary)),
  meta: Type.Object({
    count: Type.Integer({ description: 'Number of projects returned.' }),
    entries_limit: Type.Integer(),
  }),
});

export const projectsRoutes: FastifyPluginAsyncTypebox<{ services: Services; authenticate: Authenticator }> = async (
  app,
  { services, authenticate },
) => {
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
        response: { 200: ProjectsResponse, ...errorResponses(400, 401, 500) },
      },
    },
    async (request, reply) => {
      const principal = await authenticate(request, { allowApiKeyHeader: true });
      const limit = request.query.entries_limit;
      const projects = await services.projects.listVisible(principal, limit);
      reply.header('cache-control', 'private, no-store');
      return { projects, meta: { count: projects.length, entries_limit: limit } };
    },
  );
};
