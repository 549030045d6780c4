import type { FastifyRequest, RouteOptions } from 'fastify';
import { bearerToken } from '../bearer.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers every caller alike (no credentials, no cookies), so its answers may be kept in
     * the response cache and replayed by the fast path to anyone asking for the same URL. The only way
     * onto those paths: replyCached/replyCachedText refuse other routes, and a route with a security
     * requirement (or any dashboard route) that declares it stops the application from starting.
     */
    publicCache?: boolean;
  }
}

type RouteLike = Pick<RouteOptions, 'schema'> | FastifyRequest['routeOptions'];

/**
 * A route is authenticated when its schema declares a security requirement: the same fact the OpenAPI
 * document publishes, so rate limits and CORS follow the contract without a second list of routes.
 */
export function isAuthenticatedRoute(route: RouteLike | undefined): boolean {
  const security = (route?.schema as { security?: unknown[] } | undefined)?.security;
  return Array.isArray(security) && security.length > 0;
}

/** The API key a request presents (Bearer or X-API-KEY), whether or not it is valid. */
export function presentedKey(request: FastifyRequest): string | undefined {
  const apiKeyHeader = request.headers['x-api-key'];
  const header = (Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader)?.trim();
  return bearerToken(request.headers.authorization) ?? (header || undefined);
}

/** Operator routes (`config: { internal: true }`: /ready, /metrics) are for probes and scrapers, not browsers. */
export function isInternal(config: unknown): boolean {
  return (config as { internal?: unknown } | undefined)?.internal === true;
}

/** Whether a route opted in to the public response cache and the fast path (`config: { publicCache: true }`). */
export function isPublicCache(config: unknown): boolean {
  return (config as { publicCache?: unknown } | undefined)?.publicCache === true;
}
