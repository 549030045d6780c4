import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, usePostgres, type TestDatabase } from '../../test/helpers/database.js';
import { runCli, type CliOutput } from '../../test/helpers/cli.js';
import { generatedJson } from '../../test/helpers/factories.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { testConfig } from '../../test/helpers/config.js';
import { openDatabase, type Database } from '../db/database.js';
import { loadMigrations } from '../db/migrate.js';

// The CLI is driven in-process through main(argv, io). Every call opens and closes the database
// itself, exactly as `changelog ...` does from a shell: a PGlite data directory (DATA_DIR) or, on
// the PostgreSQL run, a scratch database (DATABASE_URL). Tests run in order and share state. In CI this
// file runs on PostgreSQL only; what the embedded database does differently (creating its directory,
// the lock) is cli-embedded.pglite.int.test.ts.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed CLI output, checked field by field
type Json = any;

type CliResult = CliOutput;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^clk_[0-9A-Za-z]{39}$/;
const SHA256_HEX = /[0-9a-f]{64}/;

let workDir: string;
let dataDir: string;
let scratch: TestDatabase | undefined;
let env: Record<string, string>;

const cli = (...args: string[]): Promise<CliResult> => runCli(args, { env });

/** Parses text that must be exactly one JSON object on one line. */
function singleJsonObject(text: string): Json {
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.slice(0, -1).split('\n');
  expect(lines).toHaveLength(1);
  const value: unknown = JSON.parse(lines[0]!);
  expect(value !== null && typeof value === 'object' && !Array.isArray(value)).toBe(true);
  return value;
}

/** Runs a command with --json: exit 0, nothing on stderr, one JSON object on stdout. */
async function cliJson(...args: string[]): Promise<Json> {
  const result = await cli(...args, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return singleJsonObject(result.stdout);
}

/** Runs a command that must fail: non-zero exit, empty stdout, a message on stderr. */
async function cliFails(...args: string[]): Promise<CliResult> {
  const result = await cli(...args);
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim()).not.toBe('');
  return result;
}

/** The database the CLI uses, opened only while `fn` runs (the CLI locks a PGlite data dir). */
async function withDb<T>(fn: (database: Database) => Promise<T>): Promise<T> {
  if (scratch) return fn(scratch);
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** For each secret: the project slugs GET /v1/projects shows it, or the status code when refused. */
async function projectsSeenBy(secrets: string[]): Promise<(string[] | number)[]> {
  return withDb(async (database) => {
    // The test settings: load shedding off (on a busy machine it answered a key's request 503).
    const app = await buildApp({ config: testConfig(env), database });
    try {
      const seen: (string[] | number)[] = [];
      for (const secret of secrets) {
        const res = await app.inject({ method: 'GET', url: '/v1/projects', headers: { authorization: `Bearer ${secret}` } });
        seen.push(res.statusCode === 200 ? res.json().projects.map((p: { slug: string }) => p.slug) : res.statusCode);
      }
      return seen;
    } finally {
      await app.close();
    }
  });
}

const writeJson = (name: string, value: unknown) => {
  const file = join(workDir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
};

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'changelog-cli-'));
  dataDir = join(workDir, 'data');
  if (usePostgres) {
    // Its close() drops the scratch database, so it stays open (and in use for checks) until afterAll.
    scratch = await createTestDatabase();
    env = { DATABASE_URL: scratch.url!, NODE_ENV: 'test' };
  } else {
    env = { DATA_DIR: dataDir, NODE_ENV: 'test' };
  }
});

