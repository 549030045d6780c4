// The CLI on the embedded database (npm start's default), as a shell runs it: every command opens the
// PGlite data directory itself and closes it. cli.int.test.ts covers every command's behaviour on
// PostgreSQL in CI (and on PGlite without TEST_DATABASE_URL); this file keeps, in CI too, what only the
// embedded database does: creating and migrating a data directory, the lock that keeps a second process
// out, and a round trip of commands that each open it again and see what the last one stored.
// A `.pglite.int.test.ts` file: it runs once, on the embedded database, whatever TEST_DB says.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/helpers/cli.js';
import { openDatabase } from '../db/database.js';
import { loadMigrations } from '../db/migrate.js';

let workDir: string;
let dataDir: string;
let env: Record<string, string>;

const cli = (...args: string[]) => runCli(args, { env });

/** Runs a command with --json: exit 0, nothing on stderr, one JSON object on stdout. */
async function cliJson(...args: string[]): Promise<Record<string, unknown>> {
  const result = await cli(...args, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const lines = result.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'changelog-cli-embedded-'));
  dataDir = join(workDir, 'data');
  env = { DATA_DIR: dataDir, NODE_ENV: 'test' };
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the CLI on a data directory of its own', () => {
  it('migrate creates the database in an empty directory, applies every migration, and is idempotent', async () => {
    const migrations = loadMigrations();
    const latest = migrations.at(-1)!.version;
    expect(await cliJson('migrate')).toEqual({ applied: migrations.map((m) => ({ version: m.version, name: m.name })), version: latest });
    expect(await cliJson('migrate')).toEqual({ applied: [], version: latest });
  });

  it('commands each open the directory again and see what the one before stored', async () => {
    const user = await cliJson('users', 'create', '--email', 'ada@example.com', '--name', 'Ada');
    const project = await cliJson('projects', 'create', '--name', 'Alpha', '--slug', 'alpha', '--owner', 'user:ada@example.com');
    expect(project).toMatchObject({ slug: 'alpha', owner_id: user.id });
    const key = await cliJson('keys', 'create', '--name', 'CI', '--owner', 'user:ada@example.com', '--projects', 'alpha');
    expect(key).toMatchObject({ name: 'CI', scope: 'selected', projects: ['alpha'] });
    const listed = await cli('projects', 'list');
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout.split('\n').filter(Boolean).map((line) => line.split(/\s+/)[0])).toEqual(['alpha']);
  });
});

describe('the data-dir lock', () => {
  it('refuses to open a data dir held by an open database in this process, with a one-line message', async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir });
    let result: Awaited<ReturnType<typeof cli>>;
    try {
      result = await cli('migrate');
    } finally {
      await database.close();
    }
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: [^\n]*in use by another process[^\n]*\n$/);
    // Released again once the holder closed.
    expect((await cli('migrate')).code).toBe(0);
  });

  it('refuses a data dir locked by another live process', async () => {
    const otherDir = mkdtempSync(join(workDir, 'locked-'));
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(otherDir, 'changelog.lock'), String(holder.pid));
      const { code, stdout, stderr } = await runCli(['migrate', '--json'], { env: { DATA_DIR: otherDir, NODE_ENV: 'test' } });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect((JSON.parse(stderr.trimEnd().split('\n').at(-1)!) as { error: string }).error).toContain(`in use by another process (pid ${holder.pid})`);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
