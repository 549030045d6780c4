import { describe, expect, it } from 'vitest';
import { addressBucket } from './client-address.js';

describe('addressBucket', () => {
  it('keeps an IPv4 address as it is, also written IPv4-mapped', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('puts every address of one IPv6 /64 (or the prefix asked for) in one bucket', () => {
    const a = addressBucket('2001:db8:1:2:aaaa::1');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(a);
    expect(addressBucket('2001:db8:1:3::1')).not.toBe(a);
    expect(addressBucket('2001:db8:1:2ff::1', 56)).toBe(addressBucket('2001:db8:1:200::1', 56));
    expect(addressBucket('2001:db8:1:2ff::1', 56)).toBe('2001:db8:1:200::/56');
  });

  it('passes anything that is not an address through unchanged', () => {
    expect(addressBucket('not-an-ip')).toBe('not-an-ip');
    expect(addressBucket(undefined)).toBe('unknown');
  });
});