afterAll(async () => {
  await scratch?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const ids = { ada: '', acme: '', alpha: '', beta: '', gamma: '', delta: '' };
const keys = { all: { id: '', key: '' }, scoped: { id: '', key: '' }, org: { id: '', key: '' }, doomed: { id: '', key: '' } };
let oldAllSecret = '';
let imported: string[] = [];
let importStartedAt = 0;

describe('changelog migrate', () => {
  it('--json prints one object with the applied migrations and the schema version, and is idempotent', async () => {
    const migrations = loadMigrations();
    const latest = migrations.at(-1)!.version;
    const first = await cliJson('migrate');
    // The PostgreSQL scratch database arrives migrated; the PGlite data dir starts empty.
    expect(first).toEqual({
      applied: usePostgres ? [] : migrations.map((m) => ({ version: m.version, name: m.name })),
      version: latest,
    });
    expect(await cliJson('migrate')).toEqual({ applied: [], version: latest });
  });
});

describe('changelog users / orgs / projects create', () => {
  it('users create --json prints the created user', async () => {
    const user = await cliJson('users', 'create', '--email', 'Ada@Example.com', '--name', 'Ada Lovelace');
    expect(user).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace' });
    expect(user.id).toMatch(UUID);
    expect(Number.isNaN(Date.parse(user.created_at))).toBe(false);
    ids.ada = user.id;
  });

  it('users create without --json prints a line for people', async () => {
    const result = await cli('users', 'create', '--email', 'bob@example.com', '--name', 'Bob');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Created user bob@example\.com \([0-9a-f-]{36}\)\n$/);
  });

  it('refuses a duplicate e-mail (any case) on stderr, in text and in JSON', async () => {
    const text = await cliFails('users', 'create', '--email', 'ADA@example.com', '--name', 'Again');
    expect(text.code).toBe(1);
    expect(text.stderr).toBe('error: A user with e-mail ada@example.com already exists\n');

    const json = await cliFails('users', 'create', '--email', 'ada@example.com', '--name', 'Again', '--json');
    expect(json.code).toBe(1);
    expect(singleJsonObject(json.stderr)).toEqual({ error: 'A user with e-mail ada@example.com already exists', code: 'conflict' });
  });

  it('orgs create --json prints the organization', async () => {
    const org = await cliJson('orgs', 'create', '--slug', 'acme', '--name', 'Acme Inc', '--owner', 'ada@example.com');
    expect(org).toMatchObject({ slug: 'acme', name: 'Acme Inc', owner: 'ada@example.com' });
    expect(org.id).toMatch(UUID);
    ids.acme = org.id;
  });

  it('projects create --owner user:EMAIL prints id, slug and owner_id (the user)', async () => {
    for (const slug of ['alpha', 'gamma', 'delta'] as const) {
      const project = await cliJson('projects', 'create', '--name', `Project ${slug}`, '--slug', slug, '--owner', 'user:ada@example.com');
      expect(project).toMatchObject({ slug, name: `Project ${slug}`, owner_type: 'user', owner_id: ids.ada });
      expect(project.id).toMatch(UUID);
      ids[slug] = project.id;
    }
  });

  it('projects create --owner org:SLUG prints id, slug and owner_id (the organization)', async () => {
    const project = await cliJson('projects', 'create', '--name', 'Beta', '--slug', 'beta', '--owner', 'org:acme');
    expect(project).toMatchObject({ slug: 'beta', owner_type: 'org', owner_id: ids.acme });
    expect(project.id).toMatch(UUID);
    ids.beta = project.id;
  });

  it('projects create says what to do next and where the changelog will be, as text', async () => {
    // An owner of its own: the key tests below count ada's projects.
    expect((await cli('users', 'create', '--email', 'eve@example.com', '--name', 'Eve')).code).toBe(0);
    const result = await cli('projects', 'create', '--name', 'Epsilon', '--slug', 'epsilon', '--owner', 'user:eve@example.com');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Created project epsilon \([0-9a-f-]{36}\)\n/);
    expect(result.stdout).toContain('Next, link its repository: changelog repos link --project epsilon --path DIR_OR_GIT_URL\n');
    expect(result.stdout).toContain('Public changelog: http://localhost:3000/c/epsilon\n');
  });

  it('refuses an invalid slug, naming the slug problem', async () => {
    const result = await cliFails('projects', 'create', '--name', 'Bad', '--slug', 'Bad_Slug', '--owner', 'user:ada@example.com', '--json');
    expect(result.code).toBe(1);
    const body = singleJsonObject(result.stderr);
    expect(body).toMatchObject({ error: 'Invalid project', code: 'invalid_request' });
    expect(body.details).toEqual([{ parameter: 'slug', message: expect.stringContaining('lowercase letters, digits and single hyphens') }]);
  });

  it('refuses --owner nonsense with a clear message', async () => {
    const result = await cliFails('projects', 'create', '--name', 'X', '--slug', 'xx', '--owner', 'nonsense');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: --owner must be user:EMAIL or org:SLUG \(got "nonsense"\)\n/);
  });

  it('projects list prints every project by slug with its owner; --owner narrows it to one context', async () => {
    const all = await cliJson('projects', 'list');
    expect(all.count).toBe(5);
    expect(all.projects.map((p: Json) => [p.slug, p.owner, p.published_entries])).toEqual([
      ['alpha', 'user:ada@example.com', 0],
      ['beta', 'org:acme', 0],
      ['delta', 'user:ada@example.com', 0],
      ['epsilon', 'user:eve@example.com', 0],
      ['gamma', 'user:ada@example.com', 0],
    ]);
    expect(all.projects[1]).toMatchObject({ id: ids.beta, name: 'Beta', owner_type: 'org', owner_id: ids.acme });
    expect((await cliJson('projects', 'list', '--owner', 'org:acme')).projects.map((p: Json) => p.slug)).toEqual(['beta']);
    const text = await cli('projects', 'list', '--owner', 'user:ada@example.com');
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout.split('\n').filter(Boolean).map((line) => line.split(/\s+/)[0])).toEqual(['alpha', 'delta', 'gamma']);
    // An owner that does not exist is an error, not an empty list.
    expect((await cliFails('projects', 'list', '--owner', 'org:nobody')).stderr).toBe('error: No organization with slug nobody\n');
  });
});

