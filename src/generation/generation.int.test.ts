// Generation from stored commits: the git-cliff history ingested into the database, generated,
// stored, and generated again after new pushes, edits and setting changes.
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser, insertEntries, linkPredatesHistory } from '../../test/helpers/factories.js';
import { datasetRepoCopy, pushCommits, removeRepoCopy, tempDir } from '../../test/helpers/git-fixtures.js';
import { waitFor } from '../../test/helpers/scm.js';
import { AppError } from '../errors.js';
import { commitsRepository, toCommitRecord } from '../repos/commits.repository.js';
import { startWorker } from '../jobs/worker.js';
import { generate } from './engine/engine.js';
import { resolveSettings } from './settings.js';

let ctx: TestContext;
let reposDir: string;
let origin: string;
let ownerEmail: string;

const db = () => ctx.services.database.db;

const newLinkedProject = async () => {
  const project = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
  const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: origin, branch: 'main' });
  // These tests are about new work and its publishing policy: the link predates the dataset's
  // commits, so none of them is history (see the history policy tests in history.int.test.ts).
  await linkPredatesHistory(ctx.services, link.id);
  return { project, link };
};

const generatedRows = (projectId: string) =>
  db()
    .selectFrom('changelog_entries')
    .select([
      'id', 'entry_type', 'status', 'title', 'content', 'commit_id', 'commit_shas', 'generation_key', 'fingerprint', 'period_start',
      'period_end', 'published_at', 'updated_at', 'pending_regeneration', 'edited_at', 'occurred_at',
    ])
    .where('project_id', '=', projectId)
    .execute();

beforeAll(async () => {
  reposDir = tempDir('gen-mirrors');
  ctx = await createTestContext({ REPOS_DIR: reposDir });
  ownerEmail = (await buildUser(ctx.services)).email;
  origin = datasetRepoCopy();
});

afterAll(async () => {
  await ctx?.close();
  if (origin) removeRepoCopy(origin);
  rmSync(reposDir, { recursive: true, force: true });
});

describe('settings', () => {
  it('rejects bad settings listing every problem, and stores nothing', async () => {
    const { project } = await newLinkedProject();
    const error = await ctx.services.generation
      .configure(project.slug, { entryTypes: ['weekly', 'yearly'], timeZone: 'Mars/Olympus', publish: 'sometimes' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    const messages = (error as AppError).details!.map((d) => d.message).join('\n');
    expect(messages).toMatch(/yearly/);
    expect(messages).toMatch(/Mars\/Olympus/);
    expect(messages).toMatch(/sometimes/);
    expect((await ctx.services.generation.settings(project.slug)).input).toEqual({});
  });

  it('refuses team and path globs the linear matcher does not take, naming the pattern (400), and stores nothing', async () => {
    const { project } = await newLinkedProject();
    const long = `src/${'*a'.repeat(260)}`;
    const error = await ctx.services.generation
      .configure(project.slug, { teams: [{ team: 'Core', paths: [long] }], pathRules: ['@(a|b)/*=x'] })
      .catch((e: unknown) => e);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).details!.map((d) => d.message)).toEqual([
      'Path rule "@(a|b)/*=x": glob "@(a|b)/*" uses an extglob (@(…)), which is not supported',
      `team "Core": glob "${long.slice(0, 80)}…" is longer than 512 characters`,
    ]);
    expect((await ctx.services.generation.settings(project.slug)).input).toEqual({});
  });

  it('stores valid settings and fills defaults around them', async () => {
    const { project } = await newLinkedProject();
    const resolved = await ctx.services.generation.configure(project.slug, {
      entryTypes: ['commit', 'monthly'],
      publish: { monthly: 'auto' },
      timeZone: 'America/New_York',
      pathRules: ['crates/*/**=$1'],
    });
    expect(resolved.entryTypes).toEqual(['commit', 'monthly']);
    expect(resolved.publish).toEqual({ commit: 'manual', daily: 'manual', weekly: 'manual', monthly: 'auto', release: 'manual' });
    await ctx.services.generation.configure(project.slug, { timeZone: 'Europe/Berlin' });
    const { input, resolved: again } = await ctx.services.generation.settings(project.slug);
    expect(input).toMatchObject({ entryTypes: ['commit', 'monthly'], timeZone: 'Europe/Berlin' });
    expect(again.pathRules).toHaveLength(1);
  });
});

