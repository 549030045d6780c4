import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDataDir } from '../../test/helpers/database.js';
import { runCli } from '../../test/helpers/cli.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'changelog-backup-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(env: Record<string, string>, ...args: string[]) {
  const { code, stdout, stderr } = await runCli([...args, '--json'], { env: { NODE_ENV: 'test', DEMO_SEED: 'false', ...env } });
  return { code, out: stdout ? JSON.parse(stdout) : undefined, err: stderr ? JSON.parse(stderr) : undefined };
}

describe('changelog backup / restore (embedded database)', () => {
  // Ten commands, each starting the embedded database from cold as a shell would: seconds each on a busy CI machine.
  it('round-trips the data, refuses to overwrite without --force, and keeps the replaced database aside', async () => {
    const source = { DATA_DIR: join(dir, 'source') };
    await seedDataDir(source.DATA_DIR);
    expect((await cli(source, 'users', 'create', '--email', 'ada@example.com', '--name', 'Ada')).code).toBe(0);
    expect((await cli(source, 'projects', 'create', '--name', 'Acme', '--slug', 'acme', '--owner', 'user:ada@example.com')).code).toBe(0);
    const archive = join(dir, 'backup.tar.gz');
    const backup = await cli(source, 'backup', '--out', archive);
    expect(backup.code).toBe(0);
    expect(backup.out.bytes).toBeGreaterThan(1000);

    // Into an empty place: restored, and the data is there.
    const target = { DATA_DIR: join(dir, 'target') };
    const restored = await cli(target, 'restore', archive);
    expect(restored.code).toBe(0);
    expect(restored.out).toMatchObject({ schemaVersion: expect.any(Number), previous: null });
    const keys = await cli(target, 'keys', 'create', '--name', 'k', '--context', 'user:ada@example.com', '--projects', 'acme');
    expect(keys.code).toBe(0);
    expect(keys.out.projects).toEqual(['acme']);

    // Over a database: refused, and nothing changes.
    const refused = await cli(target, 'restore', archive);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatchObject({ code: 'conflict', error: expect.stringContaining('--force') });
    expect((await cli(target, 'keys', 'list')).out.count).toBe(1);

    // With --force: replaced by the backup (which has no key), the old one renamed aside.
    const forced = await cli(target, 'restore', archive, '--force');
    expect(forced.code).toBe(0);
    expect(existsSync(forced.out.previous)).toBe(true);
    expect((await cli(target, 'keys', 'list')).out.count).toBe(0);
    expect((await cli({ DATA_DIR: forced.out.previous }, 'keys', 'list')).out.count).toBe(1);
  }, 90_000);

  it('writes the archive 0600 from its first byte, and restores into a 0700 directory, under umask 000', async () => {
    // A permissive umask: the modes must come from the code. The archive holds password, session and
    // key hashes and webhook secrets.
    const source = { DATA_DIR: join(dir, 'private-source') };
    // A copy of the migrated template, as above: creating and migrating a database is not what this tests.
    await seedDataDir(source.DATA_DIR);
    const umask = process.umask(0);
    try {
      expect((await cli(source, 'users', 'create', '--email', 'grace@example.com', '--name', 'Grace')).code).toBe(0);
      const out = join(dir, 'archives');
      mkdirSync(out);
      const archive = join(out, 'backup.tar.gz');
      // An archive an older version left readable by everyone is replaced, not written into.
      writeFileSync(archive, 'old', { mode: 0o644 });
      const seen: { name: string; mode: number }[] = [];
      const watcher = watch(out, (_event, name) => {
        if (!name || name === 'backup.tar.gz') return;
        try {
          seen.push({ name, mode: statSync(join(out, name)).mode & 0o777 });
        } catch {
          // Already renamed.
        }
      });
      let backup;
      try {
        backup = await cli(source, 'backup', '--out', archive);
      } finally {
        watcher.close();
      }
      expect(backup.code).toBe(0);
      expect(statSync(archive).mode & 0o777).toBe(0o600);
      for (const file of seen) expect(file.mode & 0o077, file.name).toBe(0);

      const target = { DATA_DIR: join(dir, 'private-target') };
      expect((await cli(target, 'restore', archive)).code).toBe(0);
      expect(statSync(target.DATA_DIR).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(umask);
    }
  });

  it('refuses a file that is not a backup, leaving the database alone', async () => {
    const bogus = join(dir, 'bogus.tar.gz');
    writeFileSync(bogus, 'not an archive');
    const target = { DATA_DIR: join(dir, 'untouched') };
    const result = await cli(target, 'restore', bogus);
    expect(result.code).toBe(1);
    expect(result.err.code).toBe('invalid_request');
    expect(existsSync(join(dir, 'untouched', 'PG_VERSION'))).toBe(false);
  });
});
