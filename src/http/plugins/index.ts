import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { registerDecimalNumberGuard } from '../decimal-numbers.js';
import { registerCors } from './cors.js';
import { registerHelmet } from './helmet.js';
import { registerMetrics, type MetricSources, type ObserveRequest } from './metrics.js';
import { registerRateLimit } from './rate-limit.js';
import { registerUnderPressure } from './under-pressure.js';

/**
 * Abuse limits, security headers, CORS, load shedding and metrics. Registered before any route:
 * rate limits and CORS look at each route as it is added.
 */
export async function registerHardening(
  app: FastifyInstance,
  deps: { config: Config; database: Database; services?: MetricSources },
): Promise<{ observeRequest: ObserveRequest | undefined }> {
  await registerUnderPressure(app, deps.config);
  await registerRateLimit(app, deps.config);
  await registerHelmet(app);
  await registerCors(app);
  const observeRequest = await registerMetrics(app, deps);
  registerDecimalNumberGuard(app);
  return { observeRequest };
}
