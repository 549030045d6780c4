import { describe, expect, it } from 'vitest';
import { displayPrefix, generateKey, hashKey, isWellFormedKey, KEY_LENGTH, redactKeys } from './key-format.js';

describe('API key format', () => {
  it('generates distinct, well-formed keys with the clk_ prefix', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) {
      expect(key).toMatch(/^clk_[0-9A-Za-z]{39}$/);
      expect(key).toHaveLength(KEY_LENGTH);
      expect(isWellFormedKey(key)).toBe(true);
    }
  });

  it('spreads randomness over the random part (its leading digit only spans 0-2: 192 bits < 62^33)', () => {
    const keys = Array.from({ length: 400 }, generateKey);
    for (let i = 5; i < 4 + 33; i++) {
      expect(new Set(keys.map((k) => k[i])).size).toBeGreaterThan(20);
    }
  });

  it('rejects any single-character typo through the checksum', () => {
    const key = generateKey();
    let rejected = 0;
    let tried = 0;
    for (let i = 4; i < key.length; i++) {
      for (const replacement of ['0', 'a', 'Z']) {
        if (key[i] === replacement) continue;
        tried++;
        if (!isWellFormedKey(key.slice(0, i) + replacement + key.slice(i + 1))) rejected++;
      }
    }
    expect(rejected).toBe(tried);
  });

  it('rejects wrong prefixes, lengths and characters', () => {
    const key = generateKey();
    for (const bad of ['', 'clk_', key.slice(0, -1), `${key}x`, key.replace('clk_', 'clx_'), `${key.slice(0, -1)}!`]) {
      expect(isWellFormedKey(bad)).toBe(false);
    }
  });

  it('hashes with SHA-256 and shows only a short prefix', () => {
    const key = generateKey();
    expect(hashKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(key)).not.toContain(key.slice(4, 20));
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
  });

  it('masks keys anywhere in a text', () => {
    const key = generateKey();
    expect(redactKeys(`/v1/x?k=${key}&other=${key}`)).toBe('/v1/x?k=clk_[redacted]&other=clk_[redacted]');
    expect(redactKeys('/v1/changelog/clk-docs')).toBe('/v1/changelog/clk-docs');
  });
});
