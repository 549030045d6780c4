// The hosted path keeps what maintainers write for their release notes (migrations/0041): a linked
// repository's `.github/release.yml` and change fragments are stored on the commits that change them at
// ingest, loaded for generation as stored, and read by the engine when it has the host's pull requests.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildIngestedProject } from '../../test/helpers/factories.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { commitFiles } from '../../test/helpers/git.js';
import { runEngineRequest, type ReleaseNoteFields } from './engine-thread.js';
import { toCommitRecords } from './engine-wire.js';
import { generationRepository } from './generation.repository.js';
import { resolveSettings } from './settings.js';

let ctx: TestContext;
let reposDir: string;
let work: string;
const db = () => ctx.services.database.db;
const config = 'changelog:\n  exclude:\n    labels: [internal-only]\n';

beforeAll(async () => {
  reposDir = tempDir('release-files-mirrors');
  work = join(tempDir('release-files-source'), 'repo');
  execFileSync('git', ['init', '-q', '-b', 'main', work]);
  commitFiles(work, 'feat: first version', { 'src/index.js': 'export {};\n' }, { date: '2024-01-01T10:00:00Z', tag: 'v1.0.0' });
  commitFiles(work, 'ci: release notes configuration', { '.github/release.yml': config }, { date: '2024-01-02T10:00:00Z' });
  commitFiles(
    work,
    'Add padding (#5)',
    { 'src/index.js': 'export const pad = 1;\n', 'changelog.d/5.feature.md': 'Strings can be padded on the left.\n' },
    { date: '2024-01-03T10:00:00Z' },
  );
  commitFiles(work, 'Tidy the build (#6)', { 'build.js': '1\n' }, { date: '2024-01-04T10:00:00Z', tag: 'v1.1.0' });
  ctx = await createTestContext({ REPOS_DIR: reposDir });
});

afterAll(async () => {
  await ctx?.close();
  rmSync(reposDir, { recursive: true, force: true });
  if (work) rmSync(join(work, '..'), { recursive: true, force: true });
});

describe('release files on the hosted path', () => {
  it('stores the release configuration and fragments at ingest, and the engine reads them from storage', async () => {
    const { project } = await buildIngestedProject(ctx.services, work);

    const stored = await db()
      .selectFrom('commits')
      .select(['message', 'release_config', 'fragments'])
      .where('project_id', '=', project.id)
      .orderBy('committed_at')
      .execute();
    expect(stored.map((c) => [c.message.split('\n')[0], c.release_config, c.fragments === null ? null : JSON.parse(c.fragments)])).toEqual([
      ['feat: first version', null, null],
      ['ci: release notes configuration', config.trimEnd(), null],
      ['Add padding (#5)', null, [{ path: 'changelog.d/5.feature.md', text: 'Strings can be padded on the left.' }]],
      ['Tidy the build (#6)', null, null],
    ]);

    const commits = (await generationRepository.reachableCommits(db(), project.id)).map((c) => c.record);
    const tip = commits.find((c) => c.tags.includes('v1.1.0'))!.sha;
    const pr = (number: number, labels: string[]) => ({
      number,
      title: `PR ${number}`,
      body: '',
      labels,
      author: { login: `dev${number}`, isBot: false },
      mergedAt: '2024-01-04T10:00:00Z',
      mergeCommitSha: null,
      commitShas: [],
    });
    const note = runEngineRequest({
      kind: 'release',
      commits: toCommitRecords(commits),
      settings: resolveSettings({}),
      tip,
      tag: 'v1.1.0',
      pullRequests: [pr(5, []), pr(6, ['internal-only', 'enhancement'])],
    }) as ReleaseNoteFields;
    // The fragment's words and type for #5; #6 excluded by the repository's own configuration.
    expect(note.content).toContain('### Features\n\n- Strings can be padded on the left. (#5)');
    const [items, contributors] = note.content.split('**New contributors**');
    expect(items).not.toContain('#6');
    // Left out of the note, its author still contributed (as GitHub's own notes say).
    expect(contributors).toContain('@dev6 made their first contribution in #6');
  });

  it('keeps the configuration in force when a commit makes release.yml too large to read (not read as deleted)', async () => {
    commitFiles(work, 'ci: a huge release.yml', { '.github/release.yml': `${config}${`#${'x'.repeat(1023)}\n`.repeat(700)}` }, { date: '2024-01-05T10:00:00Z' });
    const { project } = await buildIngestedProject(ctx.services, work);
    const huge = await db()
      .selectFrom('commits')
      .select('release_config')
      .where('project_id', '=', project.id)
      .where('message', 'like', 'ci: a huge release.yml%')
      .executeTakeFirstOrThrow();
    expect(huge.release_config).toBeNull();
  });
});
