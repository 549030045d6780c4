import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { AllowList, blockedReason, checkWebhookUrl, embeddedIPv4s, type Resolver } from './ssrf.js';

const none = new AllowList([]);
/** A DNS answer of our choosing: the resolver is the one external dependency here. */
const answers =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const list = table[hostname];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(400);
  return error as AppError;
}

describe('blockedReason', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    '2001:db8::1',
    // Missed before: local-use NAT64 (RFC 8215), where the operator chooses where the IPv4 address sits.
    '64:ff9b:1::a9fe:a9fe',
    '64:ff9b:1:a9fe:a9:fe00::',
    '64:ff9b:1:7f00:0:100::',
    // Missed before: IPv4-translated (RFC 6145, ::ffff:0:a.b.c.d).
    '::ffff:0:7f00:1',
    '::ffff:0:a9fe:a9fe',
    '::ffff:0:10.0.0.1',
    // Teredo towards a loopback client (bits inverted) or a private server.
    '2001:0:5db8:d822::80ff:fffe',
    '2001:0:a00:1::f7f7:f7f7',
    // IPv4-compatible (deprecated), unassigned and special IPv6 space.
    '::7f00:1',
    '::a9fe:a9fe',
    '4000::1',
    'fec0::1',
    '100::1',
    '2001:2::1',
    '3fff::1',
    '5f00::1',
  ])('refuses %s', (address) => {
    expect(blockedReason(address)).toMatch(/private, loopback, link-local or reserved/);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '::ffff:93.184.216.34',
    '::ffff:0:5db8:d822',
    '64:ff9b::5db8:d822',
    '2002:5db8:d822::1',
    '2001:0:5db8:d822::f7f7:f7f7',
  ])('lets %s through', (address) => {
    expect(blockedReason(address)).toBeNull();
  });

  it('reads the IPv4 addresses inside mapped, translated, NAT64, 6to4 and Teredo addresses', () => {
    expect(embeddedIPv4s('::ffff:127.0.0.1')).toEqual(['127.0.0.1']);
    expect(embeddedIPv4s('::FFFF:a9fe:a9fe')).toEqual(['169.254.169.254']);
    expect(embeddedIPv4s('::ffff:0:a9fe:a9fe')).toEqual(['169.254.169.254']);
    expect(embeddedIPv4s('64:ff9b::0a00:0001')).toEqual(['10.0.0.1']);
    expect(embeddedIPv4s('2002:c0a8:0101::1')).toEqual(['192.168.1.1']);
    expect(embeddedIPv4s('2001:0:5db8:d822::80ff:fffe')).toEqual(['93.184.216.34', '127.0.0.1']);
    expect(embeddedIPv4s('2606:4700::1')).toEqual([]);
    expect(embeddedIPv4s('10.0.0.1')).toEqual([]);
  });
});

