import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { errorResponses } from '../http/schemas.js';
import type { Services } from '../services.js';
import type { SignatureCheck } from './signature.js';

/** GitHub sends webhook payloads of up to 25 MB. */
export const WEBHOOK_BODY_LIMIT = 25 * 1024 * 1024;

/**
 * Webhook body bytes one process reads at once (by declared length; the full limit for a chunked
 * body): an unauthenticated sender learns the signature is bad only after the last byte, so this
 * bounds the memory many parallel large bodies can take. Beyond it: 503 before reading.
 */
export const WEBHOOK_IN_FLIGHT_LIMIT = 64 * 1024 * 1024;

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

interface WebhookBody {
  rawBody: Buffer;
  signatureValid: boolean;
}

/**
 * POST /webhooks/github. Kept out of the OpenAPI document (GitHub is its only client). Everything the
 * headers can refuse is refused before the body is read; the body then streams through the HMAC and
 * the size limit, and is parsed only once the signature checks out.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const checks = new WeakMap<FastifyRequest, SignatureCheck>();
  let inFlight = 0;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', 'application/x-www-form-urlencoded'], (request, payload, done) => {
    const check = checks.get(request);
    if (!check) return done(new AppError('unauthorized', 'Missing or invalid X-Hub-Signature-256'), undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    const finish = (error: Error | null, body?: WebhookBody) => {
      if (finished) return;
      finished = true;
      done(error, body);
    };
    payload.on('data', (chunk: Buffer) => {
      if (finished) return;
      size += chunk.length;
      if (size > WEBHOOK_BODY_LIMIT) {
        chunks.length = 0;
        finish(new AppError('payload_too_large', `Webhook bodies are limited to ${WEBHOOK_BODY_LIMIT} bytes`));
        return;
      }
      check.update(chunk);
      chunks.push(chunk);
    });
    payload.on('end', () => finish(null, { rawBody: Buffer.concat(chunks, size), signatureValid: check.matches() }));
    payload.on('error', (error) => finish(error));
  });

  app.post(
    '/webhooks/github',
    {
      schema: {
        hide: true,
        response: {
          200: Type.Object({ ok: Type.Boolean(), duplicate: Type.Boolean(), event: Type.String(), outcome: Type.String() }),
          ...errorResponses(400, 401, 409, 413, 415, 500, 503),
        },
      },
      // Runs before the body is read: refusals cost the sender's bytes nothing on our side.
      onRequest: async (request, reply) => {
        const check = services.scm.webhookPreflight({
          event: single(request.headers['x-github-event']),
          deliveryId: single(request.headers['x-github-delivery']),
          signature: single(request.headers['x-hub-signature-256']),
        });
        const declared = request.headers['content-length'] === undefined ? null : Number(request.headers['content-length']);
        if (declared !== null && declared > WEBHOOK_BODY_LIMIT) {
          throw new AppError('payload_too_large', `Webhook bodies are limited to ${WEBHOOK_BODY_LIMIT} bytes`);
        }
        const reserved = declared ?? WEBHOOK_BODY_LIMIT;
        if (inFlight + reserved > WEBHOOK_IN_FLIGHT_LIMIT) {
          reply.header('retry-after', '10');
          throw new AppError('unavailable', 'Too many webhook bodies are being received at once: retry later');
        }
        inFlight += reserved;
        // 'close' comes once the response is sent or the connection dropped, whichever happens.
        reply.raw.once('close', () => {
          inFlight -= reserved;
        });
        checks.set(request, check);
      },
    },
    async (request, reply) => {
      const body = request.body as WebhookBody | undefined;
      const result = await services.scm.handleWebhook({
        event: single(request.headers['x-github-event']),
        deliveryId: single(request.headers['x-github-delivery']),
        rawBody: body?.rawBody ?? Buffer.alloc(0),
        // No body at all: the signature must then cover zero bytes.
        signatureValid: body ? body.signatureValid : checks.get(request)!.matches(),
        contentType: request.headers['content-type'],
      });
      reply.header('cache-control', 'no-store');
      return { ok: true, ...result };
    },
  );
};
