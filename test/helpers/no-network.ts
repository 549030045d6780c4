import net from 'node:net';

/**
 * Any connection to a host that is not this machine fails the test that made it: tests talk only
 * to local databases and local fakes of external services.
 */
const LOCAL = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);
const originalConnect = net.Socket.prototype.connect;

net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
  const [first, second] = args;
  let host: string | undefined;
  let path: string | undefined;
  if (first && typeof first === 'object' && !Array.isArray(first)) {
    ({ host, path } = first as { host?: string; path?: string });
  } else if (typeof first === 'number') {
    host = typeof second === 'string' ? second : 'localhost';
  } else if (typeof first === 'string') {
    path = first;
  }
  if (!path && host !== undefined && !LOCAL.has(host) && !host.startsWith('127.')) {
    throw new Error(`Unplanned outbound network call to ${host} in a test`);
  }
  return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;