describe('blockedReason, for any address', () => {
  const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
  const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
  /** Every IPv6 form that leads to the IPv4 address a.b.c.d. */
  const wrappings = ([a, b, c, d]: [number, number, number, number]) => [
    `::ffff:${a}.${b}.${c}.${d}`,
    `::ffff:${hex(a, b)}:${hex(c, d)}`,
    `::ffff:0:${a}.${b}.${c}.${d}`,
    `64:ff9b::${hex(a, b)}:${hex(c, d)}`,
    `2002:${hex(a, b)}:${hex(c, d)}::1`,
    `2001:0:${hex(a, b)}:${hex(c, d)}::f7f7:f7f7`, // Teredo server a.b.c.d, client 8.8.8.8
    `2001:0:808:808::${hex(a ^ 255, b ^ 255)}:${hex(c ^ 255, d ^ 255)}`, // Teredo server 8.8.8.8, client a.b.c.d
  ];

  it('an IPv4 address wrapped in IPv6 in any form is refused exactly when the address itself is', () => {
    fc.assert(
      fc.property(octets, (parts) => {
        const refused = blockedReason(parts.join('.')) !== null;
        for (const wrapped of wrappings(parts)) expect(blockedReason(wrapped) !== null, wrapped).toBe(refused);
      }),
      { numRuns: 2000 },
    );
  });

  it('private, loopback, link-local and CGNAT IPv4 addresses are refused, bare or wrapped', () => {
    const internal = fc.oneof(
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
    );
    fc.assert(
      fc.property(internal, (parts) => {
        expect(blockedReason(parts.join('.'))).not.toBeNull();
        for (const wrapped of wrappings(parts)) expect(blockedReason(wrapped), wrapped).not.toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('anything in local-use NAT64, unique local or link-local space is refused', () => {
    const word = fc.nat(0xffff).map((w) => w.toString(16));
    const words = (n: number) => fc.array(word, { minLength: n, maxLength: n }).map((w) => w.join(':'));
    fc.assert(
      fc.property(words(5), fc.nat(255), words(7), words(7), (rest5, byte, rest7a, rest7b) => {
        expect(blockedReason(`64:ff9b:1:${rest5}`)).not.toBeNull();
        expect(blockedReason(`fd${byte.toString(16).padStart(2, '0')}:${rest7a}`)).not.toBeNull();
        expect(blockedReason(`fe80:${rest7b}`)).not.toBeNull();
      }),
      { numRuns: 2000 },
    );
  });
});

describe('checkWebhookUrl', () => {
  const dns = answers({
    'hooks.example.com': ['93.184.216.34'],
    'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
    'internal.example.com': ['10.0.0.5'],
    'v6.example.com': ['2606:4700:4700::1111'],
    'mapped.example.com': ['::ffff:169.254.169.254'],
  });

  it('accepts an https URL whose every address is public, and keeps the addresses it checked', async () => {
    const target = await checkWebhookUrl('https://hooks.example.com/changelog', none, dns);
    expect(target.addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
    expect((await checkWebhookUrl('https://v6.example.com/', none, dns)).addresses[0]!.family).toBe(6);
  });

  it('refuses plain http, other schemes, credentials and unresolvable hosts, naming the problem', async () => {
    expect((await refusal(checkWebhookUrl('http://hooks.example.com/', none, dns))).message).toMatch(/must use https/);
    expect((await refusal(checkWebhookUrl('ftp://hooks.example.com/', none, dns))).message).toMatch(/must use https/);
    expect((await refusal(checkWebhookUrl('not a url', none, dns))).message).toMatch(/not an absolute URL/);
    expect((await refusal(checkWebhookUrl('https://user:pw@hooks.example.com/', none, dns))).message).toMatch(/user name or password/);
    expect((await refusal(checkWebhookUrl('https://nowhere.example.com/', none, dns))).message).toMatch(/does not resolve to a public address/);
  });

  it('refuses private, loopback, link-local and metadata targets, by literal or by name', async () => {
    expect((await refusal(checkWebhookUrl('https://169.254.169.254/latest/meta-data', none, dns))).message).toMatch(/169\.254\.169\.254/);
    expect((await refusal(checkWebhookUrl('http://169.254.169.254/', none, dns))).message).toMatch(/private, loopback, link-local or reserved address \(169\.254\.169\.254\)/);
    expect((await refusal(checkWebhookUrl('https://[::1]:8443/', none, dns))).message).toMatch(/::1/);
    expect((await refusal(checkWebhookUrl('https://[::ffff:127.0.0.1]/', none, dns))).message).toMatch(/private, loopback/);
    // A name's refusal is the same as an unknown name's and names no address: the form is no DNS oracle.
    const internal = (await refusal(checkWebhookUrl('https://internal.example.com/', none, dns))).message;
    expect(internal).toBe((await refusal(checkWebhookUrl('https://nowhere.example.com/', none, dns))).message.replace('nowhere', 'internal'));
    expect(internal).not.toContain('10.0.0.5');
    expect((await refusal(checkWebhookUrl('https://mapped.example.com/', none, dns))).message).toMatch(/mapped\.example\.com/);
  });

  it('refuses a name with any private address among public ones (no betting on which one is used)', async () => {
    expect((await refusal(checkWebhookUrl('https://rebind.example.com/', none, dns))).message).toMatch(/rebind\.example\.com does not resolve to a public address/);
  });

  it('lets the operator allow-list addresses, ranges and names, which may then use http', async () => {
    const loopback = new AllowList(['127.0.0.1']);
    expect((await checkWebhookUrl('http://127.0.0.1:8080/hook', loopback, dns)).addresses[0]!.address).toBe('127.0.0.1');
    expect((await refusal(checkWebhookUrl('http://127.0.0.2/hook', loopback, dns))).message).toMatch(/127\.0\.0\.2/);
    expect((await refusal(checkWebhookUrl('http://hooks.example.com/hook', loopback, dns))).message).toMatch(/must use https/);
    expect((await refusal(checkWebhookUrl('https://127.0.0.2/hook', loopback, dns))).message).toMatch(/127\.0\.0\.2/);

    const range = new AllowList(['10.0.0.0/8']);
    expect((await checkWebhookUrl('https://internal.example.com/', range, dns)).addresses[0]!.address).toBe('10.0.0.5');
    expect((await refusal(checkWebhookUrl('https://rebind.example.com/', range, dns))).message).toMatch(/rebind\.example\.com does not resolve to a public address/);

    const named = new AllowList(['internal.example.com']);
    expect((await checkWebhookUrl('http://internal.example.com/', named, dns)).hostname).toBe('internal.example.com');
    // Allow-listing one name does not allow-list the address for other names.
    expect((await refusal(checkWebhookUrl('https://10.0.0.5/', named, dns))).message).toMatch(/10\.0\.0\.5/);
  });
});
