import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { createTestDatabase, usePostgres, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';
import type { Executor } from '../db/database.js';
import { loadMigrations, migrate } from '../db/migrate.js';
import type { EntryType } from '../db/schema.js';
import { changelogRepository, type PageRequest } from './changelog.repository.js';

/**
 * The marks of migrations/0030 (every K-th key of each public listing, numbered from its oldest entry)
 * are derived from the entries and release notes by statement-level triggers, and a deep page starts
 * at one. After every kind of write: the marks are exactly what the listings give when numbered
 * afresh, and a page at any offset, from the top or after a cursor, is the same slice as OFFSET on the
 * whole ordered listing (the plain statement the marks replace).
 */
let K: number;
const TYPES: EntryType[] = ['commit', 'daily', 'weekly', 'monthly'];

let ctx: TestContext;
let a: { id: string; slug: string };
let b: { id: string; slug: string };

beforeAll(async () => {
  ctx = await createTestContext({ RESPONSE_CACHE: 'false' });
  const user = await buildUser(ctx.services);
  a = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'marks-a' });
  b = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'marks-b' });
  K = (await sql<{ k: number }>`SELECT listing_mark_interval() AS k`.execute(ctx.database.db)).rows[0]!.k;
});
afterAll(async () => ctx?.close());

const db = () => ctx.database.db;

/** The marks as kept, and as numbering every listing afresh gives them. */
async function expectMarksExact(on: Executor = db()) {
  const row = (r: { project_id: string; component: string; listing: string; seq: number; at: string; id: string }) =>
    [r.project_id, r.component, r.listing, r.seq, r.at, r.id].join('|');
  const kept = await sql<{ project_id: string; component: string; listing: string; seq: number; at: string; id: string }>`
    SELECT project_id, component, listing, seq, published_at::text AS at, entry_id AS id FROM published_entry_marks
    UNION ALL
    SELECT project_id, '', 'releases', seq, sort_at::text, release_id FROM published_release_marks`.execute(on);
  const expected = await sql<{ project_id: string; component: string; listing: string; seq: number; at: string; id: string }>`
    SELECT project_id, component, listing, (pos / ${K})::int AS seq, at, id FROM (
      SELECT project_id, component, listing, at, id,
        row_number() OVER (PARTITION BY project_id, component, listing ORDER BY at, id) - 1 AS pos
      FROM (
        SELECT e.project_id, '' AS component, l AS listing, e.published_at AS at, e.id
        FROM changelog_entries e, unnest(ARRAY['all', e.entry_type]) AS l WHERE e.status = 'published'
        UNION ALL
        SELECT project_id, component, listing, published_at, entry_id FROM published_entry_components
        UNION ALL
        SELECT project_id, '', 'releases', sort_at, id FROM release_notes WHERE status = 'published'
      ) listed
    ) numbered
    WHERE pos % ${K} = 0`.execute(on);
  // Text of the instants as PostgreSQL writes them, so both sides compare exactly.
  const again = await sql<{ at: string }>`SELECT unnest(${expected.rows.map((r) => r.at)}::timestamptz[])::text AS at`.execute(on);
  expect(expected.rows.length).toBe(again.rows.length);
  const expectedRows = expected.rows.map((r, i) => row({ ...r, at: again.rows[i]!.at }));
  expect(kept.rows.map(row).sort()).toEqual(expectedRows.sort());
}

interface Listed {
  id: string;
  /** published_at (sort_at for releases) to the microsecond, as a cursor names it. */
  at: string;
}

/** A listing in full, newest first, the plain way. */
async function entriesOf(projectId: string, type?: EntryType, component?: string): Promise<Listed[]> {
  const rows = await sql<Listed>`SELECT id, to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
    FROM changelog_entries WHERE project_id = ${projectId} AND status = 'published'
    ${type ? sql`AND entry_type = ${type}` : sql``} ${component ? sql`AND ${component} = ANY(component_tags)` : sql``}
    ORDER BY published_at DESC, id DESC`.execute(db());
  return rows.rows;
}

