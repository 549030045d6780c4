/**
 * Attacker test: the embedded database writes its files world-readable and world-writable (0666,
 * whatever the umask), so the data directory itself is the only thing between another local user
 * and every secret in it (webhook signing secrets, key and session hashes, password hashes — which
 * a write could replace). Like PostgreSQL's own data directory, it must be the owner's alone.
 */
import { mkdirSync, mkdtempSync, statSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock.js';

const othersBits = (path: string) => statSync(path).mode & 0o077;

describe('the data directory is private to the user running the service', () => {
  it('a new data directory is created 0700', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'changelog-perm-')), 'data');
    const release = lockDataDir(dataDir);
    release();
    expect(othersBits(dataDir)).toBe(0);
  });

  it('an existing one others can enter is closed to them', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'changelog-perm-')), 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const release = lockDataDir(dataDir);
    release();
    expect(othersBits(dataDir)).toBe(0);
  });
});
