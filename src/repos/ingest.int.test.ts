import { testConfig } from '../../test/helpers/config.js';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../jobs/worker.js';
import { createServices } from '../services.js';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import { commitCount, DATASET, DATASET_COMMITS, datasetRepoCopy, removeRepoCopy, historyMap, pushCommits, revParse, smallRepo, tempDir } from '../../test/helpers/git-fixtures.js';
import { waitFor } from '../../test/helpers/scm.js';
import { coAuthorsOf, prNumberOf } from '../git/commit-record.js';
import { commitsRepository, toCommitRecord } from './commits.repository.js';
import { createIngestService, IngestInterrupted } from './ingest.service.js';

interface DatasetCommit {
  sha: string;
  parents: string[];
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  message: string;
  changes: [string, string][];
  tags: string[];
}

let ctx: TestContext;
let reposDir: string;
let owner: { email: string };
let origin: string;

const newLink = async (source: string, branch = 'main') => {
  const project = await buildProject(ctx.services, { type: 'user', email: owner.email });
  const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source, branch });
  return { project, link };
};

const stats = async (linkId: string) => {
  const { rows } = await sql<{ total: string; distinct_shas: string; reachable: string }>`
    SELECT count(*) AS total, count(DISTINCT sha) AS distinct_shas, count(*) FILTER (WHERE reachable) AS reachable
    FROM commits WHERE repo_link_id = ${linkId}`.execute(ctx.services.database.db);
  return { total: Number(rows[0]!.total), distinct: Number(rows[0]!.distinct_shas), reachable: Number(rows[0]!.reachable) };
};

beforeAll(async () => {
  reposDir = tempDir('mirrors');
  ctx = await createTestContext({ REPOS_DIR: reposDir });
  owner = await buildUser(ctx.services);
  origin = datasetRepoCopy();
});

afterAll(async () => {
  await ctx?.close();
  if (origin) removeRepoCopy(origin);
  rmSync(reposDir, { recursive: true, force: true });
});

