import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/helpers/context.js';
import { buildProject, buildUser, insertEntries } from '../../../test/helpers/factories.js';
import { listingDate } from '../../../test/helpers/listing-date.js';

/**
 * projects.published_changed_at (migrations/0017), sent as Last-Modified by the feeds and public
 * pages: it must never decrease and every change must land on a later whole second (HTTP dates
 * have no milliseconds), whoever writes.
 */
let ctx: TestContext;
let project: { id: string };
let published: string;
let draft: string;

const second = (date: Date) => Math.floor(date.getTime() / 1000);
const date = () => listingDate(ctx.services, project.id);
const db = () => ctx.database.db;

beforeAll(async () => {
  ctx = await createTestContext();
  const user = await buildUser(ctx.services);
  project = await buildProject(ctx.services, { type: 'user', email: user.email });
  [published, draft] = (await insertEntries(ctx.services, project.id, [
    { status: 'published', title: 'Shown', published_at: new Date() },
    { status: 'draft', title: 'Hidden' },
  ])) as [string, string];
});
afterAll(async () => ctx?.close());

describe('published_changed_at', () => {
  it('moves to a later whole second at every change, however close together the changes are', async () => {
    const seen = [await date()];
    for (let i = 0; i < 3; i++) {
      await db().updateTable('changelog_entries').set({ title: `Shown ${i}` }).where('id', '=', published).execute();
      seen.push(await date());
    }
    for (let i = 1; i < seen.length; i++) expect(second(seen[i]!)).toBeGreaterThan(second(seen[i - 1]!));
  });

  it('moves once per transaction, so a transaction of many statements does not run it seconds ahead', async () => {
    const before = await date();
    await db().transaction().execute(async (tx) => {
      for (let i = 0; i < 5; i++) await tx.updateTable('changelog_entries').set({ title: `Batch ${i}` }).where('id', '=', published).execute();
    });
    const after = await date();
    expect(second(after)).toBeGreaterThan(second(before));
    // One step past the previous second, or the clock if that is later; five steps would be past both.
    expect(second(after)).toBeLessThanOrEqual(Math.max(second(new Date()), second(before) + 1));
  });

  it('never decreases, even when plain SQL sets an earlier date', async () => {
    const before = await date();
    await sql`UPDATE projects SET published_changed_at = '2000-01-01T00:00:00Z' WHERE id = ${project.id}`.execute(db());
    expect(second(await date())).toBeGreaterThan(second(before));
  });

  it('a draft changing alone leaves it; unpublish, archive, delete and the displayed project fields move it', async () => {
    let before = await date();
    await db().updateTable('changelog_entries').set({ title: 'Still hidden' }).where('id', '=', draft).execute();
    await ctx.services.entries.archive(draft);
    expect(await date()).toEqual(before);

    const changes: [string, () => Promise<unknown>][] = [
      ['rename', () => sql`UPDATE projects SET name = 'Renamed' WHERE id = ${project.id}`.execute(db())],
      ['theme', () => ctx.services.projects.updateTheme(project.id, { color: '#123456', logoUrl: 'https://cdn.example.com/l.png' })],
      ['unpublish', () => ctx.services.entries.unpublish(published)],
      ['publish', () => ctx.services.entries.publish(published)],
      ['archive', () => ctx.services.entries.archive(published)],
      ['publish again', () => ctx.services.entries.publish(published)],
      ['delete', () => db().deleteFrom('changelog_entries').where('id', '=', published).execute()],
    ];
    for (const [name, change] of changes) {
      await change();
      const after = await date();
      expect(second(after), name).toBeGreaterThan(second(before));
      before = after;
    }
  });
});
