// Public content changes only by a publish (issue 23). A published entry or release note keeps what
// readers see; content generation proposes for it afterwards is a pending revision under the `manual`
// policy (published at once under `auto`), reviewed in the queue against what is public.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildCommit } from '../../test/helpers/commits.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { eventually } from '../../test/helpers/eventually.js';
import { buildProject } from '../../test/helpers/factories.js';
import { storeCommits } from '../../test/helpers/releases.js';
import type { CommitRecord } from '../git/commit-record.js';
import { entriesRepository } from './entries.repository.js';

let ctx: TestContext;
let alice: DashboardClient;
let dave: DashboardClient;
let aliceKey: string;

const db = () => ctx.services.database.db;
const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });
/** The entry's content as the API serves it once the response cache caught up with a change that has `text`. */
const contentWith = async (slug: string, id: string, text: string) =>
  (
    await eventually(
      () => json<{ entry: { content: string } }>(`/v1/changelog/${slug}/entries/${id}`),
      (b) => b.entry.content.includes(text),
    )
  ).entry.content;
const json = async <T = Record<string, unknown>>(url: string, headers: Record<string, string> = {}): Promise<T> => {
  const res = await get(url, headers);
  expect(res.statusCode, url).toBe(200);
  return res.json<T>();
};

beforeAll(async () => {
  ctx = await createTestContext({ SIGNUP_OPEN: 'true' });
  alice = new DashboardClient(ctx.app);
  dave = new DashboardClient(ctx.app);
  expect((await alice.setUp(ctx.services, { name: 'alice', email: 'alice@example.com' })).status).toBe(303);
  expect((await dave.signUp({ name: 'dave', email: 'dave@example.com' })).status).toBe(303);
  aliceKey = (await ctx.services.keys.create({ name: 'alice all', context: { type: 'user', email: 'alice@example.com' } })).secret;
});

afterAll(async () => ctx?.close());

/** A project of alice's with a linear history that commits are added to, as ingestion stores them. */
async function newProject(slug: string) {
  const project = await buildProject(ctx.services, { type: 'user', email: 'alice@example.com' }, { slug });
  let head: CommitRecord | undefined;
  return {
    ...project,
    async ingest(message: string, date: string, tags: string[] = []) {
      const commit = buildCommit({ message, date, parents: head ? [head.sha] : [], changes: [['M', `src/${message.length}.ts`]], tags });
      await storeCommits(ctx.services, project.id, [commit]);
      head = commit;
      return commit;
    },
    generate: () => ctx.services.generation.generate(slug),
  };
}

const entryRow = (projectId: string, type: string) =>
  db()
    .selectFrom('changelog_entries')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('entry_type', '=', type as 'weekly')
    .orderBy('occurred_at', 'desc')
    .executeTakeFirstOrThrow();

/**
 * Every public surface of a project that shows entries, as text (status code first), and the
 * project's published_changed_at (Last-Modified, the feeds' updated; the header itself is capped at
 * the time of the request, so it is compared at its source).
 */
async function publicSurfaces(slug: string, entryId: string) {
  const urls = [
    `/v1/changelog/${slug}`,
    `/v1/changelog/${slug}?view=weekly`,
    `/v1/changelog/${slug}/entries/${entryId}`,
    `/c/${slug}`,
    `/c/${slug}/entries/${entryId}`,
    `/v1/changelog/${slug}/feed.atom`,
    `/v1/changelog/${slug}/feed.rss`,
    `/v1/changelog/${slug}/feed.json`,
  ];
  const project = await db().selectFrom('projects').select('published_changed_at').where('slug', '=', slug).executeTakeFirstOrThrow();
  const out: Record<string, string> = { published_changed_at: project.published_changed_at.toISOString() };
  for (const url of urls) {
    const res = await get(url);
    out[url] = `${res.statusCode}\n${res.body}`;
  }
  return out;
}

