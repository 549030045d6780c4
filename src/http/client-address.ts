import ipaddr from 'ipaddr.js';

/**
 * The bucket a client address counts in for limits. IPv4 addresses (also written IPv4-mapped) count
 * alone; an IPv6 address counts with its whole prefix, because one subscriber commonly holds a /64
 * (or a /56) and would otherwise get 2^64 fresh addresses, each with limits of its own.
 */
export function addressBucket(address: string | undefined, ipv6PrefixLength = 64): string {
  if (address === undefined || !ipaddr.isValid(address)) return address ?? 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray();
  for (let bit = ipv6PrefixLength; bit < 128; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6PrefixLength}`;
}
