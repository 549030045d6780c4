import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../../test/helpers/database.js';
import { useVueCoreContext } from '../../test/helpers/dataset-context.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';

// A `changelog generate` process killed with SIGKILL while its run is in flight, then generation run
// again: the result equals an uninterrupted run. A second process on the same database while the
// first runs needs PostgreSQL (the embedded database belongs to one process).
describe.runIf(usePostgres)('a process killed during generation', () => {
  const fixture = useVueCoreContext('gen-restart');

  /** A project with the vue-core history ingested (7,157 commits) and generation of every type. */
  async function ingestedProject() {
    const user = await buildUser(fixture.ctx.services);
    const project = await buildProject(fixture.ctx.services, { type: 'user', email: user.email });
    const { link } = await fixture.ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: fixture.origin, branch: 'main' });
    await fixture.ctx.services.ingest.ingestLink(link.id);
    await fixture.ctx.services.generation.configure(project.slug, { entryTypes: ['commit', 'daily', 'weekly', 'monthly'] });
    return project;
  }

  /** What generation stored, comparable across projects. */
  async function generated(projectId: string) {
    const { rows } = await sql<{ entry: string }>`
      SELECT entry_type || '|' || coalesce(title, '') || '|' || coalesce(period_start::text, '') || '|' || array_to_string(commit_shas, ',')
        || '|' || status || '|' || coalesce(version_label, '') AS entry
      FROM changelog_entries WHERE project_id = ${projectId} ORDER BY 1`.execute(fixture.ctx.services.database.db);
    return rows.map((r) => r.entry);
  }

  it('leaves nothing half-written, and the next run equals an uninterrupted one', async () => {
    const killed = await ingestedProject();
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/run-cli.ts', 'generate', '--project', killed.slug, '--json'], {
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: fixture.ctx.database.url!, REPOS_DIR: fixture.reposDir },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | number | null>((done) => child.on('exit', (code, signal) => done(signal ?? code)));
    // Kill it once its run holds the project's generation lock: the transaction is open.
    const db = fixture.ctx.services.database.db;
    let writing = false;
    for (let i = 0; i < 2_000 && !writing; i++) {
      const { rows } = await sql<{ n: string }>`
        SELECT count(*) AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')
          AND backend_xid IS NOT NULL`.execute(db);
      writing = Number(rows[0]!.n) > 0;
      if (!writing) await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGKILL');
    expect(writing).toBe(true); // the kill landed inside a run that had started writing
    expect(await exited).toBe('SIGKILL');

    // One transaction: a killed run leaves no entries of its own behind.
    expect(await generated(killed.id)).toEqual([]);

    const again = await fixture.ctx.services.generation.generateProject(killed.id);
    expect(again.commits).toBeGreaterThan(7_000);
    const reference = await ingestedProject();
    await fixture.ctx.services.generation.generateProject(reference.id);
    const [afterKill, uninterrupted] = [await generated(killed.id), await generated(reference.id)];
    expect(afterKill.length).toBeGreaterThan(1_000);
    expect(afterKill).toEqual(uninterrupted);
  }, 180_000);
});
