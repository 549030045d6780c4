import type { FastifyInstance } from 'fastify';
import { AppError, type ErrorDetail } from './errors.js';

/**
 * Ajv's type coercion turns "Infinity", "-Infinity" and "1e309" into ±Infinity and then lets them
 * pass `type: integer` and even `maximum` (checked with ajv 8.20). Such a value would reach SQL as
 * "Infinity" and fail there (a 500). After validation, any non-finite number in the query or the
 * path is refused as the 400 it should have been.
 */
export function registerFiniteNumberGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const details: ErrorDetail[] = [];
    for (const [where, values] of [
      ['querystring', request.query],
      ['params', request.params],
    ] as const) {
      if (values === null || typeof values !== 'object') continue;
      for (const [name, value] of Object.entries(values)) {
        const items = Array.isArray(value) ? value : [value];
        if (items.some((v) => typeof v === 'number' && !Number.isFinite(v))) {
          details.push({ in: where, parameter: name, message: 'must be a finite number' });
        }
      }
    }
    if (details.length) {
      throw new AppError('invalid_request', `Invalid request: ${details.map((d) => `${d.parameter} ${d.message}`).join('; ')}`, details);
    }
  });
}
