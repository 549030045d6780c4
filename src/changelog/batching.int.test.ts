import { sql } from 'kysely';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../services.js';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser, generatedJson, insertEntries } from '../../test/helpers/factories.js';

/**
 * Concurrent public reads are read together (one statement per batch, identical requests once),
 * and each gets exactly what it would have got alone, never from a read that began before it.
 */
let database: TestDatabase;
let services: Services;
let statements: string[] = [];
/** Called as each statement completes, before its caller goes on. */
let afterStatement: ((sql: string) => void) | undefined;
const ids: Record<string, string[]> = {};

beforeAll(async () => {
  database = await createTestDatabase({
    onQuery: (event) => {
      statements.push(event.query.sql);
      afterStatement?.(event.query.sql);
    },
  });
  services = createServices(database, testConfig());
  const user = await buildUser(services);
  for (const slug of ['batch-a', 'batch-b']) {
    const project = await buildProject(services, { type: 'user', email: user.email }, { slug, name: `Project ${slug}` });
    ids[slug] = await insertEntries(
      services,
      project.id,
      Array.from({ length: 12 }, (_, i) => ({
        status: i === 4 ? ('draft' as const) : ('published' as const),
        title: `${slug} entry ${i}`,
        generated_json: JSON.stringify(generatedJson(`${slug} ${i}`)),
        published_at: i === 4 ? null : new Date(Date.UTC(2026, 2, 1 + i)).toISOString(),
      })),
    );
  }
  // A project deeper than a shallow page can reach.
  const deep = await buildProject(services, { type: 'user', email: user.email }, { slug: 'batch-deep' });
  await sql`INSERT INTO changelog_entries (project_id, entry_type, status, title, published_at)
    SELECT ${deep.id}::uuid, 'commit', 'published', 'Deep ' || i, timestamptz '2020-01-01' + make_interval(mins => i)
    FROM generate_series(1, 1100) AS i`.execute(database.db);
});

afterAll(async () => {
  await database?.close();
});

beforeEach(() => {
  statements = [];
});

const text = (serialized: { body: Buffer }) => serialized.body.toString();
const page = (slug: string, query: { limit: number; offset: number; cursor?: string }) => services.changelog.pageJson(slug, query);