describe('backfill of the dataset repository', () => {
  let linkId: string;
  let projectId: string;

  beforeAll(async () => {
    const { project, link } = await newLink(origin);
    linkId = link.id;
    projectId = project.id;
  });

  it('stores every commit exactly once, with parents, people, dates, messages, changed paths, co-authors and tags', async () => {
    const result = await ctx.services.ingest.ingestLink(linkId);
    expect(result).toMatchObject({ status: 'active', added: DATASET_COMMITS, walked: DATASET_COMMITS, unreachable: 0 });
    expect(await stats(linkId)).toEqual({ total: DATASET_COMMITS, distinct: DATASET_COMMITS, reachable: DATASET_COMMITS });

    const dataset = gunzipSync(readFileSync(DATASET)).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as DatasetCommit);
    const map = historyMap(origin);
    const stored = new Map((await commitsRepository.listForLink(ctx.services.database.db, linkId)).map((row) => [row.sha, toCommitRecord(row)]));
    let withCoAuthors = 0;
    let withTags = 0;
    let withPr = 0;
    for (const original of dataset) {
      const commit = stored.get(map.get(original.sha)!);
      expect(commit, original.sha).toBeDefined();
      expect(commit!.parents).toEqual(original.parents.map((p) => map.get(p)));
      expect(commit!.author).toEqual(original.author);
      expect(commit!.committer).toEqual(original.committer);
      expect(commit!.message).toBe(original.message);
      expect([...commit!.changes].sort()).toEqual([...original.changes].sort());
      expect([...commit!.tags].sort()).toEqual([...original.tags].sort());
      expect(commit!.coAuthors).toEqual(coAuthorsOf(original.message));
      expect(commit!.prNumber).toBe(prNumberOf(original.message));
      if (commit!.coAuthors.length) withCoAuthors++;
      if (commit!.tags.length) withTags++;
      if (commit!.prNumber !== null) withPr++;
    }
    // The dataset has co-authored commits, 98 tags and squash-merged pull requests.
    expect(withCoAuthors).toBeGreaterThan(50);
    expect(withTags).toBe(98);
    expect(withPr).toBeGreaterThan(500);
    const link = await ctx.services.database.db.selectFrom('repo_links').selectAll().where('id', '=', linkId).executeTakeFirstOrThrow();
    expect(link).toMatchObject({ status: 'active', last_ingested_sha: revParse(origin, 'main'), last_error: null });
  });

  it('shares the local source\'s objects (alternates) instead of copying them', async () => {
    const mirror = join(reposDir, `${linkId}.git`);
    expect(readFileSync(join(mirror, 'objects', 'info', 'alternates'), 'utf8').trim()).toBe(join(origin, 'objects'));
    const packs = existsSync(join(mirror, 'objects', 'pack')) ? readdirSync(join(mirror, 'objects', 'pack')) : [];
    expect(packs.filter((f) => f.endsWith('.pack'))).toEqual([]);
  });

  it('stores nothing again when nothing changed, and says so (no generation to queue)', async () => {
    const result = await ctx.services.ingest.ingestLink(linkId);
    expect(result).toMatchObject({ added: 0, walked: 0, changed: false });
    expect((await ctx.services.repos.commitCounts(projectId)).total).toBe(DATASET_COMMITS);
  });

  it('says a tag pushed alone, moved or deleted changed the history, and only once', async () => {
    const older = revParse(origin, 'main~5');
    execFileSync('git', ['-C', origin, 'tag', 'v99.0.0', older]);
    expect(await ctx.services.ingest.ingestLink(linkId)).toMatchObject({ added: 0, changed: true });
    expect(await ctx.services.ingest.ingestLink(linkId)).toMatchObject({ added: 0, changed: false });
    execFileSync('git', ['-C', origin, 'tag', '-f', 'v99.0.0', revParse(origin, 'main~4')]);
    expect(await ctx.services.ingest.ingestLink(linkId)).toMatchObject({ added: 0, changed: true });
    execFileSync('git', ['-C', origin, 'tag', '-d', 'v99.0.0']);
    expect(await ctx.services.ingest.ingestLink(linkId)).toMatchObject({ added: 0, changed: true });
    expect(await ctx.services.ingest.ingestLink(linkId)).toMatchObject({ changed: false });
  });

  it('stores only the new commits of a push, with their co-authors', async () => {
    const pushed = pushCommits(origin, 3);
    const result = await ctx.services.ingest.ingestLink(linkId);
    expect(result).toMatchObject({ added: 3, walked: 3, tip: pushed[0], changed: true });
    const rows = await commitsRepository.listForLink(ctx.services.database.db, linkId);
    const newest = toCommitRecord(rows.find((r) => r.sha === pushed[0])!);
    expect(newest.coAuthors).toEqual([{ name: 'Pair Programmer', email: 'pair@example.com' }]);
    expect(newest.changes).toEqual([['A', expect.stringMatching(/^pushed-.*\.txt$/)]]);
    expect(await stats(linkId)).toMatchObject({ total: DATASET_COMMITS + 3, distinct: DATASET_COMMITS + 3 });
  });

  it('marks the commits a force-push dropped as unreachable, and stores the new ones', async () => {
    const before = revParse(origin, 'main');
    const dropped = [before, revParse(origin, 'main~1'), revParse(origin, 'main~2')];
    pushCommits(origin, 2, { rewind: 3, message: (i) => `fix: rewritten ${i} (#9${i})` });
    const result = await ctx.services.ingest.ingestLink(linkId);
    expect(result).toMatchObject({ added: 2, unreachable: 3, changed: true });
    expect(await stats(linkId)).toEqual({ total: DATASET_COMMITS + 5, distinct: DATASET_COMMITS + 5, reachable: DATASET_COMMITS + 2 });
    const gone = await commitsRepository.reachableShas(ctx.services.database.db, linkId, false);
    expect(gone.sort()).toEqual(dropped.sort());
    const prs = (await commitsRepository.listForLink(ctx.services.database.db, linkId)).filter((r) => r.reachable && r.pr_number !== null);
    expect(prs.map((r) => r.pr_number)).toEqual(expect.arrayContaining([90, 91]));
  });
});

