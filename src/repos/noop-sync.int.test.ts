import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../services.js';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { pushCommits, removeRepoCopy, smallRepo, tempDir } from '../../test/helpers/git-fixtures.js';

/**
 * Issue #27, "a sync that finds nothing new costs a few queries": the statements and git processes of
 * an ingest whose fetch brings nothing, counted. git is counted by a `git` first on PATH that notes its
 * subcommand and runs the real one (git.ts passes PATH through to the processes it starts).
 */
let database: TestDatabase;
let services: Services;
let statements: string[] = [];
let reposDir: string;
let wrapperDir: string;
let gitLog: string;
let source: string;
const previousPath = process.env.PATH;

beforeAll(async () => {
  database = await createTestDatabase({ onQuery: (event) => statements.push((event.query as CompiledQuery).sql) });
  reposDir = tempDir('noop-mirrors');
  wrapperDir = tempDir('git-wrapper');
  gitLog = join(wrapperDir, 'calls.log');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  mkdirSync(wrapperDir, { recursive: true });
  // The subcommand: the first argument that is neither an option nor the value of one (git.ts puts `-C DIR`, `--git-dir DIR` first).
  writeFileSync(
    join(wrapperDir, 'git'),
    `#!/bin/sh\nfor a in "$@"; do case "$a" in -c|-C|--git-dir) skip=1;; -*) ;; *) if [ -z "$skip" ]; then echo "$a" >> '${gitLog}'; break; fi; skip=;; esac; done\nexec '${realGit}' "$@"\n`,
  );
  chmodSync(join(wrapperDir, 'git'), 0o755);
  process.env.PATH = `${wrapperDir}:${previousPath}`;
  services = createServices(database, testConfig({ REPOS_DIR: reposDir }));
  source = smallRepo({ commits: 3 });
}, 60_000);

afterAll(async () => {
  process.env.PATH = previousPath;
  await database?.close();
  if (source) removeRepoCopy(source);
  rmSync(reposDir, { recursive: true, force: true });
  rmSync(wrapperDir, { recursive: true, force: true });
});

/** What `fn` ran: statements, and git subcommands in the order started. */
async function counted(fn: () => Promise<unknown>): Promise<{ statements: string[]; git: string[] }> {
  statements = [];
  writeFileSync(gitLog, '');
  await fn();
  return { statements: [...statements], git: readFileSync(gitLog, 'utf8').split('\n').filter(Boolean) };
}

describe('a sync that finds nothing new', () => {
  it('costs a few statements and git processes, with a CODEOWNERS file, and still sees what comes next', async () => {
    pushCommits(source, 1, { branch: 'trunk', files: () => ({ '.github/CODEOWNERS': '* @acme/core\n' }) });
    const user = await buildUser(services);
    const project = await buildProject(services, { type: 'user', email: user.email });
    const { link } = await services.repos.linkLocalRepo({ projectSlug: project.slug, source, branch: 'trunk' });
    const first = await services.ingest.ingestLink(link.id);
    expect(first).toMatchObject({ added: 4, changed: true });

    const noop = await counted(async () => {
      const result = await services.ingest.ingestLink(link.id);
      expect(result).toMatchObject({ status: 'active', added: 0, walked: 0, unreachable: 0, changed: false, tip: first.tip });
    });
    // Before: 9 git processes (remote set-url, fetch, for-each-ref, merge-base, ls-tree, log, rev-list,
    // cat-file twice) and 11 statements. Now the fetch, the refs and the CODEOWNERS blob's id; the lease
    // taken and given back, the link read, its start and its end (two writes: generation may be queued
    // between them), the release-only commits. The tags are those of the last ingest: not compared.
    expect(noop.git).toEqual(['fetch', 'for-each-ref', 'ls-tree']);
    expect(noop.statements.length, noop.statements.join('\n')).toBeLessThanOrEqual(7);
    expect(noop.statements.join('\n')).not.toMatch(/UPDATE commits/i);

    // What the skipped steps would have seen is still seen: a new commit, a new tag, a changed CODEOWNERS.
    pushCommits(source, 1, { branch: 'trunk', files: () => ({ '.github/CODEOWNERS': '* @acme/web\n' }) });
    const pushed = await services.ingest.ingestLink(link.id);
    expect(pushed).toMatchObject({ added: 1, walked: 1, changed: true });
    const row = await database.db.selectFrom('repo_links').select(['codeowners', 'last_ingested_sha']).where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ codeowners: '* @acme/web\n', last_ingested_sha: pushed.tip });
    const tagsOfTip = async () =>
      (await database.db.selectFrom('commits').select('tags').where('repo_link_id', '=', link.id).where('sha', '=', pushed.tip!).executeTakeFirstOrThrow())
        .tags;
    execFileSync('git', ['--git-dir', source, 'tag', 'v1.0.0', 'trunk']);
    expect(await services.ingest.ingestLink(link.id)).toMatchObject({ added: 0, changed: true });
    expect(await tagsOfTip()).toEqual(['v1.0.0']);
    expect(await services.ingest.ingestLink(link.id)).toMatchObject({ added: 0, changed: false });
    execFileSync('git', ['--git-dir', source, 'tag', '-d', 'v1.0.0']);
    expect(await services.ingest.ingestLink(link.id)).toMatchObject({ added: 0, changed: true });
    expect(await tagsOfTip()).toEqual([]);
  });

  it('compares the tags again after an ingest that stopped half-way (it may have stored commits with tags since gone)', async () => {
    const user = await buildUser(services);
    const project = await buildProject(services, { type: 'user', email: user.email });
    const { link } = await services.repos.linkLocalRepo({ projectSlug: project.slug, source, branch: 'trunk' });
    await services.ingest.ingestLink(link.id);
    const [sha] = pushCommits(source, 1, { branch: 'trunk' });
    execFileSync('git', ['--git-dir', source, 'tag', 'v2.0.0-rc.1', 'trunk']);
    await expect(
      services.ingest.ingestLink(link.id, {
        afterBatch: () => {
          throw new Error('crash after storing');
        },
      }),
    ).rejects.toThrow('crash after storing');
    const digest = async () =>
      (await database.db.selectFrom('repo_links').select('tags_digest').where('id', '=', link.id).executeTakeFirstOrThrow()).tags_digest;
    expect(await digest()).toBeNull();
    // The tag goes before the next ingest, which stores nothing new but must still take it off the commit.
    execFileSync('git', ['--git-dir', source, 'tag', '-d', 'v2.0.0-rc.1']);
    const again = await counted(() => services.ingest.ingestLink(link.id));
    expect(again.statements.some((s) => s.includes('UPDATE commits c SET tags'))).toBe(true);
    const stored = await database.db.selectFrom('commits').select('tags').where('repo_link_id', '=', link.id).where('sha', '=', sha!).executeTakeFirstOrThrow();
    expect(stored.tags).toEqual([]);
    expect(await digest()).not.toBeNull();
  });
});
