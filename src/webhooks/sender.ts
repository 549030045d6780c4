import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedTarget } from './ssrf.js';

/** How much of an endpoint's answer is kept for the delivery log. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed before an answer (timeout, refused, TLS…); null when one came. */
  error: string | null;
  responseExcerpt: string | null;
}

/**
 * POSTs `body` to a checked target. The connection goes to the address the SSRF check approved
 * (the lookup is answered from it, so TLS still verifies the host name); redirects are not
 * followed (a 3xx is a failed attempt); the whole exchange is cut after `timeoutMs`; only the first
 * bytes of the answer are read.
 */
export function sendWebhook(target: ResolvedTarget, body: string, headers: Record<string, string>, timeoutMs: number): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned = target.addresses[0]!;
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        // A fresh connection per delivery: a pooled one could outlive the address check.
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({
            statusCode: response.statusCode ?? null,
            error: null,
            responseExcerpt: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8'),
          });
        response.on('data', (chunk: Buffer) => {
          if (size >= RESPONSE_EXCERPT_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
        response.on('close', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `no answer within ${timeoutMs} ms`, responseExcerpt: null });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish({ statusCode: null, error: error.code ? `${error.code}: ${error.message}` : error.message, responseExcerpt: null });
    });
    request.end(body);
  });
}
