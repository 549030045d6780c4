import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError } from './data-dir-lock.js';
import { openDatabase, type Database } from './database.js';
import { migrate, type Migration } from './migrate.js';
import { SOCKET_DIR_NAME } from './socket-server.js';

// The server's embedded database shared over its Unix socket, driven in one process: the holder
// (as `changelog serve` opens it) and clients opening the same DATA_DIR (as the CLI does). The
// real processes are in test/multi-process.int.test.ts.

let dataDir: string;
let holder: Database;
let shared: { path: string };
const opened: Database[] = [];
const clients: pg.Client[] = [];

async function client(): Promise<Database> {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  opened.push(database);
  return database;
}

async function rawClient(): Promise<pg.Client> {
  const c = new pg.Client({ host: dirname(shared.path), port: 5432, user: 'postgres', database: 'postgres' });
  c.on('error', () => {});
  await c.connect();
  clients.push(c);
  return c;
}

const counter = async (db: Database) => (await sql<{ n: number }>`SELECT n FROM counter`.execute(db.db)).rows[0]!.n;

// One data directory for the file (creating one takes seconds); the tests run in order and the
// last one closes the holder.
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'changelog-sock-'));
  holder = await openDatabase({ kind: 'pglite', dataDir }, { throughServer: false });
  await sql`CREATE TABLE counter (n integer NOT NULL)`.execute(holder.db);
  await sql`INSERT INTO counter VALUES (0)`.execute(holder.db);
  shared = await holder.shareOverSocket!({ idleInTransactionMs: 1_000 });
});

beforeEach(async () => {
  await sql`UPDATE counter SET n = 0`.execute(holder.db);
});

afterEach(async () => {
  // Ignored: a test may have ended or broken these on purpose; cleanup only.
  await Promise.all(clients.splice(0).map((c) => c.end().catch(() => {})));
  await Promise.all(opened.splice(0).map((d) => d.close().catch(() => {})));
});

