import net from 'node:net';
import { describe, expect, it } from 'vitest';

// The guard every test file runs (test/helpers/no-network.ts): tests reach this machine only.
describe('unplanned outbound network calls in tests', () => {
  it('fail for another host, however the connection is made', async () => {
    expect(() => net.connect(443, '93.184.216.34')).toThrow(/Unplanned outbound network call to 93\.184\.216\.34/);
    expect(() => net.createConnection({ host: 'example.com', port: 80 })).toThrow(/Unplanned outbound network call to example\.com/);
    expect(() => new net.Socket().connect({ host: '10.0.0.1', port: 80 })).toThrow(/Unplanned outbound/);
    const refused = await fetch('http://192.0.2.1:8080/').catch((error: Error) => error.cause);
    expect(String(refused)).toMatch(/Unplanned outbound network call to 192\.0\.2\.1/);
  });

  it('let connections to this machine through', async () => {
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      for (const host of ['127.0.0.1', 'localhost']) {
        const socket = net.connect(port, host);
        await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
        socket.destroy();
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
