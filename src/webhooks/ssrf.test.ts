import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import { AllowList, blockedReason, checkWebhookUrl, embeddedIPv4, type Resolver } from './ssrf.js';

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
  ])('refuses %s', (address) => {
    expect(blockedReason(address)).toMatch(/private, loopback, link-local or reserved/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])('lets %s through', (address) => {
    expect(blockedReason(address)).toBeNull();
  });

  it('reads the IPv4 address inside mapped, NAT64 and 6to4 addresses', () => {
    expect(embeddedIPv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::FFFF:a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIPv4('64:ff9b::0a00:0001')).toBe('10.0.0.1');
    expect(embeddedIPv4('2002:c0a8:0101::1')).toBe('192.168.1.1');
    expect(embeddedIPv4('2606:4700::1')).toBeNull();
    expect(embeddedIPv4('10.0.0.1')).toBeNull();
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
    expect((await refusal(checkWebhookUrl('https://nowhere.example.com/', none, dns))).message).toMatch(/does not resolve/);
  });

  it('refuses private, loopback, link-local and metadata targets, by literal or by name', async () => {
    expect((await refusal(checkWebhookUrl('https://169.254.169.254/latest/meta-data', none, dns))).message).toMatch(/169\.254\.169\.254/);
    expect((await refusal(checkWebhookUrl('http://169.254.169.254/', none, dns))).message).toMatch(/private, loopback, link-local or reserved address \(169\.254\.169\.254\)/);
    expect((await refusal(checkWebhookUrl('https://[::1]:8443/', none, dns))).message).toMatch(/::1/);
    expect((await refusal(checkWebhookUrl('https://[::ffff:127.0.0.1]/', none, dns))).message).toMatch(/private, loopback/);
    expect((await refusal(checkWebhookUrl('https://internal.example.com/', none, dns))).message).toMatch(/internal\.example\.com resolves to .*10\.0\.0\.5/);
    expect((await refusal(checkWebhookUrl('https://mapped.example.com/', none, dns))).message).toMatch(/mapped\.example\.com/);
  });

  it('refuses a name with any private address among public ones (no betting on which one is used)', async () => {
    expect((await refusal(checkWebhookUrl('https://rebind.example.com/', none, dns))).message).toMatch(/127\.0\.0\.1/);
  });

  it('lets the operator allow-list addresses, ranges and names, which may then use http', async () => {
    const loopback = new AllowList(['127.0.0.1']);
    expect((await checkWebhookUrl('http://127.0.0.1:8080/hook', loopback, dns)).addresses[0]!.address).toBe('127.0.0.1');
    expect((await refusal(checkWebhookUrl('http://127.0.0.2/hook', loopback, dns))).message).toMatch(/127\.0\.0\.2/);
    expect((await refusal(checkWebhookUrl('http://hooks.example.com/hook', loopback, dns))).message).toMatch(/must use https/);
    expect((await refusal(checkWebhookUrl('https://127.0.0.2/hook', loopback, dns))).message).toMatch(/127\.0\.0\.2/);

    const range = new AllowList(['10.0.0.0/8']);
    expect((await checkWebhookUrl('https://internal.example.com/', range, dns)).addresses[0]!.address).toBe('10.0.0.5');
    expect((await refusal(checkWebhookUrl('https://rebind.example.com/', range, dns))).message).toMatch(/127\.0\.0\.1/);

    const named = new AllowList(['internal.example.com']);
    expect((await checkWebhookUrl('http://internal.example.com/', named, dns)).hostname).toBe('internal.example.com');
    // Allow-listing one name does not allow-list the address for other names.
    expect((await refusal(checkWebhookUrl('https://10.0.0.5/', named, dns))).message).toMatch(/10\.0\.0\.5/);
  });
});
