import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../jobs/worker.js';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { pushCommits, removeRepoCopy, smallRepo, tempDir } from '../../test/helpers/git-fixtures.js';
import { waitFor } from '../../test/helpers/scm.js';
import { AppError } from '../errors.js';
import { SECRET_MESSAGE, checkout, makeEscape, secretRepo, type EscapeVariant } from '../../test/helpers/git-escapes.js';
import { checkGitUrl, checkRestrictedSource, type SourceGrant } from './source-policy.js';
import { linksRepository } from './links.repository.js';

let ctx: TestContext;
let scratch: string;
let allowed: string;
let owner: { email: string };
const repos: string[] = [];

const repo = (options: Parameters<typeof smallRepo>[0] = {}) => {
  const dir = smallRepo(options);
  repos.push(dir);
  return dir;
};

const project = () => buildProject(ctx.services, { type: 'user', email: owner.email });
/** What the installation owner may link from the dashboard (dashboard/access.ts decides who that is). */
const GRANTED: SourceGrant = { localPaths: true };
const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a failure');
};
const linkCount = async (projectId: string) => (await ctx.services.repos.listLinksOfProject(projectId)).length;
const commitsOf = async (projectId: string) =>
  ctx.services.database.db.selectFrom('commits').select(['sha', 'repo_link_id']).where('project_id', '=', projectId).execute();

beforeAll(async () => {
  scratch = tempDir('links');
  allowed = join(scratch, 'allowed');
  mkdirSync(allowed, { recursive: true });
  ctx = await createTestContext({ REPOS_DIR: join(scratch, 'mirrors'), REPO_PATHS_ALLOWED: allowed });
  owner = await buildUser(ctx.services);
});

afterAll(async () => {
  await ctx?.services.jobs.stop();
  await ctx?.close();
  for (const dir of repos) removeRepoCopy(dir);
  rmSync(scratch, { recursive: true, force: true });
});

describe('linking: branches', () => {
  it("tracks the repository's default branch (its HEAD) when no branch is given, not main", async () => {
    const p = await project();
    const { link, created } = await ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: repo({ defaultBranch: 'trunk' }) });
    expect(created).toBe(true);
    expect(link).toMatchObject({ tracked_branch: 'trunk', default_branch: 'trunk', restricted: false });
    // Queued for the worker, shown as such.
    expect((await linksRepository.findLink(ctx.services.database.db, link.id))!.sync_state).toBe('queued');
  });

  it('refuses a branch that does not exist, naming it and the branches there are, and stores nothing', async () => {
    const p = await project();
    const dir = repo({ branches: ['develop', 'release/1.0'] });
    const error = await failure(ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: dir, branch: 'main' }));
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(422);
    expect(error.message).toBe(`Branch main does not exist in ${dir}; its branches: develop, release/1.0, trunk`);
    expect(await linkCount(p.id)).toBe(0);
  });

  it('caps the list of branches in the message', async () => {
    const p = await project();
    const dir = repo({ branches: Array.from({ length: 30 }, (_, i) => `b${String(i).padStart(2, '0')}`) });
    const error = await failure(ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: dir, branch: 'nope' }));
    expect(error.message).toMatch(/its branches: b00, b01, .*b19 \(and 11 more\)$/);
  });

  it('refuses garbage and huge branch names before asking git', async () => {
    const p = await project();
    for (const branch of ['a..b', '-x', 'x'.repeat(300), 'a b', 'refs/heads/../x', '@{-1}']) {
      const error = await failure(ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: repo(), branch }));
      expect(error.status).toBe(400);
    }
    expect(await linkCount(p.id)).toBe(0);
  });

  it('says so when the directory is not a git repository', async () => {
    const p = await project();
    const error = await failure(ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: scratch }));
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/^Cannot read the repository at /);
  });

  it('changes the tracked branch (checked the same way) and re-ingests', async () => {
    const p = await project();
    const dir = repo({ branches: ['feature'] });
    const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: dir });
    await ctx.services.ingest.ingestLink(link.id);
    const extra = pushCommits(dir, 2, { branch: 'feature', message: (i) => `fix: on feature ${i}` });
    expect((await failure(ctx.services.repos.setBranch(link.id, 'missing'))).message).toMatch(/Branch missing does not exist.*feature, trunk/);
    expect((await failure(ctx.services.repos.setBranch(link.id, 'bad..name'))).status).toBe(400);
    const changed = await ctx.services.repos.setBranch(link.id, 'feature');
    expect(changed).toMatchObject({ tracked_branch: 'feature', status: 'pending', sync_state: 'queued' });
    const result = await ctx.services.ingest.ingestLink(link.id);
    expect(result.added).toBe(2);
    expect((await commitsOf(p.id)).map((c) => c.sha)).toEqual(expect.arrayContaining(extra));
  });
});

