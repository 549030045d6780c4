import type { FastifyReply } from 'fastify';
import { markCacheable } from '../cache/fast-path.js';
import { Readable } from 'node:stream';
import { byteLength, type Body, type ResponseCache } from '../cache/response-cache.js';

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
  produce: () => Promise<{ tags: string[] } & ({ payload: unknown } | { serialized: Body; etag?: string })>,
): Promise<FastifyReply> {
  let cached = cache.get(key);
  reply.header('x-cache', cached ? 'hit' : 'miss');
  if (!cached) {
    const generation = cache.generation();
    const produced = await produce();
    cached =
      'serialized' in produced
        ? cache.set(key, produced.serialized, produced.tags, generation, produced.etag ? { etag: produced.etag } : {})
        : cache.set(key, String(reply.serialize(produced.payload)), produced.tags, generation);
  }
  markCacheable(reply.request, key, cached);
  reply.header('etag', cached.etag).type('application/json; charset=utf-8');
  if (!Array.isArray(cached.body)) return reply.send(cached.body);
  // A large body in pieces is sent 64 kB at a time: never one more copy of it whole in memory.
  const pieces = cached.body as readonly Buffer[];
  return reply.header('content-length', byteLength(pieces)).send(Readable.from(chunks(pieces, 64 * 1024), { objectMode: false }));
}

/** The pieces joined into chunks of about `size` bytes. */
function* chunks(pieces: readonly Buffer[], size: number): Generator<Buffer> {
  let from = 0;
  let bytes = 0;
  for (let i = 0; i < pieces.length; i++) {
    bytes += pieces[i]!.length;
    if (bytes >= size || i === pieces.length - 1) {
      yield Buffer.concat(pieces.slice(from, i + 1), bytes);
      from = i + 1;
      bytes = 0;
    }
  }
}
