import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePrivateDir } from './private-dir.js';

let root: string;
let umask: number;
// A permissive umask: the modes below must come from the code, not from the environment's 077 or 022.
beforeAll(() => {
  umask = process.umask(0);
  root = mkdtempSync(join(tmpdir(), 'changelog-private-dir-'));
});
afterAll(() => {
  process.umask(umask);
  rmSync(root, { recursive: true, force: true });
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe('ensurePrivateDir', () => {
  it('creates the directory and its missing parents 0700 under umask 000', async () => {
    const dir = join(root, 'outside', 'repos');
    await ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(root, 'outside'))).toBe(0o700);
  });

  it('closes an existing directory others may enter, and leaves a private one alone', async () => {
    const dir = join(root, 'existing');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    await ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
    await ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });
});