describe('a force-push undone by a fast-forward', () => {
  // The commits a force-push dropped, pushed again on top of where it left the branch: the ingest
  // walks only `last..tip` and finds them stored (unreachable). They used to stay unreachable, their
  // entries archived, while a fresh link of the same history showed them.
  it('makes the dropped commits reachable again and asks for a full generation, which brings their entries back', async () => {
    const source = smallRepo({ defaultBranch: 'main', commits: 3 });
    const { project, link } = await newLink(source);
    await ctx.services.ingest.ingestLink(link.id);
    await ctx.services.generation.generateProject(project.id);
    const tip = revParse(source, 'main');
    const commitEntryStatus = async () => {
      const row = await ctx.services.database.db
        .selectFrom('changelog_entries')
        .select('status')
        .where('project_id', '=', project.id)
        .where('generation_key', '=', `commit:${tip}`)
        .executeTakeFirst();
      return row?.status;
    };

    execFileSync('git', ['-C', source, 'update-ref', 'refs/heads/main', `${tip}~1`]);
    expect(await ctx.services.ingest.ingestLink(link.id)).toMatchObject({ added: 0, unreachable: 1, returned: 0 });
    await ctx.services.generation.generateProject(project.id);
    expect(await commitEntryStatus()).toBe('archived');

    execFileSync('git', ['-C', source, 'update-ref', 'refs/heads/main', tip]);
    expect(await ctx.services.ingest.ingestLink(link.id)).toMatchObject({ added: 0, unreachable: 0, returned: 1, changed: true });
    expect(await stats(link.id)).toMatchObject({ total: 3, reachable: 3 });
    await ctx.services.generation.generateProject(project.id);
    // History (the commits predate the link): published under the default history policy, as before.
    expect(await commitEntryStatus()).toBe('published');
  });
});

// Before any test starts a worker, which would run the ingests that linking queues.
describe('the link\'s ingest lease', () => {
  const lease = async (linkId: string) =>
    ctx.services.database.db.selectFrom('repo_links').select(['ingest_lease', 'ingest_lease_until']).where('id', '=', linkId).executeTakeFirstOrThrow();

  it('is cleared when an ingest ends, whether it failed or succeeded', async () => {
    const { link } = await newLink(origin);
    const failing = ctx.services.ingest.ingestLink(link.id, {
      afterBatch: () => {
        throw new Error('simulated failure');
      },
    });
    await expect(failing).rejects.toThrow('simulated failure');
    expect(await lease(link.id)).toEqual({ ingest_lease: null, ingest_lease_until: null });
    await ctx.services.ingest.ingestLink(link.id);
    expect(await lease(link.id)).toEqual({ ingest_lease: null, ingest_lease_until: null });
  });

  it('left by a process that died, holds the link until it lapses, then the next ingest takes over', async () => {
    const { link } = await newLink(origin);
    await sql`UPDATE repo_links SET ingest_lease = gen_random_uuid(), ingest_lease_until = now() + interval '1 second'
      WHERE id = ${link.id}`.execute(ctx.services.database.db);
    const result = await ctx.services.ingest.ingestLink(link.id);
    expect(result).toMatchObject({ status: 'active', walked: commitCount(origin) });
    expect(await lease(link.id)).toEqual({ ingest_lease: null, ingest_lease_until: null });
  });

  it('held elsewhere while this process stops: the waiting ingest ends without doing anything, to be retried', async () => {
    const { link } = await newLink(origin);
    await sql`UPDATE repo_links SET ingest_lease = gen_random_uuid(), ingest_lease_until = now() + interval '1 hour'
      WHERE id = ${link.id}`.execute(ctx.services.database.db);
    const stopping = new AbortController();
    const waiting = ctx.services.ingest.ingestLink(link.id, { signal: stopping.signal });
    stopping.abort();
    await expect(waiting).rejects.toBeInstanceOf(IngestInterrupted);
    expect(await stats(link.id)).toMatchObject({ total: 0 });
    // The pretend holder goes away, so the worker of a later test is not held up by this link.
    await ctx.services.database.db.updateTable('repo_links').set({ ingest_lease: null, ingest_lease_until: null }).where('id', '=', link.id).execute();
  });
});

