// The hosted path reads manifests too (migrations/0036): a repository linked and synced, then generated,
// lists a runtime dependency bump under Dependencies and hides a development one, by what each changes in
// package.json, although both commits say `chore(deps): bump …`.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildIngestedProject } from '../../test/helpers/factories.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { commitFiles } from '../../test/helpers/git.js';

let ctx: TestContext;
let reposDir: string;
let work: string;
const db = () => ctx.services.database.db;

const manifest = (leftPad: string, vitest: string) =>
  JSON.stringify({ name: 'tiny-lib', version: '1.0.0', dependencies: { 'left-pad': leftPad }, devDependencies: { vitest } }, null, 2) + '\n';

beforeAll(async () => {
  reposDir = tempDir('manifest-mirrors');
  work = join(tempDir('manifest-source'), 'repo');
  execFileSync('git', ['init', '-q', '-b', 'main', work]);
  commitFiles(
    work,
    'feat: first version',
    { 'package.json': manifest('^1.0.0', '^1.0.0'), 'src/index.js': 'export {};\n' },
    { date: '2024-01-01T10:00:00Z', tag: 'v1.0.0' },
  );
  commitFiles(work, 'chore(deps): bump vitest from 1.0.0 to 1.1.0', { 'package.json': manifest('^1.0.0', '^1.1.0') }, { date: '2024-01-02T10:00:00Z' });
  commitFiles(work, 'chore(deps): bump left-pad from 1.0.0 to 1.3.0', { 'package.json': manifest('^1.3.0', '^1.1.0') }, { date: '2024-01-03T10:00:00Z' });
  commitFiles(work, 'fix: pad on the left', { 'src/index.js': 'export const pad = 1;\n' }, { date: '2024-01-04T10:00:00Z', tag: 'v1.1.0' });
  ctx = await createTestContext({ REPOS_DIR: reposDir });
});

afterAll(async () => {
  await ctx?.close();
  rmSync(reposDir, { recursive: true, force: true });
  if (work) rmSync(join(work, '..'), { recursive: true, force: true });
});

describe('manifest-aware dependency classification on the hosted path', () => {
  it("stores each commit's dependency changes at ingest and generation reads them: the dev bump hidden, the runtime bump under Dependencies", async () => {
    const { project } = await buildIngestedProject(ctx.services, work);

    const stored = await db().selectFrom('commits').select(['message', 'dependencies']).where('project_id', '=', project.id).orderBy('committed_at').execute();
    expect(stored.map((c) => [c.message.split('\n')[0], c.dependencies === null ? null : JSON.parse(c.dependencies)])).toEqual([
      // The first commit adds the manifest: both requirements are new. Each names the package whose
      // manifest it changed (the root's, tiny-lib).
      ['feat: first version', { runtime: ['left-pad'], dev: ['vitest'], packages: [['', 'tiny-lib']] }],
      ['chore(deps): bump vitest from 1.0.0 to 1.1.0', { runtime: [], dev: ['vitest'], packages: [['', 'tiny-lib']] }],
      ['chore(deps): bump left-pad from 1.0.0 to 1.3.0', { runtime: ['left-pad'], dev: [], packages: [['', 'tiny-lib']] }],
      ['fix: pad on the left', null],
    ]);

    await ctx.services.generation.generate(project.slug);
    const note = await db()
      .selectFrom('release_notes')
      .select('generated_json')
      .where('project_id', '=', project.id)
      .where('key', '=', 'release:v1.1.0')
      .executeTakeFirstOrThrow();
    const sections = Object.fromEntries(note.generated_json.sections.map((s) => [s.section_type_key, s.items.map((i) => i.text)]));
    expect(sections.dependencies).toEqual([expect.stringMatching(/left-pad/)]);
    expect(JSON.stringify(note.generated_json)).not.toMatch(/vitest/);
    expect(sections.fix).toEqual([expect.stringMatching(/pad on the left/i)]);
  });
});
