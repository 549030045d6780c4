import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { errorResponses } from '../http/schemas.js';
import type { GitHubService } from './github.service.js';
import type { SignatureCheck } from './signature.js';

/** GitHub sends webhook payloads of up to 25 MB. */
export const WEBHOOK_BODY_LIMIT = 25 * 1024 * 1024;

/**
 * Webhook body bytes one process holds at once, counted as they arrive: an unauthenticated sender
 * learns the signature is bad only after the last byte, so this bounds the memory many parallel
 * large bodies can take. A body whose next chunk would pass it is refused with 503. Counting what
 * arrived (not what a Content-Length announces) means idle connections announcing 25 MB hold nothing,
 * so they cannot shut genuine deliveries out.
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
export const webhookRoutes: FastifyPluginAsyncTypebox<{ services: { github: GitHubService } }> = async (app, { services }) => {
  const checks = new WeakMap<FastifyRequest, { signature: SignatureCheck; held: number }>();
  let inFlight = 0;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', 'application/x-www-form-urlencoded'], (request, payload, done) => {
    const state = checks.get(request);
    if (!state) return done(new AppError('unauthorized', 'Missing or invalid X-Hub-Signature-256'), undefined);
    const check = state.signature;
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
      if (inFlight + chunk.length > WEBHOOK_IN_FLIGHT_LIMIT) {
        chunks.length = 0;
        finish(new AppError('unavailable', 'Too many webhook bodies are being received at once: retry later'));
        return;
      }
      inFlight += chunk.length;
      state.held += chunk.length;
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
        const check = services.github.webhookPreflight({
          event: single(request.headers['x-github-event']),
          deliveryId: single(request.headers['x-github-delivery']),
          signature: single(request.headers['x-hub-signature-256']),
        });
        const declared = request.headers['content-length'] === undefined ? null : Number(request.headers['content-length']);
        if (declared !== null && declared > WEBHOOK_BODY_LIMIT) {
          throw new AppError('payload_too_large', `Webhook bodies are limited to ${WEBHOOK_BODY_LIMIT} bytes`);
        }
        const state = { signature: check, held: 0 };
        // 'close' comes once the response is sent or the connection dropped, whichever happens.
        reply.raw.once('close', () => {
          inFlight -= state.held;
          state.held = 0;
        });
        checks.set(request, state);
      },
    },
    async (request, reply) => {
      const body = request.body as WebhookBody | undefined;
      const result = await services.github.handleWebhook({
        event: single(request.headers['x-github-event']),
        deliveryId: single(request.headers['x-github-delivery']),
        rawBody: body?.rawBody ?? Buffer.alloc(0),
        // No body at all: the signature must then cover zero bytes.
        signatureValid: body ? body.signatureValid : checks.get(request)!.signature.matches(),
        contentType: request.headers['content-type'],
      });
      reply.header('cache-control', 'no-store');
      return { ok: true, ...result };
    },
  );
};