async function releasesOf(projectId: string): Promise<Listed[]> {
  const rows = await sql<Listed>`SELECT id,
      CASE WHEN released_at IS NULL THEN 'infinity' ELSE to_char(sort_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END AS at
    FROM release_notes WHERE project_id = ${projectId} AND status = 'published' ORDER BY sort_at DESC, id DESC`.execute(db());
  return rows.rows;
}

/** Offsets around every boundary that matters: the marks' interval, the middle, the end. */
const offsetsFor = (total: number) =>
  [...new Set([0, 1, K - 1, K, K + 1, 2 * K + 5, Math.floor(total / 2), total - 21, total - K, total - 1, total, total + 3])].filter((o) => o >= 0);

/** Every listing of a project, at every offset that matters, from the top and after cursors: the right slice. */
async function expectPagesRight(project: { id: string; slug: string }, cursors: Listed[] = []) {
  for (const type of [undefined, ...TYPES]) {
    const full = await entriesOf(project.id, type);
    const ids = full.map((e) => e.id);
    const requests: PageRequest[] = [];
    const expected: string[][] = [];
    for (const offset of offsetsFor(full.length)) {
      for (const limit of [1, 20]) {
        requests.push({ slug: project.slug, limit, offset, type });
        expected.push(ids.slice(offset, offset + limit));
      }
    }
    // After a cursor: at entries of the listing, and at keys that are none (entries gone since).
    const afterAt = [0, 3, Math.floor(full.length / 3), full.length - 30].filter((i) => i >= 0 && i < full.length);
    for (const cursor of [...afterAt.map((i) => full[i]!), ...cursors]) {
      const start = full.filter((e) => e.at > cursor.at || (e.at === cursor.at && e.id >= cursor.id)).length;
      for (const offset of [0, 2, K - 1, K, K + 3, 40, 100]) {
        requests.push({ slug: project.slug, limit: 20, offset, type, after: { publishedAt: cursor.at, id: cursor.id } });
        expected.push(ids.slice(start + offset, start + offset + 20));
      }
    }
    // Alone, each in its statement (for two of the listings: the statement is the same for all);
    // together, in one (as the batches read them: all with a cursor or none).
    for (const [i, request] of requests.entries()) {
      if (type && type !== 'monthly') continue;
      const listed = await changelogRepository.page(db(), request);
      expect(listed!.entries.map((e) => e.id), JSON.stringify(request)).toEqual(expected[i]);
      expect(listed!.total).toBe(full.length);
    }
    for (const withCursor of [false, true]) {
      const batch = requests.map((r, i) => [r, expected[i]!] as const).filter(([r]) => Boolean(r.after) === withCursor);
      const listed = await changelogRepository.pages(db(), batch.map(([r]) => r));
      expect(listed.map((l) => l!.entries.map((e) => e.id))).toEqual(batch.map(([, e]) => e));
    }
  }
  // The public page's listings: of every type or one, with a component or without.
  for (const component of [undefined, 'api', 'web', 'nothing']) {
    for (const type of [undefined, 'commit', 'weekly'] as const) {
      const ids = (await entriesOf(project.id, type, component)).map((e) => e.id);
      for (const offset of offsetsFor(ids.length)) {
        const rows = await changelogRepository.listPublished(db(), project.id, { type, component }, { limit: 21, offset });
        expect(rows.map((r) => r.id), `${component} ${type} ${offset}`).toEqual(ids.slice(offset, offset + 21));
      }
    }
  }
  const releases = await releasesOf(project.id);
  const releaseIds = releases.map((r) => r.id);
  for (const offset of offsetsFor(releases.length)) {
    for (const limit of [1, 20]) {
      const rows = await changelogRepository.publishedReleases(db(), project.id, { limit, offset });
      expect(rows.map((r) => r.id), `releases ${offset}`).toEqual(releaseIds.slice(offset, offset + limit));
    }
  }
  for (const index of [0, 2, Math.floor(releases.length / 2)].filter((i) => i < releases.length)) {
    for (const offset of [0, K, K + 7, 40]) {
      const after = { sortAt: releases[index]!.at, id: releases[index]!.id };
      const rows = await changelogRepository.publishedReleases(db(), project.id, { limit: 20, offset, after });
      expect(rows.map((r) => r.id), `releases after ${index} ${offset}`).toEqual(releaseIds.slice(index + 1 + offset, index + 21 + offset));
    }
  }
}