describe('concurrent public reads', () => {
  it('reads concurrent pages of several projects in one statement, each as it reads alone', async () => {
    const queries = [
      ['batch-a', { limit: 5, offset: 0 }],
      ['batch-a', { limit: 3, offset: 4 }],
      ['batch-b', { limit: 20, offset: 0 }],
      ['batch-b', { limit: 2, offset: 10 }],
    ] as const;
    // Alone: one after the other, each its own statement (and every entry serialized by now).
    const alone: string[] = [];
    for (const [slug, query] of queries) alone.push(text(await page(slug, query)));
    expect(statements.length).toBeGreaterThanOrEqual(queries.length);

    statements = [];
    const together = await Promise.allSettled([...queries.map(([slug, query]) => page(slug, query)), page('batch-none', { limit: 5, offset: 0 })]);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/WITH ORDINALITY/);
    expect(together.slice(0, -1).map((r) => (r.status === 'fulfilled' ? text(r.value) : r.reason))).toEqual(alone);
    expect(together.at(-1)).toMatchObject({ status: 'rejected', reason: { code: 'not_found', message: expect.stringMatching(/Changelog/) } });
    // The pages hold what they should: the draft of batch-a is nowhere.
    expect(alone.join('')).not.toContain(ids['batch-a']![4]!);
  });

  it('answers identical concurrent requests from one read, serialized and hashed once', async () => {
    await page('batch-a', { limit: 10, offset: 0 });
    statements = [];
    const results = await Promise.all(Array.from({ length: 20 }, () => page('batch-a', { limit: 10, offset: 0 })));
    expect(statements).toHaveLength(1);
    for (const result of results) expect(result).toBe(results[0]);
    expect(JSON.parse(text(results[0]!)).entries).toHaveLength(10);
  });

  it('reads concurrent entries in one statement; drafts, other projects and unknown slugs are 404', async () => {
    const [a, b] = [ids['batch-a']!, ids['batch-b']!];
    const alone = [text(await services.changelog.entryJson('batch-a', a[0]!)), text(await services.changelog.entryJson('batch-b', b[1]!))];
    statements = [];
    const together = await Promise.allSettled([
      services.changelog.entryJson('batch-a', a[0]!),
      services.changelog.entryJson('batch-b', b[1]!),
      services.changelog.entryJson('batch-a', a[4]!), // a draft
      services.changelog.entryJson('batch-a', b[2]!), // another project's
      services.changelog.entryJson('batch-none', a[0]!),
    ]);
    expect(statements).toHaveLength(1);
    expect(together.slice(0, 2).map((r) => r.status === 'fulfilled' && text(r.value))).toEqual(alone);
    expect(together.slice(2, 4)).toMatchObject([
      { status: 'rejected', reason: { code: 'not_found', message: expect.stringMatching(/Entry/) } },
      { status: 'rejected', reason: { code: 'not_found', message: expect.stringMatching(/Entry/) } },
    ]);
    expect(together[4]).toMatchObject({ status: 'rejected', reason: { code: 'not_found', message: expect.stringMatching(/Changelog/) } });
  });

  it('never answers a request from a read that began before the request arrived', async () => {
    // Whether `before` sees the publish depends on which connection gets there first; `after` must.
    const before = page('batch-b', { limit: 3, offset: 0 });
    await nextTurn(); // its batch is on its way to the database
    const draft = ids['batch-b']![4]!;
    try {
      await sql`UPDATE changelog_entries SET status = 'published', published_at = '2027-01-01' WHERE id = ${draft}`.execute(database.db);
      const after = await page('batch-b', { limit: 3, offset: 0 });
      expect(JSON.parse(text(after)).entries[0].id).toBe(draft);
      expect(JSON.parse(text(await before)).entries).toHaveLength(3);
      expect(statements.filter((s) => /WITH ORDINALITY/.test(s))).toHaveLength(2);
    } finally {
      await sql`UPDATE changelog_entries SET status = 'draft', published_at = NULL WHERE id = ${draft}`.execute(database.db);
    }
  });

  it('reads again, alone, only a request whose entry changed between the listing and its JSON', async () => {
    const projectA = JSON.parse(text(await page('batch-a', { limit: 1, offset: 0 }))).project.id as string;
    await page('batch-b', { limit: 4, offset: 0 });
    // A new entry, never serialized: its JSON has to be read after the listing names its version.
    const [fresh] = await insertEntries(services, projectA, [
      { status: 'published', title: 'Fresh', published_at: '2027-06-01T00:00:00.000Z' },
    ]);
    afterStatement = (text) => {
      if (!/WITH ORDINALITY/.test(text)) return;
      afterStatement = undefined;
      // Sent now, before the batch asks for the JSON: on the embedded database's single connection it
      // runs first; on PostgreSQL, on another connection, it may or may not.
      void sql`UPDATE changelog_entries SET title = 'Fresh, renamed' WHERE id = ${fresh!}`.execute(database.db);
    };
    statements = [];
    const [a, b] = await Promise.all([page('batch-a', { limit: 2, offset: 0 }), page('batch-b', { limit: 4, offset: 0 })]).finally(() =>
      sql`DELETE FROM changelog_entries WHERE id = ${fresh!}`.execute(database.db),
    );
    const titleOfFresh = JSON.parse(text(a)).entries[0].title;
    if (database.kind === 'pglite') {
      expect(titleOfFresh).toBe('Fresh, renamed');
      // The batch's listing, the UPDATE, the JSON read that found the change, then batch-a alone.
      expect(statements.filter((s) => /WITH ORDINALITY/.test(s))).toHaveLength(1);
      expect(statements.filter((s) => /LEFT JOIN LATERAL/.test(s) && !/WITH ORDINALITY/.test(s))).toHaveLength(1);
    } else {
      expect(['Fresh', 'Fresh, renamed']).toContain(titleOfFresh);
    }
    expect(JSON.parse(text(b)).entries.map((e: { title: string }) => e.title)).toEqual([
      'batch-b entry 11',
      'batch-b entry 10',
      'batch-b entry 9',
      'batch-b entry 8',
    ]);
  });

  it('reads cursor pages together, and deep pages once per distinct page, each in its own statement', async () => {
    const first = JSON.parse(text(await page('batch-a', { limit: 2, offset: 0 })));
    const second = JSON.parse(text(await page('batch-b', { limit: 3, offset: 0 })));
    const cursors = [
      ['batch-a', { limit: 2, offset: 0, cursor: first.meta.next_cursor as string }],
      ['batch-b', { limit: 4, offset: 1, cursor: second.meta.next_cursor as string }],
    ] as const;
    const alone: string[] = [];
    for (const [slug, query] of cursors) alone.push(text(await page(slug, query)));
    statements = [];
    expect((await Promise.all(cursors.map(([slug, query]) => page(slug, query)))).map(text)).toEqual(alone);
    expect(statements).toHaveLength(1);
    // After the cursor, with the offset counted from there: batch-a's third and fourth newest.
    expect(JSON.parse(alone[0]!).entries.map((e: { title: string }) => e.title)).toEqual(['batch-a entry 9', 'batch-a entry 8']);

    const deepAlone = text(await page('batch-deep', { limit: 5, offset: 1050 }));
    expect(JSON.parse(deepAlone).entries[0].title).toBe('Deep 50');
    await page('batch-deep', { limit: 5, offset: 1060 });
    statements = [];
    const deep = await Promise.all([
      page('batch-deep', { limit: 5, offset: 1050 }),
      page('batch-deep', { limit: 5, offset: 1050 }),
      page('batch-deep', { limit: 5, offset: 1060 }),
    ]);
    expect(text(deep[0]!)).toBe(deepAlone);
    expect(deep[1]).toBe(deep[0]);
    expect(JSON.parse(text(deep[2]!)).entries[0].title).toBe('Deep 40');
    expect(statements).toHaveLength(2);
    expect(statements.some((s) => /WITH ORDINALITY/.test(s))).toBe(false);
  });
});
