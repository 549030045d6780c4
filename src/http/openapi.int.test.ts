import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, getFrom, type TestContext } from '../../test/helpers/context.js';
import { buildOrg, buildProject, buildUser, generatedJson, insertEntries } from '../../test/helpers/factories.js';

// CommonJS packages seen through NodeNext: the constructor is the default export's default.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

/* ------------------------------------------------------------------------------------------ */
/* The OpenAPI document, seen through the few parts these tests read.                          */
/* ------------------------------------------------------------------------------------------ */

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}
interface Operation {
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  responses: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, Record<string, unknown>> };
}

const DOCUMENTED_PATHS = ['/health', '/v1/projects', '/v1/changelog/{slug}', '/v1/changelog/{slug}/entries/{id}'];
/** Paths the contract names but this service may not implement yet; allowed, not required. */
const CONTRACT_PATHS = [...DOCUMENTED_PATHS, '/v1/projects/{projectId}/repos', '/v1/scm/callback'];
/** The release-notes extension (outside the contract, `x-extension: true`): API routes and their feeds. */
const RELEASE_PATHS = [
  '/v1/changelog/{slug}/releases',
  '/v1/changelog/{slug}/releases/{tag}',
  '/v1/changelog/{slug}/releases.atom',
  '/v1/changelog/{slug}/releases.rss',
  '/v1/changelog/{slug}/releases.json',
  '/v1/changelog/{slug}/changelog.md',
];
/** Publishing from CI (outside the contract, `x-extension: true`, a key of the `publish` scope): src/automation/. */
const PUBLISHING_PATHS = [
  '/v1/projects/{slug}/drafts/entries',
  '/v1/projects/{slug}/drafts/releases',
  '/v1/projects/{slug}/entries/{id}/publish',
  '/v1/projects/{slug}/entries/{id}/unpublish',
  '/v1/projects/{slug}/releases/{tag}/publish',
  '/v1/projects/{slug}/releases/{tag}/unpublish',
  '/v1/projects/{slug}/repos/{id}/sync',
  '/v1/projects/{slug}/releases/preview',
];
/** Public additions outside the contract, documented so clients can find them: feeds, the public page, the widget. */
const ADDITION_PATHS = [
  '/v1/changelog/{slug}/feed.atom',
  '/v1/changelog/{slug}/feed.rss',
  '/v1/changelog/{slug}/feed.json',
  '/c/{slug}',
  '/c/{slug}/entries/{id}',
  '/widget.js',
  ...RELEASE_PATHS,
  '/c/{slug}/releases',
  '/c/{slug}/releases/{tag}',
  ...PUBLISHING_PATHS,
];
const NAMED_COMPONENTS = ['ChangelogEntry', 'GeneratedJson', 'ErrorResponse', 'ProjectSummary', 'Project'];

/** JSON-pointer escaping of one reference token (RFC 6901): `~` first, then `/`. */
const escapePointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** The route template (`/v1/changelog/{slug}`) a concrete request URL was served by. */
function templateOf(url: string): string {
  const path = url.split('?')[0]!;
  if (path === '/health' || path === '/v1/projects') return path;
  if (/^\/v1\/changelog\/[^/]*\/entries\/[^/]*$/.test(path)) return '/v1/changelog/{slug}/entries/{id}';
  if (/^\/v1\/changelog\/[^/]*\/releases\/[^/]*$/.test(path)) return '/v1/changelog/{slug}/releases/{tag}';
  if (/^\/v1\/changelog\/[^/]*\/releases$/.test(path)) return '/v1/changelog/{slug}/releases';
  if (/^\/v1\/changelog\/[^/]*$/.test(path)) return '/v1/changelog/{slug}';
  throw new Error(`No documented route for ${url}`);
}

/** Every `$ref` value anywhere in a JSON value. */
function collectRefs(value: unknown, refs: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, refs);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') refs.push(child);
      else collectRefs(child, refs);
    }
  }
  return refs;
}

/** What must never reach a client in a 5xx body: traces, file names, error class prefixes. */
const LEAK_MARKERS = ['at ', '.ts', '.js', 'node_modules', 'Error:'];

/* ------------------------------------------------------------------------------------------ */
/* Fixtures                                                                                    */
/* ------------------------------------------------------------------------------------------ */

let ctx: TestContext;
let doc: OpenApiDocument;
let ajv: InstanceType<typeof Ajv2020>;
let userKey: string;
let orgKey: string;
let publishedIds: string[];
let draftId: string;

