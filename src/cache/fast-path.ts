import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { ObserveRequest } from '../http/plugins/metrics.js';
import { isPublicCache } from '../http/plugins/route-kind.js';
import type { CachedResponse, ResponseCache } from './response-cache.js';

type RawHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A raw request handler that answers from the response cache, or returns false to let the
 * framework answer; `framework` also takes requests it declines after a look (a rate limit reached).
 */
export type FastPathHandler = (req: IncomingMessage, res: ServerResponse, framework: RawHandler) => boolean;

export const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** An upstream proxy's request id is kept (when it looks like one) so logs join up across hops. */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Headers that differ per request: the fast path writes its own. */
const PER_REQUEST = new Set([
  'x-request-id',
  'x-cache',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** What `replyCached` answered a request with: the fast path learns its URL once the reply is sent. */
const answered = new WeakMap<FastifyRequest, { key: string; response: CachedResponse }>();

export function markCacheable(request: FastifyRequest, key: string, response: CachedResponse): void {
  answered.set(request, { key, response });
}

/** Same rule as @fastify/etag, so both paths answer the same conditional requests with 304. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch !== undefined && (ifNoneMatch === etag || ifNoneMatch === `W/${etag}` || `W/${ifNoneMatch}` === etag);
}

interface RateLimitState {
  isExceeded: boolean;
  max?: number;
  remaining?: number;
  ttlInSeconds?: number;
}
type Limiter = (request: unknown) => Promise<RateLimitState>;

/**
 * Cache hits of public routes, answered before the framework sees them.
 *
 * A request qualifies only when the framework has already answered the very same raw URL from
 * the response cache (so routing, validation and normalization have been done for it) on a route
 * that declared `config: { publicCache: true }` (so no credential plays a part: nothing here
 * authenticates) and the response is still cached. Everything a cache hit would get from the
 * middleware chain happens here too, at a fraction of the cost: the same headers (captured from the framework's own reply:
 * security headers, CORS, Cache-Control, ETag), a request id, the same rate-limit counters
 * (the limiter's shared store) and RateLimit headers, 304 for a matching If-None-Match, load
 * shedding (a process under pressure sends everything through the framework, which sheds), metrics
 * and the request log line. Anything else (other methods, a request body, a limit reached, a
 * closing server) goes to the framework unchanged.
 */
export function createFastPath(
  app: FastifyInstance,
  deps: { cache: ResponseCache; config: Config; observe?: ObserveRequest | undefined },
): FastPathHandler {
  const { cache, config, observe } = deps;
  let running = true;

  app.addHook('onSend', (request, reply, payload, done) => {
    const hit = answered.get(request);
    // Only a response the cache kept can be answered from it again, and only to anyone: a route that
    // declared publicCache (never one needing credentials), an answer that sets no cookie.
    if (
      hit &&
      reply.statusCode === 200 &&
      request.method === 'GET' &&
      isPublicCache(request.routeOptions.config) &&
      !reply.hasHeader('set-cookie') &&
      cache.holds(hit.key, hit.response)
    ) {
      cache.remember(request.url, hit.key, hit.response, { headers: wireHeaders(reply), route: request.routeOptions.url ?? '' });
    }
    done(null, payload);
  });
  // New requests during shutdown go through the framework, which answers them with 503 and closes.
  app.addHook('preClose', async () => {
    running = false;
  });

  const limiter = config.hardening.rateLimit.enabled ? (app as unknown as { createRateLimit(): Limiter }).createRateLimit() : undefined;
  const trusted = config.hardening.trustedProxies.length ? proxyAddr.compile([...config.hardening.trustedProxies]) : undefined;
  const clientIp = (req: IncomingMessage): string | undefined => {
    if (!trusted) return req.socket.remoteAddress;
    const addresses = proxyAddr.all(req, trusted);
    return addresses[addresses.length - 1];
  };
  const underPressure = () => (app as unknown as { isUnderPressure?: () => boolean }).isUnderPressure?.() ?? false;
  // Fastify logs every request at info; so does this path (one line per request rather than two).
  const logRequests = ['info', 'debug', 'trace'].includes(app.log.level);

  const send = (req: IncomingMessage, res: ServerResponse, hit: ReturnType<ResponseCache['lookup']> & object, started: number, limit?: RateLimitState) => {
    const id = requestIdOf(req.headers['x-request-id']);
    const headers = [...hit.wire.headers, 'x-request-id', id, 'x-cache', 'hit'];
    if (limit?.max !== undefined) {
      headers.push('ratelimit-limit', String(limit.max), 'ratelimit-remaining', String(limit.remaining), 'ratelimit-reset', String(limit.ttlInSeconds));
    }
    let status = 200;
    if (matches(req.headers['if-none-match'], hit.etag)) {
      status = 304;
      headers.push('content-length', '0');
      res.writeHead(304, headers);
      res.end();
    } else {
      headers.push('content-length', String(hit.body.length));
      res.writeHead(200, headers);
      res.end(hit.body);
    }
    if (observe || logRequests) {
      const seconds = (performance.now() - started) / 1000;
      observe?.('GET', hit.wire.route, status, seconds);
      if (logRequests) {
        const request = { method: 'GET', url: req.url, host: req.headers.host, ip: clientIp(req) };
        app.log.info({ reqId: id, req: request, res: { statusCode: status }, responseTime: seconds * 1000 }, 'request completed');
      }
    }
  };

  const handle: FastPathHandler = (req, res, framework) => {
    if (!running || req.method !== 'GET' || req.url === undefined) return false;
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) return false;
    const hit = cache.lookup(req.url);
    if (!hit || underPressure()) return false;
    const started = observe || logRequests ? performance.now() : 0;
    if (!limiter) {
      send(req, res, hit, started);
      return true;
    }
    // The global limiter's own store and key (`ip:<address>`), so both paths count against one limit.
    limiter({ ip: clientIp(req), routeOptions: { config: {} }, headers: req.headers }).then(
      (state) => {
        // Over the limit (or anything unexpected): the framework answers, with its 429 and headers.
        if (state.isExceeded) framework(req, res);
        else send(req, res, hit, started, state);
      },
      () => framework(req, res),
    );
    return true;
  };

  return handle;
}

function wireHeaders(reply: FastifyReply): string[] {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || PER_REQUEST.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) flat.push(name, v);
    else flat.push(name, String(value));
  }
  return flat;
}