describe('the review bypass (regression): a published weekly entry and a new commit in its week', () => {
  it('keeps the public revision until the editor publishes the new one, which the review queue shows with a diff', async () => {
    const p = await newProject('bypass');
    await p.ingest('feat: first thing shipped', '2024-01-08T10:00:00Z');
    await p.generate();
    const weekly = await entryRow(p.id, 'weekly');
    expect(weekly.status).toBe('draft');
    await ctx.services.entries.publish(weekly.id);

    const before = await publicSurfaces(p.slug, weekly.id);
    expect(before[`/v1/changelog/${p.slug}/entries/${weekly.id}`]).toContain('First thing shipped');

    // A new commit arrives in the same week and generation runs, as after a push.
    await p.ingest('feat: second thing in review', '2024-01-10T10:00:00Z');
    const summary = await p.generate();
    expect(summary.revised).toBe(1);

    // Every public surface is byte for byte what it was, and Last-Modified's source has not moved.
    expect(await publicSurfaces(p.slug, weekly.id)).toEqual(before);
    for (const body of Object.values(before)) expect(body).not.toContain('Second thing in review');
    const listed = await json<{ projects: Array<{ slug: string; changelog_entries: Array<{ content: string }> }> }>('/v1/projects', {
      authorization: `Bearer ${aliceKey}`,
    });
    const mine = listed.projects.find((x) => x.slug === p.slug)!;
    expect(mine.changelog_entries.map((e) => e.content).join('\n')).not.toContain('Second thing in review');
    const row = await db().selectFrom('changelog_entries').select(['content', 'updated_at']).where('id', '=', weekly.id).executeTakeFirstOrThrow();
    expect(row.content).not.toContain('Second thing in review');

    // The review queue (drafts by default) shows the commit's draft and the published weekly entry
    // whose new content waits, with a diff against what is public; so does `entries list`.
    const queue = await alice.get(`/dashboard/projects/${p.slug}/review`);
    expect(queue.status).toBe(200);
    expect(queue.body).toContain(`/dashboard/entries/${weekly.id}`);
    expect(queue.body).toContain('new content waiting');
    expect(queue.body).toMatch(/<span class="diff-added">\+ [^<]*Second thing in review/);
    const review = await ctx.services.entries.review(p.id, { status: 'draft' });
    expect(review.entries.map((e) => [e.entry_type, e.status, e.revision])).toEqual(
      expect.arrayContaining([
        ['weekly', 'published', true],
        ['commit', 'draft', false],
      ]),
    );
    const page = await alice.get(`/dashboard/entries/${weekly.id}`);
    expect(page.body).toContain('New content waiting for review');
    expect(page.body).toContain('Second thing in review');

    // A second run proposes nothing new: the revision is what generation last produced.
    const again = await p.generate();
    expect(again.revised).toBe(0);
    expect(Object.values(again.updated).reduce((a, b) => a + b, 0)).toBe(0);

    // Publishing (the entry page's button) applies it: now every surface shows it.
    const published = await alice.submit(`/dashboard/entries/${weekly.id}`, `/dashboard/entries/${weekly.id}/status`, { status: 'published', back: 'entry' });
    expect(published.status).toBe(303);
    // On PostgreSQL the response cache hears of the change a moment after the commit.
    const after = await eventually(
      () => publicSurfaces(p.slug, weekly.id),
      (s) => Object.values(s).every((body) => !body.startsWith('200') || body.includes('Second thing in review') || !body.includes('First thing shipped')),
    );
    for (const url of [`/v1/changelog/${p.slug}/entries/${weekly.id}`, `/c/${p.slug}`, `/v1/changelog/${p.slug}/feed.atom`]) {
      expect(after[url]).toContain('Second thing in review');
    }
    expect((await ctx.services.entries.review(p.id, { status: 'draft' })).entries.filter((e) => e.revision)).toEqual([]);
  });

  it('publishes new content at once under the auto policy, and a waiting revision when the policy turns auto', async () => {
    const p = await newProject('auto-weekly');
    await p.ingest('feat: alpha feature', '2024-01-08T10:00:00Z');
    await p.generate();
    const weekly = await entryRow(p.id, 'weekly');
    await ctx.services.entries.publish(weekly.id);
    await p.ingest('feat: beta feature', '2024-01-09T10:00:00Z');
    await p.generate();
    expect((await json<{ entry: { content: string } }>(`/v1/changelog/${p.slug}/entries/${weekly.id}`)).entry.content).not.toContain('Beta feature');

    await ctx.services.generation.configure(p.slug, { publish: { weekly: 'auto' } });
    await p.generate();
    expect(await contentWith(p.slug, weekly.id, 'Beta feature')).toContain('Beta feature');
    await p.ingest('feat: gamma feature', '2024-01-10T10:00:00Z');
    const summary = await p.generate();
    expect(summary.revised).toBe(0);
    expect(await contentWith(p.slug, weekly.id, 'Gamma feature')).toContain('Gamma feature');
  });

  it('discards a revision (public unchanged, not proposed again) until the content changes again; an edit replaces it', async () => {
    const p = await newProject('discard');
    await p.ingest('feat: kept text', '2024-01-08T10:00:00Z');
    await p.generate();
    const weekly = await entryRow(p.id, 'weekly');
    await ctx.services.entries.publish(weekly.id);
    await p.ingest('feat: unwanted text', '2024-01-09T10:00:00Z');
    await p.generate();
    const before = await publicSurfaces(p.slug, weekly.id);

    const discarded = await alice.submit(`/dashboard/entries/${weekly.id}`, `/dashboard/entries/${weekly.id}/revision/discard`);
    expect(discarded.status).toBe(303);
    expect(await publicSurfaces(p.slug, weekly.id)).toEqual(before);
    expect((await ctx.services.entries.review(p.id, { status: 'draft' })).entries.some((e) => e.id === weekly.id)).toBe(false);
    expect((await p.generate()).revised).toBe(0);
    // Nothing waits any more: a second discard is a 404.
    expect((await alice.submit(`/dashboard/entries/${weekly.id}`, `/dashboard/entries/${weekly.id}/revision/discard`)).status).toBe(404);

    await p.ingest('feat: later text', '2024-01-10T10:00:00Z');
    expect((await p.generate()).revised).toBe(1);
    await ctx.services.entries.editText(weekly.id, { title: 'Hand-written week', content: 'Hand-written text' });
    const row = await db().selectFrom('changelog_entries').select(['content', 'pending_regeneration']).where('id', '=', weekly.id).executeTakeFirstOrThrow();
    // The person's text is what they chose to show; the generated content is still there to take (a regenerate).
    expect(row).toEqual({ content: 'Hand-written text', pending_regeneration: true });
    expect(await ctx.services.entries.revisions(p.id, [weekly.id])).toEqual([]);
  });

  it('leaves an entry an editor published while a generation run was deciding: the run rewrites only what it saw', async () => {
    const p = await newProject('race');
    await p.ingest('feat: first race thing', '2024-05-06T10:00:00Z');
    await p.generate();
    const draft = await db().selectFrom('changelog_entries').selectAll().where('project_id', '=', p.id).where('entry_type', '=', 'weekly').executeTakeFirstOrThrow();
    expect(draft.status).toBe('draft');
    // The run decided "a draft: rewrite in place"; the editor publishes before the run writes.
    await ctx.services.entries.publish(draft.id);
    const record = JSON.stringify({
      entry_type: draft.entry_type, title: 'Unreviewed racethingz', content: 'Unreviewed racethingz', generated_json: draft.generated_json,
      version_label: draft.version_label, team_attribution: draft.team_attribution, component_tags: draft.component_tags, commit_id: null,
      commit_shas: draft.commit_shas, period_start: draft.period_start, period_end: draft.period_end, fingerprint: 'changed',
    });
    await entriesRepository.updateGenerated(db(), [{ id: draft.id, record, commitId: null, seen: 'draft' }]);
    const row = await db().selectFrom('changelog_entries').selectAll().where('id', '=', draft.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('published');
    expect(row.title).toBe(draft.title);
    expect(await json(`/v1/changelog/race/entries/${draft.id}`)).not.toMatchObject({ entry: { title: 'Unreviewed racethingz' } });
    // What the rules saw as published (under auto) is still written in place.
    await entriesRepository.updateGenerated(db(), [{ id: draft.id, record, commitId: null, seen: 'published' }]);
    expect((await db().selectFrom('changelog_entries').select('title').where('id', '=', draft.id).executeTakeFirstOrThrow()).title).toBe('Unreviewed racethingz');
  });

  it('publishes what the entry page showed, or nothing: new content that arrived after the editor looked is refused', async () => {
    const p = await newProject('looked');
    await p.ingest('feat: looked at first', '2024-06-03T10:00:00Z');
    await p.generate();
    const weekly = await entryRow(p.id, 'weekly');
    await ctx.services.entries.publish(weekly.id);
    await p.ingest('feat: reviewed addition', '2024-06-04T10:00:00Z');
    await p.generate();

    // The editor opens the page (revision A), and a push proposes revision B before they click.
    const page = await alice.get(`/dashboard/entries/${weekly.id}`);
    expect(page.body).toContain('Reviewed addition');
    const seen = /name="seen" value="([^"]+)"/.exec(page.body)?.[1];
    expect(seen).toBeDefined();
    await p.ingest('feat: unreviewed arrival', '2024-06-05T10:00:00Z');
    expect((await p.generate()).revised).toBe(1);
    const refused = await alice.post(`/dashboard/entries/${weekly.id}/status`, { status: 'published', back: 'entry', seen: seen! });
    expect(refused.location).toBe(`/dashboard/entries/${weekly.id}?notice=entry-changed`);
    const pub = await json<{ entry: { content: string } }>(`/v1/changelog/${p.slug}/entries/${weekly.id}`);
    expect(pub.entry.content).not.toContain('Reviewed addition');
    expect(pub.entry.content).not.toContain('Unreviewed arrival');
    expect((await ctx.services.entries.revisions(p.id, [weekly.id]))[0]?.content).toContain('Unreviewed arrival');

    // Looked at again, it publishes.
    const again = await alice.get(`/dashboard/entries/${weekly.id}?notice=entry-changed`);
    expect(again.body).toContain('Nothing was published');
    const fresh = /name="seen" value="([^"]+)"/.exec(again.body)![1]!;
    expect(fresh).not.toBe(seen);
    const published = await alice.post(`/dashboard/entries/${weekly.id}/status`, { status: 'published', back: 'entry', seen: fresh });
    expect(published.location).toBe(`/dashboard/entries/${weekly.id}?notice=entry-published`);
    expect(await contentWith(p.slug, weekly.id, 'Unreviewed arrival')).toContain('Reviewed addition');

    // A draft rewritten in place after the page showed it is refused the same way.
    await p.ingest('feat: next week draft', '2024-06-11T10:00:00Z');
    await p.generate();
    const draft = await entryRow(p.id, 'weekly');
    expect(draft.status).toBe('draft');
    const draftSeen = /name="seen" value="([^"]+)"/.exec((await alice.get(`/dashboard/entries/${draft.id}`)).body)![1]!;
    await p.ingest('feat: rewritten draft', '2024-06-12T10:00:00Z');
    await p.generate();
    expect((await alice.post(`/dashboard/entries/${draft.id}/status`, { status: 'published', back: 'entry', seen: draftSeen })).location).toContain('notice=entry-changed');
    expect((await entryRow(p.id, 'weekly')).status).toBe('draft');
    // A made-up token refuses too; none at all (a list's button) publishes as before.
    expect((await alice.post(`/dashboard/entries/${draft.id}/status`, { status: 'published', back: 'entry', seen: '0.x' })).location).toContain('notice=entry-changed');
    expect((await alice.post(`/dashboard/entries/${draft.id}/status`, { status: 'published', back: 'entry' })).location).toContain('notice=entry-published');
  });

  it('publishes from the review queue only what the queue showed: rows changed since are left, and said so', async () => {
    const p = await newProject('queue-looked');
    await p.ingest('feat: queue first', '2024-07-01T10:00:00Z');
    await p.generate();
    const weekly = await entryRow(p.id, 'weekly');
    await ctx.services.entries.publish(weekly.id);
    await p.ingest('feat: queue reviewed', '2024-07-02T10:00:00Z');
    await p.generate();

    const queue = `/dashboard/projects/${p.slug}/review`;
    const shown = await alice.get(queue);
    const seen = [...shown.body.matchAll(/name="seen" value="([^"]+)"/g)].map((m) => m[1]!);
    expect(seen.some((s) => s.startsWith(`${weekly.id}@`))).toBe(true);
    await p.ingest('feat: queue unreviewed', '2024-07-03T10:00:00Z');
    await p.generate();
    const left = await alice.post(`${queue}/bulk`, { action: 'publish', ids: [weekly.id], seen });
    expect(left.location).toContain('stale=1');
    expect((await alice.get(left.location!)).body).toContain('changed since this page showed it');
    const pub = await json<{ entry: { content: string } }>(`/v1/changelog/${p.slug}/entries/${weekly.id}`);
    expect(pub.entry.content).not.toContain('Queue reviewed');

    const again = [...(await alice.get(queue)).body.matchAll(/name="seen" value="([^"]+)"/g)].map((m) => m[1]!);
    const done = await alice.post(`${queue}/bulk`, { action: 'publish', ids: [weekly.id], seen: again });
    expect(done.location).not.toContain('stale=');
    expect(await contentWith(p.slug, weekly.id, 'Queue unreviewed')).toContain('Queue reviewed');
  });

  it("refuses another tenant's publish and discard of a pending revision, and forged ids (404), changing nothing", async () => {
    const p = await newProject('tenancy');
    await p.ingest('feat: public text', '2024-01-08T10:00:00Z');
    await p.generate();
    const weekly = await entryRow(p.id, 'weekly');
    await ctx.services.entries.publish(weekly.id);
    await p.ingest('feat: private proposal', '2024-01-09T10:00:00Z');
    await p.generate();
    const before = await publicSurfaces(p.slug, weekly.id);

    for (const action of [`/dashboard/entries/${weekly.id}/revision/discard`, `/dashboard/entries/${weekly.id}/status`]) {
      const res = await dave.submit('/dashboard', action, { status: 'published' });
      expect(res.status, action).toBe(404);
      expect(res.body).not.toContain('Private proposal');
    }
    expect((await dave.get(`/dashboard/entries/${weekly.id}`)).status).toBe(404);
    const forged = '00000000-0000-4000-8000-000000000000';
    expect((await alice.submit('/dashboard', `/dashboard/entries/${forged}/revision/discard`)).status).toBe(404);
    expect((await alice.submit('/dashboard', '/dashboard/entries/not-a-uuid/revision/discard')).status).toBe(404);
    // The service checks the project too: another project's id is not found.
    const other = await newProject('tenancy-other');
    await expect(ctx.services.entries.discardRevision(other.id, weekly.id)).rejects.toMatchObject({ status: 404 });
    await expect(ctx.services.entries.publishInProject(other.id, weekly.id)).rejects.toMatchObject({ status: 404 });
    // A bulk publish naming it from another project refuses the whole selection.
    await expect(ctx.services.entries.bulkStatus(other.id, 'publish', { ids: [weekly.id] })).rejects.toMatchObject({ status: 404 });

    expect(await publicSurfaces(p.slug, weekly.id)).toEqual(before);
    expect(await ctx.services.entries.revisions(p.id, [weekly.id])).toHaveLength(1);
  });

  it('archives the drafts the queue lists, not the published entries whose new content waits beside them', async () => {
    const p = await newProject('bulk-archive');
    await p.ingest('feat: stays public', '2024-01-08T10:00:00Z');
    await p.generate();
    const weekly = await entryRow(p.id, 'weekly');
    await ctx.services.entries.publish(weekly.id);
    await p.ingest('feat: draft to archive', '2024-01-09T10:00:00Z');
    await p.generate();
    const before = await publicSurfaces(p.slug, weekly.id);
    const waiting = (await ctx.services.entries.review(p.id, { status: 'draft' })).entries;
    expect(waiting.map((e) => e.entry_type).sort()).toEqual(['commit', 'commit', 'weekly']);

    const result = await ctx.services.entries.bulkStatus(p.id, 'archive', { filter: { status: 'draft' }, expected: waiting.length });
    expect(result).toEqual({ selected: 3, changed: 2, unchanged: 1, stale: 0 });
    expect(await publicSurfaces(p.slug, weekly.id)).toEqual(before);
    expect(await ctx.services.entries.revisions(p.id, [weekly.id])).toHaveLength(1);
  });

  it('keeps a published release note until its revision is published, and lists it as waiting', async () => {
    const p = await newProject('release-rev');
    await p.ingest('feat: release one', '2024-01-08T10:00:00Z', ['v1.0.0']);
    await p.ingest('feat: unreleased one', '2024-01-09T10:00:00Z');
    await p.generate();
    await ctx.services.entries.publishRelease(p.slug, 'unreleased');
    const before = await get(`/v1/changelog/${p.slug}/releases/unreleased`);
    expect(before.body).toContain('Unreleased one');

    await p.ingest('feat: unreleased two', '2024-01-10T10:00:00Z');
    expect((await p.generate()).releases?.revised).toBe(1);
    expect((await get(`/v1/changelog/${p.slug}/releases/unreleased`)).body).toBe(before.body);
    expect((await get(`/v1/changelog/${p.slug}/releases.atom`)).body).not.toContain('Unreleased two');
    expect((await ctx.services.entries.listReleases(p.slug)).find((n) => n.tag === null)?.pending_revision).toBe(true);
    expect((await ctx.services.entries.releaseRevision(p.slug, 'unreleased'))?.content).toContain('Unreleased two');

    await ctx.services.entries.publishRelease(p.slug, 'unreleased');
    const published = await eventually(
      () => get(`/v1/changelog/${p.slug}/releases/unreleased`),
      (r) => r.body.includes('Unreleased two'),
    );
    expect(published.body).toContain('Unreleased two');
    await expect(ctx.services.entries.discardReleaseRevision(p.slug, 'unreleased')).rejects.toMatchObject({ status: 404 });
  });
});

