import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../../test/helpers/database.js';
import { useVueCoreContext } from '../../test/helpers/dataset-context.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { commitCount } from '../../test/helpers/git-fixtures.js';

// A process killed with SIGKILL in the middle of an ingest (no chance to clean up), then the
// ingest run again. It needs a second process on the same database while the first one runs,
// which the embedded database does not allow (one process per data directory): PostgreSQL only.
describe.runIf(usePostgres)('a process killed during an ingest', () => {
  const fixture = useVueCoreContext('restart');

  it('leaves whole commits only, and the next run stores the rest exactly once', async () => {
    const user = await buildUser(fixture.ctx.services);
    const project = await buildProject(fixture.ctx.services, { type: 'user', email: user.email });
    const { link } = await fixture.ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: fixture.origin, branch: 'main' });
    const expected = commitCount(fixture.origin);
    const db = fixture.ctx.services.database.db;
    const stored = async () =>
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM commits WHERE repo_link_id = ${link.id}`.execute(db)).rows[0]!.n);

    const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/run-cli.ts', 'sync', '--project', project.slug, '--json'], {
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: fixture.ctx.database.url!, REPOS_DIR: fixture.reposDir },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | number | null>((done) => child.on('exit', (code, signal) => done(signal ?? code)));
    let seen = 0;
    while (seen === 0) {
      await new Promise((r) => setTimeout(r, 5));
      seen = await stored();
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const partial = await stored();
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(expected);
    // Every stored row is a whole commit: its batch was one statement.
    const broken = await sql<{ n: string }>`
      SELECT count(*) AS n FROM commits WHERE repo_link_id = ${link.id} AND (message IS NULL OR changes IS NULL OR author_name IS NULL)`.execute(db);
    expect(Number(broken.rows[0]!.n)).toBe(0);
    const row = await db.selectFrom('repo_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ingesting', last_ingested_sha: null });
    // The killed process still holds the link's ingest lease (LEASE_SECONDS, 30 s from its last renewal).
    expect(row.ingest_lease).not.toBeNull();
    expect(row.ingest_lease_until!.getTime()).toBeGreaterThan(Date.now());
    // Its lease runs out a second from now instead of waiting out the 30 s (the next run below still waits
    // for the lapse; the lapse itself is tested in ingest.int.test.ts, "left by a process that died").
    const lapsed = await sql`UPDATE repo_links SET ingest_lease_until = now() + interval '1 second'
      WHERE id = ${link.id} AND ingest_lease = ${row.ingest_lease}::uuid`.execute(db);
    // Else the next run would silently wait out the whole lease.
    expect(lapsed.numAffectedRows).toBe(1n);

    // What the next run does (the worker re-queues links left "ingesting" at start).
    expect(await fixture.ctx.services.repos.resumeUnfinished()).toBeGreaterThanOrEqual(1);
    const result = await fixture.ctx.services.ingest.ingestLink(link.id);
    expect(result.added).toBe(expected - partial);
    const { rows } = await sql<{ total: string; distinct_shas: string }>`
      SELECT count(*) AS total, count(DISTINCT sha) AS distinct_shas FROM commits WHERE repo_link_id = ${link.id}`.execute(db);
    expect({ total: Number(rows[0]!.total), distinct: Number(rows[0]!.distinct_shas) }).toEqual({ total: expected, distinct: expected });
  }, 120_000);
});
