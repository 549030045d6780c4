import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../http/schemas.js';
import type { Services } from '../services.js';

/** GitHub sends webhook payloads of up to 25 MB. */
export const WEBHOOK_BODY_LIMIT = 25 * 1024 * 1024;

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * POST /webhooks/github. Kept out of the OpenAPI document (GitHub is its only client). The body
 * is taken as raw bytes, because the signature covers exactly those bytes; it is parsed only
 * after the signature checks out.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', 'application/x-www-form-urlencoded'],
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/webhooks/github',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        hide: true,
        response: {
          200: Type.Object({ ok: Type.Boolean(), duplicate: Type.Boolean(), event: Type.String(), outcome: Type.String() }),
          ...errorResponses(400, 401, 413, 415, 500, 503),
        },
      },
    },
    async (request, reply) => {
      const result = await services.scm.handleWebhook({
        event: single(request.headers['x-github-event']),
        deliveryId: single(request.headers['x-github-delivery']),
        signature: single(request.headers['x-hub-signature-256']),
        rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        contentType: request.headers['content-type'],
      });
      reply.header('cache-control', 'no-store');
      return { ok: true, ...result };
    },
  );
};
