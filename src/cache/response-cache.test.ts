import { describe, expect, it } from 'vitest';
import { etagOf, ResponseCache } from './response-cache.js';

const make = (enabled = true) => {
  const cache = new ResponseCache({ enabled, maxBytes: 1024 * 1024, ttlMs: 60_000 });
  cache.setLive(true);
  return cache;
};

describe('ResponseCache', () => {
  it('stores serialized bodies with a content ETag', () => {
    const cache = make();
    const stored = cache.set('a', '{"x":1}', ['project:1'], cache.generation());
    expect(stored.etag).toBe(etagOf('{"x":1}'));
    expect(cache.get('a')).toMatchObject({ etag: stored.etag, tags: ['project:1'] });
    expect(cache.get('a')?.body.toString()).toBe('{"x":1}');
    expect(etagOf('{"x":2}')).not.toBe(stored.etag);
  });

  it('drops every response carrying an invalidated tag, and only those', () => {
    const cache = make();
    cache.set('p1-list', 'a', ['project:1'], cache.generation());
    cache.set('p1-entry', 'b', ['project:1'], cache.generation());
    cache.set('p2-list', 'c', ['project:2'], cache.generation());
    cache.set('projects', 'd', ['projects', 'project:1', 'project:2'], cache.generation());
    cache.invalidate('project:1');
    expect(cache.get('p1-list')).toBeUndefined();
    expect(cache.get('p1-entry')).toBeUndefined();
    expect(cache.get('projects')).toBeUndefined();
    expect(cache.get('p2-list')?.body.toString()).toBe('c');
  });

  it('does not store what a read saw if an invalidation happened during the read', () => {
    const cache = make();
    const generation = cache.generation();
    cache.invalidate('project:1'); // the change commits while the read is in flight
    const returned = cache.set('p1-list', 'old', ['project:1'], generation);
    expect(returned.body.toString()).toBe('old');
    expect(cache.get('p1-list')).toBeUndefined();
  });

  it('caches nothing while the change feed is down, and forgets everything when it drops', () => {
    const cache = make();
    cache.set('a', 'x', ['projects'], cache.generation());
    cache.setLive(false);
    expect(cache.active).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', 'y', ['projects'], cache.generation());
    cache.setLive(true);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
  });

  it('caches nothing when disabled', () => {
    const cache = make(false);
    cache.set('a', 'x', [], cache.generation());
    expect(cache.get('a')).toBeUndefined();
  });

  it('evicts least recently used responses past its byte budget', () => {
    const cache = new ResponseCache({ enabled: true, maxBytes: 4096, ttlMs: 60_000 });
    cache.setLive(true);
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, 'x'.repeat(500), ['t'], cache.generation());
    expect(cache.size).toBeLessThan(20);
    expect(cache.get('k19')).toBeDefined();
    expect(cache.get('k0')).toBeUndefined();
  });
});
