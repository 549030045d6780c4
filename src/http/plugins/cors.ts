import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAuthenticatedRoute, isInternal } from './route-kind.js';

const READ_METHODS = new Set(['GET', 'HEAD']);
const EXPOSED = ['ETag', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id'];

/**
 * CORS: public read routes answer any origin (customers' web pages call them); authenticated routes
 * send no CORS headers at all, so a browser never hands a page a response made with an API key
 * (keys belong to server-side code). Preflights are answered only for public read routes.
 */
export async function registerCors(app: FastifyInstance): Promise<void> {
  const publicReads: RegExp[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url === '*' || isInternal(route.config) || isAuthenticatedRoute(route) || !methods.some((m) => READ_METHODS.has(m))) return;
    const pattern = route.url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*');
    publicReads.push(new RegExp(`^${pattern}/?$`));
  });

  const allowed = (request: FastifyRequest): boolean => {
    if (request.method === 'OPTIONS') {
      const wanted = String(request.headers['access-control-request-method'] ?? '').toUpperCase();
      const path = request.url.split('?')[0]!;
      return READ_METHODS.has(wanted) && publicReads.some((re) => re.test(path));
    }
    return (
      READ_METHODS.has(request.method) &&
      request.routeOptions.url !== undefined &&
      !isInternal(request.routeOptions.config) &&
      !isAuthenticatedRoute(request.routeOptions)
    );
  };

  await app.register(cors, {
    delegator: (request, callback) => {
      callback(
        null,
        allowed(request)
          ? { origin: '*', methods: ['GET', 'HEAD'], exposedHeaders: EXPOSED, maxAge: 600, strictPreflight: true }
          : { origin: false },
      );
    },
  });
}
