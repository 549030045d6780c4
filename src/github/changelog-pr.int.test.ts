// CHANGELOG.md through one pull request (issue 25, release-please's habit): the published notes as
// Keep a Changelog on the service's own branch, one pull request into the tracked branch, updated on
// each publish, never a write to the tracked (protected) branch; idempotent, a crash after GitHub opened
// the pull request leaves exactly one, and a missing permission is said.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCommit } from '../../test/helpers/commits.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { storeCommits } from '../../test/helpers/releases.js';
import { createScmTestContext, linkAcmeApp, type ScmTestContext } from '../../test/helpers/scm.js';
import type { RepoLinkRow } from '../db/schema.js';
import { CHANGELOG_BRANCH } from './changelog-pr.service.js';

let ctx: ScmTestContext;
let project: { id: string; slug: string };
let link: RepoLinkRow;
const REPO = 'acme/app';
const PERMISSIONS = { contents: 'write', metadata: 'read', pull_requests: 'write' } as const;
const service = () => ctx.services.changelogPr;
const openPulls = () => ctx.github.pullsOf(REPO).filter((p) => (p.state ?? 'open') === 'open');
const fileWrites = () => ctx.github.requests.filter((r) => r.method === 'PUT' && r.path.includes('/contents/')).length;

async function sync() {
  await service().dispatchPending();
  return service().sync(link.id);
}

