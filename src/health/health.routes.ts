import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Config } from '../config.js';
import { errorResponses } from '../http/schemas.js';

const HealthResponse = Type.Object({
  status: Type.String({ description: 'Always "ok" while the process serves requests.' }),
  timestamp: Type.String({ format: 'date-time' }),
  service: Type.String(),
  nodeEnv: Type.String(),
});

/** Liveness: answers without touching the database, so a database outage never restarts the process. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ config: Config }> = async (app, { config }) => {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Liveness check',
        tags: ['health'],
        response: { 200: HealthResponse, ...errorResponses(500) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok', timestamp: new Date().toISOString(), service: config.serviceName, nodeEnv: config.nodeEnv };
    },
  );
};
