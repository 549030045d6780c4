import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketHandler, PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';
import type { SessionLock } from './session-lock.js';

/**
 * The server shares its embedded database with the CLI and a separate worker over a Unix domain
 * socket, speaking the PostgreSQL protocol (so they connect with `pg`, as to DATABASE_URL).
 *
 * Reach: the socket lives in a directory of its own, mode 0700, inside DATA_DIR (or, when that path
 * is too long for a socket address, in a fresh 0700 directory under the system's temporary
 * directory), and the socket itself is 0600: only the operating-system user that runs the server
 * (and root) can connect. Nothing listens on the network, so there is no password to leak.
 *
 * Sessions: PGlite is one PostgreSQL session. pglite-socket's own multiplexer interleaves clients
 * message by message, which lets another client's Parse land between a client's Parse and Sync and
 * lets the server's own statements land inside a client's transaction. So this module keeps the
 * library's protocol framing (startup, SSL refusal, message reassembly) but schedules the messages
 * itself: a client takes the server's session lock (the one the server's own queries take) with
 * its first message and keeps it until PostgreSQL says the session is idle again (ReadyForQuery
 * with status I). An open transaction thus owns the session until COMMIT or ROLLBACK; everyone else
 * waits their turn. A client that disconnects, or keeps a transaction idle for longer than
 * `idleInTransactionMs`, is rolled back and cut off so that it cannot stall the server.
 */

/** `pg` connects to `<host>/.s.PGSQL.<port>` when the host is a directory. */
export const SOCKET_PORT = 5432;
const SOCKET_NAME = `.s.PGSQL.${SOCKET_PORT}`;
export const SOCKET_DIR_NAME = 'changelog-socket';
/** sun_path holds 108 bytes on Linux, 104 on macOS, terminator included. */
const MAX_SOCKET_PATH = 100;

export interface SocketServerOptions {
  pglite: PGlite;
  lock: SessionLock;
  dataDir: string;
  /** NOTIFY messages that clients' commits produced (PGlite hands those to the client, not to its listeners). */
  onNotification: (channel: string, payload: string) => void;
  idleInTransactionMs?: number;
  /**
   * The application_name of the holder's own connections (the server's pool, from its own thread).
   * They hear their commits' notifications in their own streams, in order with the commit's answer,
   * so `onNotification` leaves those out; and like the holder's own queries before them, they are
   * not cut off when idle in a transaction.
   */
  ownApplication?: string;
}

export interface SocketServer {
  /** The socket's path (its directory is what `pg` takes as host). */
  readonly path: string;
  /** Clients connected right now. */
  connections(): number;
  /** The idle-in-transaction cut-off for clients from now on (undefined: the default). */
  setIdleInTransactionMs(ms: number | undefined): void;
  /** Stops accepting, rolls back and disconnects the clients, removes the socket. */
  close(): Promise<void>;
}

export const DEFAULT_IDLE_IN_TRANSACTION_MS = 60_000;

/** Where the socket for `dataDir` goes: its own directory in DATA_DIR, or a private temporary one. */
function socketDirectory(dataDir: string): string {
  const inside = join(dataDir, SOCKET_DIR_NAME);
  if (Buffer.byteLength(join(inside, SOCKET_NAME)) <= MAX_SOCKET_PATH) {
    // We hold the data directory's lock: whatever is there was left by a server that crashed.
    rmSync(inside, { recursive: true, force: true });
    mkdirSync(inside, { mode: 0o700 });
    chmodSync(inside, 0o700);
    return inside;
  }
  return mkdtempSync(join(tmpdir(), 'changelog-'));
}

/** Removes the socket directory a crashed server left behind (the caller took over its lock). */
export function removeStaleSocket(dataDir: string, socketPath: string | null): void {
  rmSync(join(dataDir, SOCKET_DIR_NAME), { recursive: true, force: true });
  // A temporary directory is ours only if it looks like one we made.
  if (socketPath && socketPath.startsWith(join(tmpdir(), 'changelog-')) && socketPath.endsWith(SOCKET_NAME)) {
    rmSync(join(socketPath, '..'), { recursive: true, force: true });
  }
}

