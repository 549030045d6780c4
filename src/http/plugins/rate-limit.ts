import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import { hashKey } from '../../keys/key-format.js';
import { AppError } from '../../errors.js';
import { isAuthenticatedRoute, presentedKey } from './route-kind.js';
import { addressBucket } from '../client-address.js';

/**
 * Rate limits: public routes per client address, authenticated routes per API key (the bucket is
 * named by the key's SHA-256, so no secret sits in the store), and failed authentications per client
 * address, so guessing keys (each guess a fresh key bucket) is cut off after a few tries without
 * slowing anyone else. Counters live in Redis when REDIS_URL is set, so the limits hold across
 * processes; otherwise in this process. Responses carry the RateLimit-* headers; a 429 also Retry-After.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  const limits = config.hardening.rateLimit;
  if (!limits.enabled) return;

  let redis: Redis | undefined;
  if (limits.redisUrl) {
    // Fail fast instead of queueing while Redis is away: the limiter then lets requests through
    // (skipOnError) rather than holding the API hostage to the cache.
    redis = new Redis(limits.redisUrl, {
      connectTimeout: 1_000,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    redis.on('error', (err) => app.log.warn({ err: { message: err.message } }, 'rate-limit store unavailable'));
    // Start counting from the first request; if Redis is down now, start anyway and keep reconnecting.
    // Ignored: the 'error' handler above logs it, and ioredis keeps reconnecting.
    await redis.connect().catch(() => {});
    app.addHook('onClose', async () => {
      redis?.disconnect();
    });
  }

  const keyOf = (request: FastifyRequest): string => {
    if (isAuthenticatedRoute(request.routeOptions)) {
      const key = presentedKey(request);
      if (key !== undefined) return `key:${hashKey(key)}`;
    }
    return `ip:${addressBucket(request.ip)}`;
  };

  const tooMany = (seconds: number) =>
    new AppError('rate_limited', `Too many requests; retry in ${seconds} second${seconds === 1 ? '' : 's'}`);

  await app.register(rateLimit, {
    global: true,
    max: (request, key) => (key.startsWith('key:') && isAuthenticatedRoute(request.routeOptions) ? limits.authenticatedMax : limits.publicMax),
    timeWindow: limits.windowMs,
    keyGenerator: keyOf,
    enableDraftSpec: true,
    skipOnError: true,
    nameSpace: limits.redisPrefix,
    ...(redis ? { redis } : {}),
    errorResponseBuilder: (_request, context) => tooMany(Math.max(1, Math.ceil(context.ttl / 1000))),
  });

  // Failed authentications per address: read before the route runs, counted when it answers 401.
  const failures = app.createRateLimit({
    keyGenerator: (request) => `authfail:${addressBucket(request.ip)}`,
    max: limits.authFailuresMax,
    timeWindow: limits.windowMs,
  });
  // preParsing: after every onRequest hook, so the per-key limiter has set its RateLimit-* headers.
  app.addHook('preParsing', async (request, reply) => {
    if (!isAuthenticatedRoute(request.routeOptions)) return;
    const state = await failures(request, { increment: false });
    if (!state.isAllowed && state.remaining === 0 && state.ttlInSeconds > 0) {
      reply.header('retry-after', state.ttlInSeconds);
      throw tooMany(state.ttlInSeconds);
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 401 && isAuthenticatedRoute(request.routeOptions)) await failures(request);
  });
}
