import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, SCRYPT_LOG_N, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('hashes with scrypt at OWASP\'s minimum cost (N = 2^17, r = 8, p = 1) and a per-password salt, and verifies', async () => {
    expect(SCRYPT_LOG_N).toBe(17);
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', a)).toEqual({ ok: true, rehash: false });
    expect(await verifyPassword('correct horse batterY', a)).toEqual({ ok: false, rehash: false });
  });

  it('asks for a rehash of a right password stored with weaker parameters, never of a wrong one', async () => {
    const old = await hashPassword('correct horse battery', 15);
    expect(old).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse battery', old)).toEqual({ ok: true, rehash: true });
    expect(await verifyPassword('wrong horse battery', old)).toEqual({ ok: false, rehash: false });
    expect(await verifyPassword('correct horse battery', old, 15)).toEqual({ ok: true, rehash: false });
  });

  it('refuses accounts without a password, malformed hashes and absurd stored costs', async () => {
    expect((await verifyPassword('anything at all', null, 10)).ok).toBe(false);
    expect((await verifyPassword('anything at all', 'sha256$abc', 10)).ok).toBe(false);
    expect((await verifyPassword('anything at all', 'scrypt$1099511627776$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAA', 10)).ok).toBe(false);
  });

  it('names what is wrong with a new password', () => {
    expect(passwordProblem('short')).toMatch(/at least 10/);
    expect(passwordProblem('x'.repeat(201))).toMatch(/at most 200/);
    expect(passwordProblem('long enough pass')).toBeNull();
  });
});

describe('stored hashes past the memory bound', () => {
  it('are refused without computing: N = 2^20 with r = 32 would take 4 GiB per check', async () => {
    const salt = Buffer.alloc(16).toString('base64url');
    const key = Buffer.alloc(64).toString('base64url');
    expect(await verifyPassword('anything at all', `scrypt$${2 ** 20}$32$1$${salt}$${key}`)).toEqual({ ok: false, rehash: false });
    expect(await verifyPassword('anything at all', `scrypt$${2 ** 18}$16$1$${salt}$${key}`)).toEqual({ ok: false, rehash: false });
  });
});
