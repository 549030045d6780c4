import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../http/errors.js';

/** Address ranges a webhook may not reach unless the operator allow-lists them. */
const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const BLOCKED_V6: [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (incl. fd00:ec2::254, a cloud metadata address)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const blocked = new BlockList();
for (const [net, prefix] of BLOCKED_V4) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of BLOCKED_V6) blocked.addSubnet(net, prefix, 'ipv6');

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach an IPv4 host: IPv4-mapped
 * (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002:AABB:CCDD::/48`).
 */
export function embeddedIPv4(address: string): string | null {
  if (isIP(address) !== 6) return null;
  const words = expandIPv6(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return null;
}

/** The eight 16-bit words of an IPv6 address (any textual form, dotted tail included). */
function expandIPv6(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const middle = tail !== undefined ? Array(8 - left.length - right.length).fill('0') : [];
  return [...left, ...middle, ...right].map((w) => parseInt(w, 16));
}

/** Why an address may not be reached, or null when it is a public unicast address. */
export function blockedReason(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'is not an IP address';
  const v4 = family === 4 ? address : embeddedIPv4(address);
  if (v4 !== null && blocked.check(v4, 'ipv4')) return `is a private, loopback, link-local or reserved address (${address})`;
  if (family === 6 && blocked.check(address, 'ipv6')) return `is a private, loopback, link-local or reserved address (${address})`;
  return null;
}

/** The operator's allow-list (WEBHOOK_ALLOWED_HOSTS): host names, addresses and CIDR ranges. */
export class AllowList {
  private readonly names = new Set<string>();
  private readonly ranges = new BlockList();

  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      const entry = raw.toLowerCase().replace(/^\[(.*)\]$/, '$1');
      const [net, prefix] = entry.split('/');
      const family = isIP(net!);
      if (family === 0) this.names.add(entry);
      else if (prefix !== undefined) this.ranges.addSubnet(net!, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
      else this.ranges.addAddress(net!, family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  hasName(hostname: string): boolean {
    return this.names.has(hostname.toLowerCase());
  }

  hasAddress(address: string): boolean {
    const family = isIP(address);
    if (family === 0) return false;
    if (this.ranges.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
    const v4 = family === 6 ? embeddedIPv4(address) : null;
    return v4 !== null && this.ranges.check(v4, 'ipv4');
  }
}

export interface ResolvedTarget {
  url: URL;
  /** The host name as the URL gives it (without IPv6 brackets). */
  hostname: string;
  /** Every address the name resolved to, all checked; the request connects to the first. */
  addresses: { address: string; family: 4 | 6 }[];
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

const refuse = (message: string) => new AppError('invalid_request', message, [{ in: 'body', parameter: 'url', message }]);

/**
 * Checks a webhook URL and resolves its host: https only (http for allow-listed hosts), no
 * credentials, and every address public unless allow-listed. Called at registration and before
 * every delivery, whose connection then goes to an address checked here (no second lookup a
 * rebinding DNS server could answer differently).
 */
export async function checkWebhookUrl(raw: string, allow: AllowList, resolve: Resolver = systemResolver): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('URL is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('URL must use https');
  if (url.username || url.password) throw refuse('URL must not contain a user name or password');
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const namedAllowed = allow.hasName(hostname);
  const literal = isIP(hostname) !== 0;

  let addresses: { address: string; family: 4 | 6 }[];
  if (literal) {
    addresses = [{ address: hostname, family: isIP(hostname) as 4 | 6 }];
  } else {
    try {
      addresses = (await resolve(hostname)).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
    } catch {
      throw refuse(`URL host ${hostname} does not resolve`);
    }
    if (addresses.length === 0) throw refuse(`URL host ${hostname} does not resolve`);
  }

  if (!namedAllowed) {
    for (const { address } of addresses) {
      if (allow.hasAddress(address)) continue;
      const reason = blockedReason(address);
      if (reason) {
        throw refuse(
          literal
            ? `URL host ${reason}; webhooks may only reach public addresses`
            : `URL host ${hostname} resolves to an address that ${reason}; webhooks may only reach public addresses`,
        );
      }
    }
  }
  const allAllowed = namedAllowed || addresses.every((a) => allow.hasAddress(a.address));
  if (url.protocol === 'http:' && !allAllowed) throw refuse('URL must use https (plain http only for hosts in WEBHOOK_ALLOWED_HOSTS)');
  return { url, hostname, addresses };
}
