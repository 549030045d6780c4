import rateLimit from '@fastify/rate-limit';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { ResolvedContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { isAuthenticatedRoute, presentedKey } from './route-kind.js';
import { addressBucket } from '../client-address.js';

/**
 * Expensive actions, limited per tenant (see `limitTenantAction`): each costs a generation, an
 * ingest (a clone or fetch), git processes and outbound requests, or fans out to outbound webhooks.
 */
export type TenantAction = 'preview' | 'generate' | 'sync' | 'regenerate' | 'link' | 'bulk' | 'webhook-test' | 'github';

/** Who pays for a project's work: the user or organization that owns it. */
export interface Tenant {
  owner_type: 'user' | 'org';
  owner_user_id: string | null;
  owner_org_id: string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts one `action` against the tenant that owns the project, and refuses it (429, Retry-After,
     * a message naming the limit) past RATE_LIMIT_TENANT_ACTIONS_MAX per window. A no-op when rate
     * limits are off.
     */
    limitTenantAction(request: FastifyRequest, reply: FastifyReply, action: TenantAction, tenant: Tenant): Promise<void>;
  }
}

const ACTION_NAMES: Record<TenantAction, string> = {
  preview: 'settings previews',
  generate: 'generations ("Generate now")',
  sync: 'syncs ("Sync now")',
  regenerate: 'regenerations',
  link: 'repository links (linking, or changing the branch)',
  bulk: 'bulk review actions',
  'webhook-test': 'webhook test events',
  github: 'GitHub installation and account checks',
};

/** The tenant of an action on a context itself (a user or an organization), not on one of its projects. */
export const contextTenant = (context: ResolvedContext): Tenant =>
  context.type === 'org'
    ? { owner_type: 'org', owner_user_id: null, owner_org_id: context.orgId }
    : { owner_type: 'user', owner_user_id: context.userId, owner_org_id: null };

const duration = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000} hour${ms === 3_600_000 ? '' : 's'}` : ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}` : `${Math.ceil(ms / 1000)} seconds`;

/**
 * Rate limits: public routes per client address, authenticated routes per API key (the bucket is
 * named by the key's SHA-256, so no secret sits in the store), and failed authentications per client
 * address, so guessing keys (each guess a fresh key bucket) is cut off after a few tries without
 * slowing anyone else. Counters live in Redis when REDIS_URL is set, so the limits hold across
 * processes; otherwise in this process. Responses carry the RateLimit-* headers; a 429 also Retry-After.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  const limits = config.hardening.rateLimit;
  if (!limits.enabled) {
    app.decorate('limitTenantAction', async () => {});
    return;
  }

  let redis: Redis | undefined;
  if (limits.redisUrl) {
    // Fail fast instead of queueing while Redis is away: the limiter then lets requests through
    // (skipOnError) rather than holding the API hostage to the cache. A Redis that stops answering
    // on an open connection (blocked, or a network that drops packets) fails each call after a second.
    redis = new Redis(limits.redisUrl, {
      connectTimeout: 1_000,
      commandTimeout: 1_000,
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
      // Named by its digest, valid or not: the store (Redis, maybe) never holds a key.
      if (key !== undefined) return `key:${createHash('sha256').update(key).digest('hex')}`;
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

  // A preview, a generation, a sync or a link keeps the server busy for seconds on a large project (a
  // bulk action or a test event sends outbound requests), and any member, or any of the tenant's API
  // keys, can repeat it: each tenant gets its own budget per action, so one cannot starve the others.
  const tenantKeys = new WeakMap<FastifyRequest, string>();
  const tenantLimiters = Object.fromEntries(
    (Object.keys(ACTION_NAMES) as TenantAction[]).map((action) => [
      action,
      app.createRateLimit({
        keyGenerator: (request) => `tenant:${action}:${tenantKeys.get(request) ?? ''}`,
        max: limits.tenantActionsMax,
        timeWindow: limits.tenantActionsWindowMs,
      }),
    ]),
  ) as Record<TenantAction, ReturnType<FastifyInstance['createRateLimit']>>;
  app.decorate('limitTenantAction', async (request: FastifyRequest, reply: FastifyReply, action: TenantAction, tenant: Tenant) => {
    tenantKeys.set(request, tenant.owner_type === 'org' ? `org:${tenant.owner_org_id}` : `user:${tenant.owner_user_id}`);
    const state = await tenantLimiters[action](request);
    // (`isAllowed` means on the allow list.)
    if (state.isAllowed || !state.isExceeded) return;
    const seconds = Math.max(1, state.ttlInSeconds);
    reply.header('retry-after', seconds);
    const who = tenant.owner_type === 'org' ? 'organization' : 'account';
    throw new AppError(
      'rate_limited',
      `Too many ${ACTION_NAMES[action]} for ${action === 'github' ? `this ${who}` : `the ${who} that owns this project`}: ` +
        `at most ${limits.tenantActionsMax} every ${duration(limits.tenantActionsWindowMs)} (RATE_LIMIT_TENANT_ACTIONS_MAX); retry in ${seconds} second${seconds === 1 ? '' : 's'}`,
    );
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
