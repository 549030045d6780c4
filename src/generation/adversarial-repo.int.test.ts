/**
 * A repository crafted to be slow (security finding: repository content froze the server). Linked
 * into a server listening on a real port with the in-process worker (the default), its sync and
 * generation must leave /health answering: the engine runs in a worker thread and every step is
 * linear in its input. Then a run over its time budget fails its job with a recorded error.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { waitFor } from '../../test/helpers/scm.js';
import { buildApp } from '../app.js';
import { MAX_MESSAGE_LENGTH } from '../git/git-log.js';
import { startWorker } from '../jobs/worker.js';
import { createServices, type Services } from '../services.js';

const PATTERN = '*a*a*a*a*a*a*a*a*a*a*a*a*b';
const scratch: string[] = [];

/** ~200 KB of `Key: value` footer paragraphs, then prose: the old footer scan rescanned the rest from every paragraph. */
export function footerBomb(bytes = 200_000): string {
  const paragraphs: string[] = [];
  for (let size = 0, i = 0; size < bytes; i++) {
    const p = `Key-${i % 50}: value ${i}`;
    paragraphs.push(p);
    size += p.length + 2;
  }
  return `feat: adversarial footers\n\n${paragraphs.join('\n\n')}\n\nand a closing paragraph of prose\n`;
}

function adversarialRepo(): string {
  const parent = tempDir('adversarial');
  scratch.push(parent);
  const dir = join(parent, 'repo');
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { maxBuffer: 1 << 26 });
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', dir]);
  mkdirSync(join(dir, '.github'));
  writeFileSync(join(dir, '.github', 'CODEOWNERS'), `${PATTERN} @acme/slow\n`);
  // 40-character names of a's: every `*` of the pattern has many places to try, and none ends in b.
  for (let i = 0; i < 20; i++) writeFileSync(join(dir, `${'a'.repeat(39)}${String.fromCharCode(99 + i)}`), `${i}\n`);
  git('add', '-A');
  git('commit', '--quiet', '-m', 'feat: files with long names');
  writeFileSync(join(dir, 'a'.repeat(40)), 'x\n');
  git('add', '-A');
  writeFileSync(join(parent, 'message.txt'), footerBomb());
  git('commit', '--quiet', '-F', join(parent, 'message.txt'));
  return dir;
}

describe('a repository crafted to be slow, on a running server', () => {
  let database: TestDatabase;
  let services: Services;
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const reposDir = tempDir('adversarial-mirrors');
    scratch.push(reposDir);
    const config = testConfig({ REPOS_DIR: reposDir });
    services = createServices(database, config, { jobs: { pollingIntervalSeconds: 0.5 } });
    app = await buildApp({ config, database, services });
    await startWorker(services);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await services?.jobs.stop();
    await app?.close();
    await database?.close();
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps /health answering while it syncs and generates, and generates its entries', async () => {
    const source = adversarialRepo();
    const user = await buildUser(services);
    const project = await buildProject(services, { type: 'user', email: user.email }, { slug: 'adversarial' });

    // The client's first fetch loads undici and opens the connection: not the server's time.
    expect((await fetch(`${base}/health`)).status).toBe(200);
    let done = false;
    const latencies: number[] = [];
    const poll = (async () => {
      while (!done) {
        const started = performance.now();
        const res = await fetch(`${base}/health`);
        latencies.push(performance.now() - started);
        expect(res.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    // Linking queues the ingest, which queues generation: both run as jobs.
    const link = (await services.repos.linkLocalRepo({ projectSlug: project.slug, source, branch: 'main' })).link;
    const generated = await waitFor(
      async () => {
        const { rows } = await sql<{ state: string }>`SELECT state::text AS state FROM pgboss.job WHERE name = 'generate' AND data->>'projectId' = ${project.id}`.execute(database.db);
        return rows.some((r) => r.state === 'completed') ? rows : undefined;
      },
      60_000,
      'the generate job',
    );
    done = true;
    await poll;

    expect(generated.length).toBeGreaterThan(0);
    expect(latencies.length).toBeGreaterThan(3);
    // A liveness bound, not a speed figure: content handled on the event loop froze it for 10–30 s
    // (quadratic scans of this repository's messages and names); a busy shared machine adds hundreds of ms.
    expect(Math.max(...latencies)).toBeLessThan(2_000);

    // The commits were stored (the long message cut at the documented cap) and generated from.
    expect((await services.repos.listLinks(project.slug)).links.find((l) => l.id === link.id)?.status).toBe('active');
    const { rows } = await sql<{ n: number; longest: number }>`SELECT count(*)::int AS n, max(length(message))::int AS longest FROM commits WHERE project_id = ${project.id}`.execute(database.db);
    expect(rows[0]).toEqual({ n: 2, longest: MAX_MESSAGE_LENGTH });
    const entries = await database.db.selectFrom('changelog_entries').select(['title', 'team_attribution']).where('project_id', '=', project.id).where('entry_type', '=', 'commit').execute();
    expect(entries.map((e) => e.title).sort()).toEqual(['Adversarial footers', 'Files with long names']);
    // No file name ends in b: CODEOWNERS names no team, so the author is credited.
    expect(entries.map((e) => e.team_attribution)).toEqual(['T', 'T']);
  }, 90_000);
});
