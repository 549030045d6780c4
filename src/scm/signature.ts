import { verify } from '@octokit/webhooks-methods';

/**
 * Whether `signature` (the X-Hub-Signature-256 header) is the HMAC-SHA256 of `rawBody` under
 * `secret`. The comparison is constant-time (inside @octokit/webhooks-methods).
 */
export async function isValidSignature(secret: string, rawBody: Buffer, signature: string | undefined): Promise<boolean> {
  if (typeof signature !== 'string' || !/^sha256=[0-9a-f]{64}$/.test(signature)) return false;
  // The HMAC is over the bytes; a body that is not valid UTF-8 cannot round-trip and fails here.
  const text = rawBody.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(rawBody)) return false;
  return verify(secret, text, signature).catch(() => false);
}