export async function startSocketServer(options: SocketServerOptions): Promise<SocketServer> {
  // Loaded here, in the database's thread: the processes that connect (the CLI, the server's own
  // thread) import this module for the socket's name and need none of the protocol.
  const { PGLiteSocketHandler } = await import('@electric-sql/pglite-socket');
  const dir = socketDirectory(options.dataDir);
  const path = join(dir, SOCKET_NAME);
  const scheduler = new SessionScheduler(options);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const handler = new PGLiteSocketHandler({
      // The library's handler only calls enqueue / clearQueueForHandler / clearTransactionIfNeeded.
      queryQueue: scheduler as unknown as PGLiteSocketHandlerOptions['queryQueue'],
      closeOnDetach: true,
    });
    scheduler.register(handler);
    handler.addEventListener('close', () => scheduler.unregister(handler.handlerId));
    handler.addEventListener('error', () => scheduler.unregister(handler.handlerId));
    void handler.attach(socket).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The directory already keeps other users out; the mode says so on the socket itself too.
  chmodSync(path, 0o600);
  server.on('error', () => {});

  return {
    path,
    connections: () => sockets.size,
    setIdleInTransactionMs: (ms) => scheduler.setIdleMs(ms),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await scheduler.closeAll();
      for (const socket of sockets) socket.destroy();
      await closed;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A frontend message that makes PostgreSQL answer ReadyForQuery. */
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);
const ROLLBACK = simpleQuery('ROLLBACK');

function simpleQuery(text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`);
  const message = Buffer.alloc(5 + body.length);
  message.write('Q', 0);
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return new Uint8Array(message);
}

/** A parameter of a StartupMessage (protocol 3.0), or undefined when `message` is not one. */
function startupParameter(message: Uint8Array, name: string): string | undefined {
  const bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  if (bytes.length < 8 || bytes.readInt32BE(4) !== 196_608) return undefined;
  const fields = bytes.toString('utf8', 8).split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

/**
 * Reads the backend's answer to a client's messages as it streams by: whether the session is idle
 * again (the last message was ReadyForQuery 'I'), and the notifications in it.
 */
class BackendReader {
  #pending: Buffer = Buffer.alloc(0);
  /** Transaction status of the last ReadyForQuery, null when more output is still due. */
  status: string | null = null;

  constructor(private readonly onNotification: (channel: string, payload: string) => void) {}

  push(data: Uint8Array): void {
    this.#pending = this.#pending.length ? Buffer.concat([this.#pending, data]) : Buffer.from(data);
    while (this.#pending.length >= 5) {
      const length = this.#pending.readInt32BE(1);
      if (this.#pending.length < 1 + length) break;
      const type = String.fromCharCode(this.#pending[0]!);
      const body = this.#pending.subarray(5, 1 + length);
      this.#pending = this.#pending.subarray(1 + length);
      this.status = type === 'Z' ? String.fromCharCode(body[0]!) : null;
      if (type === 'A') {
        // NotificationResponse: int32 pid, channel\0, payload\0
        const channelEnd = body.indexOf(0, 4);
        const payloadEnd = body.indexOf(0, channelEnd + 1);
        this.onNotification(body.toString('utf8', 4, channelEnd), body.toString('utf8', channelEnd + 1, payloadEnd));
      }
    }
  }
}

/** Implements the queue interface PGLiteSocketHandler expects, with whole-session turns (see above). */
class SessionScheduler {
  readonly #pglite: PGlite;
  readonly #lock: SessionLock;
  readonly #onNotification: (channel: string, payload: string) => void;
  #idleMs: number;
  readonly #ownApplication: string | undefined;
  /** The holder's own connections (see `ownApplication`). */
  readonly #own = new Set<number>();
  readonly #handlers = new Map<number, PGLiteSocketHandler>();
  /** Each client's messages run in order, one after the other. */
  readonly #chains = new Map<number, Promise<unknown>>();
  readonly #gone = new Set<number>();
  #owner: { id: number; release: () => void; reader: BackendReader; timer?: NodeJS.Timeout } | null = null;
  #closing = false;

  constructor(options: SocketServerOptions) {
    this.#pglite = options.pglite;
    this.#lock = options.lock;
    this.#onNotification = options.onNotification;
    this.#idleMs = options.idleInTransactionMs ?? DEFAULT_IDLE_IN_TRANSACTION_MS;
    this.#ownApplication = options.ownApplication;
  }

  setIdleMs(ms: number | undefined): void {
    this.#idleMs = ms ?? DEFAULT_IDLE_IN_TRANSACTION_MS;
  }

  register(handler: PGLiteSocketHandler): void {
    this.#handlers.set(handler.handlerId, handler);
  }

  unregister(id: number): void {
    this.#handlers.delete(id);
    this.#own.delete(id);
  }

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    if (this.#ownApplication !== undefined && !this.#chains.has(handlerId) && startupParameter(message, 'application_name') === this.#ownApplication) {
      this.#own.add(handlerId);
    }
    const previous = this.#chains.get(handlerId) ?? Promise.resolve();
    // Ignored: the previous message's failure went to its own caller; this one only waits its turn.
    const run = previous.catch(() => {}).then(() => this.#run(handlerId, message, onData));
    this.#chains.set(handlerId, run);
    return run;
  }

  async #run(id: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    if (this.#gone.has(id) || this.#closing) throw new Error('Client disconnected');
    if (this.#owner?.id !== id) {
      const release = await this.#lock.acquire();
      if (this.#gone.has(id) || this.#closing || this.#pglite.closed) {
        release();
        throw new Error('Client disconnected');
      }
      // The holder's own connections hear their notifications in their own stream.
      this.#owner = { id, release, reader: new BackendReader(this.#own.has(id) ? () => {} : this.#onNotification) };
    }
    const owner = this.#owner;
    clearTimeout(owner.timer);
    let bytes = 0;
    await this.#pglite.runExclusive(() =>
      this.#pglite.execProtocolRawStream(message, {
        onRawData: (data) => {
          bytes += data.length;
          owner.reader.push(data);
          onData(data);
        },
      }),
    );
    if (owner.reader.status === 'I') {
      this.#endTurn();
    } else if (!this.#own.has(id)) {
      // Mid-transaction (or mid-way through an extended-protocol exchange): the session stays this
      // client's, but not forever.
      owner.timer = setTimeout(() => void this.#handlers.get(id)?.detach(true), this.#idleMs);
      owner.timer.unref();
    }
    return bytes;
  }

  #endTurn(): void {
    const owner = this.#owner;
    if (!owner) return;
    clearTimeout(owner.timer);
    this.#owner = null;
    owner.release();
  }

  /** Called by the handler when its socket closes: its waiting messages will not run. */
  clearQueueForHandler(handlerId: number): void {
    this.#gone.add(handlerId);
  }

  /** Called by the handler after clearQueueForHandler: undoes what the client left open. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    // Ignored: waits for the client's last message to settle; its failure went to that message's caller.
    await this.#chains.get(handlerId)?.catch(() => {});
    this.#chains.delete(handlerId);
    if (this.#owner?.id === handlerId) await this.#abandon();
    this.#gone.delete(handlerId);
  }

  /**
   * Brings the session back to idle for the next user: a ROLLBACK ends an explicit transaction or
   * an extended-protocol exchange cut off before Sync; if PostgreSQL ignores it (it skips to Sync
   * after an error), a Sync first.
   */
  async #abandon(): Promise<void> {
    try {
      if (!this.#pglite.closed) {
        const answer = async (message: Uint8Array) => {
          const reader = new BackendReader(this.#onNotification);
          await this.#pglite.runExclusive(() => this.#pglite.execProtocolRawStream(message, { onRawData: (data) => reader.push(data) }));
          return reader.status;
        };
        let status = await answer(ROLLBACK);
        if (status === null) status = await answer(SYNC);
        if (status !== 'I') await answer(ROLLBACK);
      }
    } finally {
      this.#endTurn();
    }
  }

  /** Server shutdown: every client is rolled back and disconnected. */
  async closeAll(): Promise<void> {
    this.#closing = true;
    // Ignored: shutting down, a client that fails to detach is dropped with the server anyway.
    await Promise.all([...this.#handlers.values()].map((handler) => handler.detach(true).catch(() => {})));
    if (this.#owner) await this.#abandon();
  }
}