// ---------------------------------------------------------------------------------------------------
// The property: after any sequence of editorial and generation steps, every public surface shows only
// what was made public by a publish (a snapshot taken at that moment), or by generation under `auto`.

type Step =
  /** `soon`: a minute after the previous commit (same week), else half a day after. */
  | { kind: 'ingest'; tag: boolean; soon?: boolean }
  /** The review queue's "publish all matching" on what waits for review. */
  | { kind: 'publish-all' }
  | { kind: 'generate' }
  | { kind: 'policy'; target: 'commit' | 'weekly' | 'release'; policy: 'auto' | 'manual' }
  | { kind: 'edit' | 'publish' | 'unpublish' | 'archive'; pick: number }
  /** The editor works the review queue: publishes what waits there (drafts and pending revisions). */
  | { kind: 'publish-queue'; pick: number }
  | { kind: 'publish-release' | 'unpublish-release'; pick: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('ingest' as const), tag: fc.constantFrom(false, false, false, true) }) },
  { weight: 4, arbitrary: fc.constant({ kind: 'generate' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('policy' as const),
      target: fc.constantFrom('commit' as const, 'weekly' as const, 'release' as const),
      policy: fc.constantFrom('auto' as const, 'manual' as const),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('edit' as const, 'publish' as const, 'publish' as const, 'unpublish' as const, 'archive' as const),
      pick: fc.nat(50),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('publish-release' as const, 'unpublish-release' as const), pick: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'publish-all' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('publish-queue' as const), pick: fc.constantFrom(0, 0, 1, 2, 3) }) },
);

