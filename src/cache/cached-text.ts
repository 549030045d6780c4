import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, type ResponseCache, type ResponseHead } from './response-cache.js';
import { assertPublicCache } from './cached-reply.js';

export interface TextResponse {
  body: string;
  /** Cache tags (`project:<id>`): a change notification for any of them drops the stored response. */
  tags: string[];
  /** When what the body shows last changed; sent as Last-Modified and compared with If-Modified-Since. */
  lastModified: Date | null;
  /** Response headers that depend on the content (a page's Content-Security-Policy), stored with it. */
  headers?: Record<string, string>;
  /**
   * The body shows something in a passing state (Markdown shown as text because every render thread
   * was busy): it is neither stored nor cacheable downstream, so the next request renders it again.
   */
  transient?: boolean;
}

/**
 * replyCached (src/cache/cached-reply.ts) for non-JSON bodies: feeds and HTML pages. The ETag hashes
 * the body and its head (Last-Modified and content-dependent headers, stored beside it, so a hit
 * costs no query), so it changes whenever the body, the date or a header does. @fastify/etag answers
 * a matching If-None-Match with 304; If-Modified-Since (consulted only without If-None-Match, as
 * RFC 9110 says) is answered here.
 */
export async function replyCachedText(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: ResponseCache,
  key: string,
  contentType: string,
  produce: () => Promise<TextResponse>,
): Promise<FastifyReply> {
  assertPublicCache(request);
  let cached = cache.get(key);
  reply.header('x-cache', cached ? 'hit' : 'miss');
  if (!cached) {
    const generation = cache.generation();
    const { body, tags, lastModified, headers, transient } = await produce();
    const head: ResponseHead = { ...(lastModified ? { lastModified: lastModified.getTime() } : {}), ...(headers ? { headers } : {}) };
    if (transient) {
      cached = { body, etag: etagOf(body, head), head };
      reply.header('cache-control', 'no-store');
    } else cached = cache.set(key, body, tags, generation, { head });
  }
  const head = cached.head ?? {};
  reply.headers({ ...head.headers, etag: cached.etag }).type(contentType);
  if (head.lastModified !== undefined) {
    const lastModified = new Date(head.lastModified);
    // The stored date can run ahead of the clock (each change takes a later second, migrations/0017);
    // RFC 9110 8.8.2.1 wants the current time sent then. Comparisons still use the stored date.
    reply.header('last-modified', new Date(Math.min(head.lastModified, Date.now())).toUTCString());
    if (notModifiedSince(request, lastModified)) return reply.code(304).send();
  }
  return reply.send(cached.body);
}

function notModifiedSince(request: FastifyRequest, lastModified: Date): boolean {
  if (request.headers['if-none-match'] !== undefined) return false;
  const since = request.headers['if-modified-since'];
  if (typeof since !== 'string') return false;
  const sinceMs = Date.parse(since);
  // HTTP dates have whole seconds; the stored time has milliseconds.
  return Number.isFinite(sinceMs) && Math.floor(lastModified.getTime() / 1000) * 1000 <= sinceMs;
}
