import type { FastifyInstance, FastifyRequest, onSendHookHandler, preParsingAsyncHookHandler, RouteOptions } from 'fastify';
import { KEY_CAPABILITIES, type KeyCapability, type Principal } from '../context.js';
import { AppError } from '../errors.js';
import { isAuthenticatedRoute, isPublicCache } from './plugins/route-kind.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of a route with a security requirement, authenticated before its body is read; null elsewhere. */
    principal: Principal | null;
  }
}

/** Which credentials a route accepts besides `Authorization: Bearer`, as its declaration says (authenticationOptions). */
export interface AuthenticationOptions {
  /** `X-API-KEY: <key>` too. */
  allowApiKeyHeader: boolean;
  /** A user vouched for by the trusted gateway (`X-Identity-User-Id`), when the operator enabled it. */
  allowIdentityHeader: boolean;
}

/**
 * The capabilities a route's security requirement names (`{ bearerAuth: ['publish'] }`): the scopes of
 * OpenAPI 3.1's requirement objects, so the document says what the route enforces. An unknown name is a
 * start-up error, not a route nobody can call.
 */
export function requiredCapabilities(route: Pick<RouteOptions, 'schema' | 'url'>): KeyCapability[] {
  const schema = route.schema as { security?: Record<string, unknown>[] } | undefined;
  const names = new Set(
    (schema?.security ?? []).flatMap((requirement) => Object.values(requirement).flatMap((scopes) => (Array.isArray(scopes) ? scopes : []))),
  );
  for (const name of names) {
    if (!(KEY_CAPABILITIES as readonly string[]).includes(name))
      throw new Error(`${route.url}: unknown key scope "${String(name)}" in its security requirement`);
  }
  return [...names] as KeyCapability[];
}

/** Resolves the caller of an authenticated route, or throws `unauthorized` (the app's is keys/authenticate.ts). */
export type Authenticator = (request: FastifyRequest, options: AuthenticationOptions) => Promise<Principal>;

/** What an authenticated route's declaration says it accepts, besides `Authorization: Bearer`. */
export function authenticationOptions(route: Pick<RouteOptions, 'schema'>): AuthenticationOptions {
  const schema = route.schema as { security?: Record<string, unknown>[]; headers?: { properties?: Record<string, unknown> } } | undefined;
  return {
    allowApiKeyHeader: (schema?.security ?? []).some((requirement) => 'apiKeyHeader' in requirement),
    // The route publishes the header in its OpenAPI headers, so behaviour and document cannot disagree.
    allowIdentityHeader: schema?.headers?.properties?.['x-identity-user-id'] !== undefined,
  };
}

const hooksOf = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

// Whatever the handler or the error handler set: an answer made with credentials is nobody else's to keep.
const privateNoStore: onSendHookHandler = (_request, reply, payload, done) => {
  reply.header('cache-control', 'private, no-store');
  done(null, payload);
};

/**
 * What a route's declaration implies, applied to every route as it is added (so nothing depends on a
 * list of routes kept in sync by hand):
 *
 * - A route with a security requirement authenticates in preParsing, before its body is read,
 *   parsed or validated, so an anonymous megabyte of JSON costs a 401 and nothing more; after the
 *   global preParsing hooks (the failed-authentication limit), whose 429 must come first. The handler
 *   reads the caller from `request.principal` (principalOf).
 * - Its answers, errors included, are `Cache-Control: private, no-store`.
 * - `config: { publicCache: true }` (response cache and fast path) is refused, at start-up, on such a
 *   route and on anything but GET: those answers depend on who asks.
 */
export function registerRoutePolicy(app: FastifyInstance, deps: { authenticate: Authenticator }): void {
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    const authenticated = isAuthenticatedRoute(route);
    if (isPublicCache(route.config)) {
      const where = `${String(route.method)} ${route.url}`;
      if (authenticated) throw new Error(`${where}: a route with a security requirement cannot declare config.publicCache`);
      if ([route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD')) {
        throw new Error(`${where}: only GET routes can declare config.publicCache`);
      }
    }
    if (!authenticated) return;

    const options = authenticationOptions(route);
    const needs = requiredCapabilities(route);
    const authenticate: preParsingAsyncHookHandler = async (request, _reply, payload) => {
      const principal = await deps.authenticate(request, options);
      // Before the body is read, like the authentication: a read-only key's megabyte costs a 403 and nothing more.
      const missing = needs.filter((capability) => principal.kind !== 'api_key' || !principal.capabilities.includes(capability));
      if (missing.length) {
        throw new AppError(
          'forbidden',
          `This API key lacks the ${missing.join(', ')} scope: create a key with it (dashboard: API keys, or \`changelog keys create --publish\`)`,
        );
      }
      request.principal = principal;
      return payload;
    };
    route.preParsing = [authenticate, ...hooksOf(route.preParsing)];
    route.onSend = [...hooksOf(route.onSend), privateNoStore];
  });
}

/** The authenticated caller of the current route. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`${request.method} ${request.routeOptions.url} has no security requirement: no caller is authenticated`);
  return request.principal;
}