/** What readers may see: per public item, its JSON when a publish (or generation under auto) made it public. */
interface Model {
  entries: Map<string, string>;
  releases: Map<string, string>;
  policy: Record<'commit' | 'weekly' | 'release', 'auto' | 'manual'>;
}

const TOKEN = /\b(?:gadget|edited)\d+z\b/g;
const tokensOf = (text: string) => new Set(text.match(TOKEN) ?? []);
const tagOf = (tag: string | null) => encodeURIComponent(tag ?? 'unreleased');

async function apiEntry(slug: string, id: string): Promise<string> {
  const body = await json<{ entry: unknown }>(`/v1/changelog/${slug}/entries/${id}`);
  return JSON.stringify(body.entry);
}
async function apiRelease(slug: string, tag: string | null): Promise<string> {
  const body = await json<{ release: unknown }>(`/v1/changelog/${slug}/releases/${tagOf(tag)}`);
  return JSON.stringify(body.release);
}

/**
 * The public JSON of an item that just became public or changed, once the response cache caught up
 * (at once on PGlite; a moment after the commit on PostgreSQL): its updated_at is the row's.
 */
async function freshEntry(slug: string, id: string): Promise<string> {
  const row = await db().selectFrom('changelog_entries').select('updated_at').where('id', '=', id).executeTakeFirstOrThrow();
  return eventually(
    () => apiEntry(slug, id),
    (s) => (JSON.parse(s) as { updated_at: string }).updated_at === row.updated_at.toISOString(),
  );
}
async function freshRelease(slug: string, tag: string | null): Promise<string> {
  const row = await db()
    .selectFrom('release_notes')
    .select('updated_at')
    .where('tag', tag === null ? 'is' : '=', tag)
    .where('project_id', '=', (await ctx.services.projects.findBySlug(slug))!.id)
    .executeTakeFirstOrThrow();
  return eventually(
    () => apiRelease(slug, tag),
    (s) => (JSON.parse(s) as { updated_at: string }).updated_at === row.updated_at.toISOString(),
  );
}

