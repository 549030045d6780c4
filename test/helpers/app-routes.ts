import { channel } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** How a route decides who may call it. */
export type RouteGuard =
  /** A security requirement in its schema (the OpenAPI contract): an API key. */
  | 'api-key'
  /** Inside the dashboard's scope and not `config: { public: true }`: a session cookie. */
  | 'session'
  /** Neither: the test's own list of public routes must name it. */
  | 'none';

export interface AppRoute {
  method: string;
  url: string;
  guard: RouteGuard;
  /** Security schemes the schema accepts (`bearerAuth`, `apiKeyHeader`). */
  schemes: string[];
  /** Key scopes its security requirement names (`publish`): a key without them is refused with 403. */
  scopes: string[];
  querystring: unknown;
  body: unknown;
  config: Record<string, unknown>;
}

/**
 * Every route the application registers, as the application itself registers it: Fastify announces
 * each new instance on the `fastify.initialization` diagnostics channel, where an `onRoute` hook is
 * added before any route exists. `build` must create exactly one Fastify instance (e.g. buildApp).
 */
export async function collectRoutes(build: () => Promise<FastifyInstance>): Promise<AppRoute[]> {
  const routes: AppRoute[] = [];
  const initialization = channel('fastify.initialization');
  let instances = 0;
  const onInit = (message: unknown) => {
    instances++;
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', function (this: FastifyInstance, route: RouteOptions) {
      const security = (route.schema as { security?: Record<string, unknown>[] } | undefined)?.security ?? [];
      const config = (route.config ?? {}) as Record<string, unknown>;
      // The dashboard's session hook lives in its encapsulated scope, where its request decorator does.
      const inDashboard = this.hasRequestDecorator('dashboardUser');
      const guard: RouteGuard = security.length > 0 ? 'api-key' : inDashboard && config.public !== true ? 'session' : 'none';
      for (const method of [route.method].flat()) {
        routes.push({
          method,
          url: route.url,
          guard,
          schemes: security.flatMap((requirement) => Object.keys(requirement)),
          scopes: [...new Set(security.flatMap((requirement) => Object.values(requirement).flatMap((s) => (Array.isArray(s) ? (s as string[]) : []))))],
          querystring: (route.schema as { querystring?: unknown } | undefined)?.querystring,
          body: (route.schema as { body?: unknown } | undefined)?.body,
          config,
        });
      }
    });
  };
  initialization.subscribe(onInit);
  let app: FastifyInstance;
  try {
    app = await build();
  } finally {
    initialization.unsubscribe(onInit);
  }
  try {
    await app.ready();
  } finally {
    await app.close();
  }
  if (instances !== 1) throw new Error(`expected the build to create one Fastify instance, saw ${instances}`);
  return routes;
}