const SLUG = 'openapi-demo';
const ORG_SLUG = 'openapi-org-project';

const get = getFrom(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();

  const user = await buildUser(ctx.services);
  const project = await buildProject(ctx.services, { type: 'user', email: user.email }, { slug: SLUG, name: 'OpenAPI Demo' });
  const org = await buildOrg(ctx.services, user.email);
  const orgProject = await buildProject(ctx.services, { type: 'org', slug: org.slug }, { slug: ORG_SLUG, name: 'Org Project' });

  // One commit, so that an entry carries a non-null commit_id and every nullable field is exercised with a value.
  const commit = await ctx.services.database.db
    .insertInto('commits')
    .values({
      project_id: project.id,
      sha: 'c'.repeat(40),
      author_name: 'Ada',
      author_email: 'ada@example.com',
      authored_at: new Date('2026-01-01T00:00:00Z'),
      committer_name: 'Ada',
      committer_email: 'ada@example.com',
      committed_at: new Date('2026-01-01T00:00:00Z'),
      message: 'Add a thing',
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  publishedIds = await insertEntries(ctx.services, project.id, [
    {
      status: 'published',
      title: 'Everything filled in',
      content: '## Features\n\n- Add a thing',
      generated_json: JSON.stringify(generatedJson('Everything filled in')),
      version_label: 'v1.2.0',
      team_attribution: 'Ada and Linus',
      component_tags: ['core', 'api'],
      commit_id: commit.id,
      commit_shas: ['c'.repeat(40)],
      published_at: new Date('2026-01-02T00:00:00Z'),
    },
    {
      status: 'published',
      entry_type: 'weekly',
      title: 'A weekly digest',
      generated_json: JSON.stringify(generatedJson('A weekly digest')),
      period_start: new Date('2025-12-22T00:00:00Z'),
      period_end: new Date('2025-12-29T00:00:00Z'),
      published_at: new Date('2025-12-29T00:00:00Z'),
    },
    // Published with every optional field left null.
    { status: 'published', title: null, published_at: new Date('2025-12-01T00:00:00Z') },
  ]);
  draftId = (await insertEntries(ctx.services, project.id, [{ status: 'draft', title: 'Secret draft' }]))[0]!;
  await insertEntries(ctx.services, orgProject.id, [
    { status: 'published', title: 'Org entry', generated_json: JSON.stringify(generatedJson('Org')), published_at: new Date() },
  ]);

  // Release notes (the extension): a tagged one with every field, Unreleased, and a draft.
  const note = (key: string, tag: string | null, extra: Record<string, unknown> = {}) => ({
    project_id: project.id,
    key,
    tag,
    title: tag ?? 'Unreleased',
    content: '### Features\n\n- Add a thing',
    generated_json: JSON.stringify(generatedJson(tag ?? 'Unreleased')),
    ...extra,
  });
  await ctx.services.database.db
    .insertInto('release_notes')
    .values([
      note('release:pkg@1.2.0', 'pkg@1.2.0', {
        package: 'pkg', version: '1.2.0', previous_tag: 'pkg@1.1.0', released_at: new Date('2026-01-02T00:00:00Z'), team_attribution: 'Ada',
        component_tags: ['pkg'], commit_shas: ['c'.repeat(40)], status: 'published', published_at: new Date('2026-01-03T00:00:00Z'),
      }),
      note('release:unreleased', null, { previous_tag: 'pkg@1.2.0', status: 'published', published_at: new Date('2026-01-04T00:00:00Z') }),
      note('release:v0.0.1-draft', 'v0.0.1-draft', { version: '0.0.1-draft', prerelease: true }),
    ])
    .execute();

  userKey = (await ctx.services.keys.create({ name: 'openapi user key', context: { type: 'user', email: user.email } })).secret;
  orgKey = (await ctx.services.keys.create({ name: 'openapi org key', context: { type: 'org', slug: org.slug } })).secret;

  const res = await get('/openapi.json');
  expect(res.statusCode).toBe(200);
  doc = res.json() as OpenApiDocument;

  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc as unknown as Record<string, unknown>, 'openapi.json');
});

afterAll(async () => ctx?.close());

/**
 * Asserts that the document declares `res`'s status for the route and that the body matches the
 * declared application/json schema. Returns the parsed body.
 */
