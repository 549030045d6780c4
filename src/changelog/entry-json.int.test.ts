import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { etagOf } from '../cache/response-cache.js';
import { createServices, type Services } from '../services.js';
import { ChangelogEntry, ENTRY_COLUMNS, GeneratedJson, HeadlineItem, Section, SectionItem } from '../entries/entry.schemas.js';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { buildProject, buildUser, generatedJson, insertEntries } from '../../test/helpers/factories.js';
import { changelogRepository } from './changelog.repository.js';
import { EntryResponse, ListResponse, Project } from './changelog.schemas.js';
import { encodeCursor } from './cursor.js';
import { projectsRepository } from '../projects/projects.repository.js';
import { ProjectsResponse, ProjectSummary } from './projects.schemas.js';
import { compileSerializer, EntryJson } from './entry-json.js';

/**
 * Uncached reads assemble their bodies from entries serialized once per row version. They must be
 * byte for byte what the routes' response schemas make of the same rows, and never outlive a change.
 */
let database: TestDatabase;
let services: Services;
let statements: string[] = [];
let projectId: string;
let userId: string;
let email: string;
let ids: string[];

const refs = [HeadlineItem, SectionItem, Section, GeneratedJson, ChangelogEntry, Project];
const serializeList = compileSerializer<unknown>(ListResponse, refs);
const serializeEntry = compileSerializer<unknown>(EntryResponse, refs);
const serializeProjects = compileSerializer<unknown>(ProjectsResponse, [...refs, ProjectSummary]);

beforeAll(async () => {
  database = await createTestDatabase({ onQuery: (event) => statements.push(event.query.sql) });
  services = createServices(database, testConfig());
  const user = await buildUser(services);
  userId = user.id;
  email = user.email;
  const project = await buildProject(services, { type: 'user', email: user.email }, { slug: 'json-app', name: 'JSON "app" <ü>' });
  projectId = project.id;
  ids = await insertEntries(
    services,
    project.id,
    Array.from({ length: 30 }, (_, i) => ({
      status: i % 7 === 3 ? ('draft' as const) : ('published' as const),
      entry_type: (['commit', 'daily', 'weekly', 'monthly'] as const)[i % 4],
      title: i % 5 === 0 ? null : `Entry ${i}: <b>bold</b> "quoted" \u2028 ü`,
      content: i % 6 === 0 ? null : `## Entry ${i}\n\n- a \\ backslash`,
      generated_json: i % 4 === 0 ? null : JSON.stringify(generatedJson(`Entry ${i}`)),
      version_label: i % 3 === 0 ? null : `v1.${i}.0`,
      component_tags: i % 2 ? ['api', 'ui'] : [],
      commit_shas: i % 2 ? [`${i}`.padStart(40, 'a')] : [],
      period_start: i % 4 ? new Date(Date.UTC(2026, 0, i + 1)).toISOString() : null,
      period_end: i % 4 ? new Date(Date.UTC(2026, 0, i + 8)).toISOString() : null,
      // Ties on purpose: pages order them by id.
      published_at: i % 7 === 3 ? null : new Date(Date.UTC(2026, 1, 1 + Math.floor(i / 3))).toISOString(),
    })),
  );
});

afterAll(async () => {
  await database?.close();
});

/**
 * The oracle: a project's published rows read the plain way (every column, parsed by the driver),
 * newest first, ties by id descending, each with its microsecond sort key for cursors.
 */