/** Runs a check of every surface until it holds or about a second has passed (the cache catching up on PostgreSQL), then once more for its failure. */
async function settled(check: () => Promise<void>): Promise<void> {
  for (let i = 0; i < 25; i++) {
    try {
      return await check();
    } catch {
      await new Promise((r) => setTimeout(r, 40));
    }
  }
  await check();
}

/** The editor's view of an entry: its pending revision if one waits, else the row. */
async function editorsView(projectId: string, id: string): Promise<{ title: string | null; content: string | null }> {
  const [revision] = await ctx.services.entries.revisions(projectId, [id]);
  if (revision) return { title: revision.title, content: revision.content };
  const row = await ctx.services.entries.get(id);
  return { title: row.title, content: row.content };
}

/** After generation: what left `published` leaves the model; what is published under `auto` is what readers see now. */
async function followGeneration(slug: string, projectId: string, model: Model): Promise<void> {
  const rows = await db().selectFrom('changelog_entries').select(['id', 'entry_type', 'status']).where('project_id', '=', projectId).execute();
  for (const r of rows) {
    if (r.status !== 'published') {
      model.entries.delete(r.id);
      continue;
    }
    const auto = model.policy[r.entry_type as 'commit' | 'weekly'] === 'auto';
    // Generation makes nothing public under `manual`: a published entry it did not know is a bug.
    expect(auto || model.entries.has(r.id), `entry ${r.entry_type} published by generation under manual`).toBe(true);
    if (auto) {
      expect(await ctx.services.entries.revisions(projectId, [r.id])).toEqual([]);
      model.entries.set(r.id, await freshEntry(slug, r.id));
    }
  }
  const notes = await ctx.services.entries.listReleases(slug);
  for (const n of notes) {
    const key = n.tag ?? 'unreleased';
    if (n.status !== 'published') model.releases.delete(key);
    else {
      const auto = model.policy.release === 'auto';
      expect(auto || model.releases.has(key), `release ${key} published by generation under manual`).toBe(true);
      if (auto) {
        expect(n.pending_revision).toBe(false);
        model.releases.set(key, await freshRelease(slug, n.tag));
      }
    }
  }
}

