import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface CachedResponse {
  /** Encoded once: sending a Buffer skips re-encoding the string on every response. */
  body: Buffer;
  etag: string;
}

interface Stored extends CachedResponse {
  tags: string[];
}

export interface ResponseCacheOptions {
  enabled: boolean;
  maxBytes: number;
  /** Upper bound on an entry's life, a safety net behind change notifications. */
  ttlMs: number;
}

export function etagOf(body: Buffer | string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

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

  /** Stores a response read at `generation` (unless invalidated since) and returns it with its ETag. */
  set(key: string, serialized: string, tags: string[], generation: number): CachedResponse {
    const body = Buffer.from(serialized);
    const value: Stored = { body, etag: etagOf(body), tags };
    if (this.active && generation === this.#generation && body.length <= this.options.maxBytes / 4) {
      this.#lru.set(key, value);
      for (const tag of tags) {
        let keys = this.#byTag.get(tag);
        if (!keys) this.#byTag.set(tag, (keys = new Set()));
        keys.add(key);
      }
    }
    return value;
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
  }
}
