import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, openSecret, sealSecret, signPayload, verifySignature } from './signature.js';

const SECRET = 'whsec_test-secret';
const BODY = '{"type":"entry.published"}';
const T = 1_767_225_600;

describe('signature', () => {
  it('is t=<unix>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signPayload(SECRET, BODY, T)).toBe(`t=${T},v1=${expected}`);
  });

  it('verifies its own signature within the tolerance', () => {
    expect(verifySignature(SECRET, signPayload(SECRET, BODY, T), BODY, { now: T + 299 })).toEqual({ ok: true, timestamp: T });
  });

  it('refuses a changed body, another secret, a changed timestamp, a missing or malformed header', () => {
    const header = signPayload(SECRET, BODY, T);
    expect(verifySignature(SECRET, header, BODY.replace('published', 'updated'), { now: T })).toMatchObject({ ok: false, reason: 'signature does not match' });
    expect(verifySignature('whsec_other', header, BODY, { now: T })).toMatchObject({ ok: false });
    expect(verifySignature(SECRET, header.replace(`t=${T}`, `t=${T + 1}`), BODY, { now: T })).toMatchObject({ ok: false, reason: 'signature does not match' });
    expect(verifySignature(SECRET, undefined, BODY, { now: T })).toMatchObject({ ok: false, reason: 'missing signature' });
    expect(verifySignature(SECRET, 'v1=abc', BODY, { now: T })).toMatchObject({ ok: false, reason: 'malformed timestamp' });
  });

  it('refuses a replay outside the tolerance, either way', () => {
    const header = signPayload(SECRET, BODY, T);
    expect(verifySignature(SECRET, header, BODY, { now: T + 301 })).toMatchObject({ ok: false, reason: 'timestamp outside the tolerance' });
    expect(verifySignature(SECRET, header, BODY, { now: T - 301 })).toMatchObject({ ok: false, reason: 'timestamp outside the tolerance' });
    expect(verifySignature(SECRET, header, BODY, { now: T + 1000, toleranceSeconds: 2000 })).toMatchObject({ ok: true });
  });

  it('new secrets are distinct and long', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newSigningSecret()).not.toBe(a);
  });

  it('seals secrets with AES-256-GCM under the key, and opens them again', () => {
    const key = 'k'.repeat(32);
    const sealed = sealSecret(SECRET, key);
    expect(sealed).toMatch(/^enc:v1:/);
    expect(sealed).not.toContain('test-secret');
    expect(sealSecret(SECRET, key)).not.toBe(sealed);
    expect(openSecret(sealed, key)).toBe(SECRET);
    expect(() => openSecret(sealed, 'x'.repeat(32))).toThrow();
    expect(() => openSecret(sealed, null)).toThrow(/WEBHOOK_ENCRYPTION_KEY/);
    expect(openSecret(sealSecret(SECRET, null), null)).toBe(SECRET);
    expect(openSecret(sealSecret(SECRET, null), key)).toBe(SECRET);
  });
});
