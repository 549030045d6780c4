import net from 'node:net';

/**
 * Any connection to a host that is not this machine fails the test that made it: tests talk only
 * to local databases and local fakes of external services.
 */
const LOCAL = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);
const PATCHED = Symbol.for('changelog.test.no-network');
// Test files that share a worker (isolate: false) run this setup file each: patch once.
const patched = (net.Socket.prototype.connect as unknown as Record<symbol, boolean>)[PATCHED] === true;
const originalConnect = net.Socket.prototype.connect;

if (!patched) net.Socket.prototype.connect = Object.assign(function connect(this: net.Socket, ...args: unknown[]) {
  // net.connect(), http and fetch hand the socket their arguments already normalized: [options, callback].
  const [first, second] = Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
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
}, { [PATCHED]: true }) as typeof net.Socket.prototype.connect;
