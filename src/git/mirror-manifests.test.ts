// Manifests read from a blobless mirror (the service's mirror of a URL link): the manifest versions the
// range changes are fetched in one batch with the link's settings, then read by the one `git log -p`.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { commitFiles, git } from '../../test/helpers/git.js';
import { readMirrorCommitFacts, syncMirror } from './mirror.js';

let root: string;
let source: string;
const shas: string[] = [];

const manifest = (runtime: string, dev: string) =>
  JSON.stringify({ name: 'lib', dependencies: { qs: runtime }, devDependencies: { eslint: dev } }, null, 2) + '\n';
const missingBlobs = (dir: string) =>
  execFileSync('git', ['--git-dir', dir, '-c', 'protocol.allow=never', 'rev-list', '--objects', '--missing=print', '--all'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.startsWith('?')).length;

beforeAll(() => {
  root = tempDir('mirror-manifests');
  source = join(root, 'source');
  execFileSync('git', ['init', '-q', '-b', 'main', source]);
  // In the source's own config: a local upload-pack does not get the settings mirror.ts passes.
  git(source, ['config', 'uploadpack.allowFilter', 'true']);
  shas.push(commitFiles(source, 'first', { 'package.json': manifest('1.0.0', '8.0.0'), 'README.md': 'hi\n' }));
  shas.push(commitFiles(source, 'chore(deps): bump eslint', { 'package.json': manifest('1.0.0', '8.1.0') }));
  shas.push(commitFiles(source, 'chore(deps): bump qs', { 'package.json': manifest('1.1.0', '8.1.0') }));
  shas.push(commitFiles(source, 'docs: words', { 'README.md': 'hello\n' }));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('readMirrorCommitFacts', () => {
  it('reads a blobless mirror: the manifest versions are fetched once, then classified runtime or dev', async () => {
    const dir = join(root, 'mirror.git');
    const url = `file://${source}`;
    await syncMirror(dir, { url }, 'main');
    expect(missingBlobs(dir)).toBeGreaterThan(0);
    const changes = await readMirrorCommitFacts(dir, { url }, ['main']);
    // `packages`: the changed manifest's directory (the root) and the name it declares.
    const rootPackage: Array<[string, string | null]> = [['', 'lib']];
    expect(Object.fromEntries([...changes].map(([sha, f]) => [sha, f.dependencies]))).toEqual({
      [shas[0]!]: { runtime: ['qs'], dev: ['eslint'], packages: rootPackage },
      [shas[1]!]: { runtime: [], dev: ['eslint'], packages: rootPackage },
      [shas[2]!]: { runtime: ['qs'], dev: [], packages: rootPackage },
    });
    // Only the manifests came: the README's versions are still not in the mirror.
    expect(missingBlobs(dir)).toBe(2);
    // An increment reads its own range only.
    expect([...(await readMirrorCommitFacts(dir, { url }, [`${shas[1]}..main`])).keys()]).toEqual([shas[2]]);
  });
});
