import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';

/** Liveness must answer even when the process sheds load: restarting a busy process helps no one. */
const NEVER_SHED = new Set(['/health', '/metrics']);

/**
 * Sheds load with 503 and Retry-After when the event loop lags or is saturated, before it stalls
 * and every request times out. /ready reports 503 too, so a balancer drains the instance.
 */
export async function registerUnderPressure(app: FastifyInstance, config: Config): Promise<void> {
  const limits = config.hardening.underPressure;
  await app.register(underPressure, {
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxEventLoopUtilization: limits.maxEventLoopUtilization,
    retryAfter: limits.retryAfterSeconds,
    pressureHandler: (request, reply) => {
      if (NEVER_SHED.has(request.routeOptions.url ?? '')) return undefined;
      reply.header('retry-after', limits.retryAfterSeconds);
      // A rejected promise reaches the one error handler (503 JSON), like any thrown AppError.
      return Promise.reject(new AppError('unavailable', 'The server is overloaded; retry later'));
    },
  });
}
