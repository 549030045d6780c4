// Names users give (webhook and repository URLs) are looked up in DNS within LOOKUP_BUDGET_MS, on the
// event loop: a DNS server that never answers costs the request that named it, and holds none of
// libuv's four threads (file access, scrypt of sign-ins, the system's own lookups). The system's
// getaddrinfo ran there, one thread per lookup for the resolver's timeouts.
import { pbkdf2, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AllowList, checkWebhookUrl, dnsResolver, LOOKUP_BUDGET_MS } from './ssrf.js';

let server: Socket;
let servers: string[];
const asked: string[] = [];

/** The question's name and where the question ends. */
function question(query: Buffer): { name: string; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (query[at]! > 0) {
    labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString());
    at += 1 + query[at]!;
  }
  return { name: labels.join('.'), end: at + 5 };
}

/** A local DNS server: hooks.example.com has 93.184.216.34; names under silent.example get no answer, ever. */
beforeAll(async () => {
  server = createSocket('udp4');
  server.on('message', (query, peer) => {
    const { name, end } = question(query);
    asked.push(name);
    if (name.endsWith('silent.example')) return;
    const type = query.readUInt16BE(end - 4);
    const a = name === 'hooks.example.com' && type === 1;
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(a || name === 'hooks.example.com' ? 0x8180 : 0x8183, 2); // NOERROR, or NXDOMAIN
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(a ? 1 : 0, 6);
    const answer = a ? Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 93, 184, 216, 34]) : Buffer.alloc(0);
    server.send(Buffer.concat([header, query.subarray(12, end), answer]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
  servers = [`127.0.0.1:${server.address().port}`];
});

afterAll(() => server?.close());

describe('DNS lookups of names users give', () => {
  it('asks DNS, not the system lookup', async () => {
    expect(await dnsResolver(servers)('hooks.example.com')).toEqual([{ address: '93.184.216.34', family: 4 }]);
    await expect(dnsResolver(servers)('nowhere.example.com')).rejects.toThrow();
    expect(asked).toContain('hooks.example.com');
  });

  it('gives up on a DNS server that never answers within LOOKUP_BUDGET_MS, and keeps libuv\'s threads free meanwhile', async () => {
    const started = performance.now();
    // Four times the thread pool: with getaddrinfo each would hold a thread for as long as it waits.
    const lookups = Array.from({ length: 16 }, (_, i) => dnsResolver(servers)(`n${i}.silent.example`).then(
      () => 'answered',
      () => performance.now() - started,
    ));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Work that needs a thread of the pool: a file read and a key derivation.
    const poolStarted = performance.now();
    await Promise.all([readFile(new URL(import.meta.url)), promisify(pbkdf2)(randomBytes(16), randomBytes(16), 1_000, 32, 'sha256')]);
    expect(performance.now() - poolStarted).toBeLessThan(1_000);
    for (const ms of await Promise.all(lookups)) {
      expect(ms).not.toBe('answered');
      expect(ms).toBeLessThan(LOOKUP_BUDGET_MS + 2_000);
    }
  }, 20_000);

  it('resolves a webhook host the operator allow-listed by name as the system does (/etc/hosts), any other through DNS', async () => {
    const target = await checkWebhookUrl('http://localhost:9/hook', new AllowList(['localhost']));
    expect(target.addresses.map((a) => a.address)).toContain('127.0.0.1');
  });
});