describe('unlinking', () => {
  it('keeps the commits (and entries) by default, and deletes the commits with purge', async () => {
    const p = await project();
    const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: repo({ commits: 4 }) });
    await ctx.services.ingest.ingestLink(link.id);
    await ctx.services.generation.generate(p.slug);
    const entries = await ctx.services.entries.listForProject(p.id);
    expect(entries.length).toBeGreaterThan(0);
    await ctx.services.repos.unlink(link.id);
    expect(await linkCount(p.id)).toBe(0);
    const kept = await commitsOf(p.id);
    expect(kept).toHaveLength(4);
    expect(kept.every((c) => c.repo_link_id === null)).toBe(true);
    expect(await ctx.services.entries.listForProject(p.id)).toHaveLength(entries.length);

    const second = await ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: repo({ commits: 2 }) });
    await ctx.services.ingest.ingestLink(second.link.id);
    // Its first commit may be the first repository's (same content and second): that one stays the project's.
    const own = (await commitsOf(p.id)).filter((c) => c.repo_link_id === second.link.id).length;
    expect(own).toBeGreaterThan(0);
    const purged = await ctx.services.repos.unlink(second.link.id, { purge: true });
    expect(purged.purgedCommits).toBe(own);
    expect(await commitsOf(p.id)).toHaveLength(4);
  });

  it('is a 404 for a link that does not exist', async () => {
    expect((await failure(ctx.services.repos.unlink('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
  });
});

describe('syncing', () => {
  it('records progress, commits added and when; a failure keeps its (redacted) error and does not block other links', async () => {
    const p = await project();
    const good = await ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: repo({ commits: 3 }) });
    const brokenDir = repo();
    const broken = await ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: brokenDir });
    // The broken link's repository disappears; its URL-shaped source carries a credential.
    await ctx.services.database.db
      .updateTable('repo_links')
      .set({ source_url: 'https://user:s3cret-token@127.0.0.1:1/x.git' })
      .where('id', '=', broken.link.id)
      .execute();
    const again = await project();
    const other = await ctx.services.repos.linkLocalRepo({ projectSlug: again.slug, source: repo({ commits: 2 }) });

    await startWorker(ctx.services);
    for (const id of [good.link.id, broken.link.id, other.link.id]) await ctx.services.repos.syncNow(id);
    const done = await waitFor(async () => {
      const rows = await Promise.all([good, broken, other].map((l) => linksRepository.findLink(ctx.services.database.db, l.link.id)));
      return rows.every((r) => r!.last_synced_at !== null && r!.sync_state === 'idle') ? rows : undefined;
    }, 30_000, 'every link synced once');
    const [g, b, o] = done;
    expect(g).toMatchObject({ status: 'active', last_sync_added: 3, sync_done: 3, sync_total: 3, last_error: null });
    expect(o).toMatchObject({ status: 'active', last_sync_added: 2 });
    expect(b!.status).toBe('error');
    expect(b!.last_error).toMatch(/git/);
    expect(b!.last_error).not.toContain('s3cret-token');
  });

  // The worker started above runs the ingests and generations.
  it('queues generation after a sync that brought something, not after one that found nothing new', async () => {
    const p = await project();
    const dir = repo({ commits: 2 });
    const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: dir });
    const generations = async () =>
      Number((await ctx.services.database.executeSql(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'generate' AND data->>'projectId' = $1`, [p.id])).rows[0]!.n);
    const syncedAfter = async (since: Date | null) =>
      waitFor(async () => {
        const row = await linksRepository.findLink(ctx.services.database.db, link.id);
        return row!.sync_state === 'idle' && row!.last_synced_at !== null && (since === null || row!.last_synced_at > since) ? row!.last_synced_at : undefined;
      }, 30_000, 'the sync');
    const first = await syncedAfter(null);
    await waitFor(async () => ((await generations()) === 1 ? true : undefined), 30_000, 'the first generation queued');
    await ctx.services.repos.syncNow(link.id);
    const second = await syncedAfter(first);
    expect(await generations()).toBe(1);
    pushCommits(dir, 1, { branch: 'trunk', message: () => 'feat: something new' });
    await ctx.services.repos.syncNow(link.id);
    await syncedAfter(second);
    expect(await generations()).toBe(2);
  });

  it('polls links without push webhooks: a new commit arrives without anyone running a command', async () => {
    const p = await project();
    const dir = repo({ commits: 1 });
    const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: p.slug, source: dir });
    await ctx.services.ingest.ingestLink(link.id);
    const [sha] = pushCommits(dir, 1, { branch: 'trunk', message: () => 'feat: arrives by polling' });
    // A second worker start adds no second chain of polls (jobs of one key collapse).
    const { workPollJobs } = await import('./ingest.job.js');
    await workPollJobs(ctx.services.jobs, ctx.services.repos, 1);
    await workPollJobs(ctx.services.jobs, ctx.services.repos, 1);
    await waitFor(async () => ((await commitsOf(p.id)).some((c) => c.sha === sha) ? true : undefined), 30_000, 'the polled commit');
    const { rows } = await ctx.services.database.executeSql(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'repo-poll' AND state IN ('created', 'retry')`,
      [],
    );
    expect(Number(rows[0]!.n)).toBeLessThanOrEqual(1);
  });
});

