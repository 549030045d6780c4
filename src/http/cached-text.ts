import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseCache } from '../cache/response-cache.js';

export interface TextResponse {
  body: string;
  /** Cache tags (`project:<id>`): a change notification for any of them drops the stored response. */
  tags: string[];
  /** When what the body shows last changed; sent as Last-Modified and compared with If-Modified-Since. */
  lastModified: Date | null;
}

/**
 * replyCached (src/http/cached-reply.ts) for non-JSON bodies: feeds and HTML pages. The response is
 * stored with its Last-Modified (`<epoch ms>\n<body>`), so a hit costs no query; the ETag is the
 * hash of what is stored, so it changes whenever the body or the date does. @fastify/etag answers
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
  let cached = cache.get(key);
  reply.header('x-cache', cached ? 'hit' : 'miss');
  if (!cached) {
    const generation = cache.generation();
    const { body, tags, lastModified } = await produce();
    cached = cache.set(key, `${lastModified ? lastModified.getTime() : ''}\n${body}`, tags, generation);
  }
  const newline = cached.body.indexOf(10);
  const stamp = cached.body.subarray(0, newline).toString();
  const body = cached.body.subarray(newline + 1);
  reply.header('etag', cached.etag).type(contentType);
  if (stamp) {
    const lastModified = new Date(Number(stamp));
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
