import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { signUpTeam, type DashboardClient, type Person } from '../../test/helpers/dashboard-client.js';
import { removeRepoCopy, smallRepo, tempDir } from '../../test/helpers/git-fixtures.js';
import { buildApp } from '../app.js';
import { createServices, type Services } from '../services.js';

let database: TestDatabase;
let services: Services;
let app: FastifyInstance;
let scratch: string;
let allowed: string;
let origin: string;
let people: Record<Person, DashboardClient>;

/** Names resolve to public addresses, except localhost (as a real resolver would): no DNS in tests. */
const resolver = async (hostname: string) => [{ address: hostname === 'localhost' ? '127.0.0.1' : '93.184.216.34', family: 4 }];

beforeAll(async () => {
  scratch = tempDir('dash-repos');
  allowed = join(scratch, 'allowed');
  mkdirSync(allowed, { recursive: true });
  origin = smallRepo({ defaultBranch: 'trunk', commits: 2, branches: ['develop'] });
  execFileSync('git', ['clone', '--quiet', '--bare', origin, join(allowed, 'app.git')]);
  execFileSync('git', ['clone', '--quiet', '--bare', origin, join(allowed, 'blog.git')]);
  database = await createTestDatabase();
  const config = testConfig({ SIGNUP_OPEN: 'true', REPO_PATHS_ALLOWED: allowed, REPO_PATHS_ORGS: 'bobs-team', REPOS_DIR: join(scratch, 'mirrors') });
  services = createServices(database, config, { resolve: resolver });
  app = await buildApp({ config, database, services });
  // acme: alice owner, carol member; bob and dave are outside it. alice-blog is alice's own.
  people = await signUpTeam(app, services, { carol: 'member' });
  await people.alice.submit('/dashboard/orgs/acme', '/dashboard/orgs/acme/projects', { name: 'Acme App', slug: 'acme-app' });
  await people.alice.submit('/dashboard/personal', '/dashboard/personal/projects', { name: 'Alice Blog', slug: 'alice-blog' });
  await people.bob.submit('/dashboard/personal', '/dashboard/personal/projects', { name: 'Bob Site', slug: 'bob-site' });
});

afterAll(async () => {
  await services?.jobs.stop();
  await app?.close();
  await database?.close();
  if (origin) removeRepoCopy(origin);
  rmSync(scratch, { recursive: true, force: true });
});

const linksOf = async (slug: string) => {
  const project = await services.projects.findBySlug(slug);
  return services.repos.listLinksOfProject(project!.id);
};
const linkForm = (who: DashboardClient, slug: string, form: Record<string, string>) =>
  who.submit(`/dashboard/projects/${slug}`, `/dashboard/projects/${slug}/repos`, form);

