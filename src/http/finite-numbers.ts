import type { FastifyInstance } from 'fastify';
import { AppError, type ErrorDetail } from './errors.js';

const DECIMAL_INTEGER = /^-?[0-9]+$/;

/**
 * Ajv's type coercion turns "Infinity", "-Infinity" and "1e309" into ±Infinity and then lets them
 * pass `type: integer` and even `maximum` (checked with ajv 8.20). Such a value would reach SQL as
 * "Infinity" and fail there (a 500). After validation, any non-finite number in the query or the
 * path is refused as the 400 it should have been.
 */
export function registerFiniteNumberGuard(app: FastifyInstance): void {
  // Before validation, while the values are still the strings the client sent: Ajv's coercion would
  // read "1e2" as 100 and "0x10" as 16. An integer in a URL is written in decimal digits.
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema as { querystring?: { properties?: Record<string, { type?: unknown }> } } | undefined;
    const properties = schema?.querystring?.properties;
    if (!properties || request.query === null || typeof request.query !== 'object') return;
    const details: ErrorDetail[] = [];
    for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
      if (properties[name]?.type !== 'integer') continue;
      const items = Array.isArray(value) ? value : [value];
      if (items.some((v) => typeof v === 'string' && !DECIMAL_INTEGER.test(v))) {
        details.push({ in: 'querystring', parameter: name, message: 'must be an integer in decimal digits' });
      }
    }
    if (details.length) {
      throw new AppError('invalid_request', `Invalid request: ${details.map((d) => `${d.parameter} ${d.message}`).join('; ')}`, details);
    }
  });

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