describe('generation of the git-cliff history', () => {
  let projectId: string;
  let slug: string;
  let linkId: string;

  beforeAll(async () => {
    const { project, link } = await newLinkedProject();
    projectId = project.id;
    slug = project.slug;
    linkId = link.id;
    await ctx.services.ingest.ingestLink(linkId);
  }, 120_000);

  it('stores what the engine generates: commit entries linked to their commits, weekly rollups as drafts', async () => {
    const summary = await ctx.services.generation.generate(slug);
    const stored = await commitsRepository.listForLink(db(), linkId);
    const expected = generate(stored.map(toCommitRecord), resolveSettings({}));
    expect(summary.created).toEqual({ commit: expected.stats.entries.commit, daily: 0, weekly: expected.stats.entries.weekly, monthly: 0 });
    expect(summary.created.weekly).toBeGreaterThan(100);
    expect(summary.updated).toEqual({ commit: 0, daily: 0, weekly: 0, monthly: 0 });

    const rows = await generatedRows(projectId);
    expect(rows).toHaveLength(expected.entries.length);
    const idOfSha = new Map(stored.map((c) => [c.sha, c.id]));
    const commitOfSha = new Map(stored.map((c) => [c.sha, c]));
    const byKey = new Map(rows.map((r) => [r.generation_key!, r]));
    for (const e of expected.entries) {
      const row = byKey.get(e.key);
      expect(row, e.key).toBeDefined();
      expect(row!.status).toBe('draft');
      expect(row!.fingerprint).toBe(e.fingerprint);
      expect(row!.title).toBe(e.title);
      expect(row!.content).toBe(e.content);
      expect(row!.commit_shas).toEqual(e.commit_shas);
      if (e.entry_type === 'commit') {
        expect(row!.commit_id).toBe(idOfSha.get(e.commit_sha!));
        // Dated by migration 0023's rule (the review queue's order), set by generation's INSERT (0025).
        expect(row!.occurred_at).toEqual(commitOfSha.get(e.commit_sha!)!.committed_at);
      } else {
        expect(row!.commit_id).toBeNull();
        expect(row!.period_start?.toISOString()).toBe(e.period_start);
        expect(row!.period_end?.toISOString()).toBe(e.period_end);
        expect(row!.occurred_at).toEqual(row!.period_start);
      }
    }
  }, 60_000);

  it('dates an entry written without occurred_at by the same rule (any writer: imports, plain SQL)', async () => {
    const commit = (await commitsRepository.listForLink(db(), linkId))[0]!;
    const [id] = await insertEntries(ctx.services, projectId, [{ entry_type: 'commit', title: 'Imported', commit_id: commit.id }]);
    const row = await db().selectFrom('changelog_entries').select('occurred_at').where('id', '=', id!).executeTakeFirstOrThrow();
    expect(row.occurred_at).toEqual(commit.committed_at);
    await db().deleteFrom('changelog_entries').where('id', '=', id!).execute();
  });

  it('changes nothing when run again', async () => {
    const before = await generatedRows(projectId);
    const summary = await ctx.services.generation.generate(slug);
    expect(summary.created).toEqual({ commit: 0, daily: 0, weekly: 0, monthly: 0 });
    expect(summary.updated).toEqual({ commit: 0, daily: 0, weekly: 0, monthly: 0 });
    expect(summary.archived).toBe(0);
    expect(summary.unchanged).toBe(before.length);
    const after = await generatedRows(projectId);
    expect(new Map(after.map((r) => [r.id, r.updated_at.getTime()]))).toEqual(new Map(before.map((r) => [r.id, r.updated_at.getTime()])));
  }, 60_000);

  it('updates only the touched rollup in place when a new commit lands in its week', async () => {
    pushCommits(origin, 1, { message: () => 'feat: first change this week' });
    await ctx.services.ingest.ingestLink(linkId);
    const first = await ctx.services.generation.generate(slug, { since: new Date(Date.now() - 3_600_000) });
    expect(first.created).toMatchObject({ commit: 1, weekly: 1 });
    const before = await generatedRows(projectId);
    const week = before.find((r) => r.entry_type === 'weekly' && r.content?.includes('First change this week'))!;
    expect(week).toBeDefined();

    await new Promise((r) => setTimeout(r, 20));
    pushCommits(origin, 1, { message: () => 'fix: second change this week' });
    await ctx.services.ingest.ingestLink(linkId);
    const second = await ctx.services.generation.generate(slug, { since: new Date(Date.now() - 3_600_000) });
    expect(second.created).toEqual({ commit: 1, daily: 0, weekly: 0, monthly: 0 });
    expect(second.updated).toEqual({ commit: 0, daily: 0, weekly: 1, monthly: 0 });

    const after = await generatedRows(projectId);
    const updated = after.find((r) => r.id === week.id)!;
    expect(updated.content).toContain('Second change this week');
    expect(updated.commit_shas).toHaveLength(2);
    expect(updated.updated_at.getTime()).toBeGreaterThan(week.updated_at.getTime());
    // Every other entry is as it was.
    const untouched = new Map(before.map((r) => [r.id, r.updated_at.getTime()]));
    const changed = after.filter((r) => untouched.has(r.id) && untouched.get(r.id) !== r.updated_at.getTime()).map((r) => r.id);
    expect(changed).toEqual([week.id]);
  }, 60_000);

  it('keeps a person\'s text when newer commits arrive, flags it, and regenerates on request', async () => {
    const week = (await generatedRows(projectId)).find((r) => r.entry_type === 'weekly' && r.content?.includes('Second change this week'))!;
    await ctx.services.entries.editText(week.id, { title: 'Our week', content: 'Handwritten notes.' });

    pushCommits(origin, 1, { message: () => 'feat: third change this week' });
    await ctx.services.ingest.ingestLink(linkId);
    const summary = await ctx.services.generation.generate(slug, { since: new Date(Date.now() - 3_600_000) });
    expect(summary.updated.weekly).toBe(0);
    expect(summary.pending).toBe(1);
    let row = (await generatedRows(projectId)).find((r) => r.id === week.id)!;
    expect(row).toMatchObject({ title: 'Our week', content: 'Handwritten notes.', pending_regeneration: true });

    // Still pending and still theirs on the next run: nothing changes.
    const again = await ctx.services.generation.generate(slug);
    expect(again.updated).toEqual({ commit: 0, daily: 0, weekly: 0, monthly: 0 });
    expect((await generatedRows(projectId)).find((r) => r.id === week.id)).toMatchObject({ title: 'Our week', updated_at: row.updated_at });

    await ctx.services.generation.regenerate(week.id);
    row = (await generatedRows(projectId)).find((r) => r.id === week.id)!;
    expect(row.pending_regeneration).toBe(false);
    expect(row.edited_at).toBeNull();
    expect(row.title).toMatch(/^Week \d{4}-W\d{2}/);
    expect(row.content).toContain('Third change this week');
    expect(row.commit_shas).toHaveLength(3);
  }, 60_000);
});

