import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** What a non-JSON response stores beside its body: Last-Modified and headers that depend on the content. */
export interface ResponseHead {
  lastModified?: number;
  headers?: Record<string, string>;
}

/** A response body: text, its UTF-8 bytes, or those bytes in pieces (a large body, sent in chunks, never copied whole). */
export type Body = string | Buffer | readonly Buffer[];

export interface CachedResponse {
  /** Encoded once when stored (sending a Buffer skips re-encoding it on every hit); as produced when not. */
  body: Body;
  etag: string;
  head?: ResponseHead;
}

/** What the fast path needs to answer a request for this response without the framework. */
export interface WireForm {
  /** Header names and values, flat (`[name, value, name, value…]`), without the per-request ones. */
  headers: readonly string[];
  /** The route pattern, for metrics. */
  route: string;
}

export interface StoredResponse extends CachedResponse {
  body: Buffer;
  tags: string[];
  wire?: WireForm;
}

type Stored = StoredResponse;

/** Distinct request URLs remembered for the fast path (bounded: any client can invent query strings). */
const MAX_URLS = 20_000;

export interface ResponseCacheOptions {
  enabled: boolean;
  maxBytes: number;
  /** Upper bound on an entry's life, a safety net behind change notifications. */
  ttlMs: number;
}

/** The hash of the body's UTF-8 bytes, preceded by its head's when it has one (a head can change alone). */
export function etagOf(body: Body, head?: ResponseHead): string {
  const hash = createHash('sha1');
  if (head) hash.update(`${JSON.stringify(head)}\n`);
  if (Array.isArray(body)) for (const piece of body) hash.update(piece);
  else hash.update(body as string | Buffer);
  return `"${hash.digest('base64url')}"`;
}

export const byteLength = (body: Body): number =>
  Array.isArray(body) ? body.reduce((n: number, piece: Buffer) => n + piece.length, 0) : Buffer.byteLength(body as string | Buffer);

/**
 * The tag of a response that shows a project (its entries, releases or page settings): the payload
 * the database's triggers send when any of those change (migrations/0005, 0007).
 */
export const projectTag = (projectId: string): string => `project:${projectId}`;

/**
 * Serialized responses with their ETag, keyed by route and normalized parameters and tagged
 * with what they show (`project:<id>`, `projects`, `keys`). A change notification drops every
 * response carrying its tag.
 *
 * A read that started before an invalidation must not store what it read: it may be the old
 * state. Each read takes the generation first, and `set` stores only if no invalidation happened
 * since. While the change feed is down nothing is cached, since invalidations could be missed.
 */
export class ResponseCache {
  readonly #lru: LRUCache<string, Stored>;
  readonly #byTag = new Map<string, Set<string>>();
  /** Raw request URL → cache key, for URLs the framework has already validated and answered. */
  readonly #byUrl = new LRUCache<string, string>({ max: MAX_URLS });
  #generation = 0;
  #live = false;

  constructor(private readonly options: ResponseCacheOptions) {
    this.#lru = new LRUCache<string, Stored>({
      maxSize: options.maxBytes,
      sizeCalculation: (value, key) => value.body.length + key.length + 64,
      ttl: options.ttlMs,
      dispose: (value, key) => {
        for (const tag of value.tags) {
          const keys = this.#byTag.get(tag);
          keys?.delete(key);
          if (keys?.size === 0) this.#byTag.delete(tag);
        }
      },
    });
  }

  /** Whether responses are being cached (enabled, and the change feed is live). */
  get active(): boolean {
    return this.options.enabled && this.#live;
  }

  get size(): number {
    return this.#lru.size;
  }

  /** The change feed went live or was lost; either way, what is stored may be stale. */
  setLive(live: boolean): void {
    this.#live = live;
    this.clear();
  }

  generation(): number {
    return this.#generation;
  }

  get(key: string): CachedResponse | undefined {
    return this.active ? this.#lru.get(key) : undefined;
  }

  /**
   * Stores a response read at `generation` (unless invalidated since) and returns it with its ETag
   * (`etagOf`), or with `etag` when the caller already hashed the same body (one read shared by
   * several requests hashes once).
   */
  set(
    key: string,
    serialized: Body,
    tags: string[],
    generation: number,
    { head, etag = etagOf(serialized, head) }: { head?: ResponseHead; etag?: string } = {},
  ): CachedResponse {
    const storable = this.active && generation === this.#generation && byteLength(serialized) <= this.options.maxBytes / 4;
    // Not stored: no copy into a Buffer that would only be garbage (large bodies fragment the native heap).
    if (!storable) return { body: serialized, etag, ...(head ? { head } : {}) };
    const body = typeof serialized === 'string' ? Buffer.from(serialized) : Array.isArray(serialized) ? Buffer.concat(serialized) : (serialized as Buffer);
    const value: Stored = { body, etag, tags, ...(head ? { head } : {}) };
    this.#lru.set(key, value);
    for (const tag of tags) {
      let keys = this.#byTag.get(tag);
      if (!keys) this.#byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    return value;
  }

  /** Whether `response` is what the cache holds under `key` (it was stored, and is still valid). */
  holds(key: string, response: CachedResponse): boolean {
    return this.active && this.#lru.peek(key) === response;
  }

  /**
   * Lets the fast path answer `url` with `response` from now on, with these headers. Only if
   * `response` is what the cache still holds under `key`: a response read before an invalidation
   * was never stored, and must not become reachable this way either.
   */
  remember(url: string, key: string, response: CachedResponse, wire: WireForm): void {
    if (!this.holds(key, response)) return;
    const stored = this.#lru.peek(key)!;
    stored.wire = wire;
    this.#byUrl.set(url, key);
  }

  /** The response for a raw request URL that the framework has answered before, while it is still valid. */
  lookup(url: string): (StoredResponse & { wire: WireForm }) | undefined {
    if (!this.active) return undefined;
    const key = this.#byUrl.get(url);
    if (key === undefined) return undefined;
    const stored = this.#lru.get(key);
    if (!stored?.wire) {
      // Invalidated or evicted since: the next request goes through the framework and re-learns it.
      this.#byUrl.delete(url);
      return undefined;
    }
    return stored as StoredResponse & { wire: WireForm };
  }

  invalidate(tag: string): void {
    this.#generation++;
    const keys = this.#byTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) this.#lru.delete(key);
    this.#byTag.delete(tag);
  }

  clear(): void {
    this.#generation++;
    this.#lru.clear();
    this.#byTag.clear();
    this.#byUrl.clear();
  }
}
