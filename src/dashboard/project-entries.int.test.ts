import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { buildProject, insertEntries } from '../../test/helpers/factories.js';

/**
 * The project page's entry table after publishing: reported as listing an entry twice. It is one
 * statement over the project's entries (by their own date, not published_at), so a publish moves
 * nothing in it; these pin that down.
 */
let ctx: TestContext;
let owner: DashboardClient;
const ids: string[] = [];

/** Entry ids linked from the entry table, in table order (each row links its entry once). */
const tableIds = (body: string): string[] => {
  const table = /<h2 id="entries-h">Entries<\/h2>([\s\S]*?)<\/section>/.exec(body)?.[1] ?? '';
  return [...table.matchAll(/<a href="\/dashboard\/entries\/([0-9a-f-]{36})">/g)].map((m) => m[1]!);
};

beforeAll(async () => {
  ctx = await createTestContext();
  owner = new DashboardClient(ctx.app);
  await owner.setUp(ctx.services, { name: 'Ada', email: 'ada@example.com' });
  const project = await buildProject(ctx.services, { type: 'user', email: 'ada@example.com' }, { slug: 'twice-app' });
  // Drafts and published entries of every type; commit entries dated by period, as generation stores them.
  const day = (n: number) => new Date(Date.parse('2026-02-01T00:00:00Z') + n * 86_400_000);
  ids.push(
    ...(await insertEntries(
      ctx.services,
      project.id,
      Array.from({ length: 60 }, (_, i) => {
        const type = (['commit', 'daily', 'weekly', 'monthly'] as const)[i % 4];
        const published = i % 3 !== 0;
        return {
          entry_type: type,
          title: `Entry ${i}`,
          status: published ? ('published' as const) : ('draft' as const),
          published_at: published ? day(i) : null,
          ...(type === 'commit' ? {} : { period_start: day(i - 1), period_end: day(i) }),
        };
      }),
    )),
  );
});
afterAll(() => ctx?.close());

/** Every entry the table lists, page after page (50 a page). */
async function allListed(): Promise<string[]> {
  const first = (await owner.get('/dashboard/projects/twice-app')).body;
  expect(first).toContain('<a rel="next" href="/dashboard/projects/twice-app?page=2#entries-h">Older entries →</a>');
  const second = (await owner.get('/dashboard/projects/twice-app?page=2')).body;
  expect(second).toContain('<a rel="prev" href="/dashboard/projects/twice-app#entries-h">← Newer entries</a>');
  expect(second).not.toContain('rel="next"');
  return [...tableIds(first), ...tableIds(second)];
}

describe("the project page's entry table", () => {
  it('lists each entry once after publishing, unpublishing and publishing again, in the same order', async () => {
    expect(tableIds((await owner.get('/dashboard/projects/twice-app')).body)).toHaveLength(50);
    const before = await allListed();
    expect(before).toHaveLength(ids.length);
    expect(new Set(before).size).toBe(ids.length);

    // Oldest draft, newest draft, and a published entry retracted and published again (now its published_at is new).
    for (const [id, status] of [
      [ids[0]!, 'published'],
      [ids[57]!, 'published'],
      [ids[1]!, 'draft'],
      [ids[1]!, 'published'],
    ] as const) {
      const done = await owner.submit('/dashboard/projects/twice-app', `/dashboard/entries/${id}/status`, { status });
      expect(done.status).toBe(303);
      expect(await allListed(), `after ${status} ${id}`).toEqual(before);
    }
  });
});