async function expectAllRight(cursors: Listed[] = []) {
  await expectMarksExact();
  await expectPagesRight(a, cursors);
  await expectPagesRight(b);
}

const at = (hours: number) => sql`timestamptz '2020-01-01' + make_interval(hours => ${hours})`;

describe('listing marks (migrations/0030)', () => {
  it('follow a bulk insert: several types, components, drafts, ties on published_at', async () => {
    // Three entries an hour (ties broken by id); every ninth a draft; types and tags spread unevenly.
    await sql`INSERT INTO changelog_entries (project_id, entry_type, status, title, component_tags, published_at)
      SELECT ${a.id}::uuid, (ARRAY['commit', 'commit', 'commit', 'daily', 'weekly', 'commit', 'monthly'])[1 + i % 7],
        CASE WHEN i % 9 = 0 THEN 'draft' ELSE 'published' END, 'A ' || i,
        CASE WHEN i % 3 = 0 THEN ARRAY['api'] WHEN i % 7 = 1 THEN ARRAY['web', 'api'] ELSE ARRAY[]::text[] END,
        CASE WHEN i % 9 = 0 THEN NULL ELSE ${at(0)} + make_interval(hours => i / 3) END
      FROM generate_series(1, 700) AS i`.execute(db());
    await sql`INSERT INTO changelog_entries (project_id, entry_type, status, title, component_tags, published_at)
      SELECT ${b.id}::uuid, 'commit', 'published', 'B ' || i, ARRAY['api'], ${at(0)} + make_interval(hours => i)
      FROM generate_series(1, 60) AS i`.execute(db());
    const json = JSON.stringify({ title: 't', headline_items: [], sections: [], component_tags: [], team_attribution: null });
    await sql`INSERT INTO release_notes (project_id, key, tag, released_at, title, generated_json, status, published_at)
      SELECT ${a.id}::uuid, 'release:v' || i, 'v' || i, ${at(0)} + make_interval(days => i / 2), 'Release ' || i, ${json}::jsonb,
        CASE WHEN i % 8 = 0 THEN 'draft' ELSE 'published' END, CASE WHEN i % 8 = 0 THEN NULL ELSE now() END
      FROM generate_series(1, 90) AS i`.execute(db());
    await sql`INSERT INTO release_notes (project_id, key, tag, title, generated_json, status, published_at)
      VALUES (${a.id}, 'release:unreleased', NULL, 'Unreleased', ${json}::jsonb, 'published', now())`.execute(db());
    expect((await entriesOf(a.id)).length).toBeGreaterThan(600);
    await expectAllRight();
  });

  it('follow new entries on top, one at a time and several in one statement', async () => {
    for (let i = 0; i < 3; i++) {
      await sql`INSERT INTO changelog_entries (project_id, entry_type, status, title, component_tags, published_at)
        VALUES (${a.id}, 'commit', 'published', 'Top', ARRAY['api'], ${at(1000 + i)})`.execute(db());
    }
    await sql`INSERT INTO changelog_entries (project_id, entry_type, status, title, component_tags, published_at)
      SELECT ${a.id}::uuid, 'weekly', 'published', 'Top ' || i, ARRAY['web'], ${at(1100)} + make_interval(mins => i)
      FROM generate_series(1, 20) AS i`.execute(db());
    await expectAllRight();
  });

  it('follow publishes in the middle (backdated) and at the oldest end', async () => {
    await sql`UPDATE changelog_entries SET status = 'published', published_at = ${at(50)} + make_interval(mins => (random() * 1000)::int)
      WHERE project_id = ${a.id} AND status = 'draft' AND title IN ('A 9', 'A 18', 'A 270', 'A 540')`.execute(db());
    await sql`UPDATE changelog_entries SET status = 'published', published_at = ${at(-10)} WHERE project_id = ${a.id} AND title = 'A 99'`.execute(db());
    await expectAllRight();
  });

  it('follow unpublishes (the newest, the oldest, one in the middle, many in one statement), with cursors at entries gone since', async () => {
    const full = await entriesOf(a.id);
    const gone = [full[0]!, full.at(-1)!, full[Math.floor(full.length / 2)]!];
    await sql`UPDATE changelog_entries SET status = 'draft', published_at = NULL WHERE id IN (${gone[0]!.id}, ${gone[1]!.id}, ${gone[2]!.id})`.execute(db());
    await sql`UPDATE changelog_entries SET status = 'archived', published_at = NULL
      WHERE project_id = ${a.id} AND status = 'published' AND title LIKE 'A 1%' AND entry_type = 'commit'`.execute(db());
    await expectAllRight(gone);
  });

  it('follow deletes, of entries and of a whole project', async () => {
    await sql`DELETE FROM changelog_entries WHERE project_id = ${a.id} AND title IN ('A 2', 'A 3', 'A 301', 'A 302', 'A 640')`.execute(db());
    await sql`DELETE FROM changelog_entries WHERE project_id = ${b.id} AND title = 'B 30'`.execute(db());
    await expectAllRight();
  });

  it('follow changes of type, of tags and of date, and a move to another project', async () => {
    await sql`UPDATE changelog_entries SET entry_type = 'weekly' WHERE project_id = ${a.id} AND title LIKE 'A 2%' AND entry_type = 'commit'`.execute(db());
    await expectAllRight();
    await sql`UPDATE changelog_entries SET component_tags = ARRAY['web'] WHERE project_id = ${a.id} AND title LIKE 'A 4%'`.execute(db());
    await sql`UPDATE changelog_entries SET published_at = published_at - interval '100 hours' WHERE project_id = ${a.id} AND title LIKE 'A 5_'`.execute(db());
    await sql`UPDATE changelog_entries SET project_id = ${b.id} WHERE project_id = ${a.id} AND title LIKE 'A 6_'`.execute(db());
    await expectAllRight();
    // An edit of content alone moves no key.
    await sql`UPDATE changelog_entries SET title = title || ' (edited)' WHERE project_id = ${a.id}`.execute(db());
    await expectAllRight();
  });

  it('follow release notes: new ones, unpublished, deleted, and a release date that moves', async () => {
    const json = JSON.stringify({ title: 't', headline_items: [], sections: [], component_tags: [], team_attribution: null });
    await sql`INSERT INTO release_notes (project_id, key, tag, released_at, title, generated_json, status, published_at)
      SELECT ${a.id}::uuid, 'release:w' || i, 'w' || i, ${at(100_000)} + make_interval(days => i), 'W ' || i, ${json}::jsonb, 'published', now()
      FROM generate_series(1, 5) AS i`.execute(db());
    await sql`UPDATE release_notes SET status = 'draft', published_at = NULL WHERE key IN ('release:v20', 'release:v21', 'release:v2')`.execute(db());
    await sql`DELETE FROM release_notes WHERE key IN ('release:v50', 'release:w1')`.execute(db());
    await sql`UPDATE release_notes SET released_at = ${at(-500)} WHERE key = 'release:v70'`.execute(db());
    await expectAllRight();
  });

  it('are gone with a project, and emptied by TRUNCATE', async () => {
    await sql`DELETE FROM projects WHERE id = ${b.id}`.execute(db());
    await expectMarksExact();
    await expectPagesRight(a);
    await sql`TRUNCATE changelog_entries, release_notes CASCADE`.execute(db());
    const left = await sql<{ n: number }>`SELECT (SELECT count(*) FROM published_entry_marks)::int + (SELECT count(*) FROM published_release_marks)::int AS n`.execute(db());
    expect(left.rows[0]!.n).toBe(0);
  });
});

