import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';

const FAVICON = readFileSync(new URL('../../public/favicon.svg', import.meta.url));
const FAVICON_ETAG = `"${createHash('sha256').update(FAVICON).digest('hex').slice(0, 16)}"`;

/**
 * The site's front door: `GET /` goes to the dashboard (which sends a visitor without a session to
 * sign in), so nothing about any project — public or private — is listed to an anonymous visitor;
 * public changelogs are reached by their own addresses. And a favicon, cached for a day.
 * Neither is part of the API (hidden from /openapi.json).
 */
export const frontRoutes: FastifyPluginAsync = async (app) => {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard', 302));

  for (const path of ['/favicon.svg', '/favicon.ico']) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=86400').header('etag', FAVICON_ETAG).type('image/svg+xml').send(FAVICON),
    );
  }
};