/** Every public surface against the model. */
async function checkSurfaces(slug: string, model: Model): Promise<void> {
  const allowed = new Set<string>();
  for (const snapshot of [...model.entries.values(), ...model.releases.values()]) for (const t of tokensOf(snapshot)) allowed.add(t);
  const onlyAllowed = (where: string, text: string) => {
    for (const t of tokensOf(text)) expect(allowed.has(t), `${where} shows ${t}, which no publish made public`).toBe(true);
  };

  for (const [id, snapshot] of model.entries) expect(JSON.parse(await apiEntry(slug, id)), `entry ${id}`).toEqual(JSON.parse(snapshot));
  for (const view of ['', '?view=weekly', '?view=commit', '?view=all']) {
    const listing = await json<{ entries: Array<{ id: string }> }>(`/v1/changelog/${slug}${view ? `${view}&` : '?'}limit=100`);
    for (const e of listing.entries) expect(JSON.stringify(e), `listing ${view} ${e.id}`).toBe(model.entries.get(e.id));
    if (view === '?view=all') expect(listing.entries.map((e) => e.id).sort()).toEqual([...model.entries.keys()].sort());
  }
  const releases = await json<{ releases: Array<{ tag: string | null }> }>(`/v1/changelog/${slug}/releases?limit=100`);
  expect(releases.releases.map((r) => r.tag ?? 'unreleased').sort()).toEqual([...model.releases.keys()].sort());
  for (const r of releases.releases) expect(JSON.stringify(r)).toBe(model.releases.get(r.tag ?? 'unreleased'));
  for (const [key, snapshot] of model.releases) expect(await apiRelease(slug, key === 'unreleased' ? null : key)).toBe(snapshot);

  const projects = await json<{ projects: Array<{ slug: string; changelog_entries: Array<{ id: string }> }> }>('/v1/projects', {
    authorization: `Bearer ${aliceKey}`,
  });
  for (const e of projects.projects.find((x) => x.slug === slug)?.changelog_entries ?? []) expect(JSON.stringify(e)).toBe(model.entries.get(e.id));

  for (const url of [
    `/c/${slug}`,
    `/c/${slug}?view=commit`,
    `/c/${slug}/releases`,
    `/v1/changelog/${slug}/feed.atom`,
    `/v1/changelog/${slug}/feed.json`,
    `/v1/changelog/${slug}/releases.atom`,
  ]) {
    const res = await get(url);
    if (res.statusCode === 200) onlyAllowed(url, res.body);
    else expect(res.statusCode, url).toBe(404);
  }
}

