/**
 * The embedded database's own thread (started by database.ts, never imported by it): PGlite, its
 * single session's turns (SessionLock) and the PostgreSQL protocol over a Unix socket
 * (socket-server.ts). The server, the CLI and a separate worker all reach it through that socket
 * with `pg`, so no SQL ever runs on the HTTP event loop, on the embedded default as on PostgreSQL.
 *
 * Messages from the opening thread: `listen` / `unlisten` a channel, `share` (the idle-in-transaction
 * cut-off for other processes' clients), `close`. To it: `ready` (with the socket's path) or
 * `failed`, `notify` for every notification of a listened channel that the opening thread would not
 * hear in its own connections' streams, and `reply` to a request.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { SessionLock } from './session-lock.js';
import { startSocketServer, type SocketServer } from './socket-server.js';

export interface ThreadData {
  dataDir: string;
  /** The application_name of the opening thread's connections (see socket-server.ts `ownApplication`). */
  ownApplication: string;
}

export type ToThread =
  | { op: 'listen' | 'unlisten'; id: number; channel: string }
  | { op: 'share'; id: number; idleInTransactionMs?: number }
  | { op: 'close'; id: number };

export type FromThread =
  | { type: 'ready'; socket: string }
  | { type: 'failed'; message: string }
  | { type: 'notify'; channel: string; payload: string }
  | { type: 'reply'; id: number; error?: string };

const port = parentPort!;
const { dataDir, ownApplication } = workerData as ThreadData;
const post = (message: FromThread) => port.postMessage(message);

const lock = new SessionLock();
const subscriptions = new Map<string, () => Promise<void>>();

async function open(): Promise<{ pglite: PGlite; server: SocketServer }> {
  const pglite = await PGlite.create(dataDir);
  try {
    const server = await startSocketServer({
      pglite,
      lock,
      dataDir,
      ownApplication,
      onNotification: (channel, payload) => post({ type: 'notify', channel, payload }),
    });
    return { pglite, server };
  } catch (error) {
    await pglite.close().catch(() => {});
    throw error;
  }
}

let opened: { pglite: PGlite; server: SocketServer } | null = null;
try {
  opened = await open();
  post({ type: 'ready', socket: opened.server.path });
} catch (error) {
  // Closing the port ends the thread: nothing else keeps it alive.
  post({ type: 'failed', message: (error as Error).message });
  port.close();
}

async function handle({ pglite, server }: { pglite: PGlite; server: SocketServer }, message: ToThread): Promise<void> {
  switch (message.op) {
    case 'listen':
      if (!subscriptions.has(message.channel)) {
        // LISTEN waits its turn: inside a client's transaction, its ROLLBACK would undo it.
        const unsubscribe = await lock.run(() => pglite.listen(message.channel, (payload) => post({ type: 'notify', channel: message.channel, payload })));
        subscriptions.set(message.channel, unsubscribe);
      }
      return;
    case 'unlisten': {
      const unsubscribe = subscriptions.get(message.channel);
      subscriptions.delete(message.channel);
      if (unsubscribe && !pglite.closed) await lock.run(unsubscribe);
      return;
    }
    case 'share':
      server.setIdleInTransactionMs(message.idleInTransactionMs);
      return;
    case 'close':
      // Clients first (their transactions roll back), then the session itself.
      await server.close();
      if (!pglite.closed) await pglite.close();
      return;
  }
}

const database = opened;
if (database) port.on('message', (message: ToThread) => {
  handle(database, message).then(
    () => {
      post({ type: 'reply', id: message.id });
      if (message.op === 'close') port.close();
    },
    (error: unknown) => post({ type: 'reply', id: message.id, error: (error as Error).message }),
  );
});
