// Security issue #21: what one tenant's repository or remote can do to ingestion, everyone's.
// - Finding 4: a remote that advertises its refs and never sends the pack kept every other link
//   "pending": one ingest at a time, and git without a timeout. Ingests now run a few at once, one
//   per link, a tenant never holding every slot, and each git command gives up as "timed out".
// - Suspected: a repository with more tags than anyone reads; hand-made commits git prints with
//   unstorable dates (their batch failed on every retry).
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildOrg, buildProject, buildUser } from '../../test/helpers/factories.js';
import { smallRepo, removeRepoCopy, tempDir } from '../../test/helpers/git-fixtures.js';
import { createManyRefsRepo, createRawCommitRepo, startStuckRemote, type HostileRepo, type StuckRemote } from '../../test/helpers/hostile-repos.js';
import { waitFor } from '../../test/helpers/scm.js';
import { MAX_TAGS } from '../git/mirror.js';
import { startWorker } from '../jobs/worker.js';
import { TAGS_CUT_WARNING } from './ingest.service.js';

let ctx: TestContext;
let reposDir: string;
const cleanup: (() => unknown)[] = [];

beforeAll(async () => {
  reposDir = tempDir('hostile-mirrors');
  // A stall limit of 2 s (the default is a minute): a stuck fetch ends within the test.
  ctx = await createTestContext({ REPOS_DIR: reposDir, GIT_STALL_TIMEOUT_MS: '2000', GIT_TIMEOUT_MS: '30000' });
});

afterAll(async () => {
  await ctx?.services.jobs.stop();
  await ctx?.close();
  for (const step of cleanup.reverse()) await step();
  rmSync(reposDir, { recursive: true, force: true });
});

const linkRow = (id: string) => ctx.services.database.db.selectFrom('repo_links').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function linkFor(owner: { type: 'user'; email: string } | { type: 'org'; slug: string }, source: string) {
  const project = await buildProject(ctx.services, owner);
  const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source, branch: 'main' });
  return { project, link };
}

describe('ingesting hostile repositories', () => {
  it('stores hand-made commits whose dates git cannot print (a NUL in the author line), and the ones after them', async () => {
    const repo: HostileRepo = createRawCommitRepo([
      { author: 'Mallory\0Evil <mallory\0@example.com> 1700000000 +0000', message: 'feat: a NUL in the author line\n' },
      { author: 'Mallory <mallory@example.com> 99999999999999 +0000', message: 'feat: a date past the year 9999\n' },
      { author: 'Mallory <mallory@example.com> 1700000000 +9999', message: 'feat: an offset of 99 hours\n' },
    ]);
    cleanup.push(() => repo.remove());
    const user = await buildUser(ctx.services);
    const { link } = await linkFor({ type: 'user', email: user.email }, repo.dir);
    const result = await ctx.services.ingest.ingestLink(link.id);
    expect(result).toMatchObject({ status: 'active', added: 5 });
    expect(await linkRow(link.id)).toMatchObject({ status: 'active', last_error: null });
    const stored = await ctx.services.database.db.selectFrom('commits').select(['sha', 'authored_at']).where('repo_link_id', '=', link.id).execute();
    const at = new Map(stored.map((row) => [row.sha, new Date(row.authored_at).toISOString()]));
    expect(at.get(repo.commits[1]!.sha)).toBe('1970-01-01T00:00:00.000Z');
    expect(at.get(repo.commits[2]!.sha)).toBe('1970-01-01T00:00:00.000Z');
    expect(at.get(repo.commits[3]!.sha)).toBe('2023-11-14T22:13:20.000Z');
    expect(at.has(repo.commits[4]!.sha)).toBe(true);
  });

  it('reads the newest MAX_TAGS tags of a repository with more, and says so in the link status', async () => {
    // Just past the cap (a hundred tags a commit: the oldest commit's are left out), as cloning tags is git's time.
    const repo = createManyRefsRepo({ tags: MAX_TAGS + 100, commits: 101 });
    cleanup.push(() => repo.remove());
    const user = await buildUser(ctx.services);
    const { link } = await linkFor({ type: 'user', email: user.email }, repo.dir);
    const result = await ctx.services.ingest.ingestLink(link.id);
    expect(result.status).toBe('active');
    expect(await linkRow(link.id)).toMatchObject({ status: 'active', last_error: TAGS_CUT_WARNING });
    const { rows } = await sql<{ n: number; newest: boolean; oldest: boolean }>`
      SELECT count(*)::int AS n, bool_or(t = 'v0.10.99') AS newest, bool_or(t = 'v0.0.0') AS oldest
      FROM commits, unnest(tags) AS t WHERE repo_link_id = ${link.id}`.execute(ctx.services.database.db);
    expect(rows[0]).toEqual({ n: MAX_TAGS, newest: true, oldest: false });
    // The API shows it as the link's warning (status active).
    const listed = await ctx.services.repos.listLinksOfProject(result.projectId);
    expect(listed[0]?.last_error).toMatch(/more than 10,000 tags: only the newest 10,000 were read/);
  }, 120_000);
});