function expectDocumented(url: string, res: LightMyRequestResponse): unknown {
  const template = templateOf(url);
  const status = String(res.statusCode);
  const responses = doc.paths[template]?.get?.responses ?? {};
  expect(Object.keys(responses), `GET ${template} answered ${status}, which the document does not declare`).toContain(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(responses[status]!.content?.['application/json']?.schema, `no application/json schema for ${status}`).toBeDefined();

  const pointer = ['paths', template, 'get', 'responses', status, 'content', 'application/json', 'schema']
    .map(escapePointer)
    .join('/');
  const validate = ajv.compile({ $ref: `openapi.json#/${pointer}` });
  const body: unknown = res.json();
  const valid = validate(body);
  if (!valid) console.error(`GET ${url} → ${status} does not match the document:`, JSON.stringify(validate.errors, null, 2));
  expect(valid, `GET ${url} → ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return body;
}

/* ------------------------------------------------------------------------------------------ */
/* 1. The document itself                                                                      */
/* ------------------------------------------------------------------------------------------ */

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1.0 document of API version 0.1.0, served as JSON', async () => {
    const res = await get('/openapi.json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.1.0');
    expect(doc.info.title).toEqual(expect.any(String));
  });

  it('declares both security schemes', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-KEY' });
  });

  it('documents exactly the API routes, with path parameters in {param} form', () => {
    const paths = Object.keys(doc.paths);
    for (const path of DOCUMENTED_PATHS) expect(paths).toContain(path);
    expect(paths.filter((p) => !CONTRACT_PATHS.includes(p) && !ADDITION_PATHS.includes(p))).toEqual([]);
    for (const path of ADDITION_PATHS) expect(paths).toContain(path);
    expect(paths.filter((p) => p.includes(':'))).toEqual([]);
    for (const path of DOCUMENTED_PATHS) expect(Object.keys(doc.paths[path]!)).toContain('get');

    const pathParams = (path: string) =>
      (doc.paths[path]!.get!.parameters ?? []).filter((p) => p.in === 'path').map((p) => [p.name, p.required]);
    expect(pathParams('/v1/changelog/{slug}')).toEqual([['slug', true]]);
    expect(pathParams('/v1/changelog/{slug}/entries/{id}').sort()).toEqual([['id', true], ['slug', true]]);
  });

  it('leaves out the docs, dashboard and openapi.json routes', () => {
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => /^\/(docs|dashboard)(\/|$)/.test(p) || p.startsWith('/openapi'))).toEqual([]);
  });

  it('requires credentials on GET /v1/projects only', () => {
    const security = doc.paths['/v1/projects']!.get!.security;
    expect(security).toEqual(expect.arrayContaining([{ bearerAuth: [] }, { apiKeyHeader: [] }]));
    // No global requirement that would make the public routes look authenticated.
    expect(doc.security ?? []).toEqual([]);
    for (const path of ['/health', '/v1/changelog/{slug}', '/v1/changelog/{slug}/entries/{id}']) {
      expect(doc.paths[path]!.get!.security ?? []).toEqual([]);
    }
  });

  it('names the shared schemas as components, with no def-N names left', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(expect.arrayContaining(NAMED_COMPONENTS));
    expect(names.filter((n) => /^def-\d+$/.test(n))).toEqual([]);

    const refs = collectRefs(doc);
    expect(refs.filter((r) => /def-\d+/.test(r))).toEqual([]);
    // Every reference points at a component that exists.
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(names, `dangling ${ref}`).toContain(ref.slice('#/components/schemas/'.length));
    }
    // The response schemas use the named components rather than inlined copies.
    const json = JSON.stringify(doc.paths);
    for (const name of ['ChangelogEntry', 'ErrorResponse', 'ProjectSummary', 'Project']) {
      expect(json).toContain(`"#/components/schemas/${name}"`);
    }
    expect(JSON.stringify(doc.components.schemas.ChangelogEntry)).toContain('"#/components/schemas/GeneratedJson"');
  });

  it('documents the optional query parameters as optional, with their defaults and bounds', () => {
    const query = (path: string) =>
      Object.fromEntries((doc.paths[path]!.get!.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]));

    const projects = query('/v1/projects');
    expect(projects.entries_limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
    const changelog = query('/v1/changelog/{slug}');
    expect(changelog.limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(changelog.offset?.schema).toMatchObject({ type: 'integer', minimum: 0 });

    // The contract makes all three optional, and the server accepts requests without them.
    for (const [name, parameter] of [
      ['entries_limit', projects.entries_limit],
      ['limit', changelog.limit],
      ['offset', changelog.offset],
    ] as const) {
      expect(parameter?.required ?? false, `query parameter ${name} is documented as required`).toBe(false);
    }
  });
});

/* ------------------------------------------------------------------------------------------ */
/* 2. The document is valid OpenAPI 3.1                                                        */
/* ------------------------------------------------------------------------------------------ */

describe('the release-notes extension', () => {
  it('is documented outside the contract: its operations and schemas carry x-extension', () => {
    for (const path of RELEASE_PATHS) {
      const operation = doc.paths[path]!.get! as Operation & { 'x-extension'?: boolean; tags?: string[] };
      expect(operation['x-extension'], path).toBe(true);
      expect(operation.tags).toEqual(['releases']);
      expect(operation.security ?? []).toEqual([]);
    }
    expect(doc.components.schemas.ReleaseNote).toMatchObject({ 'x-extension': true });
    // The contract's entry_type enum is untouched.
    expect(JSON.stringify(doc.components.schemas.ChangelogEntry)).not.toContain('release');
  });

  it('GET /v1/changelog/{slug}/releases 200, 400 and 404 match the document', async () => {
    const ok = await get(`/v1/changelog/${SLUG}/releases`);
    expect(ok.statusCode).toBe(200);
    const body = expectDocumented(`/v1/changelog/${SLUG}/releases`, ok) as { releases: { tag: string | null }[] };
    expect(body.releases.map((r) => r.tag)).toEqual([null, 'pkg@1.2.0']);
    const bad = await get(`/v1/changelog/${SLUG}/releases?limit=0`);
    expect(bad.statusCode).toBe(400);
    expectDocumented(`/v1/changelog/${SLUG}/releases?limit=0`, bad);
    const missing = await get('/v1/changelog/no-such-project/releases');
    expect(missing.statusCode).toBe(404);
    expectDocumented('/v1/changelog/no-such-project/releases', missing);
  });

  it('GET /v1/changelog/{slug}/releases/{tag} 200, 400 and 404 match the document', async () => {
    for (const [tag, status] of [['pkg%401.2.0', 200], ['unreleased', 200], ['v0.0.1-draft', 404], ['x'.repeat(300), 400]] as const) {
      const url = `/v1/changelog/${SLUG}/releases/${tag}`;
      const res = await get(url);
      expect(res.statusCode, tag).toBe(status);
      expectDocumented(url, res);
    }
  });
});

describe('OpenAPI 3.1 schema validation', () => {
  it('validates against the OpenAPI 3.1 JSON schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    if (!result.valid) console.error('OpenAPI document is invalid:', JSON.stringify(result.errors, null, 2));
    expect(result.valid, JSON.stringify(result.errors)).toBe(true);
    expect(validator.version).toBe('3.1');
  });
});

/* ------------------------------------------------------------------------------------------ */
/* 3. Real responses match the document                                                        */
/* ------------------------------------------------------------------------------------------ */

describe('responses match the document', () => {
  it('GET /health 200', async () => {
    const res = await get('/health');
    expect(res.statusCode).toBe(200);
    expectDocumented('/health', res);
  });

  it('GET /v1/projects 200 with a Bearer key', async () => {
    const res = await get('/v1/projects', { authorization: `Bearer ${userKey}` });
    expect(res.statusCode).toBe(200);
    const body = expectDocumented('/v1/projects', res) as {
      projects: { slug: string; owner_type: string; changelog_entries: { id: string; generated_json: unknown }[] }[];
    };
    const project = body.projects.find((p) => p.slug === SLUG)!;
    expect(project.owner_type).toBe('user');
    // The seeded data exercised the nested schemas: published entries with generated_json, no draft.
    expect(project.changelog_entries.map((e) => e.id).sort()).toEqual([...publishedIds].sort());
    expect(project.changelog_entries.some((e) => e.generated_json !== null)).toBe(true);
    expect(project.changelog_entries.some((e) => e.generated_json === null)).toBe(true);
  });

  it('GET /v1/projects 200 with an organization key in X-API-KEY', async () => {
    const res = await get('/v1/projects?entries_limit=1', { 'x-api-key': orgKey });
    expect(res.statusCode).toBe(200);
    const body = expectDocumented('/v1/projects', res) as { projects: { slug: string; owner_type: string }[] };
    expect(body.projects.map((p) => [p.slug, p.owner_type])).toEqual([[ORG_SLUG, 'org']]);
  });

  it('GET /v1/projects 400 for entries_limit=0', async () => {
    const res = await get('/v1/projects?entries_limit=0', { authorization: `Bearer ${userKey}` });
    expect(res.statusCode).toBe(400);
    expectDocumented('/v1/projects', res);
  });

  it('GET /v1/projects 401 without a key, and with an invalid one', async () => {
    const missing = await get('/v1/projects');
    expect(missing.statusCode).toBe(401);
    expectDocumented('/v1/projects', missing);
    const invalid = await get('/v1/projects', { authorization: 'Bearer clk_not-a-real-key' });
    expect(invalid.statusCode).toBe(401);
    expectDocumented('/v1/projects', invalid);
  });

  it('GET /v1/changelog/{slug} 200', async () => {
    const url = `/v1/changelog/${SLUG}`;
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    const body = expectDocumented(url, res) as { entries: { id: string; commit_id: string | null }[] };
    expect(body.entries.map((e) => e.id)).toEqual(publishedIds);
    expect(body.entries[0]!.commit_id).toEqual(expect.any(String));
  });

  it('GET /v1/changelog/{slug} 400 for limit=0', async () => {
    const url = `/v1/changelog/${SLUG}?limit=0`;
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expectDocumented(url, res);
  });

  it('GET /v1/changelog/{slug} 404 for an unknown slug', async () => {
    const url = '/v1/changelog/no-such-project';
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expectDocumented(url, res);
  });

  it('GET /v1/changelog/{slug}/entries/{id} 200', async () => {
    const url = `/v1/changelog/${SLUG}/entries/${publishedIds[0]}`;
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    const body = expectDocumented(url, res) as { entry: { id: string; generated_json: unknown } };
    expect(body.entry.id).toBe(publishedIds[0]);
    expect(body.entry.generated_json).toEqual(generatedJson('Everything filled in'));
  });

  it('GET /v1/changelog/{slug}/entries/{id} 400 for a malformed id', async () => {
    const url = `/v1/changelog/${SLUG}/entries/not-a-uuid`;
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expectDocumented(url, res);
  });

  it('GET /v1/changelog/{slug}/entries/{id} 404 for a draft', async () => {
    const url = `/v1/changelog/${SLUG}/entries/${draftId}`;
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expectDocumented(url, res);
  });

  it.each([
    ['/v1/projects', true],
    [`/v1/changelog/${SLUG}`, false],
    [`/v1/changelog/${SLUG}/entries/{first}`, false],
  ])('documents the 304 that GET %s answers to a matching If-None-Match', async (template, withKey) => {
    const url = template.replace('{first}', publishedIds[0]!);
    const headers: Record<string, string> = withKey ? { authorization: `Bearer ${userKey}` } : {};
    const first = await get(url, headers);
    expect(first.statusCode).toBe(200);
    const again = await get(url, { ...headers, 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(Object.keys(doc.paths[templateOf(url)]!.get!.responses), `GET ${templateOf(url)} answers 304 undocumented`).toContain(
      '304',
    );
  });
});

/* ------------------------------------------------------------------------------------------ */
/* 4. No internals reach a client                                                              */
/* ------------------------------------------------------------------------------------------ */

describe('server failures', () => {
  let broken: TestContext;

  beforeAll(async () => {
    // A second app whose database goes away underneath it: every query now fails.
    broken = await createTestContext();
    await broken.database.close();
  });

  afterAll(async () => broken?.app.close());

  it.each([
    ['/v1/projects', () => ({ authorization: `Bearer ${userKey}` })],
    [`/v1/changelog/${SLUG}`, () => ({})],
    [`/v1/changelog/${SLUG}/entries/00000000-0000-4000-8000-000000000000`, () => ({})],
  ])('GET %s answers a documented 5xx without a stack trace', async (url, headers) => {
    const res = await broken.app.inject({ method: 'GET', url, headers: headers() });
    expect([500, 503]).toContain(res.statusCode);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json() as { error: unknown; details?: unknown };
    expect(body.error).toEqual(expect.any(String));
    expect(body.details).toBeUndefined();
    for (const marker of LEAK_MARKERS) expect(res.body, `5xx body contains "${marker}"`).not.toContain(marker);
    expectDocumented(url, res);
  });

  it('keeps answering the liveness check without the database', async () => {
    const res = await broken.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
  });
});

describe('malformed requests never become server errors', () => {
  const huge = '9'.repeat(5000);
  const unicode = encodeURIComponent('ünïcødé-😀-项目');

  it.each<[string, string, () => Record<string, string>]>([
    ['a 5,000-character slug', `/v1/changelog/${'a'.repeat(5000)}`, () => ({})],
    ['a 5,000-character entry id', `/v1/changelog/${SLUG}/entries/${'0'.repeat(5000)}`, () => ({})],
    ['a NUL byte as slug', '/v1/changelog/%00', () => ({})],
    ['a NUL byte inside the slug', `/v1/changelog/${SLUG}%00`, () => ({})],
    ['a NUL byte after the entry id', `/v1/changelog/${SLUG}/entries/00000000-0000-4000-8000-000000000000%00`, () => ({})],
    ['a lone percent sign', '/v1/changelog/%', () => ({})],
    ['a truncated UTF-8 escape', '/v1/changelog/%E0%A4%A', () => ({})],
    ['a unicode slug', `/v1/changelog/${unicode}`, () => ({})],
    ['a unicode entry id', `/v1/changelog/${SLUG}/entries/${unicode}`, () => ({})],
    ['a 5,000-digit limit', `/v1/changelog/${SLUG}?limit=${huge}`, () => ({})],
    ['limit=1e400', `/v1/changelog/${SLUG}?limit=1e400`, () => ({})],
    ['offset=Infinity', `/v1/changelog/${SLUG}?offset=Infinity`, () => ({})],
    ['offset=1e20 (beyond a bigint)', `/v1/changelog/${SLUG}?offset=1e20`, () => ({})],
    ['a 5,000-digit offset', `/v1/changelog/${SLUG}?offset=${huge}`, () => ({})],
    ['a 5,000-digit entries_limit', `/v1/projects?entries_limit=${huge}`, () => ({ authorization: `Bearer ${userKey}` })],
    ['entries_limit=1e400', '/v1/projects?entries_limit=1e400', () => ({ authorization: `Bearer ${userKey}` })],
    ['a NUL byte as limit', `/v1/changelog/${SLUG}?limit=%00`, () => ({})],
    ['an emoji as limit', `/v1/changelog/${SLUG}?limit=%F0%9F%98%80`, () => ({})],
    ['bracketed array syntax', `/v1/changelog/${SLUG}?limit[]=1&offset[x]=2`, () => ({})],
    ['prototype-pollution keys', `/v1/changelog/${SLUG}?__proto__[limit]=1&constructor[prototype][x]=1`, () => ({})],
    ['3,000 unknown parameters', `/v1/changelog/${SLUG}?${'x=1&'.repeat(3000)}limit=2`, () => ({})],
    ['a 5,000-character X-API-KEY', '/v1/projects', () => ({ 'x-api-key': 'k'.repeat(5000) })],
    ['a non-ASCII bearer token', '/v1/projects', () => ({ authorization: `Bearer ${'é'.repeat(50)}` })],
    ['a JSON-looking bearer token', '/v1/projects', () => ({ authorization: 'Bearer {"$ne":null}' })],
    ['a malformed If-None-Match', `/v1/changelog/${SLUG}`, () => ({ 'if-none-match': `"${'\u0000'.repeat(3)}, W/` })],
  ])('%s', async (_label, url, headers) => {
    const res = await get(url, headers());
    expect(res.statusCode, `GET ${url.slice(0, 80)} → ${res.statusCode} ${res.body.slice(0, 200)}`).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    if (res.statusCode >= 400) expect((res.json() as { error?: unknown }).error).toEqual(expect.any(String));
    // Whatever the status, it is one the document declares for the route, with a matching body.
    expectDocumented(url, res);
  });
});

/* ------------------------------------------------------------------------------------------ */
/* 5. The reference page                                                                       */
/* ------------------------------------------------------------------------------------------ */

describe('GET /docs', () => {
  const CDN = /unpkg\.com|jsdelivr|cdnjs|cloudflare|googleapis|cdn\./i;

  it('serves an HTML page whose assets come from this server', async () => {
    const res = await get('/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
    expect(res.body).not.toMatch(CDN);

    const assets = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      // Local: a path on this server, never an absolute URL to another host.
      expect(asset, `asset ${asset} is not local`).not.toMatch(/^(https?:)?\/\//i);
      const url = new URL(asset, 'http://localhost/docs/').pathname;
      const served = await get(url);
      expect(served.statusCode, `asset ${url}`).toBe(200);
      if (url.endsWith('.js')) expect(served.body, `asset ${url} loads from a CDN`).not.toMatch(/https?:\/\/(unpkg|cdn\.jsdelivr|cdnjs)/i);
    }
  });

  it('points the reference at this server’s own document', async () => {
    const initializer = await get('/docs/static/swagger-initializer.js');
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).not.toMatch(CDN);
    expect(initializer.body).not.toMatch(/petstore/i);
  });
});