describe('a crash in the middle of an ingest', () => {
  it('leaves whole commits only, and the next run finishes the job without duplicates', async () => {
    const { link } = await newLink(origin);
    await expect(
      ctx.services.ingest.ingestLink(link.id, {
        afterBatch: () => {
          throw new Error('simulated crash after the first batch');
        },
      }),
    ).rejects.toThrow('simulated crash');
    const partial = await stats(link.id);
    expect(partial.total).toBeGreaterThan(0);
    expect(partial.total).toBeLessThan(DATASET_COMMITS);
    const failed = await ctx.services.database.db.selectFrom('repo_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'error', last_ingested_sha: null, last_error: expect.stringContaining('simulated crash') });

    const result = await ctx.services.ingest.ingestLink(link.id);
    const total = DATASET_COMMITS + 2;
    expect(result.added).toBe(total - partial.total);
    expect(await stats(link.id)).toEqual({ total, distinct: total, reachable: total });
  });

  it('is resumed by the worker when a stopped process left it "ingesting"', async () => {
    const { link } = await newLink(origin);
    // What a process killed mid-ingest leaves behind: the status it set, and no finished ingest.
    await ctx.services.database.db.updateTable('repo_links').set({ status: 'ingesting' }).where('id', '=', link.id).execute();
    const { resumed } = await startWorker(ctx.services);
    expect(resumed).toBeGreaterThanOrEqual(1);
    await waitFor(
      async () => {
        const row = await ctx.services.database.db.selectFrom('repo_links').select('status').where('id', '=', link.id).executeTakeFirst();
        return row?.status === 'active' ? true : undefined;
      },
      30_000,
      'the resumed ingest',
    );
    expect((await stats(link.id)).distinct).toBe(DATASET_COMMITS + 2);
  });
});

describe('concurrent ingests of one link', () => {
  it('run one after the other: every commit once, no failure', async () => {
    const { link } = await newLink(origin);
    // A second set of services stands for another process: the link's lease serialises them.
    const other = createServices(ctx.services.database, testConfig({ REPOS_DIR: reposDir }));
    const results = await Promise.all([ctx.services.ingest.ingestLink(link.id), other.ingest.ingestLink(link.id)]);
    const expected = commitCount(origin);
    // Linking queued an ingest as well, which a worker left by an earlier test may run beside these
    // two: at most one of the three stores the commits, and none stores one twice.
    const added = results.map((r) => r.added);
    expect(added.filter((n) => n > 0).length).toBeLessThanOrEqual(1);
    expect(added.every((n) => n === 0 || n === expected)).toBe(true);
    expect(await stats(link.id)).toMatchObject({ total: expected, distinct: expected });
  });
});

describe('a shared mirror whose source pruned its objects', () => {
  it('is made again from the source, and the dropped commits are marked unreachable', async () => {
    const source = smallRepo({ commits: 4 });
    try {
      const project = await buildProject(ctx.services, { type: 'user', email: owner.email });
      const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source });
      // (A worker started by an earlier test may run the queued ingest too: the outcome is what counts.)
      await ctx.services.ingest.ingestLink(link.id);
      expect(await stats(link.id)).toEqual({ total: 4, distinct: 4, reachable: 4 });
      // A force-push, then gc in the source: the commits the mirror's branch named are gone for good.
      pushCommits(source, 1, { branch: 'trunk', rewind: 2 });
      execFileSync('git', ['--git-dir', source, 'reflog', 'expire', '--expire=now', '--all']);
      execFileSync('git', ['--git-dir', source, 'gc', '--quiet', '--prune=now']);
      const result = await ctx.services.ingest.ingestLink(link.id);
      expect(result).toMatchObject({ status: 'active', tip: revParse(source, 'trunk') });
      expect(await stats(link.id)).toEqual({ total: 5, distinct: 5, reachable: 3 });
      expect(existsSync(join(reposDir, `${link.id}.git`, 'objects', 'info', 'alternates'))).toBe(true);
    } finally {
      removeRepoCopy(source);
    }
  });
});

