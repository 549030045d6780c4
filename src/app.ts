import etag from '@fastify/etag';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { changelogRoutes } from './changelog/changelog.routes.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { entrySchemas } from './entries/entry.schemas.js';
import { healthRoutes } from './health/health.routes.js';
import { registerErrorHandling } from './http/errors.js';
import { registerOpenApi } from './http/openapi.js';
import { sharedSchemas } from './http/schemas.js';
import { createAuthenticator } from './keys/authenticate.js';
import { projectsRoutes } from './projects/projects.routes.js';
import { createServices, type Services } from './services.js';

export interface AppOptions {
  config: Config;
  database: Database;
  services?: Services;
  /** Overrides for tests (e.g. a log stream to search for leaked secrets). */
  logger?: FastifyServerOptions['logger'];
}

/** Header values that must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-gateway-secret"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** Builds the HTTP application without listening, so tests drive it with `inject`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const services = options.services ?? createServices(database, config);

  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    bodyLimit: 1024 * 1024,
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

  registerErrorHandling(app);
  for (const schema of [...sharedSchemas, ...entrySchemas]) app.addSchema(schema);
  await registerOpenApi(app);
  await app.register(etag);

  const authenticate = createAuthenticator({ keys: services.keys, db: database.db, config });
  await app.register(healthRoutes, { config });
  await app.register(projectsRoutes, { services, authenticate });
  await app.register(changelogRoutes, { services, config });

  return app;
}