beforeAll(async () => {
  ctx = await createScmTestContext({ GITHUB_TRUSTED_ACCOUNTS: 'acme' });
  const alice = await buildUser(ctx.services);
  project = await buildProject(ctx.services, { type: 'user', email: alice.email });
  await ctx.services.generation.configure(project.slug, { history: 'draft' });
  ctx.github.addInstallation({
    id: 101,
    account: { login: 'acme', type: 'Organization' },
    permissions: { ...PERMISSIONS },
    repos: [{ owner: 'acme', name: 'app', cloneUrl: '/nonexistent/app.git' }],
  });
  ctx.github.pushFile(REPO, 'main', 'README.md', '# app\n');
  // Protected: any direct write to it fails, so a test would see one.
  ctx.github.protectBranch(REPO, 'main');
  ({ link } = await linkAcmeApp(ctx, { type: 'user', userId: alice.id }, project.id));
  const a = buildCommit({ message: 'feat: first feature', tags: ['v1.0.0'], date: '2024-03-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], message: 'fix: a fix', tags: ['v1.1.0'], date: '2024-03-02T10:00:00Z' });
  await storeCommits(ctx.services, project.id, [a, b]);
  await ctx.services.generation.generate(project.slug);
  await ctx.services.entries.publishRelease(project.slug, 'v1.0.0');
  await ctx.services.publishing.configure(project.id, link.id, { releases: false, prChecks: 'off', changelogPr: true });
});

afterAll(async () => ctx?.close());

beforeEach(() => {
  ctx.github.clearFaults();
  ctx.github.installation(101)!.permissions = { ...PERMISSIONS };
});

describe('the CHANGELOG.md pull request', () => {
  it("is opened when the setting is turned on: Keep a Changelog on the service's branch, nothing written to the tracked branch", async () => {
    const result = await sync();
    expect(result).toEqual({ pr: 1, problem: null });
    expect(openPulls()).toEqual([expect.objectContaining({ number: 1, head: CHANGELOG_BRANCH, base: 'main', title: 'docs: update CHANGELOG.md' })]);
    const text = ctx.github.fileOn(REPO, CHANGELOG_BRANCH, 'CHANGELOG.md')!;
    expect(text).toMatch(/^# Changelog\n/);
    expect(text).toContain('## [1.0.0] - 2024-03-01');
    expect(text).not.toContain('## [1.1.0]');
    expect(ctx.github.fileOn(REPO, 'main', 'CHANGELOG.md')).toBeUndefined();
    expect(ctx.github.requests.some((r) => r.status === 409)).toBe(false);
    expect((await ctx.services.publishing.linkPublishing(link.id)).changelogPr).toMatchObject({ on: true, number: 1, error: null });
  });

  it('is updated, not opened again, on the next publish; and a run with nothing new writes nothing', async () => {
    await ctx.services.entries.publishRelease(project.slug, 'v1.1.0');
    expect(await sync()).toEqual({ pr: 1, problem: null });
    expect(openPulls()).toHaveLength(1);
    const text = ctx.github.fileOn(REPO, CHANGELOG_BRANCH, 'CHANGELOG.md')!;
    expect(text).toContain('## [1.1.0] - 2024-03-02');
    expect(text.indexOf('## [1.1.0]')).toBeLessThan(text.indexOf('## [1.0.0]'));

    const writes = fileWrites();
    expect(await service().dispatchPending()).toBe(0);
    expect(await service().sync(link.id)).toEqual({ pr: 1, problem: null });
    expect(fileWrites()).toBe(writes);
    expect(ctx.github.pullsOf(REPO)).toHaveLength(1);
  });

  it('starts again from the tracked branch after a merge, and opens exactly one pull request across a crash', async () => {
    ctx.github.mergePull(REPO, 1);
    expect(ctx.github.fileOn(REPO, 'main', 'CHANGELOG.md')).toContain('## [1.1.0]');
    await ctx.services.entries.unpublishRelease(project.slug, 'v1.0.0');
    // GitHub opens it, and the answer never arrives.
    ctx.github.fault('POST', /\/repos\/acme\/app\/pulls$/, { kind: 'drop-after' });
    await service().dispatchPending();
    await expect(service().sync(link.id)).rejects.toThrow(/GitHub did not answer/);
    expect(openPulls()).toHaveLength(1);
    expect(await service().sync(link.id)).toEqual({ pr: 2, problem: null });
    expect(openPulls()).toEqual([expect.objectContaining({ number: 2, head: CHANGELOG_BRANCH })]);
    const text = ctx.github.fileOn(REPO, CHANGELOG_BRANCH, 'CHANGELOG.md')!;
    expect(text).toContain('## [1.1.0]');
    expect(text).not.toContain('## [1.0.0]');
  });

  it('says which permission is missing when GitHub refuses', async () => {
    ctx.github.mergePull(REPO, 2);
    await ctx.services.entries.publishRelease(project.slug, 'v1.0.0');
    ctx.github.installation(101)!.permissions = { contents: 'write', metadata: 'read', pull_requests: 'read' };
    const result = await sync();
    expect(result.problem).toMatch(
      /GitHub refused to open a pull request \(GitHub said: Resource not accessible by integration\)\. .*"Pull requests: Read and write"/,
    );
    expect((await ctx.services.publishing.linkPublishing(link.id)).changelogPr.error).toMatch(/Pull requests: Read and write/);
    expect(openPulls()).toHaveLength(0);
    // Nothing is retried on its own: the permission will not appear by waiting.
    expect(await service().dispatchPending()).toBe(0);

    // The owners grant it: the pull request is queued again without waiting for the next publish.
    ctx.github.installation(101)!.permissions = { ...PERMISSIONS };
    expect(await ctx.services.publishing.permissionsChanged(link.installation_id!)).toEqual({ releases: 0, changelogs: 1 });
    const reopened = await sync();
    expect(reopened).toMatchObject({ problem: null, pr: expect.any(Number) });
    expect(openPulls()).toHaveLength(1);
    expect((await ctx.services.publishing.linkPublishing(link.id)).changelogPr.error).toBeNull();
    ctx.github.mergePull(REPO, reopened.pr!);
  });

  it('opens nothing when the tracked branch already reads the same', async () => {
    ctx.github.installation(101)!.permissions = { ...PERMISSIONS };
    ctx.github.pushFile(REPO, 'main', 'CHANGELOG.md', ctx.github.fileOn(REPO, CHANGELOG_BRANCH, 'CHANGELOG.md')!);
    expect(await service().sync(link.id)).toEqual({ pr: null, problem: null });
    expect(openPulls()).toHaveLength(0);
  });
});