describe('the end of an ingest', () => {
  it('runs beforeIdle with everything stored while the link still shows its sync running, then shows it finished', async () => {
    const source = smallRepo({ commits: 3 });
    try {
      const { link } = await newLink(source, 'trunk');
      const seen: { state: string; stored: number; added: number }[] = [];
      const result = await ctx.services.ingest.ingestLink(link.id, {
        beforeIdle: async (done) => {
          const row = await ctx.services.database.db.selectFrom('repo_links').select('sync_state').where('id', '=', link.id).executeTakeFirstOrThrow();
          seen.push({ state: row.sync_state, stored: (await stats(link.id)).total, added: done.added });
        },
      });
      // A worker left by an earlier test may have ingested the link first (then this run adds nothing).
      expect(seen).toEqual([{ state: 'running', stored: 3, added: result.added }]);
      const row = await ctx.services.database.db.selectFrom('repo_links').select('sync_state').where('id', '=', link.id).executeTakeFirstOrThrow();
      expect(row.sync_state).toBe('idle');
    } finally {
      removeRepoCopy(source);
    }
  });
});

describe('errors', () => {
  it('records a branch deleted after linking on the link and fails the job so that it is retried', async () => {
    // Linking checks that the branch exists; it can disappear afterwards.
    execFileSync('git', ['--git-dir', origin, 'branch', 'no-such-branch', 'main']);
    const { link } = await newLink(origin, 'no-such-branch');
    execFileSync('git', ['--git-dir', origin, 'branch', '-D', 'no-such-branch']);
    await expect(ctx.services.ingest.ingestLink(link.id)).rejects.toThrow(/no-such-branch|Remote branch/);
    const row = await ctx.services.database.db.selectFrom('repo_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('error');
    expect(row.last_error).toMatch(/no-such-branch/);
  });
});

describe('REPOS_DIR', () => {
  it('is the service user\'s alone (0700) even outside DATA_DIR and under umask 000: mirrors keep their URL, token included', async () => {
    const previous = process.umask(0);
    const scratch = tempDir('private-mirrors');
    const source = smallRepo({ commits: 1 });
    try {
      const { link } = await newLink(source, 'trunk');
      // Made by the first ingest, with a missing parent.
      const fresh = join(scratch, 'outside', 'repos');
      await createIngestService(ctx.services.database.db, { reposDir: fresh, installationTokens: null }).ingestLink(link.id);
      expect(existsSync(join(fresh, `${link.id}.git`, 'HEAD'))).toBe(true);
      expect(statSync(fresh).mode & 0o777).toBe(0o700);
      expect(statSync(join(scratch, 'outside')).mode & 0o077).toBe(0);
      // Made by hand (or by an earlier version) for everyone to read: closed at the next ingest.
      const open = join(scratch, 'open');
      mkdirSync(open, { mode: 0o755 });
      chmodSync(open, 0o755);
      await createIngestService(ctx.services.database.db, { reposDir: open, installationTokens: null }).ingestLink(link.id);
      expect(statSync(open).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
      removeRepoCopy(source);
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