/** What the runs exercised, so that a generator drifting away from revisions fails the test. */
const exercised = { revised: 0, revisionsPublished: 0 };

async function runSteps(slug: string, steps: Step[]): Promise<void> {
  const p = await newProject(slug);
  const model: Model = { entries: new Map(), releases: new Map(), policy: { commit: 'manual', weekly: 'manual', release: 'manual' } };
  let n = 0;
  let tags = 0;
  let last = Date.UTC(2024, 0, 1, 9);
  const entries = () =>
    db().selectFrom('changelog_entries').select(['id', 'status', 'generation_key']).where('project_id', '=', p.id).orderBy('generation_key').execute();
  for (const step of steps) {
    switch (step.kind) {
      case 'ingest':
        n++;
        // Two commits a day over a few weeks: new commits land in weeks already published.
        last += step.soon ? 60_000 : 12 * 3_600_000;
        await p.ingest(`feat: add gadget${n}z`, new Date(last).toISOString(), step.tag ? [`v0.${++tags}.0`] : []);
        break;
      case 'publish-all': {
        const waiting = (await ctx.services.entries.review(p.id, { status: 'draft' }, { limit: 500 })).entries;
        if (!waiting.length) break;
        const seen = new Map<string, Awaited<ReturnType<typeof editorsView>>>();
        for (const e of waiting) seen.set(e.id, await editorsView(p.id, e.id));
        exercised.revisionsPublished += waiting.filter((e) => e.revision).length;
        await ctx.services.entries.bulkStatus(p.id, 'publish', { filter: { status: 'draft' }, expected: waiting.length });
        for (const [id, view] of seen) {
          const shown = await freshEntry(slug, id);
          expect(JSON.parse(shown)).toMatchObject(view);
          model.entries.set(id, shown);
        }
        break;
      }
      case 'generate': {
        const summary = await p.generate();
        exercised.revised += summary.revised + (summary.releases?.revised ?? 0);
        await followGeneration(slug, p.id, model);
        break;
      }
      case 'policy':
        model.policy[step.target] = step.policy;
        await ctx.services.generation.configure(slug, { publish: { ...model.policy } });
        // A policy that turns auto publishes the drafts it held back, in the settings' transaction:
        // readers see them now, as after a generation under auto.
        await followGeneration(slug, p.id, model);
        break;
      case 'publish-queue':
      case 'edit':
      case 'publish':
      case 'unpublish':
      case 'archive': {
        // The queue opens on what waits for review: drafts and published entries with new content.
        // (pending revisions first: the ones this test is about).
        const queue = async () =>
          (await ctx.services.entries.review(p.id, { status: 'draft' }, { limit: 100 })).entries.sort((a, b) => Number(b.revision) - Number(a.revision));
        const all = step.kind === 'publish-queue' ? await queue() : await entries();
        const target = all[step.pick % Math.max(1, all.length)];
        if (!target) break;
        if (step.kind === 'edit') {
          n++;
          await ctx.services.entries.editText(target.id, { title: `Edited edited${n}z`, content: `Written by hand: edited${n}z` });
          // A person's edit of a published entry is theirs to publish: readers see it now.
          if (target.status === 'published') model.entries.set(target.id, await freshEntry(slug, target.id));
        } else if (step.kind === 'publish' || step.kind === 'publish-queue') {
          const seen = await editorsView(p.id, target.id);
          if ((await ctx.services.entries.revisions(p.id, [target.id])).length) exercised.revisionsPublished++;
          await ctx.services.entries.publish(target.id);
          const shown = await freshEntry(slug, target.id);
          // Readers see exactly what the editor reviewed.
          expect(JSON.parse(shown)).toMatchObject(seen);
          model.entries.set(target.id, shown);
        } else {
          await ctx.services.entries[step.kind](target.id);
          model.entries.delete(target.id);
        }
        break;
      }
      case 'publish-release':
      case 'unpublish-release': {
        const notes = (await ctx.services.entries.listReleases(slug)).sort((a, b) => (a.key < b.key ? -1 : 1));
        const note = notes[step.pick % Math.max(1, notes.length)];
        if (!note) break;
        const key = note.tag ?? 'unreleased';
        if (step.kind === 'unpublish-release') {
          await ctx.services.entries.unpublishRelease(slug, key);
          model.releases.delete(key);
        } else {
          const revision = await ctx.services.entries.releaseRevision(slug, key);
          if (revision) exercised.revisionsPublished++;
          const seen = revision ? { title: revision.title, content: revision.content } : { title: note.title, content: note.content };
          await ctx.services.entries.publishRelease(slug, key);
          const shown = await freshRelease(slug, note.tag);
          expect(JSON.parse(shown)).toMatchObject(seen);
          model.releases.set(key, shown);
        }
        break;
      }
    }
    await settled(() => checkSurfaces(slug, model));
  }
}

