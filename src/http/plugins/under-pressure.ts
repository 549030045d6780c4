import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';

/** Liveness must answer even when the process sheds load: restarting a busy process helps no one. */
const NEVER_SHED = new Set(['/health', '/metrics']);

/** @fastify/under-pressure's default sampling interval: each sample is the event loop's mean delay over one. */
const SAMPLE_INTERVAL_MS = 1_000;

/**
 * Sheds load with 503 and Retry-After when the event loop lags or is saturated, before it stalls
 * and every request times out. /ready reports 503 too, so a balancer drains the instance.
 */
export async function registerUnderPressure(app: FastifyInstance, config: Config): Promise<void> {
  const limits = config.hardening.underPressure;
  // The samples taken until just after listening measure start-up (migrations, the job queue, the
  // embedded database's statements on this thread), not load: without this grace the first requests
  // a person sends to a server that just printed its address were answered 503 for about a second.
  // An app that never listens (tests through inject) has no grace.
  let graceUntil = 0;
  app.addHook('onListen', async () => {
    graceUntil = Date.now() + 2 * SAMPLE_INTERVAL_MS;
  });
  await app.register(underPressure, {
    sampleInterval: SAMPLE_INTERVAL_MS,
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxEventLoopUtilization: limits.maxEventLoopUtilization,
    retryAfter: limits.retryAfterSeconds,
    pressureHandler: (request, reply) => {
      if (NEVER_SHED.has(request.routeOptions.url ?? '') || Date.now() < graceUntil) return undefined;
      reply.header('retry-after', limits.retryAfterSeconds);
      // A rejected promise reaches the one error handler (503 JSON), like any thrown AppError.
      return Promise.reject(new AppError('unavailable', 'The server is overloaded; retry later'));
    },
  });
}
