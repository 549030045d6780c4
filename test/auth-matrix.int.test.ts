import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { generateKey } from '../src/keys/key-format.js';
import { createServices } from '../src/services.js';
import { collectRoutes, type AppRoute } from './helpers/app-routes.js';
import { createTestDatabase, seedDataDir, usePostgres } from './helpers/database.js';
import { startServerProcess, type ServerProcess } from './helpers/process.js';
import { RELEASE_TAG, seedTenant, type Tenant } from './helpers/tenants.js';

/**
 * The authorization matrix: every route that needs credentials, enumerated from the application
 * itself, asked over real HTTP of real server processes in the default configuration (response
 * cache and its fast path on). Caller A asks first, so anything that could remember A's answer has
 * it; then every other caller (no credentials, garbage, A's revoked, expired or signed-out
 * credentials, tenant B) asks the same URL and variants of its query, and must get its own answer.
 * On PostgreSQL two processes share one database: A primes the first, the others ask both.
 */

const METRICS_TOKEN = 'matrix-metrics-token-0123456789';

/**
 * Routes that need no credentials, each with the reason. A route the application registers that is
 * neither credentialed (a schema security requirement, or the dashboard's session) nor listed here
 * fails the matrix: a new route must be classified by someone, not skipped by default.
 */
const PUBLIC_ROUTES: Record<string, string> = {
  'OPTIONS *': 'CORS preflight',
  'GET /': 'redirect to the dashboard (lists nothing)',
  'GET /favicon.svg': 'favicon',
  'GET /favicon.ico': 'favicon',
  'GET /health': 'liveness probe',
  'GET /ready': 'readiness probe',
  'GET /openapi.json': 'the public contract',
  'GET /docs': 'API reference',
  'HEAD /docs/': 'API reference',
  'GET /docs/static/index.html': 'API reference',
  'GET /docs/static/swagger-initializer.js': 'API reference',
  'GET /docs/json': 'API reference',
  'GET /docs/yaml': 'API reference',
  'GET /docs/static/*': 'API reference',
  'GET /v1/changelog/:slug': 'public changelog',
  'GET /v1/changelog/:slug/entries/:id': 'public changelog',
  'GET /v1/changelog/:slug/feed.atom': 'public feed',
  'GET /v1/changelog/:slug/feed.rss': 'public feed',
  'GET /v1/changelog/:slug/feed.json': 'public feed',
  'GET /c/:slug': 'public page',
  'GET /c/:slug/entries/:id': 'public page',
  'GET /v1/changelog/:slug/releases': 'public release notes (OpenAPI extension)',
  'GET /v1/changelog/:slug/releases/:tag': 'public release notes (OpenAPI extension)',
  'GET /v1/changelog/:slug/releases.atom': 'public release feed',
  'GET /v1/changelog/:slug/releases.rss': 'public release feed',
  'GET /v1/changelog/:slug/releases.json': 'public release feed',
  'GET /v1/changelog/:slug/changelog.md': 'public CHANGELOG.md of release notes (OpenAPI extension)',
  'GET /c/:slug/releases': 'public page',
  'GET /c/:slug/releases/:tag': 'public page',
  'GET /widget.js': 'embeddable widget',
  'POST /webhooks/github': "GitHub's deliveries, authenticated by their signature (src/github/webhooks.int.test.ts)",
  // The dashboard's own `config: { public: true }` routes: signing in, signing up, invitation links, assets.
  'GET /dashboard/assets/:name': 'dashboard assets',
  'GET /login': 'sign-in form',
  'POST /login': 'sign-in',
  'POST /logout': 'sign-out (of whatever session the cookie names)',
  'GET /dashboard/signup': 'sign-up form',
  'POST /dashboard/signup': 'sign-up',
  'GET /dashboard/invites/:token': 'invitation link (the token is the credential)',
  'POST /dashboard/invites/:token': 'invitation link (the token is the credential)',
  'GET /dashboard/setup/:token': "the operator's one-time setup link (the token is the credential)",
  'POST /dashboard/setup/:token': "the operator's one-time setup link (the token is the credential)",
};

/** Routes that check a credential of their own rather than an API key or a session. */
const OPERATOR_ROUTES: Record<string, string> = {
  'GET /metrics': `Authorization: Bearer <METRICS_TOKEN>`,
};

