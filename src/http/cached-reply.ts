import type { FastifyReply } from 'fastify';
import { markCacheable } from '../cache/fast-path.js';
import type { ResponseCache } from '../cache/response-cache.js';

/**
 * Answers from the response cache, or produces the payload, serializes it with the route's own
 * response schema (unless it comes serialized, by serializers compiled from the same schemas, perhaps
 * with its ETag), and caches the bytes with their ETag. Either way the client gets the same
 * bytes and ETag; @fastify/etag turns a matching If-None-Match into a 304. `X-Cache` says which.
 */
export async function replyCached(
  reply: FastifyReply,
  cache: ResponseCache,
  key: string,
  produce: () => Promise<{ tags: string[] } & ({ payload: unknown } | { serialized: string | Buffer; etag?: string })>,
): Promise<FastifyReply> {
  let cached = cache.get(key);
  reply.header('x-cache', cached ? 'hit' : 'miss');
  if (!cached) {
    const generation = cache.generation();
    const produced = await produce();
    cached =
      'serialized' in produced
        ? cache.set(key, produced.serialized, produced.tags, generation, undefined, produced.etag)
        : cache.set(key, String(reply.serialize(produced.payload)), produced.tags, generation);
  }
  markCacheable(reply.request, key, cached);
  return reply.header('etag', cached.etag).type('application/json; charset=utf-8').send(cached.body);
}
