import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDataDir } from '../../test/helpers/database.js';
import { testConfig } from '../../test/helpers/config.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { commitCount, datasetRepoCopy, removeRepoCopy } from '../../test/helpers/git-fixtures.js';
import { openDatabase, type Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { createServices, type Services } from '../services.js';
import { createLinkLock } from './link-lock.js';

// Ingests of one link from several processes on the embedded database: the server (which holds
// DATA_DIR and shares it over its socket) and CLI processes reaching it through that socket, all on
// PGlite's one session. Each process here is a set of services on its own connection, as in
// separate processes: they share no memory, only the database.
let dataDir: string;
let reposDir: string;
let origin: string;
let server: Database;
let serverServices: Services;
const clients: { database: Database; services: Services }[] = [];

async function cliProcess(): Promise<Services> {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  expect(database.via?.pid).toBe(process.pid);
  const services = createServices(database, testConfig({ DATA_DIR: dataDir, REPOS_DIR: reposDir }));
  clients.push({ database, services });
  return services;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'changelog-link-lock-'));
  reposDir = join(dataDir, 'repos');
  await seedDataDir(dataDir);
  origin = datasetRepoCopy();
  server = await openDatabase({ kind: 'pglite', dataDir }, { throughServer: false });
  await migrate(server);
  serverServices = createServices(server, testConfig({ DATA_DIR: dataDir, REPOS_DIR: reposDir }));
  await server.shareOverSocket!();
}, 60_000);

afterAll(async () => {
  for (const { database, services } of clients) {
    await services.jobs.stop();
    await database.close();
  }
  await serverServices?.jobs.stop();
  await server?.close();
  if (origin) removeRepoCopy(origin);
  rmSync(dataDir, { recursive: true, force: true });
});

const newLink = async () => {
  const owner = await buildUser(serverServices);
  const project = await buildProject(serverServices, { type: 'user', email: owner.email });
  return (await serverServices.repos.linkLocalRepo({ projectSlug: project.slug, source: origin, branch: 'main' })).link;
};

const stored = async (linkId: string) => {
  const { rows } = await sql<{ total: string; distinct: string }>`
    SELECT count(*) AS total, count(DISTINCT sha) AS distinct FROM commits WHERE repo_link_id = ${linkId}`.execute(server.db);
  return { total: Number(rows[0]!.total), distinct: Number(rows[0]!.distinct) };
};

describe('concurrent ingests of one link through the server\'s socket', () => {
  // Run one after the other, the second finds the branch where the first left it and walks nothing.
  it('two CLI processes (`changelog sync` twice): one walks the history, the other after it walks nothing', async () => {
    const link = await newLink();
    const [a, b] = [await cliProcess(), await cliProcess()];
    const results = await Promise.all([a.ingest.ingestLink(link.id), b.ingest.ingestLink(link.id)]);
    const expected = commitCount(origin);
    expect(results.map((r) => r.walked).sort((x, y) => x - y)).toEqual([0, expected]);
    expect(await stored(link.id)).toEqual({ total: expected, distinct: expected });
  }, 120_000);

  it('the server\'s worker and a CLI process: likewise', async () => {
    const link = await newLink();
    const cli = await cliProcess();
    const results = await Promise.all([serverServices.ingest.ingestLink(link.id), cli.ingest.ingestLink(link.id)]);
    const expected = commitCount(origin);
    expect(results.map((r) => r.walked).sort((x, y) => x - y)).toEqual([0, expected]);
    expect(await stored(link.id)).toEqual({ total: expected, distinct: expected });
  }, 120_000);
});

describe('a lease lost while its ingest runs', () => {
  it('aborts the holder once a renewal finds another process holding it, and is not released from under the new holder', async () => {
    const link = await newLink();
    const lock = createLinkLock(server.db, { leaseSeconds: 0.3 });
    const other = randomUUID();
    const seen = await lock(link.id, async (leaseLost) => {
      expect(leaseLost.aborted).toBe(false);
      // This process stalled past its lease; another took the link.
      await sql`UPDATE repo_links SET ingest_lease = ${other}::uuid, ingest_lease_until = now() + interval '1 minute' WHERE id = ${link.id}`.execute(server.db);
      await new Promise<void>((resolve) => leaseLost.addEventListener('abort', () => resolve(), { once: true }));
      return leaseLost.aborted;
    });
    expect(seen).toBe(true);
    const row = await sql<{ lease: string | null }>`SELECT ingest_lease AS lease FROM repo_links WHERE id = ${link.id}`.execute(server.db);
    expect(row.rows[0]!.lease).toBe(other);
  });
});