describe('changelog keys', () => {
  it('keys create --json prints the key record and its secret as `key`, never a hash', async () => {
    const created = await cliJson('keys', 'create', '--name', 'CI', '--owner', 'user:ada@example.com');
    expect(created.id).toMatch(UUID);
    expect(created.key).toMatch(SECRET);
    expect(created).toMatchObject({
      name: 'CI',
      display_prefix: created.key.slice(0, 12),
      context: { type: 'user', id: ids.ada },
      scope: 'all',
      projects: [],
      capabilities: [],
      status: 'active',
      revoked_at: null,
    });
    expect(Object.keys(created).filter((k) => /hash/.test(k))).toEqual([]);
    expect(JSON.stringify({ ...created, key: undefined })).not.toMatch(SHA256_HEX);
    keys.all = { id: created.id, key: created.key };
  });

  it('keys create --projects a,b makes a key limited to those projects (--publish: one that may publish them)', async () => {
    const created = await cliJson('keys', 'create', '--name', 'Scoped', '--owner', 'user:ada@example.com', '--projects', 'alpha,gamma', '--publish');
    expect(created.key).toMatch(SECRET);
    expect(created).toMatchObject({ scope: 'selected', capabilities: ['publish'], context: { type: 'user', id: ids.ada } });
    expect([...created.projects].sort()).toEqual(['alpha', 'gamma']);
    keys.scoped = { id: created.id, key: created.key };

    const org = await cliJson('keys', 'create', '--name', 'Org key', '--owner', 'org:acme');
    expect(org).toMatchObject({ scope: 'all', context: { type: 'org', id: ids.acme } });
    keys.org = { id: org.id, key: org.key };

    const doomed = await cliJson('keys', 'create', '--name', 'Doomed', '--owner', 'user:ada@example.com');
    keys.doomed = { id: doomed.id, key: doomed.key };
    expect(new Set([keys.all.key, keys.scoped.key, keys.org.key, keys.doomed.key]).size).toBe(4);
  });

  it('the created keys authenticate through the API, each seeing its own projects', async () => {
    const tampered = `${keys.all.key.slice(0, -1)}${keys.all.key.endsWith('A') ? 'B' : 'A'}`;
    expect(await projectsSeenBy([keys.all.key, keys.scoped.key, keys.org.key, tampered])).toEqual([
      ['alpha', 'delta', 'gamma'],
      ['alpha', 'gamma'],
      ['beta'],
      401,
    ]);
  });

  it('keys rename ID --name renames it', async () => {
    const renamed = await cliJson('keys', 'rename', keys.all.id, '--name', 'CI (renamed)');
    expect(renamed).toMatchObject({ id: keys.all.id, name: 'CI (renamed)', status: 'active' });
    expect(renamed).not.toHaveProperty('key');
  });

  it('keys rotate ID prints a new secret', async () => {
    const rotated = await cliJson('keys', 'rotate', keys.all.id);
    expect(rotated.id).toBe(keys.all.id);
    expect(rotated.key).toMatch(SECRET);
    expect(rotated.key).not.toBe(keys.all.key);
    expect(rotated).toMatchObject({ display_prefix: rotated.key.slice(0, 12), status: 'active', previous_secret_expires_at: null });
    oldAllSecret = keys.all.key;
    keys.all.key = rotated.key;
  });

  it('keys rotate with an unknown id fails on stderr', async () => {
    const unknown = randomUUID();
    const text = await cliFails('keys', 'rotate', unknown);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe('error: API key not found\n');

    const json = await cliFails('keys', 'rotate', unknown, '--json');
    expect(json.code).toBe(1);
    expect(singleJsonObject(json.stderr)).toEqual({ error: 'API key not found', code: 'not_found' });
  });

  it('keys revoke ID marks it revoked', async () => {
    const revoked = await cliJson('keys', 'revoke', keys.org.id);
    expect(revoked).toMatchObject({ id: keys.org.id, status: 'revoked' });
    expect(Number.isNaN(Date.parse(revoked.revoked_at))).toBe(false);
    expect(revoked).not.toHaveProperty('key');
  });

  it('keys delete ID deletes it', async () => {
    expect(await cliJson('keys', 'delete', keys.doomed.id)).toEqual({ id: keys.doomed.id, deleted: true });
  });

  it('keys list shows every remaining key but never a secret or a hash', async () => {
    const secrets = [oldAllSecret, keys.all.key, keys.scoped.key, keys.org.key, keys.doomed.key];
    const result = await cli('keys', 'list', '--json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    for (const secret of secrets) expect(result.stdout).not.toContain(secret);
    expect(result.stdout).not.toMatch(SHA256_HEX);
    const list = singleJsonObject(result.stdout);
    expect(list.count).toBe(3);
    expect(list.keys).toHaveLength(3);
    for (const key of list.keys) {
      expect(key).not.toHaveProperty('key');
      expect(Object.keys(key).filter((k) => /hash|secret$/.test(k))).toEqual([]);
    }
    const byId = new Map(list.keys.map((k: { id: string }) => [k.id, k]));
    expect(byId.has(keys.doomed.id)).toBe(false);
    expect(byId.get(keys.all.id)).toMatchObject({ name: 'CI (renamed)', status: 'active', display_prefix: keys.all.key.slice(0, 12) });
    expect(byId.get(keys.scoped.id)).toMatchObject({ scope: 'selected', capabilities: ['publish'], status: 'active' });
    expect(byId.get(keys.org.id)).toMatchObject({ status: 'revoked' });

    const text = await cli('keys', 'list');
    expect(text).toMatchObject({ code: 0, stderr: '' });
    for (const secret of secrets) expect(text.stdout).not.toContain(secret);
    expect(text.stdout).not.toMatch(SHA256_HEX);
    expect(text.stdout).toContain(keys.all.key.slice(0, 12));
    expect(text.stdout.split('\n').find((line) => line.includes(keys.scoped.key.slice(0, 12)))).toMatch(/ publish +alpha,gamma +Scoped$/);
  });

  it('through the API: a rotated-out secret, a revoked key and a deleted key are refused; the new secret works', async () => {
    expect(await projectsSeenBy([oldAllSecret, keys.all.key, keys.scoped.key, keys.org.key, keys.doomed.key])).toEqual([
      401,
      ['alpha', 'delta', 'gamma'],
      ['alpha', 'gamma'],
      401,
      401,
    ]);
  });

  it('--context, the former name of --owner, still works on keys create and list, and is not shown in help', async () => {
    const viaAlias = await cliJson('keys', 'create', '--name', 'Alias', '--context', 'org:acme');
    expect(viaAlias).toMatchObject({ context: { type: 'org', id: ids.acme }, scope: 'all' });
    const orgKeys = [keys.org.id, viaAlias.id].sort();
    expect((await cliJson('keys', 'list', '--context', 'org:acme')).keys.map((k: Json) => k.id).sort()).toEqual(orgKeys);
    expect((await cliJson('keys', 'list', '--owner', 'org:acme')).keys.map((k: Json) => k.id).sort()).toEqual(orgKeys);

    const help = await cli('keys', 'create', '--help');
    expect(help.stdout).toContain('--owner <owner>');
    expect(help.stdout).not.toContain('--context');
    const missing = await cliFails('keys', 'create', '--name', 'Nobody');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--owner <owner>' not specified");
  });
});

describe('changelog entries', () => {
  const fileEntries = [
    { id: randomUUID(), entry_type: 'commit', status: 'draft', title: 'Import A', content: 'Draft body', commit_shas: ['abcdef1'] },
    {
      entry_type: 'weekly',
      status: 'published',
      title: 'Import B',
      content: '## Week 5',
      generated_json: generatedJson('Import B'),
      version_label: 'v1.2.0',
      team_attribution: 'Ada and Linus',
      component_tags: ['core', 'api'],
      period_start: '2026-01-26T00:00:00.000Z',
      period_end: '2026-02-02T00:00:00.000Z',
      published_at: '2026-02-02T09:30:00.000Z',
    },
    { entry_type: 'daily', status: 'published', title: 'Import C', generated_json: null },
  ];

  it('entries import --project SLUG FILE prints {imported, ids}', async () => {
    const file = writeJson('entries.json', fileEntries);
    importStartedAt = Date.now();
    const result = await cliJson('entries', 'import', '--project', 'alpha', file);
    expect(result).toEqual({ imported: 3, ids: [expect.stringMatching(UUID), expect.stringMatching(UUID), expect.stringMatching(UUID)] });
    expect(new Set(result.ids).size).toBe(3);
    // An `id` in the file is ignored: an import always creates new entries.
    expect(result.ids).not.toContain(fileEntries[0]!.id);
    imported = result.ids;
  });

  it('is all or nothing: an invalid third entry fails naming [2].entry_type', async () => {
    const file = writeJson('bad-entries.json', [
      { entry_type: 'commit', title: 'Bad batch 0' },
      { entry_type: 'daily', status: 'published', title: 'Bad batch 1' },
      { entry_type: 'yearly', title: 'Bad batch 2' },
    ]);
    const result = await cliFails('entries', 'import', '--project', 'alpha', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[2].entry_type');
    // Nothing was stored: checked below against the database.
  });

  it('refuses a file that is not JSON, saying so', async () => {
    const file = writeJson('broken.json', '[{"entry_type": "commit",');
    const result = await cliFails('entries', 'import', '--project', 'alpha', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^error: Cannot read ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} as JSON: .+\\n$`));
  });

  it('refuses an unknown project', async () => {
    const file = writeJson('one.json', [{ entry_type: 'commit', title: 'Orphan' }]);
    const result = await cliFails('entries', 'import', '--project', 'no-such-project', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: Project no-such-project not found\n');
  });

  it('entries publish ID and unpublish ID print the new state', async () => {
    const before = Date.now();
    const published = await cliJson('entries', 'publish', imported[0]!);
    expect(published).toMatchObject({ id: imported[0], status: 'published' });
    expect(Date.parse(published.published_at)).toBeGreaterThanOrEqual(before - 5_000);

    const unpublished = await cliJson('entries', 'unpublish', imported[0]!);
    expect(unpublished).toMatchObject({ id: imported[0], status: 'draft', published_at: null });
  });

  it('stored the imported entries in input order, and nothing from the failed imports', async () => {
    const rows = await withDb((database) =>
      database.db.selectFrom('changelog_entries').selectAll().orderBy('created_at').execute(),
    );
    expect(rows).toHaveLength(3);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const [a, b, c] = imported.map((id) => byId.get(id)!);
    expect([a, b, c].map((r) => r?.title)).toEqual(['Import A', 'Import B', 'Import C']);
    for (const row of [a!, b!, c!]) expect(row.project_id).toBe(ids.alpha);

    expect(a).toMatchObject({ entry_type: 'commit', status: 'draft', published_at: null, content: 'Draft body', commit_shas: ['abcdef1'] });
    expect(b).toMatchObject({
      entry_type: 'weekly',
      status: 'published',
      generated_json: generatedJson('Import B'),
      version_label: 'v1.2.0',
      team_attribution: 'Ada and Linus',
      component_tags: ['core', 'api'],
    });
    expect(b!.published_at?.toISOString()).toBe('2026-02-02T09:30:00.000Z');
    expect(b!.period_start?.toISOString()).toBe('2026-01-26T00:00:00.000Z');
    expect(b!.period_end?.toISOString()).toBe('2026-02-02T00:00:00.000Z');
    // Published without published_at: stamped at import time.
    expect(c).toMatchObject({ entry_type: 'daily', status: 'published', generated_json: null });
    expect(c!.published_at!.getTime()).toBeGreaterThanOrEqual(importStartedAt - 5_000);
    expect(c!.published_at!.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
  });
});

describe('usage errors', () => {
  it('an unknown command exits with 2, the message on stderr', async () => {
    const result = await cliFails('frobnicate');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it('with --json, a usage error ends stderr with a JSON object holding an `error` string', async () => {
    const result = await cliFails('frobnicate', '--json');
    expect(result.code).toBe(2);
    const last = result.stderr.trimEnd().split('\n').at(-1)!;
    const body = singleJsonObject(`${last}\n`);
    expect(body.error).toEqual(expect.stringContaining("unknown command 'frobnicate'"));
  });

  it('a missing required option exits with 2', async () => {
    const result = await cliFails('users', 'create', '--email', 'x@example.com');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("required option '--name <name>' not specified");
  });

  it('a command group without its subcommand is a usage error, not a success', async () => {
    const result = await cli('keys');
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: changelog keys');
    expect(result.code).not.toBe(0);
  });
});

describe('changelog users invite', () => {
  it('prints a single-use link that sets the password of a passwordless user (the installation\'s first account), and creates a missing user', async () => {
    const created = await cliJson('users', 'invite', 'Newcomer@example.com', '--name', 'New Comer');
    expect(created).toMatchObject({ created: true, user: { email: 'newcomer@example.com', name: 'New Comer' } });
    const text = await cli('users', 'invite', 'ada@example.com');
    expect(text).toMatchObject({ code: 0, stderr: '' });
    const link = /^Setup link for ada@example\.com \(works once, until [^)]+\):\nhttp:\/\/localhost:3000(\/dashboard\/setup\/[\w-]{43})\n$/.exec(text.stdout)?.[1];
    expect(link).toBeDefined();

    await withDb(async (database) => {
      // Production password hashing (this checks its cost), load shedding off as in the test settings.
      const app = await buildApp({ config: loadConfig({ ...env, UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' }), database });
      try {
        const browser = new DashboardClient(app);
        expect((await browser.get(link!)).body).toContain('ada@example.com');
        const done = await browser.post(link!, { password: 'ada-password-123' });
        expect(done.location).toBe('/dashboard?notice=welcome');
        const ada = await database.db.selectFrom('users').select(['password_hash', 'is_instance_owner']).where('email', '=', 'ada@example.com').executeTakeFirstOrThrow();
        expect(ada.password_hash).toMatch(/^scrypt\$131072\$/);
        expect(ada.is_instance_owner).toBe(true);
        const again = new DashboardClient(app);
        expect((await again.get(link!)).status).toBe(404);
        expect((await again.signIn('ada@example.com', 'ada-password-123')).status).toBe(303);
      } finally {
        await app.close();
      }
    });
  });
});
