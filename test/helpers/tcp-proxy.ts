import net from 'node:net';

export type ProxyMode = 'open' | 'refuse' | 'stall';

export interface TcpProxy {
  port: number;
  /** open: forward; refuse: drop every connection at once; stall: accept and swallow, answer nothing. */
  setMode(mode: ProxyMode): void;
  close(): Promise<void>;
}

/**
 * A local TCP proxy in front of a real server (PostgreSQL) that a test can cut and restore, to see how
 * the service behaves when its database goes away and comes back. Changing the mode drops every
 * connection made before, as a real outage would.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'open';
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const server = net.createServer((client) => {
    track(client);
    if (mode === 'refuse') return void client.destroy();
    if (mode === 'stall') return void client.resume();
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    setMode(next) {
      mode = next;
      if (next === 'stall') {
        // Existing links go silent: bytes are swallowed in both directions, nothing is closed.
        for (const socket of sockets) {
          socket.unpipe();
          socket.removeAllListeners('data');
          socket.resume();
        }
        return;
      }
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
