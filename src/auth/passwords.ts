import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt cost as log2(N), with r = 8 and p = 1. OWASP's minimum is N = 2^17 (128 MiB, about 0.4 s
 * here); lower costs exist only for tests (PASSWORD_SCRYPT_LOG_N, refused in production).
 */
export const SCRYPT_LOG_N = 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
/** Stored hashes above this cost are refused rather than computed (a hash string must not buy gigabytes). */
const MAX_LOG_N = 20;
/** The memory (128·N·r·p bytes) a stored hash may make one verification take: twice today's cost. */
const MAX_SCRYPT_BYTES = 256 * 1024 * 1024;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

interface Params {
  N: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, { N, r, p }: Params): Promise<Buffer> {
  // scrypt needs 128·N·r·p bytes; Node's default maxmem (32 MiB) refuses N = 2^17.
  const maxmem = 128 * N * r * p * 2;
  return new Promise((resolve, reject) => {
    // The async scrypt runs on the libuv threadpool, off the event loop.
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** What is wrong with a new password, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  return null;
}

/** `scrypt$N$r$p$salt$hash` (base64url), with a fresh 16-byte salt per password: the parameters travel with the hash. */
export async function hashPassword(password: string, logN = SCRYPT_LOG_N): Promise<string> {
  const params = { N: 2 ** logN, r: R, p: P };
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parse(encoded: string): (Params & { salt: Buffer; hash: Buffer }) | undefined {
  const [scheme, n, r, p, salt, hash, extra] = encoded.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash || extra !== undefined) return undefined;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const ok =
    Number.isInteger(params.N) && params.N >= 2 && params.N <= 2 ** MAX_LOG_N && (params.N & (params.N - 1)) === 0 &&
    Number.isInteger(params.r) && params.r >= 1 && params.r <= 32 && Number.isInteger(params.p) && params.p >= 1 && params.p <= 4 &&
    128 * params.N * params.r * params.p <= MAX_SCRYPT_BYTES;
  return ok ? { ...params, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') } : undefined;
}

/**
 * Per cost, a stored-hash stand-in verified against when the account does not exist (or has no
 * password), so that a failed sign-in costs one scrypt of the same parameters either way and timing
 * reveals nothing. Random bytes in the shape of a hash, not a hash of anything: making it costs no
 * scrypt (no unknown e-mail pays for two), and no password matches it.
 */
const dummyHashes = new Map<number, string>();

function dummyHash(logN: number): string {
  let dummy = dummyHashes.get(logN);
  if (!dummy) {
    dummy = ['scrypt', 2 ** logN, R, P, randomBytes(16).toString('base64url'), randomBytes(KEY_LENGTH).toString('base64url')].join('$');
    dummyHashes.set(logN, dummy);
  }
  return dummy;
}

export interface Verification {
  ok: boolean;
  /** The password is right but its hash is weaker than `logN` asks for: store a new one. */
  rehash: boolean;
}

/**
 * Checks `password` against `stored` (null: no account, or no password: checked against a stand-in of
 * the same cost). One scrypt either way; callers run it through the password gate (password-gate.ts).
 */
export async function verifyPassword(password: string, stored: string | null, logN = SCRYPT_LOG_N): Promise<Verification> {
  const parsed = parse(stored ?? dummyHash(logN));
  if (!parsed) return { ok: false, rehash: false };
  const actual = await derive(password.slice(0, PASSWORD_MAX * 4), parsed.salt, parsed);
  const ok = stored !== null && actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
  return { ok, rehash: ok && (parsed.N < 2 ** logN || parsed.r < R || parsed.p < P) };
}
