import { lookup as dnsLookup, Resolver as DnsResolver } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const v4 = (hi: number, lo: number) => ipaddr.fromByteArray([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]) as ipaddr.IPv4;
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The IPv4 addresses an IPv6 address leads to: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated
 * (`::ffff:0:a.b.c.d`), well-known NAT64 (`64:ff9b::/96`), 6to4 (`2002:AABB:CCDD::/48`) and Teredo
 * (server and client). Ranges and names from ipaddr.js, not a hand-kept list.
 */
export function embeddedIPv4s(address: string): string[] {
  if (isIP(address) !== 6) return [];
  return embedded(ipaddr.IPv6.parse(address)).map(String);
}

function embedded(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const w = address.parts;
  switch (address.range() as string) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4(w[6]!, w[7]!)];
    case 'rfc6052':
      // Local-use NAT64 (64:ff9b:1::/48) puts the IPv4 address where its operator chose: not read, refused.
      return address.match(WELL_KNOWN_NAT64) ? [v4(w[6]!, w[7]!)] : [];
    case '6to4':
      return [v4(w[1]!, w[2]!)];
    case 'teredo':
      // 2001:0:server:server:flags:port:~client:~client (RFC 4380).
      return [v4(w[2]!, w[3]!), v4(w[6]! ^ 0xffff, w[7]! ^ 0xffff)];
    default:
      return [];
  }
}

/** True for a public unicast address: IPv4 'unicast', IPv6 'unicast' within 2000::/3, or a form that only leads to such IPv4 addresses. */
function isPublic(address: Address): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  const inner = embedded(v6);
  if (inner.length) return inner.every((a) => a.range() === 'unicast');
  // ::a.b.c.d (deprecated IPv4-compatible) is 'unicast' to the library, and nothing outside 2000::/3 is assigned.
  if (v6.match(IPV4_COMPATIBLE)) return false;
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/** Why an address may not be reached, or null when it is a public unicast address. */
export function blockedReason(address: string): string | null {
  if (isIP(address) === 0) return 'is not an IP address';
  if (isPublic(ipaddr.parse(address))) return null;
  return `is a private, loopback, link-local or reserved address (${address})`;
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
    const inner = embeddedIPv4s(address);
    return inner.length > 0 && inner.every((a) => this.ranges.check(a, 'ipv4'));
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

/** The operating system's lookup (/etc/hosts, then DNS): only for names the operator listed. */
const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Longest a lookup of a name someone gave (a webhook or repository URL) may take, both address families, every try. */
export const LOOKUP_BUDGET_MS = 5_000;

/**
 * Looks names up in DNS (the servers of /etc/resolv.conf, or `servers`) within LOOKUP_BUDGET_MS, IPv4
 * addresses first. Names users give are resolved this way, never by the system's lookup: that one
 * runs getaddrinfo on libuv's thread pool (4 threads, shared with file access and every scrypt), where a
 * name whose DNS server never answers holds a thread for the resolver's timeouts, so a few requests
 * naming such hosts at once would stall sign-ins, file access and every other lookup of the process.
 * Here the queries are sockets on the event loop, cancelled at the budget.
 */
export function dnsResolver(servers?: readonly string[]): Resolver {
  return async (hostname) => {
    const resolver = new DnsResolver({ timeout: 2_000, tries: 2 });
    if (servers) resolver.setServers(servers);
    const budget = setTimeout(() => resolver.cancel(), LOOKUP_BUDGET_MS);
    try {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      const addresses = [
        ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (addresses.length === 0) throw v4.status === 'rejected' ? v4.reason : new Error(`${hostname} has no address`);
      return addresses;
    } finally {
      clearTimeout(budget);
    }
  };
}

const untrustedResolver = dnsResolver();

const refuse = (message: string) => new AppError('invalid_request', message, [{ in: 'body', parameter: 'url', message }]);
/**
 * One answer for a name that does not resolve and a name that resolves to a refused address, naming
 * no address: otherwise the form is a lookup tool for the server's internal DNS.
 */
const unreachableName = (hostname: string) => refuse(`URL host ${hostname} does not resolve to a public address; webhooks may only reach public addresses`);

/**
 * Checks a webhook URL and resolves its host: https only (http for allow-listed hosts), no
 * credentials, and every address public unless allow-listed. Called at registration and before
 * every delivery, whose connection then goes to an address checked here (no second lookup a
 * rebinding DNS server could answer differently).
 */
export async function checkWebhookUrl(raw: string, allow: AllowList, resolve?: Resolver): Promise<ResolvedTarget> {
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
      // A name the operator allow-listed may live in /etc/hosts; any other is public DNS's.
      const lookup = resolve ?? (namedAllowed ? systemResolver : untrustedResolver);
      addresses = (await lookup(hostname)).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
    } catch {
      throw unreachableName(hostname);
    }
    if (addresses.length === 0) throw unreachableName(hostname);
  }

  if (!namedAllowed) {
    for (const { address } of addresses) {
      if (allow.hasAddress(address)) continue;
      const reason = blockedReason(address);
      if (reason) {
        throw literal ? refuse(`URL host ${reason}; webhooks may only reach public addresses`) : unreachableName(hostname);
      }
    }
  }
  const allAllowed = namedAllowed || addresses.every((a) => allow.hasAddress(a.address));
  if (url.protocol === 'http:' && !allAllowed) throw refuse('URL must use https (plain http only for hosts in WEBHOOK_ALLOWED_HOSTS)');
  return { url, hostname, addresses };
}
