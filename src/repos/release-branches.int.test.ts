// Release branches through the services: a link naming `*.x` ingests main and the maintained 5.x line of a
// real repository; generation gives 5.x's tags release notes ranged within 5.x, while entries stay main's.
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { datedRepository, maintainedLine, tempDir } from '../../test/helpers/git-fixtures.js';
import { AppError } from '../errors.js';
import { MAX_RELEASE_BRANCHES } from '../git/release-branches.js';
import { UNRELEASED_KEY } from '../generation/engine/releases.js';

let ctx: TestContext;
let ownerEmail: string;
const scratch: string[] = [];
const db = () => ctx.services.database.db;

beforeAll(async () => {
  const reposDir = tempDir('mirrors');
  scratch.push(reposDir);
  ctx = await createTestContext({ REPOS_DIR: reposDir });
  ownerEmail = (await buildUser(ctx.services)).email;
});
afterAll(async () => {
  await ctx?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** main: a [v5.11.3] ← b ← c [v6.0.0-alpha.0] ← e; 5.x forked at b: d [v5.12.0] ← f [v5.12.1]; a feature branch beside. */
function fastifyLike() {
  const work = tempDir('release-branches-int');
  scratch.push(work);
  const r = datedRepository(work);
  const sha: Record<string, string> = { ...maintainedLine(r) };
  sha.f = r.commit('01-06', 'fix: a security fix for 5.x');
  r.git('tag', 'v5.12.1');
  r.git('checkout', '--quiet', '-b', 'feature/next', 'main');
  sha.x = r.commit('01-05', 'feat: unmerged work, tagged by mistake');
  r.git('tag', 'v9.9.9');
  r.git('checkout', '--quiet', 'main');
  sha.e = r.commit('01-07', 'feat: typed routes');
  return { ...r, sha };
}

const commitRows = (linkId: string) =>
  db().selectFrom('commits').select(['sha', 'reachable', 'on_tracked_branch']).where('repo_link_id', '=', linkId).execute();
const notes = async (projectId: string) =>
  new Map((await db().selectFrom('release_notes').selectAll().where('project_id', '=', projectId).execute()).map((n) => [n.key, n]));

describe('a link with release branches', () => {
  it('stores 5.x as release-only commits, gives its tags notes within its line, and keeps entries on main', async () => {
    const repo = fastifyLike();
    const project = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
    const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: repo.work, branch: 'main', releaseBranches: [' *.x ', '*.x'] });
    expect(link.release_branches).toEqual(['*.x']);

    const ingested = await ctx.services.ingest.ingestLink(link.id);
    expect(ingested).toMatchObject({ status: 'active', added: 6, changed: true });
    const rows = new Map((await commitRows(link.id)).map((r) => [r.sha, r]));
    expect(rows.get(repo.sha.d!)).toMatchObject({ reachable: true, on_tracked_branch: false });
    expect(rows.get(repo.sha.f!)).toMatchObject({ reachable: true, on_tracked_branch: false });
    expect(rows.get(repo.sha.b!)).toMatchObject({ on_tracked_branch: true });
    // A branch the patterns do not name is not read at all.
    expect(rows.has(repo.sha.x!)).toBe(false);

    await ctx.services.generation.generate(project.slug);
    const stored = await notes(project.id);
    expect([...stored.keys()].sort()).toEqual([UNRELEASED_KEY, 'release:v5.11.3', 'release:v5.12.0', 'release:v5.12.1', 'release:v6.0.0-alpha.0'].sort());
    expect(stored.get('release:v5.12.1')).toMatchObject({ previous_tag: 'v5.12.0', commit_shas: [repo.sha.f] });
    expect(stored.get('release:v5.12.0')).toMatchObject({ previous_tag: 'v5.11.3' });
    expect(stored.get(UNRELEASED_KEY)).toMatchObject({ previous_tag: 'v6.0.0-alpha.0', commit_shas: [repo.sha.e] });

    const entries = await db().selectFrom('changelog_entries').select(['entry_type', 'commit_shas']).where('project_id', '=', project.id).execute();
    const listed = new Set(entries.flatMap((e) => e.commit_shas));
    expect(listed.has(repo.sha.e!)).toBe(true);
    expect(listed.has(repo.sha.d!) || listed.has(repo.sha.f!)).toBe(false);

    // A new patch release on 5.x: read incrementally, its note follows v5.12.1.
    repo.git('checkout', '--quiet', '5.x');
    const g = repo.commit('01-08', 'fix: another 5.x fix');
    repo.git('tag', 'v5.12.2');
    repo.git('checkout', '--quiet', 'main');
    expect(await ctx.services.ingest.ingestLink(link.id)).toMatchObject({ added: 1, changed: true });
    await ctx.services.generation.generate(project.slug);
    expect((await notes(project.id)).get('release:v5.12.2')).toMatchObject({ previous_tag: 'v5.12.1', commit_shas: [g] });

    // 5.x merged into main: its commits are main's from then on (entries list them).
    repo.merge('01-09', '5.x', '--no-ff', '-m', 'Merge branch 5.x');
    await ctx.services.ingest.ingestLink(link.id);
    const merged = new Map((await commitRows(link.id)).map((r) => [r.sha, r]));
    expect(merged.get(repo.sha.f!)).toMatchObject({ reachable: true, on_tracked_branch: true });
  }, 120_000);

  it('forgets the release-only commits when the patterns are removed: their notes are archived', async () => {
    const repo = fastifyLike();
    const project = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
    const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: repo.work, branch: 'main', releaseBranches: ['5.x'] });
    await ctx.services.ingest.ingestLink(link.id);
    await ctx.services.generation.generate(project.slug);
    expect((await notes(project.id)).get('release:v5.12.1')!.status).not.toBe('archived');

    // A head of the last ingest that the mirror no longer has (a force-push, then gc): the branch is read whole again.
    await db().updateTable('repo_links').set({ release_heads: JSON.stringify({ '5.x': 'f'.repeat(40) }) }).where('id', '=', link.id).execute();
    repo.git('checkout', '--quiet', '5.x');
    const h = repo.commit('01-08', 'fix: one more for 5.x');
    repo.git('checkout', '--quiet', 'main');
    expect(await ctx.services.ingest.ingestLink(link.id)).toMatchObject({ status: 'active', added: 1 });
    // 5.x force-pushed back to v5.12.0: what it dropped is no longer reachable, and v5.12.1's note goes.
    repo.git('branch', '--force', '5.x', repo.sha.d!);
    await ctx.services.ingest.ingestLink(link.id);
    const forced = new Map((await commitRows(link.id)).map((r) => [r.sha, r]));
    expect(forced.get(h)).toMatchObject({ reachable: false });
    expect(forced.get(repo.sha.d!)).toMatchObject({ reachable: true, on_tracked_branch: false });
    await ctx.services.generation.generate(project.slug);
    expect((await notes(project.id)).get('release:v5.12.0')!.status).not.toBe('archived');
    repo.git('branch', '--force', '5.x', h);
    await ctx.services.ingest.ingestLink(link.id);

    const updated = await ctx.services.repos.setReleaseBranches(link.id, []);
    expect(updated.release_branches).toEqual([]);
    await ctx.services.ingest.ingestLink(link.id);
    const rows = new Map((await commitRows(link.id)).map((r) => [r.sha, r]));
    expect(rows.get(repo.sha.f!)).toMatchObject({ reachable: false, on_tracked_branch: false });
    await ctx.services.generation.generate(project.slug);
    const after = await notes(project.id);
    expect(after.get('release:v5.12.1')!.status).toBe('archived');
    expect(after.get('release:v6.0.0-alpha.0')!.status).not.toBe('archived');
  }, 120_000);

  it(`reads at most ${MAX_RELEASE_BRANCHES} matching branches, the newest lines, and says so (a repository pushed full of N.x)`, async () => {
    const repo = fastifyLike();
    for (let n = 1; n <= MAX_RELEASE_BRANCHES + 5; n++) if (n !== 5) repo.git('branch', `${n}.x`, 'main');
    const project = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
    const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: repo.work, branch: 'main', releaseBranches: ['*.x'] });
    await ctx.services.ingest.ingestLink(link.id);
    const row = await db().selectFrom('repo_links').select(['status', 'last_error', 'release_heads']).where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    expect(row.last_error).toContain(`match ${MAX_RELEASE_BRANCHES + 5} branches`);
    const heads = Object.keys(row.release_heads);
    expect(heads).toHaveLength(MAX_RELEASE_BRANCHES);
    // Highest names first: 25.x … 6.x; 5.x (the real line) and the lowest are left out.
    expect(heads).toContain(`${MAX_RELEASE_BRANCHES + 5}.x`);
    expect(heads).not.toContain('1.x');
  }, 120_000);

  it("refuses an attacker's patterns with a 400 naming each, and stores nothing", async () => {
    const project = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
    const refused = async (patterns: unknown[]) => {
      const error = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: '/nonexistent', releaseBranches: patterns }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
      return error as AppError;
    };
    const huge = await refused(['x'.repeat(1_000_000)]);
    expect(huge.message.length).toBeLessThan(300);
    expect(huge.details![0]!.message).toContain('at most 100 characters');
    expect((await refused(['*a*a*a*a*a*a*a*a*a*a*a*'])).details![0]!.message).toContain('at most one "*"');
    expect((await refused(['**'])).details![0]!.message).toContain('at most one "*"');
    expect((await refused(['../tags/*'])).details![0]!.message).toContain('".."');
    expect((await refused(['refs/tags/*'])).details![0]!.message).toContain('not a ref');
    expect((await refused(['*'])).details![0]!.message).toContain('every branch');
    expect((await refused(['-x*'])).details![0]!.message).toContain('"-"');
    expect((await refused(['5.x; rm -rf /'])).details![0]!.message).toContain('only letters');
    expect((await refused(Array.from({ length: 11 }, (_, i) => `${i}.x`))).details![0]!.message).toContain('at most 10');
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM repo_links WHERE project_id = ${project.id}`.execute(db());
    expect(Number(rows[0]!.n)).toBe(0);
  });
});