/**
 * Cache-Control that A's answers must carry, so that no cache between A and the server keeps them:
 * the API's authenticated answers say so in full (the fix under test); the dashboard's and the
 * operator's `no-store` alone already forbids every cache, shared or private.
 */
const STORE_NOWHERE: Record<AppRoute['guard'], string[]> = {
  'api-key': ['private', 'no-store'],
  session: ['no-store'],
  none: ['no-store'],
};

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

interface Caller {
  name: string;
  headers: Record<string, string>;
}

/** An API caller and what it must get: `refused`, 401; `forbidden`, 403 (a valid key without the route's scope). */
type ApiCaller = Caller & { refused: boolean; forbidden?: boolean };

/** What each path parameter stands for: always something of A's (`<segment before>/:<name>`). */
function pathFillers(a: Tenant): Record<string, string> {
  return {
    'orgs/:org': a.org.slug,
    'projects/:slug': a.project.slug,
    'projects/:projectId': a.project.id,
    'keys/:id': a.key.id,
    'entries/:id': a.entryId,
    'webhooks/:id': a.webhookId,
    'repos/:id': a.repoLinkId,
    'invites/:inviteId': a.invite.id,
    'invites/:token': a.invite.token,
    'members/:userId': a.member.id,
    'releases/:tag': RELEASE_TAG,
  };
}

/** The route's path with A's ids, or the names of the parameters nobody knows how to fill. */
function fillPath(url: string, fillers: Record<string, string>): { path: string } | { missing: string[] } {
  const segments = url.split('/');
  const missing: string[] = [];
  const path = segments
    .map((segment, i) => {
      if (!segment.startsWith(':')) return segment;
      const value = fillers[`${segments[i - 1]}/${segment}`];
      if (value === undefined) missing.push(segment);
      return value ?? segment;
    })
    .join('/');
  return missing.length ? { missing } : { path };
}

interface JsonSchemaLike {
  type?: string;
  properties?: Record<string, JsonSchemaLike>;
  required?: string[];
  anyOf?: JsonSchemaLike[];
  const?: unknown;
  minimum?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
}

/** A valid value for a query or form field, from its schema. */
function sampleValue(name: string, schema: JsonSchemaLike, a: Tenant): string {
  const byName: Record<string, string> = {
    name: 'Matrix intruder',
    slug: 'matrix-intruder',
    role: 'member',
    confirm: a.project.slug,
    status: 'archived',
    title: 'Matrix intruder',
    content: 'Matrix intruder',
    email: 'intruder@matrix.example',
    password: 'correct-horse-battery',
    current_password: 'correct-horse-battery',
    new_password: 'another-horse-battery',
    theme_color: '#ff0000',
    logo_url: '',
    url: 'http://127.0.0.1:9/intruder',
    repoOwner: 'octo',
    repoName: 'repo',
  };
  if (name in byName) return byName[name]!;
  const first = schema.anyOf?.find((s) => s.const !== undefined);
  if (first) return String(first.const);
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  if (schema.format === 'uuid') return a.project.id;
  if (/\\d|\[0-9\]|\[1-9\]/.test(schema.pattern ?? '')) return '1';
  return 'matrix';
}

/** The required fields of a query or form schema, filled with valid values. */
function requiredFields(schema: unknown, a: Tenant): [string, string][] {
  const object = schema as JsonSchemaLike | undefined;
  return (object?.required ?? [])
    .filter((name) => name !== '_csrf')
    .map((name) => [name, sampleValue(name, object!.properties?.[name] ?? {}, a)]);
}

/**
 * The URLs a caller asks for one GET route: the plain URL (with required query fields), then
 * variants of its query a cache might key differently or alike: every optional field and an unknown
 * parameter, the same in the other order, a percent-encoded value.
 */
function urlVariants(path: string, querystring: unknown, a: Tenant): string[] {
  const schema = querystring as JsonSchemaLike | undefined;
  const required = requiredFields(schema, a);
  const optional = Object.entries(schema?.properties ?? {})
    .filter(([name]) => !(schema?.required ?? []).includes(name))
    .map(([name, s]): [string, string] => [name, name === 'notice' ? 'welcome' : sampleValue(name, s, a)]);
  const query = (pairs: [string, string][]) => (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : '');
  const variants = [
    query(required),
    query([...required, ...optional, ['matrix', '1']]),
    query([['matrix', '1'], ...[...required, ...optional].reverse()]),
    `${query(required) || '?'}${required.length ? '&' : ''}matrix=%31`,
  ];
  return [...new Set(variants)].map((q) => path + q);
}