async function publishedRows(projectId: string) {
  return database.db
    .selectFrom('changelog_entries')
    .select([...ENTRY_COLUMNS, sql<string>`to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('sort_key')])
    .where('project_id', '=', projectId)
    .where('status', '=', 'published')
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** What the list route's schema makes of `limit` rows from `from` on, as a page at `offset`. */
async function expectedPage(from: number, limit: number, offset: number) {
  const rows = await publishedRows(projectId);
  const entries = rows.slice(from, from + limit);
  const hasMore = from + limit < rows.length;
  const last = entries.at(-1);
  return serializeList({
    project: { id: projectId, name: 'JSON "app" <ü>', slug: 'json-app' },
    entries,
    meta: {
      limit,
      offset,
      count: entries.length,
      total: rows.length,
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor({ publishedAt: last.sort_key, id: last.id }) : null,
    },
  });
}

describe('entries serialized by row version', () => {
  it('assembles pages byte for byte as the route schema serializes the same rows', async () => {
    const queries = [
      { limit: 20, offset: 0 },
      { limit: 7, offset: 5 },
      { limit: 100, offset: 0 },
      { limit: 10, offset: 40 },
    ];
    for (const query of queries) {
      const expected = await expectedPage(query.offset, query.limit, query.offset);
      expect((await services.changelog.pageJson('json-app', query)).body.toString(), JSON.stringify(query)).toBe(expected);
      // And again, now from serialized entries held in memory.
      expect((await services.changelog.pageJson('json-app', query)).body.toString()).toBe(expected);
    }
    const first = JSON.parse((await services.changelog.pageJson('json-app', { limit: 4, offset: 0 })).body.toString());
    const cursor = first.meta.next_cursor as string;
    // After the cursor: the next four, with offset 0 counted from there.
    expect((await services.changelog.pageJson('json-app', { limit: 4, offset: 0, cursor })).body.toString()).toBe(await expectedPage(4, 4, 0));

    const rows = await publishedRows(projectId);
    for (const entry of rows.slice(0, 8)) {
      expect((await services.changelog.entryJson('json-app', entry.id)).body.toString()).toBe(serializeEntry({ entry }));
    }
  });

  it('assembles the project listing byte for byte as its route schema serializes the same rows', async () => {
    const second = await buildProject(services, { type: 'user', email }, { slug: 'json-empty' });
    expect(second.slug).toBe('json-empty');
    const principal = { kind: 'identity' as const, userId };
    for (const limit of [1, 5, 200]) {
      const projects = await Promise.all(
        (await projectsRepository.listVisible(database.db, { kind: 'user', userId })).map(async (project) => ({
          ...project,
          changelog_entries: (await publishedRows(project.id)).slice(0, limit),
        })),
      );
      const expected = serializeProjects({ projects, meta: { count: projects.length, entries_limit: limit } });
      const { body, projectIds } = await services.changelog.listVisibleProjectsJson(principal, limit);
      expect(Buffer.concat(body).toString(), `entries_limit=${limit}`).toBe(expected);
      expect(projectIds).toEqual(projects.map((p) => p.id));
    }
  });

  it('reads a page in one statement once its entries are serialized, and the same errors as before', async () => {
    await services.changelog.pageJson('json-app', { limit: 20, offset: 0 });
    statements = [];
    const { projectId: shown } = await services.changelog.pageJson('json-app', { limit: 20, offset: 0 });
    expect(shown).toBe(projectId);
    expect(statements).toHaveLength(1);

    await expect(services.changelog.pageJson('no-such-app', { limit: 20, offset: 0 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(services.changelog.entryJson('no-such-app', ids[0]!)).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/Changelog/) });
    // A draft is not found, whether or not its JSON was ever made.
    await expect(services.changelog.entryJson('json-app', ids[3]!)).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/Entry/) });
  });

  it('never serves a version that has changed or left since it was listed', async () => {
    const entryJson = new EntryJson(1024 * 1024);
    const listed = (await changelogRepository.entry(database.db, 'json-app', ids[1]!))!.entries;

    // Any write makes a new version, even one by plain SQL that does not touch updated_at.
    await sql`UPDATE changelog_entries SET title = 'Renamed by SQL' WHERE id = ${ids[1]!}`.execute(database.db);
    const again = (await changelogRepository.entry(database.db, 'json-app', ids[1]!))!.entries;
    expect(again[0]!.version).not.toBe(listed[0]!.version);
    // The version listed before the write, not held in memory: refused, so the caller lists again.
    expect(await entryJson.of(database.db, listed)).toBeUndefined();
    expect(JSON.parse((await entryJson.of(database.db, again))![0]!.toString()).title).toBe('Renamed by SQL');

    // Unpublished after it was listed (and never serialized): refused too, never shown.
    const beforeUnpublish = (await changelogRepository.entry(database.db, 'json-app', ids[2]!))!.entries;
    expect(beforeUnpublish).toHaveLength(1);
    await sql`UPDATE changelog_entries SET status = 'draft', published_at = NULL WHERE id = ${ids[2]!}`.execute(database.db);
    expect(await entryJson.of(database.db, beforeUnpublish)).toBeUndefined();
    const page = await services.changelog.pageJson('json-app', { limit: 100, offset: 0 });
    expect(page.body.toString()).not.toContain(ids[2]!);
    expect(page.body.toString()).toContain('Renamed by SQL');
  });

  it('sends a large uncached listing in chunks that add up to the very bytes, length and ETag', async () => {
    const big = await buildProject(services, { type: 'user', email }, { slug: 'json-big' });
    await insertEntries(
      services,
      big.id,
      Array.from({ length: 150 }, (_, i) => ({
        status: 'published' as const,
        title: `Big ${i} ü`,
        generated_json: JSON.stringify(generatedJson(`Big ${i}`)),
        published_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
      })),
    );
    const config = testConfig({ RESPONSE_CACHE: 'false' });
    const app = await buildApp({ config, database, services: createServices(database, config) });
    try {
      const { secret } = await services.keys.create({ name: 'listing', context: { type: 'user', email } });
      const res = await app.inject({ url: '/v1/projects?entries_limit=200', headers: { authorization: `Bearer ${secret}` } });
      expect(res.statusCode).toBe(200);
      const expected = Buffer.concat((await services.changelog.listVisibleProjectsJson({ kind: 'identity', userId }, 200)).body);
      expect(expected.length).toBeGreaterThan(2 * 64 * 1024);
      expect(res.rawPayload.equals(expected)).toBe(true);
      expect(res.headers['content-length']).toBe(String(expected.length));
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(res.headers.etag).toBe(etagOf(expected));
      expect(res.json().projects.find((p: { slug: string }) => p.slug === 'json-big').changelog_entries).toHaveLength(150);
    } finally {
      await app.close();
    }
  });
});