describe('linking from the dashboard', () => {
  it('an empty workspace says what comes after creating a project, and where its page will be', async () => {
    const page = await people.carol.get('/dashboard/personal');
    expect(page.body).toContain('No projects yet. Create one below, then link its repository on its page');
    expect(page.body).toContain('Used in the public URLs /c/&lt;slug&gt; and /v1/changelog/&lt;slug&gt;');
  });

  it('links a local path on the default branch and shows it queued, then synced with its commits', async () => {
    const res = await linkForm(people.alice, 'acme-app', { source: join(allowed, 'app.git'), branch: '' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/projects/acme-app?notice=repo-linked');
    const [link] = await linksOf('acme-app');
    expect(link).toMatchObject({ tracked_branch: 'trunk', restricted: true, sync_state: 'queued' });
    const page = await people.alice.get(res.location!);
    expect(page.body).toContain('Repository linked');
    expect(page.body).toContain(join(allowed, 'app.git'));
    expect(page.body).toMatch(/<span class="badge pending">queued<\/span>/);
    expect(page.body).toContain('data-refresh-seconds');

    await services.ingest.ingestLink(link!.id);
    const synced = await people.alice.get('/dashboard/projects/acme-app');
    expect(synced.body).toMatch(/synced <time[^>]*>[^<]*<\/time> · 2 new/);
    expect(synced.body).toContain('2 commits stored');
    expect(synced.body).not.toContain('data-refresh-seconds');
  });

  it('keeps reloading after the sync while the entries of the new commits are generated, then stops', async () => {
    const project = await services.projects.findBySlug('acme-app');
    // What the ingest job queues before the link's sync shows as finished (no worker runs in this file).
    await services.jobs.send('generate', { projectId: project!.id }, { key: project!.id });
    const generating = await people.alice.get('/dashboard/projects/acme-app');
    expect(generating.body).toContain('Generating entries from the stored commits');
    expect(generating.body).toContain('data-refresh-seconds');
    // A member, who may not manage the project, sees the same state.
    expect((await people.carol.get('/dashboard/projects/acme-app')).body).toContain('Generating entries');

    await services.jobs.work('generate', ({ projectId }) => services.generation.generateProject(projectId).then(() => {}));
    await expect.poll(() => services.repos.generationPending(project!.id), { timeout: 20_000 }).toBe(false);
    const done = await people.alice.get('/dashboard/projects/acme-app');
    expect(done.body).not.toContain('data-refresh-seconds');
    expect(done.body).toContain('First change');
  });

  it('lists a project\'s entries newest first by their own date, not by when they were stored', async () => {
    // Stored in one go, as a first sync stores years of history.
    await services.entries.import('alice-blog', [
      { entry_type: 'weekly', title: 'Week of March', period_start: '2024-03-04T00:00:00Z', period_end: '2024-03-11T00:00:00Z' },
      { entry_type: 'weekly', title: 'Week of July', period_start: '2024-07-01T00:00:00Z', period_end: '2024-07-08T00:00:00Z' },
      { entry_type: 'weekly', title: 'Week of January', period_start: '2024-01-01T00:00:00Z', period_end: '2024-01-08T00:00:00Z' },
    ]);
    const page = await people.alice.get('/dashboard/projects/alice-blog');
    const titles = [...page.body.matchAll(/<a href="\/dashboard\/entries\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
    expect(titles).toEqual(['Week of July', 'Week of March', 'Week of January']);
    expect(page.body).toContain('<th scope="col" class="hide-sm">Date</th>');
  });

  it('refuses a missing branch with 422, naming the branches, and stores nothing', async () => {
    const res = await linkForm(people.alice, 'alice-blog', { source: join(allowed, 'blog.git'), branch: 'main' });
    expect(res.status).toBe(422);
    expect(res.body).toContain(`Branch main does not exist in ${join(allowed, 'blog.git')}; its branches: develop, trunk`);
    // The form keeps what was typed.
    expect(res.body).toContain(`value="${join(allowed, 'blog.git')}"`);
    expect(await linksOf('alice-blog')).toHaveLength(0);
  });

  it('refuses paths outside REPO_PATHS_ALLOWED (also through .. and symlinks) and non-public URLs with 400', async () => {
    symlinkSync(origin, join(allowed, 'escape.git'));
    const sources = [
      origin,
      `${allowed}/../${origin.split('/').slice(-2).join('/')}`,
      join(allowed, 'escape.git'),
      'file:///etc',
      'http://127.0.0.1/x.git',
      'https://10.0.0.1/x.git',
      'https://localhost/x.git',
      'ssh://git@example.com/x.git',
      'https://user:token@example.com/x.git',
    ];
    for (const source of sources) {
      const res = await linkForm(people.alice, 'alice-blog', { source, branch: '' });
      expect(res.status, source).toBe(400);
      expect(res.body).toContain('class="notice error"');
    }
    for (const branch of ['a..b', 'x'.repeat(300), '-rf']) {
      expect((await linkForm(people.alice, 'alice-blog', { source: join(allowed, 'blog.git'), branch })).status).toBe(400);
    }
    expect(await linksOf('alice-blog')).toHaveLength(0);
  });

  it('changes the branch, queues a sync, and unlinks keeping the commits', async () => {
    const [link] = await linksOf('acme-app');
    const base = `/dashboard/projects/acme-app/repos/${link!.id}`;
    const missing = await people.alice.submit('/dashboard/projects/acme-app', `${base}/branch`, { branch: 'nope' });
    expect(missing.status).toBe(422);
    expect(missing.body).toContain('Branch nope does not exist');
    const changed = await people.alice.submit('/dashboard/projects/acme-app', `${base}/branch`, { branch: 'develop' });
    expect(changed.location).toBe('/dashboard/projects/acme-app?notice=repo-branch-changed');
    expect((await linksOf('acme-app'))[0]).toMatchObject({ tracked_branch: 'develop', sync_state: 'queued' });

    // Release branches: an attacker's pattern is refused on the page, naming it; good ones are shown and re-sync.
    const refused = await people.alice.submit('/dashboard/projects/acme-app', `${base}/release-branches`, { releaseBranches: '*.x, ../../tags/*' });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('release-branch pattern');
    expect((await linksOf('acme-app'))[0]!.release_branches).toEqual([]);
    const released = await people.alice.submit('/dashboard/projects/acme-app', `${base}/release-branches`, { releaseBranches: '*.x, release/*' });
    expect(released.location).toBe('/dashboard/projects/acme-app?notice=repo-release-branches-changed');
    expect((await linksOf('acme-app'))[0]).toMatchObject({ release_branches: ['*.x', 'release/*'] });
    expect((await people.alice.get('/dashboard/projects/acme-app')).body).toContain('release branches *.x, release/*');

    const synced = await people.alice.submit('/dashboard/projects/acme-app', `${base}/sync`);
    expect(synced.location).toBe('/dashboard/projects/acme-app?notice=repo-sync-queued');

    const unlinked = await people.alice.submit('/dashboard/projects/acme-app', `${base}/unlink`);
    expect(unlinked.location).toBe('/dashboard/projects/acme-app?notice=repo-unlinked');
    expect(await linksOf('acme-app')).toHaveLength(0);
    const project = await services.projects.findBySlug('acme-app');
    expect((await services.repos.commitCounts(project!.id)).total).toBe(2);
  });
});

describe('who may see and manage links', () => {
  let blogLink: string;
  let appLink: string;

  beforeAll(async () => {
    expect((await linkForm(people.alice, 'alice-blog', { source: join(allowed, 'blog.git'), branch: 'trunk' })).status).toBe(303);
    expect((await linkForm(people.alice, 'acme-app', { source: join(allowed, 'app.git'), branch: '' })).status).toBe(303);
    blogLink = (await linksOf('alice-blog'))[0]!.id;
    appLink = (await linksOf('acme-app'))[0]!.id;
  });

  const actions = (slug: string, id: string) => [
    [`/dashboard/projects/${slug}/repos`, { source: join(allowed, 'app.git'), branch: '' }],
    [`/dashboard/projects/${slug}/repos/${id}/sync`, {}],
    [`/dashboard/projects/${slug}/repos/${id}/branch`, { branch: 'develop' }],
    [`/dashboard/projects/${slug}/repos/${id}/release-branches`, { releaseBranches: '*.x' }],
    [`/dashboard/projects/${slug}/repos/${id}/unlink`, { purge: 'on' }],
  ] as const;

  it('another tenant gets 404 for every action and the page, and learns nothing', async () => {
    for (const [action, form] of actions('alice-blog', blogLink)) {
      const res = await people.dave.submit('/dashboard', action, form);
      expect(res.status, action).toBe(404);
      expect(res.body).not.toContain(blogLink);
    }
    expect((await people.dave.get('/dashboard/projects/acme-app')).status).toBe(404);
    // A link of someone else's project, reached through one's own project: not found either.
    for (const [action, form] of actions('bob-site', blogLink).slice(1)) {
      expect((await people.bob.submit('/dashboard/projects/bob-site', action, form)).status, action).toBe(404);
    }
    expect(await linksOf('alice-blog')).toHaveLength(1);
    expect((await linksOf('alice-blog'))[0]!.tracked_branch).toBe('trunk');
  });

  it('an organization member sees the links but may not change them (403)', async () => {
    const page = await people.carol.get('/dashboard/projects/acme-app');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Repositories');
    expect(page.body).toContain('app.git');
    expect(page.body).not.toContain('/repos/' + appLink + '/unlink');
    for (const [action, form] of actions('acme-app', appLink)) {
      expect((await people.carol.submit('/dashboard/projects/acme-app', action, form)).status, action).toBe(403);
    }
    expect(await linksOf('acme-app')).toHaveLength(1);
  });

  it('a link id that is not a uuid, or of another of the user\'s projects, is 404', async () => {
    expect((await people.alice.submit('/dashboard/projects/acme-app', '/dashboard/projects/acme-app/repos/not-a-uuid/sync')).status).toBe(404);
    expect((await people.alice.submit('/dashboard/projects/acme-app', `/dashboard/projects/acme-app/repos/${blogLink}/unlink`)).status).toBe(404);
    expect(await linksOf('alice-blog')).toHaveLength(1);
  });

  it('every form needs the CSRF token', async () => {
    for (const [action, form] of actions('alice-blog', blogLink)) {
      for (const _csrf of [null, 'forged']) {
        expect((await people.alice.post(action, { ...form, _csrf })).status, action).toBe(403);
      }
    }
    expect((await linksOf('alice-blog'))[0]!.tracked_branch).toBe('trunk');
  });

  it('shows a failed sync\'s error without the credential a URL carried', async () => {
    await database.db
      .updateTable('repo_links')
      .set({ status: 'error', last_error: 'git fetch failed: unable to access https://bob:hunter2@git.example.com/x.git/' })
      .where('id', '=', blogLink)
      .execute();
    const page = await people.alice.get('/dashboard/projects/alice-blog');
    expect(page.body).toContain('Last error: git fetch failed: unable to access https://git.example.com/x.git/');
    expect(page.body).not.toContain('hunter2');
  });
});

describe('who may link local paths (the operator grants REPO_PATHS_ALLOWED)', () => {
  /** The error notice and the field's message, without what the form echoes back. */
  const answerOf = (res: { status: number; body: string }) => ({
    status: res.status,
    notice: /<div class="notice error" role="alert">([\s\S]*?)<\/div>/.exec(res.body)?.[1],
  });

  beforeAll(async () => {
    for (const slug of ['bobs-team', 'bobs-other']) {
      await people.bob.submit('/dashboard', '/dashboard/orgs', { name: slug, slug });
      await people.bob.submit(`/dashboard/orgs/${slug}`, `/dashboard/orgs/${slug}/projects`, { name: `${slug} app`, slug: `${slug}-app` });
    }
    const db = services.database.db;
    const org = await services.orgs.membership('bobs-team', (await db.selectFrom('users').select('id').where('email', '=', 'bob@example.com').executeTakeFirstOrThrow()).id);
    const dave = await db.selectFrom('users').select('id').where('email', '=', 'dave@example.com').executeTakeFirstOrThrow();
    await db.insertInto('organization_members').values({ organization_id: org.org.id, user_id: dave.id, role: 'admin' }).execute();
  });

  it('anyone but the installation owner gets one answer for a path that exists, one that does not, and one outside', async () => {
    const answers: ReturnType<typeof answerOf>[] = [];
    for (const source of [join(allowed, 'app.git'), join(allowed, 'no-such.git'), origin, '/etc', 'relative']) {
      const res = await linkForm(people.bob, 'bob-site', { source, branch: '' });
      answers.push(answerOf(res));
    }
    expect(answers[0]).toEqual({ status: 400, notice: expect.stringContaining('Only the installation owner') });
    expect(answers.every((a) => JSON.stringify(a) === JSON.stringify(answers[0]))).toBe(true);
    expect(await linksOf('bob-site')).toHaveLength(0);
    // The form does not offer paths to them, nor name the directories.
    const page = await people.bob.get('/dashboard/projects/bob-site');
    expect(page.body).toContain('only by the installation owner');
    expect(page.body).not.toContain(allowed);
  });

  it('owning an organization is no grant unless the operator lists it; its admins never may', async () => {
    expect((await linkForm(people.bob, 'bobs-other-app', { source: join(allowed, 'app.git'), branch: '' })).status).toBe(400);
    expect((await linkForm(people.dave, 'bobs-team-app', { source: join(allowed, 'app.git'), branch: '' })).status).toBe(400);
    expect(await linksOf('bobs-team-app')).toHaveLength(0);
    const listed = await linkForm(people.bob, 'bobs-team-app', { source: join(allowed, 'app.git'), branch: '' });
    expect(listed.status).toBe(303);
    expect(await linksOf('bobs-team-app')).toHaveLength(1);
  });

  it('the installation owner may, in her personal projects and in any organization she manages', async () => {
    expect((await people.alice.get('/dashboard/projects/alice-blog')).body).toContain(`or a directory inside ${allowed}`);
  });
});