/** One request; a write sends `form` as a browser form, or `json` as JSON. */
async function ask(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  payload: { form?: Record<string, string>; json?: Record<string, string> } = {},
): Promise<Answer> {
  const body = payload.form ? new URLSearchParams(payload.form).toString() : payload.json ? JSON.stringify(payload.json) : undefined;
  const type = payload.form ? 'application/x-www-form-urlencoded' : 'application/json';
  const res = await fetch(base + path, {
    method,
    redirect: 'manual',
    headers: body === undefined ? headers : { ...headers, 'content-type': type },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

const csrfOf = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
const cookie = (session: string) => ({ cookie: `cl_session=${session}` });
const cacheControl = (answer: Answer) => (answer.headers.get('cache-control') ?? '').split(',').map((d) => d.trim().toLowerCase());
const describeAnswer = (answer: Answer) =>
  `${answer.status}${answer.headers.get('x-cache') ? ` x-cache:${answer.headers.get('x-cache')}` : ''}${
    answer.headers.get('location') ? ` -> ${answer.headers.get('location')}` : ''
  }`;

describe('authorization matrix: every credentialed route, every caller, over real HTTP with the cache on', () => {
  let fixtureDb: Database | undefined;
  let dataDir: string | undefined;
  let servers: ServerProcess[] = [];
  /** Where A primes, and where everyone else then asks (PostgreSQL: the other process, then the same one). */
  let primary: string;
  let askers: string[];
  let a: Tenant;
  let b: Tenant;
  let routes: AppRoute[];

  beforeAll(async () => {
    // Limits raised, not disabled: the matrix sends a few thousand requests (many of them 401s) from
    // one address, which the default limits would cut off after 20 failures. Load shedding is off so
    // a busy CI machine's event-loop lag cannot turn an answer into a 503.
    const env: Record<string, string> = {
      RATE_LIMIT_PUBLIC_MAX: '1000000',
      RATE_LIMIT_AUTHENTICATED_MAX: '1000000',
      RATE_LIMIT_AUTH_FAILURES_MAX: '1000000',
      UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      METRICS_TOKEN,
    };
    let database: Database;
    if (usePostgres) {
      const test = await createTestDatabase();
      env.DATABASE_URL = test.url!;
      database = test;
      fixtureDb = test;
    } else {
      // The server process owns its data directory: seed it first, then hand it over.
      dataDir = mkdtempSync(join(tmpdir(), 'auth-matrix-'));
      env.DATA_DIR = dataDir;
      await seedDataDir(dataDir);
      database = await openDatabase({ kind: 'pglite', dataDir });
      await migrate(database);
    }
    const config = loadConfig({ NODE_ENV: 'test', ...env });
    const services = createServices(database, loadConfig({ NODE_ENV: 'test', ...env, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }));
    a = await seedTenant(services, 'a');
    b = await seedTenant(services, 'b');
    // The routes as the server builds them, from the same configuration.
    routes = await collectRoutes(() => buildApp({ config, database, services: createServices(database, config) }));
    if (!usePostgres) await database.close();

    servers = await Promise.all((usePostgres ? [1, 2] : [1]).map(() => startServerProcess(env)));
    primary = servers[0]!.url;
    askers = usePostgres ? [servers[1]!.url, servers[0]!.url] : [servers[0]!.url];

    // Credentials that worked and were then withdrawn, the way their owner withdraws them.
    for (const server of servers) {
      expect((await ask(server.url, 'GET', '/v1/projects', { authorization: `Bearer ${a.revocable.secret}` })).status).toBe(200);
      expect((await ask(server.url, 'GET', '/dashboard', cookie(a.doomedSession))).status).toBe(200);
    }
    const keyPage = await ask(primary, 'GET', `/dashboard/keys/${a.revocable.id}`, cookie(a.session));
    const revoked = await ask(primary, 'POST', `/dashboard/keys/${a.revocable.id}/revoke`, cookie(a.session), { form: { _csrf: csrfOf(keyPage.body)! } });
    expect(revoked.status).toBe(303);
    const doomedPage = await ask(primary, 'GET', '/dashboard', cookie(a.doomedSession));
    expect((await ask(primary, 'POST', '/logout', cookie(a.doomedSession), { form: { _csrf: csrfOf(doomedPage.body)! } })).status).toBe(303);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(
      servers.map(async ({ child, exited }) => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      }),
    );
    await fixtureDb?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const key = (route: AppRoute) => `${route.method} ${route.url}`;
  const credentialed = () => routes.filter((r) => r.guard !== 'none');
  const leaksOf = (answer: Answer) => a.markers.filter((m) => answer.body.includes(m));

  /** Callers of an API-key route other than A. `refused`: must get 401; `forbidden`: 403. */
  function apiCallers(route: AppRoute): ApiCaller[] {
    const headerKey = route.schemes.includes('apiKeyHeader');
    const both = (name: string, secret: string, refused: boolean): ApiCaller[] => [
      { name: `${name} (Bearer)`, headers: { authorization: `Bearer ${secret}` }, refused },
      { name: `${name} (X-API-KEY)`, headers: { 'x-api-key': secret }, refused: refused || !headerKey },
    ];
    return [
      { name: 'no key', headers: {}, refused: true },
      ...both('unknown well-formed key', generateKey(), true),
      ...both('garbage key', 'cl_live_garbage0123456789', true),
      ...both("A's revoked key", a.revocable.secret, true),
      ...both("A's expired key", a.expired.secret, true),
      // B's key has every scope A's has: only the tenant boundary stands between it and A's things.
      ...both("B's key", b.key.secret, false),
      // A's own read-only key where the route needs a scope (elsewhere it is A, and served as A).
      ...(route.scopes.length ? [{ name: "A's key without the route's scope", headers: { authorization: `Bearer ${a.readOnly.secret}` }, refused: false, forbidden: true }] : []),
      // A's own key where the route does not take X-API-KEY is refused like any other.
      ...(headerKey ? [] : [{ name: "A's key (X-API-KEY, not accepted here)", headers: { 'x-api-key': a.key.secret }, refused: true }]),
    ];
  }

  /** Callers of a dashboard route other than A. `refused`: must be sent to /login. */
  function sessionCallers(): (Caller & { refused: boolean })[] {
    return [
      { name: 'no cookie', headers: {}, refused: true },
      { name: 'garbage cookie', headers: cookie('garbage'), refused: true },
      { name: 'unknown well-formed cookie', headers: cookie('x'.repeat(43)), refused: true },
      { name: "A's signed-out session", headers: cookie(a.doomedSession), refused: true },
      { name: "A's API key instead of a session", headers: { authorization: `Bearer ${a.key.secret}` }, refused: true },
      { name: "B's session", headers: cookie(b.session), refused: false },
    ];
  }

  const aCaller = (route: AppRoute): Caller[] =>
    route.guard === 'session'
      ? [{ name: "A's session", headers: cookie(a.session) }]
      : route.guard === 'api-key'
        ? [
            { name: "A's key (Bearer)", headers: { authorization: `Bearer ${a.key.secret}` } },
            ...(route.schemes.includes('apiKeyHeader') ? [{ name: "A's key (X-API-KEY)", headers: { 'x-api-key': a.key.secret } }] : []),
          ]
        : [{ name: 'operator', headers: { authorization: `Bearer ${METRICS_TOKEN}` } }];

  /** A's answer, asked until the response cache holds it (when the route says it caches at all). */
  async function prime(route: AppRoute, url: string, caller: Caller): Promise<Answer> {
    let answer = await ask(primary, route.method, url, caller.headers);
    // A change notification from the setup may still drop the first stored answer: ask again until it sticks.
    for (let i = 0; i < 20 && answer.headers.get('x-cache') === 'miss'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      answer = await ask(primary, route.method, url, caller.headers);
    }
    return answer;
  }

  it('classifies every route the application registers, and can fill every credentialed route', () => {
    const problems: string[] = [];
    const fillers = pathFillers(a);
    for (const route of routes) {
      const id = key(route);
      const headTwin = route.method === 'HEAD' && routes.some((r) => r.method === 'GET' && r.url === route.url);
      if (route.guard === 'none' && !(id in PUBLIC_ROUTES) && !(id in OPERATOR_ROUTES) && !headTwin) {
        problems.push(`${id} needs no credentials and is not in PUBLIC_ROUTES: give it a security requirement, or list it as public`);
      }
      if (route.guard !== 'none' && (id in PUBLIC_ROUTES || id in OPERATOR_ROUTES)) problems.push(`${id} is listed as public but needs credentials`);
      if (route.guard !== 'none' || id in OPERATOR_ROUTES) {
        const filled = fillPath(route.url, fillers);
        if ('missing' in filled) problems.push(`add a path-param filler for route ${id} (${filled.missing.join(', ')})`);
      }
    }
    expect(problems).toEqual([]);
    // The enumeration sees both kinds (and would notice losing either).
    expect(routes.some((r) => r.guard === 'api-key')).toBe(true);
    expect(routes.some((r) => r.guard === 'session')).toBe(true);
    // …and routes that need a key scope, where A's read-only key must get 403 (the automation API's).
    expect(routes.filter((r) => r.scopes.includes('publish')).length).toBeGreaterThanOrEqual(8);
  });

  it('answers every credentialed GET (and HEAD) to its own caller only, whatever A asked first', async () => {
    const problems: string[] = [];
    const fillers = pathFillers(a);
    const reads = [...credentialed(), ...routes.filter((r) => key(r) in OPERATOR_ROUTES)].filter((r) => r.method === 'GET' || r.method === 'HEAD');
    for (const route of reads) {
      const filled = fillPath(route.url, fillers);
      if ('missing' in filled) continue; // reported by the classification test
      const hasParams = route.url.includes(':');
      const urls = route.method === 'HEAD' ? [filled.path + (requiredFields(route.querystring, a).length ? `?${new URLSearchParams(requiredFields(route.querystring, a))}` : '')] : urlVariants(filled.path, route.querystring, a);
      for (const url of urls) {
        const where = `${route.method} ${url}`;
        // A first: whatever could remember an answer now remembers A's.
        const mine: Answer[] = [];
        for (const caller of aCaller(route)) {
          const answer = await prime(route, url, caller);
          mine.push(answer);
          if ([401, 403, 404].includes(answer.status) || answer.headers.get('location')?.startsWith('/login') || answer.status >= 500 && answer.status !== 503) {
            problems.push(`${where} as ${caller.name}: ${describeAnswer(answer)} (A must be served; fix the fixture or filler)`);
          }
          if (answer.status === 200 && route.method === 'GET') {
            const directives = cacheControl(answer);
            const expected = STORE_NOWHERE[route.guard];
            if (!expected.every((d) => directives.includes(d))) {
              problems.push(`${where} as ${caller.name}: Cache-Control "${answer.headers.get('cache-control') ?? ''}", expected ${expected.join(', ')}`);
            }
          }
        }
        const aBodies = new Set(mine.filter((m) => m.status === 200 && m.body.length > 0).map((m) => m.body));

        const others =
          route.guard === 'session'
            ? sessionCallers()
            : route.guard === 'api-key'
              ? apiCallers(route)
              : [
                  { name: 'no token', headers: {}, refused: true },
                  { name: "A's API key", headers: { authorization: `Bearer ${a.key.secret}` }, refused: true },
                  { name: 'garbage token', headers: { authorization: 'Bearer garbage-garbage-garbage' }, refused: true },
                ];
        const checks = askers.flatMap((server) =>
          others.map(async (caller) => {
            const answer = await ask(server, route.method, url, caller.headers);
            const who = `${where} as ${caller.name}${askers.length > 1 ? ` on process ${servers.findIndex((s) => s.url === server) + 1}` : ''}`;
            const leaked = leaksOf(answer);
            if (aBodies.has(answer.body) || leaked.length) problems.push(`${who}: got A's data (${describeAnswer(answer)}; ${leaked.join(', ') || 'same body'})`);
            if (caller.refused) {
              const refusedRightly =
                route.guard === 'session' ? answer.status === 303 && (answer.headers.get('location') ?? '').startsWith('/login') : answer.status === 401;
              if (!refusedRightly) problems.push(`${who}: ${describeAnswer(answer)}, expected ${route.guard === 'session' ? '303 to /login' : '401'}`);
            } else if ('forbidden' in caller && caller.forbidden) {
              if (answer.status !== 403) problems.push(`${who}: ${describeAnswer(answer)}, expected 403`);
            } else if (route.guard === 'session') {
              // B is signed in: where the URL names nothing of A's, B's own page (answered as A's was), otherwise "not found".
              const expected = hasParams ? [403, 404] : [mine[0]!.status];
              if (!expected.includes(answer.status)) problems.push(`${who}: ${describeAnswer(answer)}, expected ${expected.join(' or ')}`);
            } else {
              if (answer.status === 401 || answer.status === 403) problems.push(`${who}: ${describeAnswer(answer)}; B's key is valid`);
              if (route.url === '/v1/projects' && answer.status === 200 && route.method === 'GET' && !answer.body.includes(b.project.slug)) {
                problems.push(`${who}: B's own projects are not in the answer (${describeAnswer(answer)})`);
              }
            }
          }),
        );
        await Promise.all(checks);
      }
    }
    expect(problems).toEqual([]);
  });

  it('refuses every credentialed write to anyone but A, and nothing of A changes', async () => {
    const problems: string[] = [];
    const fillers = pathFillers(a);
    const pages = credentialed().filter((r) => r.method === 'GET');
    // What A sees before and after: every page's status and which of A's things it shows, and A's projects.
    const snapshot = async () => {
      const seen: string[] = [];
      for (const route of pages) {
        const filled = fillPath(route.url, fillers);
        if ('missing' in filled) continue;
        const query = requiredFields(route.querystring, a);
        const url = filled.path + (query.length ? `?${new URLSearchParams(query)}` : '');
        const answer = await ask(primary, 'GET', url, aCaller(route)[0]!.headers);
        seen.push(`${url}: ${answer.status} ${leaksOf(answer).join(',')}${/revoked/i.test(answer.body) && route.url === '/dashboard/keys/:id' ? ' revoked' : ''}`);
      }
      const projects = await ask(primary, 'GET', '/v1/projects', { authorization: `Bearer ${a.key.secret}` });
      seen.push(`projects: ${projects.body}`);
      return seen;
    };
    const before = await snapshot();

    // An anonymous visitor's CSRF token (from its pre-session cookie) and B's own: the forms are
    // well-formed, so only the credentials can stop them.
    const login = await ask(askers[0]!, 'GET', '/login');
    const preSession = /cl_csrf=([^;]+)/.exec(login.headers.getSetCookie().join('\n'))?.[1] ?? '';
    const anonymousCsrf = csrfOf(login.body) ?? '';
    const bPage = await ask(askers[0]!, 'GET', '/dashboard', cookie(b.session));
    const bCsrf = csrfOf(bPage.body) ?? '';

    // Writes naming A's things first: B's writes to its own account (sign out its other sessions,
    // which also replaces its cookie) come last.
    const writes = credentialed()
      .filter((r) => r.method !== 'GET' && r.method !== 'HEAD')
      .sort((x, y) => Number(!x.url.includes(':')) - Number(!y.url.includes(':')));
    for (const route of writes) {
      const filled = fillPath(route.url, fillers);
      if ('missing' in filled) continue;
      const fields = Object.fromEntries(requiredFields(route.body, a));
      const where = `${route.method} ${filled.path}`;
      const hasParams = route.url.includes(':');
      for (const server of askers) {
        if (route.guard === 'session') {
          const callers = sessionCallers().map((c) => ({
            ...c,
            headers: { ...c.headers, cookie: [c.headers.cookie, `cl_csrf=${preSession}`].filter(Boolean).join('; ') },
            csrf: c.refused ? anonymousCsrf : bCsrf,
          }));
          for (const caller of callers) {
            const answer = await ask(server, route.method, filled.path, caller.headers, { form: { ...fields, _csrf: caller.csrf } });
            const who = `${where} as ${caller.name}`;
            if (leaksOf(answer).length) problems.push(`${who}: got A's data (${describeAnswer(answer)})`);
            if (caller.refused && !(answer.status === 303 && (answer.headers.get('location') ?? '').startsWith('/login'))) {
              problems.push(`${who}: ${describeAnswer(answer)}, expected 303 to /login`);
            }
            if (!caller.refused && hasParams && ![400, 403, 404].includes(answer.status)) problems.push(`${who}: ${describeAnswer(answer)}, expected 403 or 404`);
          }
        } else {
          for (const caller of apiCallers(route)) {
            const answer = await ask(server, route.method, filled.path, caller.headers, { json: fields });
            const who = `${where} as ${caller.name}`;
            if (leaksOf(answer).length) problems.push(`${who}: got A's data (${describeAnswer(answer)})`);
            if (caller.refused && answer.status !== 401) problems.push(`${who}: ${describeAnswer(answer)}, expected 401`);
            if (caller.forbidden && answer.status !== 403) problems.push(`${who}: ${describeAnswer(answer)}, expected 403`);
            if (!caller.refused && answer.status < 400) problems.push(`${who}: ${describeAnswer(answer)}, expected a refusal`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

