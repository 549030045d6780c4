import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isValidSignature, signatureCheck } from './signature.js';

// GitHub's published example: https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries
const SECRET = "It's a Secret to Everybody";
const PAYLOAD = Buffer.from('Hello, World!');
const SIGNATURE = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

describe('isValidSignature', () => {
  it("accepts GitHub's published test vector", async () => {
    expect(await isValidSignature(SECRET, PAYLOAD, SIGNATURE)).toBe(true);
  });

  it('refuses a tampered body, a wrong secret, a tampered or missing signature', async () => {
    expect(await isValidSignature(SECRET, Buffer.from('Hello, World?'), SIGNATURE)).toBe(false);
    expect(await isValidSignature('another secret', PAYLOAD, SIGNATURE)).toBe(false);
    expect(await isValidSignature(SECRET, PAYLOAD, SIGNATURE.replace(/e17$/, 'e18'))).toBe(false);
    expect(await isValidSignature(SECRET, PAYLOAD, SIGNATURE.toUpperCase())).toBe(false);
    expect(await isValidSignature(SECRET, PAYLOAD, SIGNATURE.replace('sha256=', 'sha1='))).toBe(false);
    expect(await isValidSignature(SECRET, PAYLOAD, undefined)).toBe(false);
    expect(await isValidSignature(SECRET, PAYLOAD, '')).toBe(false);
  });

  it('checks the bytes, whatever they are, and the same when fed chunk by chunk', async () => {
    const body = Buffer.from([0x7b, 0xff, 0x7d]);
    const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
    expect(isValidSignature(SECRET, body, signature)).toBe(true);
    const check = signatureCheck(SECRET, SIGNATURE);
    for (const byte of PAYLOAD) check.update(Buffer.from([byte]));
    expect(check.matches()).toBe(true);
    const tampered = signatureCheck(SECRET, SIGNATURE);
    tampered.update(PAYLOAD.subarray(0, 5));
    expect(tampered.matches()).toBe(false);
  });
});
