import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseCache } from '../cache/response-cache.js';

export interface TextResponse {
  body: string;
  /** Cache tags (`project:<id>`): a change notification for any of them drops the stored response. */
  tags: string[];
  /** When what the body shows last changed; sent as Last-Modified and compared with If-Modified-Since. */
  lastModified: Date | null;
  /** Response headers that depend on the content (a page's Content-Security-Policy), stored with it. */
  headers?: Record<string, string>;
}

interface Head {
  lastModified?: number;
  headers?: Record<string, string>;
}

/**
 * replyCached (src/http/cached-reply.ts) for non-JSON bodies: feeds and HTML pages. The ETag is the
 * hash of what is stored, so it changes whenever the body, the date or a header does. @fastify/etag answers
 * a matching If-None-Match with 304; If-Modified-Since (consulted only without If-None-Match, as
 * RFC 9110 says) is answered here. Stored as `<head JSON>\n<body>`, the head holding Last-Modified
 * and content-dependent headers, so a hit costs no query.
 */
export async function replyCachedText(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: ResponseCache,
  key: string,
  contentType: string,
  produce: () => Promise<TextResponse>,
): Promise<FastifyReply> {
  let cached = cache.get(key);
  reply.header('x-cache', cached ? 'hit' : 'miss');
  if (!cached) {
    const generation = cache.generation();
    const { body, tags, lastModified, headers } = await produce();
    const head: Head = { ...(lastModified ? { lastModified: lastModified.getTime() } : {}), ...(headers ? { headers } : {}) };
    cached = cache.set(key, `${JSON.stringify(head)}\n${body}`, tags, generation);
  }
  // A response the cache did not keep comes back as the string itself.
  const stored = typeof cached.body === 'string' ? Buffer.from(cached.body) : cached.body;
  const newline = stored.indexOf(10);
  const head = JSON.parse(stored.subarray(0, newline).toString()) as Head;
  const body = stored.subarray(newline + 1);
  reply.headers({ ...head.headers, etag: cached.etag }).type(contentType);
  if (head.lastModified !== undefined) {
    const lastModified = new Date(head.lastModified);
    reply.header('last-modified', lastModified.toUTCString());
    if (notModifiedSince(request, lastModified)) return reply.code(304).send();
  }
  return reply.send(body);
}

function notModifiedSince(request: FastifyRequest, lastModified: Date): boolean {
  if (request.headers['if-none-match'] !== undefined) return false;
  const since = request.headers['if-modified-since'];
  if (typeof since !== 'string') return false;
  const sinceMs = Date.parse(since);
  // HTTP dates have whole seconds; the stored time has milliseconds.
  return Number.isFinite(sinceMs) && Math.floor(lastModified.getTime() / 1000) * 1000 <= sinceMs;
}