describe('property: every public surface shows only published revisions', () => {
  let run = 0;
  it('holds after random sequences of ingests, regenerations, settings changes, edits, publishes, unpublishes and archives', async () => {
    // Seeded, so a failure is reproduced by the same run (FC_SEED overrides, to explore).
    const seed = Number(process.env.FC_SEED ?? 23);
    await fc.assert(
      fc.asyncProperty(
        // Every sequence starts by making something to publish, and ends with the bypass itself: what
        // waits is published, a commit lands in a published week, generation runs, the queue is published.
        fc
          .array(stepArb, { minLength: 8, maxLength: 14 })
          .map((steps): Step[] => [
            { kind: 'ingest', tag: false },
            { kind: 'generate' },
            ...steps,
            { kind: 'policy', target: 'weekly', policy: 'manual' },
            { kind: 'generate' },
            { kind: 'publish-all' },
            { kind: 'ingest', tag: false, soon: true },
            { kind: 'generate' },
            { kind: 'publish-all' },
          ]),
        async (steps) => runSteps(`prop-${++run}`, steps),
      ),
      { seed, numRuns: 2, endOnFailure: true },
    );
    expect(exercised.revised).toBeGreaterThan(0);
    expect(exercised.revisionsPublished).toBeGreaterThan(0);
  }, 120_000);
});
