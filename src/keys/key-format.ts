import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Secret format: `clk_` + 33 base62 characters of randomness (24 bytes = 192 bits from the CSPRNG)
 * + 6 base62 characters of CRC32 over everything before it. The checksum lets a typo be refused
 * without touching the database; the prefix makes leaked keys easy to find by secret scanners.
 */
export const KEY_PREFIX = 'clk_';
const RANDOM_LENGTH = 33;
const CHECKSUM_LENGTH = 6;
export const KEY_LENGTH = KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

function checksum(body: string): string {
  return base62(BigInt(crc32(body)), CHECKSUM_LENGTH);
}

export function generateKey(): string {
  const random = BigInt(`0x${randomBytes(24).toString('hex')}`);
  const body = KEY_PREFIX + base62(random, RANDOM_LENGTH);
  return body + checksum(body);
}

/** True when the string has the key format and its checksum matches. */
export function isWellFormedKey(candidate: string): boolean {
  if (candidate.length !== KEY_LENGTH || !KEY_PATTERN.test(candidate)) return false;
  const body = candidate.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === candidate.slice(-CHECKSUM_LENGTH);
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What lists show so a person can tell keys apart: the prefix and the first characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 8);
}

const KEY_ANYWHERE = new RegExp(`${KEY_PREFIX}[0-9A-Za-z]{8,}`, 'g');

/** Masks anything shaped like a key (a key pasted into a URL, say) before text is logged or echoed. */
export function redactKeys(text: string): string {
  return text.replace(KEY_ANYWHERE, `${KEY_PREFIX}[redacted]`);
}
