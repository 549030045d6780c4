import type { FastifyInstance } from 'fastify';
import { AppError, type ErrorDetail } from '../errors.js';

const DECIMAL = { integer: /^-?[0-9]+$/, number: /^-?[0-9]+(\.[0-9]+)?$/ } as const;
const MESSAGE = { integer: 'must be an integer in decimal digits', number: 'must be a number in decimal digits' } as const;

type UrlSchema = { properties?: Record<string, { type?: unknown }> } | undefined;

/**
 * Numbers in a URL (query string and path) are written in decimal. Ajv's coercion would read "1e2"
 * as 100, "0x10" as 16, and "Infinity" or "1e309" as ±Infinity, which then passes `type: integer`
 * and even `maximum` and would reach SQL. Checked before validation, on the strings the client
 * sent, for every property its route types as integer or number; digits that overflow to Infinity
 * are refused too.
 */
export function registerDecimalNumberGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema as { querystring?: UrlSchema; params?: UrlSchema } | undefined;
    if (!schema) return;
    const details: ErrorDetail[] = [];
    for (const [where, values, part] of [
      ['querystring', request.query, schema.querystring],
      ['params', request.params, schema.params],
    ] as const) {
      const properties = part?.properties;
      if (!properties || values === null || typeof values !== 'object') continue;
      for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
        const type = properties[name]?.type;
        if (type !== 'integer' && type !== 'number') continue;
        const items = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
        if (items.some((v) => !DECIMAL[type].test(v))) details.push({ in: where, parameter: name, message: MESSAGE[type] });
        // Digits can still overflow to Infinity (400 nines), which Ajv lets through `maximum`.
        else if (items.some((v) => !Number.isFinite(Number(v)))) details.push({ in: where, parameter: name, message: 'must be a finite number' });
      }
    }
    if (details.length) {
      throw new AppError('invalid_request', `Invalid request: ${details.map((d) => `${d.parameter} ${d.message}`).join('; ')}`, details);
    }
  });
}