/**
 * Two transactions that publish into one project at once, as two generation runs of a project's links
 * or an editor beside a run may: the second one's statement runs while the first is uncommitted, so it
 * numbers the listing without the first one's rows unless it waits for them. Each rebuild of a
 * project's marks waits for the project's row lock, held to the end by any transaction that changed a
 * published entry or note of that project (migrations/0037), and then reads what the other committed.
 * On PGlite (one session) the transactions run one after the other; the race is PostgreSQL's.
 */
describe('listing marks under concurrent publishes', () => {
  let c: { id: string; slug: string };
  const json = JSON.stringify({ title: 't', headline_items: [], sections: [], component_tags: [], team_attribution: null });

  beforeAll(async () => {
    const user = await buildUser(ctx.services);
    c = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: 'marks-c' });
  });

  /** Resolves once a statement of another session waits for a lock (at once on PGlite, which has one session). */
  async function someoneWaits(): Promise<void> {
    if (!usePostgres) return;
    for (let i = 0; i < 500; i++) {
      const waiting = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db());
      if (waiting.rows[0]!.n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the second transaction never waited');
  }

  /**
   * `first` and `second`, each in a transaction: `second` starts while `first` is uncommitted, and
   * `first` commits only once `second` waits (or, on PGlite, once it is queued behind it).
   */
  async function concurrently(first: (tx: Executor) => Promise<unknown>, second: (tx: Executor) => Promise<unknown>): Promise<void> {
    let firstDone!: () => void;
    const firstWrote = new Promise<void>((resolve) => (firstDone = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const one = db()
      .transaction()
      .execute(async (tx) => {
        await first(tx);
        firstDone();
        await released;
      });
    await firstWrote;
    const two = db()
      .transaction()
      .execute(async (tx) => second(tx));
    await someoneWaits();
    release();
    await Promise.all([one, two]);
  }

  const publishEntries = (tx: Executor, title: string, count: number, hour: number) =>
    sql`INSERT INTO changelog_entries (project_id, entry_type, status, title, component_tags, published_at)
      SELECT ${c.id}::uuid, 'commit', 'published', ${title} || ' ' || i, ARRAY['api'], ${at(hour)} + make_interval(mins => i)
      FROM generate_series(1, ${count}) AS i`.execute(tx);
  const publishNotes = (tx: Executor, prefix: string, count: number, day: number) =>
    sql`INSERT INTO release_notes (project_id, key, tag, released_at, title, generated_json, status, published_at)
      SELECT ${c.id}::uuid, 'release:' || ${prefix} || i, ${prefix} || i, ${at(0)} + make_interval(days => ${day}, mins => i), 'R ' || i,
        ${json}::jsonb, 'published', now()
      FROM generate_series(1, ${count}) AS i`.execute(tx);

  it('entries: two publishes on top, at every count modulo K, and a backdated publish beside an unpublish', async () => {
    // Counts before each pair of publishes of one entry each: K - 1 (the pair completes a mark only
    // together), then a multiple of K (each would add the same mark alone).
    await publishEntries(db(), 'base', K - 1, 0);
    await concurrently(
      (tx) => publishEntries(tx, 'one', 1, 10),
      (tx) => publishEntries(tx, 'two', 1, 11),
    );
    await expectMarksExact();
    await publishEntries(db(), 'fill', K - 1, 20);
    await concurrently(
      (tx) => publishEntries(tx, 'three', 1, 30),
      (tx) => publishEntries(tx, 'four', 1, 31),
    );
    await expectMarksExact();
    for (let round = 0; round < K; round++) {
      await concurrently(
        (tx) => publishEntries(tx, `a${round}`, 1 + (round % 3), 100 + round),
        (tx) => publishEntries(tx, `b${round}`, 1, 100 + round),
      );
    }
    await expectMarksExact();
    await concurrently(
      (tx) => publishEntries(tx, 'old', 3, -5),
      (tx) => sql`UPDATE changelog_entries SET status = 'draft', published_at = NULL WHERE project_id = ${c.id} AND title IN ('fill 2', 'a3 1')`.execute(tx),
    );
    await expectMarksExact();
    await expectPagesRight(c);
  });

  it('release notes: two publishes on top, at every count modulo K, and an unpublish beside a publish', async () => {
    await publishNotes(db(), 'base', K - 1, 0);
    await concurrently(
      (tx) => publishNotes(tx, 'one', 1, 10),
      (tx) => publishNotes(tx, 'two', 1, 11),
    );
    await expectMarksExact();
    await publishNotes(db(), 'fill', K - 1, 20);
    await concurrently(
      (tx) => publishNotes(tx, 'three', 1, 30),
      (tx) => publishNotes(tx, 'four', 1, 31),
    );
    await expectMarksExact();
    for (let round = 0; round < K; round++) {
      await concurrently(
        (tx) => publishNotes(tx, `a${round}-`, 1 + (round % 3), 100 + round),
        (tx) => publishNotes(tx, `b${round}-`, 1, 100 + round),
      );
    }
    await expectMarksExact();
    await concurrently(
      (tx) => publishNotes(tx, 'old', 3, -5),
      (tx) =>
        sql`UPDATE release_notes SET status = 'draft', published_at = NULL WHERE project_id = ${c.id} AND key IN ('release:fill2', 'release:a3-1')`.execute(tx),
    );
    await expectMarksExact();
    await expectPagesRight(c);
  });
});

describe('migration 0030 on older data', () => {
  let database: TestDatabase;
  afterAll(async () => database?.close());

  it('marks the listings already there: entries of every type, component listings, release notes', async () => {
    database = await createTestDatabase({ migrations: loadMigrations().filter((m) => m.version < 30) });
    const on = database.db;
    const user = await sql<{ id: string }>`INSERT INTO users (email, name) VALUES ('old@example.com', 'Old') RETURNING id`.execute(on);
    const projects = await sql<{ id: string }>`INSERT INTO projects (owner_type, owner_user_id, name, slug)
      SELECT 'user', ${user.rows[0]!.id}::uuid, 'Old ' || n, 'old-' || n FROM generate_series(1, 2) AS n RETURNING id`.execute(on);
    for (const [n, { id }] of projects.rows.entries()) {
      await sql`INSERT INTO changelog_entries (project_id, entry_type, status, published_at, component_tags)
        SELECT ${id}::uuid, (ARRAY['commit', 'daily', 'weekly', 'monthly'])[1 + i % 4], CASE WHEN i % 3 = 0 THEN 'draft' ELSE 'published' END,
          CASE WHEN i % 3 = 0 THEN NULL ELSE timestamptz '2024-01-01' + make_interval(hours => i / 2) END,
          CASE WHEN i % 5 = 0 THEN ARRAY['api'] WHEN i % 2 = 0 THEN ARRAY['web', 'api'] ELSE ARRAY[]::text[] END
        FROM generate_series(1, ${150 + 70 * n}) AS i`.execute(on);
      const json = JSON.stringify({ title: 't', headline_items: [], sections: [], component_tags: [], team_attribution: null });
      await sql`INSERT INTO release_notes (project_id, key, tag, released_at, title, generated_json, status, published_at)
        SELECT ${id}::uuid, 'release:v' || i, 'v' || i, timestamptz '2024-01-01' + make_interval(days => i), 'Release ' || i, ${json}::jsonb,
          CASE WHEN i % 4 = 0 THEN 'draft' ELSE 'published' END, CASE WHEN i % 4 = 0 THEN NULL ELSE now() END
        FROM generate_series(1, 40) AS i`.execute(on);
    }

    await migrate(database);

    const marks = await sql<{ n: number }>`SELECT count(*)::int AS n FROM published_entry_marks WHERE component <> ''`.execute(on);
    expect(marks.rows[0]!.n).toBeGreaterThan(0);
    await expectMarksExact(on);
    // The triggers run from then on.
    await sql`UPDATE changelog_entries SET status = 'draft', published_at = NULL WHERE entry_type = 'weekly' AND status = 'published'`.execute(on);
    await expectMarksExact(on);
  });
});
