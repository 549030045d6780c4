import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = /^sha256=[0-9a-f]{64}$/;

/** Whether the X-Hub-Signature-256 header has GitHub's shape (checked before any body is read). */
export const isWellFormedSignature = (signature: string | undefined): signature is string =>
  typeof signature === 'string' && SIGNATURE.test(signature);

export interface SignatureCheck {
  /** Feeds the next chunk of the body as it arrives: nothing but the HMAC state is kept here. */
  update(chunk: Buffer): void;
  /** Whether the bytes fed so far are what the signature covers (constant-time comparison). */
  matches(): boolean;
}

/** A streaming check of `signature` (well-formed, see isWellFormedSignature) over a body under `secret`. */
export function signatureCheck(secret: string, signature: string): SignatureCheck {
  const hmac = createHmac('sha256', secret);
  const expected = Buffer.from(signature.slice('sha256='.length), 'hex');
  let done = false;
  return {
    update(chunk) {
      hmac.update(chunk);
    },
    matches() {
      if (done) throw new Error('signature already checked');
      done = true;
      return timingSafeEqual(hmac.digest(), expected);
    },
  };
}

/** Whether `signature` is the HMAC-SHA256 of `rawBody` under `secret`, for a body already in memory. */
export function isValidSignature(secret: string, rawBody: Buffer, signature: string | undefined): boolean {
  if (!isWellFormedSignature(signature)) return false;
  const check = signatureCheck(secret, signature);
  check.update(rawBody);
  return check.matches();
}
