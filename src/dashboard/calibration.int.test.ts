// Calibration (issue 24): the repository's CHANGELOG.md is read at ingest (its blob once per version), and
// the generation page offers the sections its maintainers use as a mapping: one click fills the form, nothing
// is saved until the editor previews or saves. A changelog without sections, or none, offers nothing.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { buildProject } from '../../test/helpers/factories.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { commitFiles, git } from '../../test/helpers/git.js';

const CHANGELOG = `# Changelog

## [1.1.0] - 2024-05-01

### Added
- Export as JSON

### Fixed
- Crash on empty input

## [1.0.0] - 2024-04-01

### Added
- First release

### Fixed
- Wrong date
`;

let ctx: TestContext;
let reposDir: string;
let origin: string;
let browser: DashboardClient;
let project: { id: string; slug: string };
let linkId: string;
const db = () => ctx.services.database.db;
const page = () => `/dashboard/projects/${project.slug}/generation`;
const stored = () => db().selectFrom('repo_links').select(['changelog_blob', 'changelog_calibration']).where('id', '=', linkId).executeTakeFirstOrThrow();

beforeAll(async () => {
  reposDir = tempDir('calibration-repos');
  origin = tempDir('calibration-origin');
  git(origin, ['init', '-q', '--initial-branch=main']);
  commitFiles(origin, 'feat: first', { 'src/index.ts': 'export {};\n', 'CHANGELOG.md': CHANGELOG });
  ctx = await createTestContext({ REPOS_DIR: reposDir });
  browser = new DashboardClient(ctx.app);
  expect((await browser.setUp(ctx.services, { email: 'lead@example.com' })).status).toBe(303);
  project = await buildProject(ctx.services, { type: 'user', email: 'lead@example.com' });
  const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: origin, branch: 'main' });
  linkId = link.id;
  await ctx.services.ingest.ingestLink(linkId);
}, 60_000);

afterAll(async () => {
  await ctx?.close();
  rmSync(reposDir, { recursive: true, force: true });
  rmSync(origin, { recursive: true, force: true });
});

describe('calibration from the repository\'s CHANGELOG.md', () => {
  it('is read at ingest: the sections its maintainers use, kept with the blob it came from', async () => {
    const row = await stored();
    expect(row.changelog_blob).toMatch(/^[0-9a-f]{40}$/);
    expect(row.changelog_calibration).toMatchObject({
      path: 'CHANGELOG.md',
      releases: 2,
      sections: [
        { title: 'Added', key: 'feature', releases: 2, items: 2 },
        { title: 'Fixed', key: 'fix', releases: 2, items: 2 },
      ],
    });
  });

  it('is offered on the generation page, fills the form on request, and saves nothing', async () => {
    const before = await ctx.services.generation.settings(project.slug);
    const shown = await browser.get(page());
    expect(shown.status).toBe(200);
    expect(shown.body).toContain('Your CHANGELOG.md');
    expect(shown.body).toContain('<strong>Added</strong>, <strong>Fixed</strong> under these names and in this order');
    expect(shown.body).toContain(`href="${page()}?from_changelog=1#gen-settings-h"`);
    // The form as saved: our labels.
    expect(shown.body).toContain('name="label_fix" value="Bug fixes"');

    const filled = await browser.get(`${page()}?from_changelog=1`);
    expect(filled.body).toContain('The sections in the form below follow CHANGELOG.md. Nothing is saved');
    expect(filled.body).toContain('name="label_feature" value="Added"');
    expect(filled.body).toContain('name="label_fix" value="Fixed"');
    expect(filled.body).toMatch(/name="visible_documentation" value="on">/);
    expect(filled.body).not.toMatch(/name="visible_documentation" value="on" checked>/);
    expect(filled.body).toMatch(/name="visible_breaking" value="on" checked>/);
    expect(await ctx.services.generation.settings(project.slug)).toEqual(before);
    // Any other value of the parameter shows the form as saved.
    const other = await browser.get(`${page()}?from_changelog=yes`);
    expect(other.status).toBe(200);
    expect(other.body).toContain('name="label_fix" value="Bug fixes"');
  });

  it('reads the file again only when it changes, and forgets it when it is gone', async () => {
    const first = await stored();
    commitFiles(origin, 'fix: a fix', { 'src/index.ts': 'export const a = 1;\n' });
    await ctx.services.ingest.ingestLink(linkId);
    expect(await stored()).toEqual(first);

    commitFiles(origin, 'docs: sections', { 'CHANGELOG.md': `${CHANGELOG.replace(/### Fixed/g, '### Bug Fixes')}` });
    await ctx.services.ingest.ingestLink(linkId);
    const changed = await stored();
    expect(changed.changelog_blob).not.toBe(first.changelog_blob);
    expect(changed.changelog_calibration).toMatchObject({ sections: [{ title: 'Added' }, { title: 'Bug Fixes', key: 'fix' }] });

    commitFiles(origin, 'chore: no changelog', { 'CHANGELOG.md': null });
    await ctx.services.ingest.ingestLink(linkId);
    expect(await stored()).toEqual({ changelog_blob: null, changelog_calibration: null });
    expect((await browser.get(page())).body).not.toContain('Your CHANGELOG.md');
  });
});
