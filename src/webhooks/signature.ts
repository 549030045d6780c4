import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The header that carries a delivery's signature. */
export const SIGNATURE_HEADER = 'x-changelog-signature';
/** How far a signature's timestamp may be from the receiver's clock (replay window). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A new signing secret: `whsec_` + 32 random bytes (base64url). The whole string is the HMAC key. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (the scheme Stripe uses). */
export function signPayload(secret: string, body: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: string };

/**
 * What a receiver does: parse the header, recompute the HMAC over the raw body, compare in
 * constant time, and refuse a timestamp outside the tolerance (a replayed old delivery).
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): VerifyResult {
  if (!header) return { ok: false, reason: 'missing signature' };
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) continue;
    const key = item.slice(0, eq).trim();
    parts.set(key, [...(parts.get(key) ?? []), item.slice(eq + 1).trim()]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t)) return { ok: false, reason: 'malformed timestamp' };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return { ok: false, reason: 'timestamp outside the tolerance' };
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const matches = (parts.get('v1') ?? []).some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true, timestamp: t } : { ok: false, reason: 'signature does not match' };
}

/**
 * Signing secrets must be stored retrievably (they sign every delivery). With an encryption key
 * they are sealed with AES-256-GCM (`enc:v1:<iv>:<tag>:<ciphertext>`, base64url); without one they
 * are kept as they are (`plain:<secret>`), like the rest of the database's secrets-by-reference.
 */
export function sealSecret(secret: string, encryptionKey: string | null): string {
  if (encryptionKey === null) return `plain:${secret}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(encryptionKey), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `enc:v1:${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ciphertext.toString('base64url')}`;
}

export function openSecret(stored: string, encryptionKey: string | null): string {
  if (stored.startsWith('plain:')) return stored.slice('plain:'.length);
  const [, version, iv, tag, ciphertext] = stored.split(':');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('unreadable webhook secret');
  if (encryptionKey === null) throw new Error('the webhook secret is encrypted and WEBHOOK_ENCRYPTION_KEY is not set');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(encryptionKey), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

const keyOf = (material: string) => createHash('sha256').update(material).digest();
