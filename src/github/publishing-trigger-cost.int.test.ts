// What one tenant's GitHub publishing costs the others (migration 0043). Every release-note write runs
// the GitHub trigger; it used to look at the whole table of GitHub links whenever any tenant had
// publishing on, so a busy tenant's 3,000 links were read by every other tenant's publish. The rows of
// github_link_publishing a write reads are counted by PostgreSQL itself, in the writing transaction
// (pg_stat_xact_user_tables), on PGlite and PostgreSQL alike.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import type { DB } from '../db/schema.js';
import { createServices } from '../services.js';

const BUSY_LINKS = 3_000;

let database: TestDatabase;
let quiet: { id: string };
let busy: { id: string };

beforeAll(async () => {
  database = await createTestDatabase();
  const services = createServices(database, testConfig());
  const user = await buildUser(services);
  const owner = { type: 'user' as const, email: user.email };
  quiet = await buildProject(services, owner, { slug: 'quiet' });
  busy = await buildProject(services, owner, { slug: 'busy' });
  await sql`INSERT INTO repo_links (project_id, kind, source_url, source_key, tracked_branch, status)
    SELECT ${busy.id}::uuid, 'local', '/repos/r' || i, 'local:/repos/r' || i, 'main', 'active' FROM generate_series(1, ${BUSY_LINKS}) AS i`.execute(database.db);
  await sql`INSERT INTO github_link_publishing (link_id, project_id, releases, changelog_pr)
    SELECT id, project_id, true, true FROM repo_links WHERE project_id = ${busy.id}::uuid`.execute(database.db);
}, 60_000);

afterAll(() => database?.close());

/** Publishes a note of `projectId` and counts the rows of github_link_publishing the transaction read. */
async function publishAndCount(projectId: string, tag: string) {
  return database.db.transaction().execute(async (tx: Kysely<DB>) => {
    await sql`INSERT INTO release_notes (project_id, key, tag, title, generated_json, status, published_at)
      VALUES (${projectId}::uuid, ${`release:${tag}`}, ${tag}, ${tag}, '{}'::jsonb, 'published', now())`.execute(tx);
    const { rows } = await sql<{ read: string }>`
      SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS read
      FROM pg_stat_xact_user_tables WHERE relname = 'github_link_publishing'`.execute(tx);
    return Number(rows[0]?.read ?? 0);
  });
}

describe('the GitHub trigger on release notes', () => {
  it('reads nothing of other tenants\' GitHub links when a project without publishing publishes', async () => {
    expect(await publishAndCount(quiet.id, 'v1.0.0')).toBeLessThanOrEqual(1);
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM github_release_syncs WHERE tag = 'v1.0.0'`.execute(database.db);
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it('still fans a publishing project\'s note out to each of its links', async () => {
    const read = await publishAndCount(busy.id, 'v2.0.0');
    // The fan-outs read the project's own links (a few passes over them), never the table at large.
    expect(read).toBeGreaterThanOrEqual(BUSY_LINKS);
    const { rows } = await sql<{ n: string; wanted: string }>`
      SELECT count(*) AS n, (SELECT count(*) FROM github_link_publishing WHERE changelog_wanted = 1) AS wanted
      FROM github_release_syncs WHERE tag = 'v2.0.0'`.execute(database.db);
    expect(Number(rows[0]!.n)).toBe(BUSY_LINKS);
    expect(Number(rows[0]!.wanted)).toBe(BUSY_LINKS);
  });
});