afterAll(async () => {
  await holder.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded database shared over a socket', () => {
  it('keeps the socket to its own user: 0600 in a 0700 directory, named in the lock file', () => {
    expect(dirname(shared.path)).toBe(join(dataDir, SOCKET_DIR_NAME));
    expect(statSync(shared.path).isSocket()).toBe(true);
    expect(statSync(shared.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(shared.path)).mode & 0o777).toBe(0o700);
    const lock = readFileSync(join(dataDir, 'changelog.lock'), 'utf8');
    expect(Number.parseInt(lock, 10)).toBe(process.pid);
    expect(lock).toContain(`socket=${shared.path}\n`);
  });

  it.runIf(process.getuid?.() === 0)('refuses another operating-system user', async () => {
    // `nobody` tries to connect: the 0700 directory stops it before the socket is reached.
    const probe = spawn(
      process.execPath,
      ['-e', `require('net').connect(${JSON.stringify(shared.path)}).on('connect', () => { console.log('connected'); process.exit(0) }).on('error', (e) => { console.log(e.code); process.exit(0) })`],
      { uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    probe.stdout!.on('data', (chunk) => (out += String(chunk)));
    await new Promise((resolve) => probe.on('exit', resolve));
    expect(out.trim()).toBe('EACCES');
  });

  it('lets a process opening the same DATA_DIR in through the socket, as a PostgreSQL client', async () => {
    const cli = await client();
    expect(cli.kind).toBe('postgres');
    expect(cli.via).toEqual({ pid: process.pid, socket: shared.path, holder: 'server' });
    await sql`UPDATE counter SET n = 7`.execute(cli.db);
    expect(await counter(holder)).toBe(7);
    // A second server does not stack on the first.
    await expect(openDatabase({ kind: 'pglite', dataDir }, { throughServer: false })).rejects.toThrow(DataDirLockedError);
  });

  it("gives a client's transaction the session to itself: the holder's queries wait for its COMMIT", async () => {
    const cli = await client();
    const order: string[] = [];
    await Promise.all([
      cli.db.transaction().execute(async (tx) => {
        await sql`UPDATE counter SET n = n + 1`.execute(tx);
        order.push('client updated');
        await new Promise((resolve) => setTimeout(resolve, 200));
        order.push('client commits');
      }),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const n = await counter(holder);
        order.push(`holder read ${n}`);
      })(),
    ]);
    expect(order).toEqual(['client updated', 'client commits', 'holder read 1']);
  });

  it('serialises many clients and the holder without losing an update', async () => {
    const raw = await Promise.all([1, 2, 3].map(() => rawClient()));
    const cli = await client();
    await Promise.all([
      ...raw.map(async (c) => {
        for (let i = 0; i < 20; i++) {
          await c.query('BEGIN');
          const { rows } = await c.query('SELECT n FROM counter');
          await c.query('UPDATE counter SET n = $1', [rows[0].n + 1]);
          await c.query('COMMIT');
        }
      }),
      ...[holder, cli].map(async (database) => {
        for (let i = 0; i < 20; i++) {
          await database.db.transaction().execute(async (tx) => {
            const { rows } = await sql<{ n: number }>`SELECT n FROM counter`.execute(tx);
            await sql`UPDATE counter SET n = ${rows[0]!.n + 1}`.execute(tx);
          });
        }
      }),
    ]);
    expect(await counter(holder)).toBe(100);
  });

  it('rolls back a client that disconnects inside a transaction', async () => {
    const c = await rawClient();
    await c.query('BEGIN');
    await c.query('UPDATE counter SET n = 99');
    const read = counter(holder);
    (c as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    expect(await read).toBe(0);
  });

  it('recovers the session when a client dies between an error and its Sync', async () => {
    const c = await rawClient();
    await c.query('BEGIN');
    await expect(c.query('SELECT $1::int / 0', [1])).rejects.toThrow(/division by zero/);
    (c as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    expect(await counter(holder)).toBe(0);
    await sql`UPDATE counter SET n = 3`.execute(holder.db);
    expect(await counter(holder)).toBe(3);
  });

  it('cuts off a client that keeps a transaction idle, so the holder is not stalled', async () => {
    const c = await rawClient();
    await c.query('BEGIN');
    await c.query('UPDATE counter SET n = 42');
    const started = Date.now();
    expect(await counter(holder)).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(c.query('COMMIT')).rejects.toThrow();
  });

  it("delivers the notifications of a client's commits to the holder's listeners", async () => {
    const heard: string[] = [];
    const stop = await holder.listen('changelog_changes', (payload) => heard.push(payload), () => {});
    const cli = await client();
    await cli.db.transaction().execute(async (tx) => {
      await sql`SELECT pg_notify('changelog_changes', 'from-client')`.execute(tx);
    });
    await sql`SELECT pg_notify('changelog_changes', 'from-holder')`.execute(holder.db);
    await expect.poll(() => heard).toEqual(['from-client', 'from-holder']);
    await stop();
  });

  it('applies no migration through the socket: it reports what the server has not applied', async () => {
    const cli = await client();
    expect(await migrate(cli, [])).toEqual({ applied: [], current: 0 });
    const pending: Migration = { version: 1, name: 'one', sql: 'CREATE TABLE one (x int)', checksum: 'x' };
    await expect(migrate(cli, [pending])).rejects.toThrow(`The server (pid ${process.pid}) that holds the embedded database has not applied migrations 1`);
    expect((await sql`SELECT to_regclass('one') AS t`.execute(holder.db)).rows).toEqual([{ t: null }]);
  });

  it('closes cleanly: clients are disconnected, the socket and its line in the lock are gone', async () => {
    const cli = await client();
    await sql`SELECT 1`.execute(cli.db);
    await holder.close();
    expect(() => statSync(shared.path)).toThrow();
    await expect(sql`SELECT 1`.execute(cli.db)).rejects.toThrow();
    // Nobody holds the directory any more: a process opens it itself again.
    holder = await openDatabase({ kind: 'pglite', dataDir });
    expect(holder.via).toBeUndefined();
    expect(await counter(holder)).toBe(0);
  });
});

describe('a stale socket after a crash', () => {
  it('does not block: the next process takes the directory over and can share it again', async () => {
    const crashedDir = mkdtempSync(join(tmpdir(), 'changelog-crashed-'));
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('exit', resolve));
    const socketDir = join(crashedDir, SOCKET_DIR_NAME);
    mkdirSync(socketDir, { mode: 0o700 });
    writeFileSync(join(socketDir, '.s.PGSQL.5432'), '');
    writeFileSync(join(crashedDir, 'changelog.lock'), `${dead.pid}\nsocket=${join(socketDir, '.s.PGSQL.5432')}\n`);
    const restarted = await openDatabase({ kind: 'pglite', dataDir: crashedDir }, { throughServer: false });
    try {
      expect(restarted.via).toBeUndefined();
      const again = await restarted.shareOverSocket!();
      expect(statSync(again.path).isSocket()).toBe(true);
    } finally {
      await restarted.close();
      rmSync(crashedDir, { recursive: true, force: true });
    }
  });
});

describe('a DATA_DIR whose path is too long for a socket address', () => {
  it('puts the socket in a private temporary directory, named in the lock, removed on close', async () => {
    const longDir = join(mkdtempSync(join(tmpdir(), 'changelog-long-')), 'x'.repeat(100));
    const database = await openDatabase({ kind: 'pglite', dataDir: longDir }, { throughServer: false });
    try {
      const socket = await database.shareOverSocket!();
      expect(dirname(socket.path).startsWith(join(tmpdir(), 'changelog-'))).toBe(true);
      expect(statSync(dirname(socket.path)).mode & 0o777).toBe(0o700);
      expect(statSync(socket.path).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(longDir, 'changelog.lock'), 'utf8')).toContain(`socket=${socket.path}\n`);
      const cli = await openDatabase({ kind: 'pglite', dataDir: longDir });
      expect(cli.via?.socket).toBe(socket.path);
      await cli.close();
      await database.close();
      expect(() => statSync(dirname(socket.path))).toThrow();
    } finally {
      await database.close();
      rmSync(join(longDir, '..'), { recursive: true, force: true });
    }
  });
});
