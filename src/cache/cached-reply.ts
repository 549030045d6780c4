import type { FastifyReply, FastifyRequest } from 'fastify';
import { markCacheable } from './fast-path.js';
import { Readable } from 'node:stream';
import { byteLength, type Body, type ResponseCache } from './response-cache.js';
import { isPublicCache } from '../http/plugins/route-kind.js';

/**
 * The response cache and the fast path answer anyone who asks for the same URL, so only a route that
 * declared `config: { publicCache: true }` (which start-up refuses on routes needing credentials) may
 * put an answer there. A programming error, not a client's: it fails loudly.
 */
export function assertPublicCache(request: FastifyRequest): void {
  if (!isPublicCache(request.routeOptions.config)) {
    throw new Error(`${request.method} ${request.routeOptions.url} did not declare config.publicCache: its answers must not be cached`);
  }
}

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
  assertPublicCache(reply.request);
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
  return sendJson(reply, cached.body, cached.etag);
}

/** Sends serialized JSON with its ETag (@fastify/etag answers a matching If-None-Match with 304). */
export function sendJson(reply: FastifyReply, body: Body, etag: string): FastifyReply {
  reply.header('etag', etag).type('application/json; charset=utf-8');
  if (!Array.isArray(body)) return reply.send(body);
  // A large body in pieces is sent 64 kB at a time: never one more copy of it whole in memory.
  const pieces = body as readonly Buffer[];
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