describe('what the dashboard may link (source-policy)', () => {
  const policy = () => ({ pathsAllowed: [allowed], resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
  const refused = async (source: string, pattern: RegExp, p = policy()) => {
    const error = await failure(checkRestrictedSource(source, p, GRANTED));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(pattern);
  };

  it('accepts a directory inside REPO_PATHS_ALLOWED, stored as its real path', async () => {
    const inside = join(allowed, 'project');
    mkdirSync(inside, { recursive: true });
    symlinkSync(inside, join(allowed, 'alias'));
    expect((await checkRestrictedSource(join(allowed, 'alias'), policy(), GRANTED)).stored).toBe(inside);
    expect((await checkRestrictedSource(`${allowed}/x/../project`, policy(), GRANTED)).stored).toBe(inside);
  });

  it('refuses paths outside it, also through .. and a symlink, and any path when it is unset', async () => {
    const outside = join(scratch, 'outside');
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, join(allowed, 'escape'));
    await refused(outside, /must be inside/);
    await refused(`${allowed}/../outside`, /must be inside/);
    await refused(join(allowed, 'escape'), /must be inside/);
    await refused('/etc', /must be inside/);
    await refused('relative/path', /must be absolute/);
    await refused(allowed.replace(/\/$/, '') + '-sibling', /must be inside/);
    await refused(join(allowed, 'project'), /Local paths cannot be linked from the dashboard/, { pathsAllowed: [], resolve: policy().resolve });
  });

  it('refuses file://, http://, ssh:// and private, loopback or reserved hosts', async () => {
    await refused('file:///etc', /Only https:\/\//);
    await refused('http://127.0.0.1/x.git', /Only https:\/\//);
    await refused('ssh://git@github.com/a/b.git', /SSH URLs cannot be linked from the dashboard/);
    await refused('git@github.com:a/b.git', /SSH URLs/);
    await refused('https://10.0.0.1/repo.git', /private, loopback/);
    await refused('https://[::1]/repo.git', /private, loopback/);
    await refused('https://169.254.169.254/latest', /private, loopback/);
    await refused('https://localhost/repo.git', /does not resolve to a public address/, { pathsAllowed: [], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    await refused('https://rebind.example/repo.git', /does not resolve to a public address/, {
      pathsAllowed: [],
      resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 }],
    });
    await refused('https://user:token@example.com/repo.git', /must not contain a user name, password or token/);
    await refused('--upload-pack=touch /tmp/x', /must not start with "-"/);
  });

  it('pins a public https URL to the address it checked', async () => {
    const checked = await checkGitUrl('https://git.example.com:8443/team/repo.git', async () => [{ address: '93.184.216.34', family: 4 }]);
    expect(checked.git.pinned).toEqual({ host: 'git.example.com', port: 8443, address: '93.184.216.34' });
    expect(checked.stored).toBe('https://git.example.com:8443/team/repo.git');
  });

  it('re-checks a dashboard link before each fetch: a path swapped for a symlink out fails the sync with that reason', async () => {
    const p = await project();
    const inside = join(allowed, 'swapped.git');
    execFileSync('git', ['clone', '--quiet', '--bare', repo(), inside]);
    const { link } = await ctx.services.repos.linkFromDashboard(p.id, { source: inside }, GRANTED);
    expect(link).toMatchObject({ restricted: true, tracked_branch: 'trunk', source_url: inside });
    rmSync(inside, { recursive: true, force: true });
    symlinkSync(repo(), inside);
    expect((await failure(ctx.services.ingest.ingestLink(link.id))).message).toMatch(/must be inside/);
    expect(await linksRepository.findLink(ctx.services.database.db, link.id)).toMatchObject({ status: 'error', last_error: expect.stringMatching(/must be inside/) });
  });

  it('answers anyone not granted local paths alike, whether the path exists, is missing, outside or not even absolute', async () => {
    const existing = join(allowed, 'granted-only');
    checkout(existing, ['feat: one']);
    const answers = new Set<string>();
    for (const source of [existing, join(allowed, 'missing'), '/etc', join(scratch, 'outside'), 'relative/path', `${allowed}/../x`]) {
      const error = await failure(checkRestrictedSource(source, policy(), { localPaths: false }));
      answers.add(JSON.stringify({ status: error.status, code: error.code, message: error.message, details: error.details }));
    }
    expect([...answers]).toEqual([expect.stringContaining('Only the installation owner')]);
    // URLs are for everyone.
    expect((await checkRestrictedSource('https://git.example.com/a.git', policy(), { localPaths: false })).stored).toBe('https://git.example.com/a.git');
    const p = await project();
    await failure(ctx.services.repos.linkFromDashboard(p.id, { source: existing }, { localPaths: false }));
    expect(await linkCount(p.id)).toBe(0);
  });
});

describe('repositories that reach outside the allowed directories (issue 21)', () => {
  let secret: { gitDir: string; sha: string };
  beforeAll(() => {
    secret = secretRepo(join(scratch, 'secret'));
  });

  const escapes: EscapeVariant[] = ['commondir', 'gitfile', 'alternates', 'relative-alternates', 'objects-symlink', 'ref-symlink', 'config-include'];
  it.each(escapes)('%s: refused with 400 when linked, naming nothing outside, and nothing is linked', async (variant) => {
    const p = await project();
    const dir = makeEscape(variant, allowed, secret);
    const error = await failure(ctx.services.repos.linkFromDashboard(p.id, { source: dir }, GRANTED));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/leads outside the allowed directories|includes other files/);
    expect(error.message).not.toContain(join(scratch, 'secret'));
    expect(error.message).not.toContain(secret.sha);
    expect(await linkCount(p.id)).toBe(0);
  });

  it('a linked checkout that grows a commondir naming another repository: its next sync fails and stores nothing of it', async () => {
    const p = await project();
    const work = join(allowed, 'grows-commondir');
    checkout(work, ['feat: harmless']);
    const { link } = await ctx.services.repos.linkFromDashboard(p.id, { source: work }, GRANTED);
    await ctx.services.ingest.ingestLink(link.id);
    expect((await commitsOf(p.id)).length).toBe(1);
    execFileSync('sh', ['-c', `echo "${secret.gitDir}" > "${join(work, '.git', 'commondir')}"`]);
    expect((await failure(ctx.services.ingest.ingestLink(link.id))).message).toMatch(/commondir file leads outside the allowed directories/);
    expect((await commitsOf(p.id)).map((c) => c.sha)).not.toContain(secret.sha);
    const messages = await ctx.services.database.db.selectFrom('commits').select('message').where('project_id', '=', p.id).execute();
    expect(messages.map((m) => m.message)).not.toContain(SECRET_MESSAGE);
    expect(await linksRepository.findLink(ctx.services.database.db, link.id)).toMatchObject({ status: 'error' });
  });
});
