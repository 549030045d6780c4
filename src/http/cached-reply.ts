import type { FastifyReply } from 'fastify';
import { markCacheable } from '../cache/fast-path.js';
import type { ResponseCache } from '../cache/response-cache.js';

/**
 * Answers from the response cache, or produces the payload, serializes it with the route's own
 * response schema (unless it comes serialized, by serializers compiled from the same schemas), and caches the bytes with their ETag. Either way the client gets the same
 * bytes and ETag; @fastify/etag turns a matching If-None-Match into a 304. `X-Cache` says which.
 */
export async function replyCached(
  reply: FastifyReply,
  cache: ResponseCache,
  key: string,
  produce: () => Promise<{ tags: string[] } & ({ payload: unknown } | { serialized: string })>,
): Promise<FastifyReply> {
  let cached = cache.get(key);
  reply.header('x-cache', cached ? 'hit' : 'miss');
  if (!cached) {
    const generation = cache.generation();
    const produced = await produce();
    const body = 'serialized' in produced ? produced.serialized : String(reply.serialize(produced.payload));
    cached = cache.set(key, body, produced.tags, generation);
  }
  markCacheable(reply.request, key, cached);
  return reply.header('etag', cached.etag).type('application/json; charset=utf-8').send(cached.body);
}