describe('entries generation no longer produces', () => {
  it('are archived when their section is hidden, and come back as drafts when it is shown again', async () => {
    const { project, link } = await newLinkedProject();
    await ctx.services.ingest.ingestLink(link.id);
    await ctx.services.generation.generate(project.slug);
    const perfBefore = (await generatedRows(project.id)).filter((r) => r.entry_type === 'commit' && r.status === 'draft');

    const hidden = await ctx.services.generation.configure(project.slug, { sections: [{ key: 'performance', visible: false }] });
    expect(hidden.sections.find((s) => s.key === 'performance')?.visible).toBe(false);
    const summary = await ctx.services.generation.generate(project.slug);
    expect(summary.archived).toBeGreaterThan(0);
    const archived = (await generatedRows(project.id)).filter((r) => r.status === 'archived');
    expect(archived.length).toBe(summary.archived);
    expect(archived.some((r) => r.entry_type === 'commit')).toBe(true);

    await ctx.services.generation.configure(project.slug, { sections: [] });
    const back = await ctx.services.generation.generate(project.slug);
    expect(back.archived).toBe(0);
    const rows = await generatedRows(project.id);
    expect(rows.filter((r) => r.status === 'archived')).toHaveLength(0);
    expect(rows.filter((r) => r.entry_type === 'commit' && r.status === 'draft').length).toBe(perfBefore.length);
    // The same rows, not new ones.
    for (const a of archived) expect(rows.find((r) => r.id === a.id)?.status).toBe('draft');
  }, 60_000);
});

describe('publish policy', () => {
  it('publishes generated entries of an auto type at once, and the public API serves them', async () => {
    const { project, link } = await newLinkedProject();
    await ctx.services.generation.configure(project.slug, { entryTypes: ['commit', 'monthly'], publish: { monthly: 'auto' } });
    await ctx.services.ingest.ingestLink(link.id);
    const summary = await ctx.services.generation.generate(project.slug);
    expect(summary.created.monthly).toBeGreaterThan(10);
    const rows = await generatedRows(project.id);
    const monthly = rows.filter((r) => r.entry_type === 'monthly');
    expect(monthly.every((r) => r.status === 'published' && r.published_at)).toBe(true);
    expect(rows.filter((r) => r.entry_type === 'commit').every((r) => r.status === 'draft' && !r.published_at)).toBe(true);

    const res = await waitFor(async () => {
      const r = await ctx.app.inject({ method: 'GET', url: `/v1/changelog/${project.slug}?limit=100` });
      return r.statusCode === 200 && r.json<{ entries: unknown[] }>().entries.length > 0 ? r : undefined;
    });
    const body = res.json<{ entries: Array<{ id: string; entry_type: string; status: string }> }>();
    expect(new Set(body.entries.map((e) => e.entry_type))).toEqual(new Set(['monthly']));
    expect(body.entries.map((e) => e.id).every((id) => monthly.some((m) => m.id === id))).toBe(true);
  }, 120_000);
});