describe("a stuck remote of one tenant, and another tenant's link", () => {
  let stuck: StuckRemote;
  let fine: string;
  let sibling: string;

  beforeAll(async () => {
    stuck = await startStuckRemote();
    fine = smallRepo({ defaultBranch: 'main', commits: 3 });
    sibling = smallRepo({ defaultBranch: 'main', commits: 2 });
    cleanup.push(() => stuck.close(), () => removeRepoCopy(fine), () => removeRepoCopy(sibling));
  });

  it('syncs the other tenant at once, the stuck tenant\'s other link too, and fails the stuck link as timed out', async () => {
    const a = await buildUser(ctx.services);
    const org = await buildOrg(ctx.services, a.email);
    const b = await buildUser(ctx.services);
    // Tenant A (an organization): the stuck remote is linked first and its fetch hangs.
    const stuckLink = (await linkFor({ type: 'org', slug: org.slug }, stuck.url)).link;
    await startWorker(ctx.services);
    await waitFor(async () => (stuck.fetchesHeld() > 0 ? true : undefined), 10_000, "the stuck remote's first fetch");
    // A second press of "Sync now" while it hangs: one ingest of a link at a time, in any process.
    await ctx.services.repos.syncNow(stuckLink.id);

    const started = Date.now();
    const other = (await linkFor({ type: 'user', email: b.email }, fine)).link;
    const sameTenant = (await linkFor({ type: 'org', slug: org.slug }, sibling)).link;
    const active = async (id: string) => ((await linkRow(id)).status === 'active' ? Date.now() - started : undefined);
    const otherMs = await waitFor(() => active(other.id), 10_000, "the other tenant's sync");
    const siblingMs = await waitFor(() => active(sameTenant.id), 10_000, "the stuck tenant's other link");
    // Before the stuck fetch's stall limit (2 s) ran out it could not have been queued behind it.
    expect(otherMs).toBeLessThan(5_000);
    expect(siblingMs).toBeLessThan(5_000);
    expect(await ctx.services.repos.commitCountsByLink((await linkRow(other.id)).project_id)).toEqual(new Map([[other.id, 3]]));

    // The queued second sync may start the moment the first attempt fails (and stall 2 s in turn):
    // wait until the link is failed with no attempt running, which a sync stuck in 'running' never is.
    const failed = await waitFor(async () => {
      const row = await linkRow(stuckLink.id);
      return row.status === 'error' && row.sync_state !== 'running' ? row : undefined;
    }, 20_000, 'the stuck link to fail');
    expect(failed.last_error).toMatch(/^git clone timed out: the remote sent less than 1,000 bytes\/s for 2 s/);
    // The queued second sync ran only after the first attempt ended.
    expect(stuck.fetchesHeld()).toBeLessThanOrEqual(2);
  }, 60_000);
});
