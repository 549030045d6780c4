import etag from '@fastify/etag';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createServer } from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { connectChangeFeed } from './cache/change-feed.js';
import { createFastPath, requestIdOf, type FastPathHandler } from './cache/fast-path.js';
import { ResponseCache } from './cache/response-cache.js';
import { automationRoutes } from './automation/automation.routes.js';
import { changelogRoutes } from './changelog/changelog.routes.js';
import { dashboardPlugin, redactInviteTokens } from './dashboard/dashboard.plugin.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { entrySchemas } from './entries/entry.schemas.js';
import { feedRoutes } from './changelog/feeds/feeds.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { readyRoutes } from './health/ready.routes.js';
import { registerErrorHandling, renderFrameworkError } from './http/errors.js';
import { registerOpenApi } from './http/openapi.js';
import { frontRoutes } from './http/front.routes.js';
import { registerHardening } from './http/plugins/index.js';
import { registerRoutePolicy } from './http/route-policy.js';
import { sharedSchemas } from './http/schemas.js';
import { createAuthenticator } from './keys/authenticate.js';
import { redactKeys } from './keys/key-format.js';
import { projectsRoutes } from './changelog/projects.routes.js';
import { publicPageRoutes } from './changelog/page/public-page.routes.js';
import { githubRoutes } from './github/github.routes.js';
import { webhookRoutes } from './github/webhooks.routes.js';
import { createServices, type Services } from './services.js';
import { widgetRoutes } from './changelog/widget/widget.routes.js';

export interface AppOptions {
  config: Config;
  database: Database;
  services?: Services;
  /** Where log lines go (default stdout); tests capture them to search for leaked secrets. */
  logStream?: DestinationStream;
}

/** Header values that must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-gateway-secret"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/**
 * One log line per request, written when it completes, with its method and URL: Fastify's default
 * adds an "incoming request" line too, which doubles the noise in an operator's terminal.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Builds the HTTP application without listening, so tests drive it with `inject`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const services = options.services ?? createServices(database, config);
  // Cache hits of public routes are answered before the framework (see cache/fast-path.ts).
  const fast: { path?: FastPathHandler } = {};

  const app = Fastify({
    serverFactory: (framework) =>
      createServer((req, res) => {
        if (!fast.path?.(req, res, framework)) framework(req, res);
      }),
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactKeys(redactInviteTokens(request.url)),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    requestIdHeader: false,
    logController: new OneLinePerRequest(),
    genReqId: (request) => requestIdOf(request.headers['x-request-id']),
    bodyLimit: config.hardening.bodyLimitBytes,
    frameworkErrors: renderFrameworkError,
    // X-Forwarded-For is believed only from proxies the operator named.
    trustProxy: config.hardening.trustedProxies.length ? [...config.hardening.trustedProxies] : false,
    ajv: {
      customOptions: {
        // Every offending parameter is reported, not just the first one.
        allErrors: true,
        // Unknown body properties are refused rather than silently dropped.
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app, { redactPath: redactKeys });
  // Before any route is added: every route's declaration decides its authentication and caching.
  const authenticate = createAuthenticator({ keys: services.keys, users: services.users, config });
  registerRoutePolicy(app, { authenticate });
  const { observeRequest } = await registerHardening(app, { config, database, services });
  for (const schema of [...sharedSchemas, ...entrySchemas]) app.addSchema(schema);
  await registerOpenApi(app);
  await app.register(etag);
  const cache = new ResponseCache(config.responseCache);
  // After @fastify/etag, so the headers it learns are the ones a client receives.
  const fastPathHandler = createFastPath(app, { cache, config, observe: observeRequest });
  if (config.responseCache.enabled) {
    const disconnect = await connectChangeFeed(database, cache, app.log);
    app.addHook('onClose', async () => disconnect());
  }

  await app.register(healthRoutes, { config });
  await app.register(readyRoutes, { database, timeoutMs: config.hardening.databaseTimeoutMs, jobs: services.jobs });
  await app.register(projectsRoutes, { services });
  await app.register(changelogRoutes, { services, config, cache });
  await app.register(feedRoutes, { services, config, cache });
  await app.register(publicPageRoutes, { services, config, cache });
  await app.register(widgetRoutes);
  await app.register(frontRoutes);
  await app.register(dashboardPlugin, { services, config });
  await app.register(githubRoutes, { services });
  await app.register(webhookRoutes, { services });
  await app.register(automationRoutes, { services });
  // Only now: until every route and hook is in place, all requests go through the framework.
  fast.path = fastPathHandler;
  // Stop the job queue before the database under it closes.
  app.addHook('onClose', async () => services.jobs.stop());

  return app;
}