describe('the generate job', () => {
  it('runs after each ingest job and stores the new commits\' entries', async () => {
    const { project, link } = await newLinkedProject();
    await startWorker(ctx.services);
    await ctx.services.jobs.send('repo-ingest', { linkId: link.id }, { key: link.id });
    const rows = await waitFor(
      async () => {
        const r = await generatedRows(project.id);
        return r.some((e) => e.entry_type === 'weekly') ? r : undefined;
      },
      60_000,
      'generated entries',
    );
    const stored = await commitsRepository.listForLink(db(), link.id);
    const expected = generate(stored.map(toCommitRecord), resolveSettings({}));
    await waitFor(async () => ((await generatedRows(project.id)).length === expected.entries.length ? true : undefined), 30_000, 'all entries');
    expect(rows.every((r) => r.commit_id === null || r.entry_type === 'commit')).toBe(true);
  }, 120_000);
});

describe('teams from CODEOWNERS', () => {
  it('reads CODEOWNERS at the tracked branch head when ingesting, and attributes entries to its owners unless the project maps teams', async () => {
    const repo = datasetRepoCopy();
    try {
      pushCommits(repo, 1, {
        message: () => 'chore: add code owners',
        files: () => ({ '.github/CODEOWNERS': '# Release files\n*.txt @acme/release-team\n/docs/ docs@example.com\n' }),
      });
      const [owned] = pushCommits(repo, 1, { message: () => 'feat: an owned change' });
      const project = await buildProject(ctx.services, { type: 'user', email: ownerEmail });
      const { link } = await ctx.services.repos.linkLocalRepo({ projectSlug: project.slug, source: repo, branch: 'main' });
      // New work, drafts under the default policy: rewritten in place as settings change (published
      // entries would keep their text and get pending revisions: src/entries/revisions.int.test.ts).
      await linkPredatesHistory(ctx.services, link.id);
      await ctx.services.ingest.ingestLink(link.id);
      const stored = await db().selectFrom('repo_links').select('codeowners').where('id', '=', link.id).executeTakeFirstOrThrow();
      expect(stored.codeowners).toContain('@acme/release-team');

      const attribution = async () => {
        const rows = await db()
          .selectFrom('changelog_entries')
          .select(['entry_type', 'team_attribution', 'generated_json'])
          .where('project_id', '=', project.id)
          .where('status', '!=', 'archived')
          .where(sql<boolean>`${owned!} = ANY(commit_shas)`)
          .execute();
        return Object.fromEntries(rows.map((r) => [r.entry_type, [r.team_attribution, (r.generated_json as { team_attribution: string | null }).team_attribution]]));
      };
      await ctx.services.generation.generate(project.slug);
      expect(await attribution()).toEqual({ commit: ['acme/release-team', 'acme/release-team'], weekly: ['acme/release-team', 'acme/release-team'] });

      // The project's own mapping wins over CODEOWNERS…
      await ctx.services.generation.configure(project.slug, { teams: [{ team: 'Release', paths: ['pushed-*.txt'] }] });
      await ctx.services.generation.generate(project.slug);
      expect((await attribution()).commit).toEqual(['Release', 'Release']);
      // …and CODEOWNERS names the teams again once the mapping is cleared.
      await ctx.services.generation.configure(project.slug, { teams: [] });
      await ctx.services.generation.generate(project.slug);
      expect((await attribution()).commit).toEqual(['acme/release-team', 'acme/release-team']);

      // The project's own CODEOWNERS text wins over the repository's; an empty one turns owners off.
      await ctx.services.generation.configure(project.slug, { codeowners: '*.txt @acme/platform\n' });
      await ctx.services.generation.generate(project.slug);
      expect((await attribution()).commit).toEqual(['acme/platform', 'acme/platform']);
      await ctx.services.generation.configure(project.slug, { codeowners: '' });
      await ctx.services.generation.generate(project.slug);
      expect((await attribution()).commit).toEqual(['Test Author', 'Test Author']);
      await ctx.services.generation.configure(project.slug, { codeowners: null });

      // The file as it is at the head: emptied there, empty here after the next ingest.
      pushCommits(repo, 1, { message: () => 'chore: drop owners', files: () => ({ '.github/CODEOWNERS': '' }) });
      await ctx.services.ingest.ingestLink(link.id);
      expect((await db().selectFrom('repo_links').select('codeowners').where('id', '=', link.id).executeTakeFirstOrThrow()).codeowners).toBe('');
    } finally {
      removeRepoCopy(repo);
    }
  }, 120_000);
});
