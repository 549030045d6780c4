import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.js';
import { AppError, capDetails, ERROR_STATUS, type ErrorCode, type ErrorDetail } from '../errors.js';

const STATUS_CODE: Record<number, ErrorCode> = Object.fromEntries(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]),
);

interface ValidationItem {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * Turns Ajv's errors into one detail per offending parameter, named the way the client sent it
 * (`limit`, not `/limit`), so a client can show which input to fix. Capped by capDetails.
 */
export function validationDetails(context: string, errors: ValidationItem[]): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    let parameter = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (error.keyword === 'required') parameter = [parameter, String(error.params.missingProperty)].filter(Boolean).join('.');
    if (error.keyword === 'additionalProperties') {
      parameter = [parameter, String(error.params.additionalProperty)].filter(Boolean).join('.');
    }
    const key = `${context}:${parameter}`;
    const message =
      error.keyword === 'additionalProperties'
        ? 'is not a known property'
        : error.keyword === 'enum' && Array.isArray(error.params.allowedValues)
          ? `must be one of: ${error.params.allowedValues.join(', ')}`
          : (error.message ?? 'is invalid');
    if (seen.has(key)) {
      // A closed list says more than any other complaint about the same value (`view=a&view=b` is
      // also "must be string"): the client learns what it may send.
      const earlier = details.findIndex((d) => `${d.in}:${d.parameter ?? ''}` === key);
      if (error.keyword === 'enum' && earlier >= 0) details[earlier] = { ...details[earlier]!, message };
      continue;
    }
    seen.add(key);
    details.push({ in: context, ...(parameter ? { parameter } : {}), message });
  }
  return capDetails(details);
}

function describe(details: ErrorDetail[]): string {
  const names = details.map((d) => (d.parameter === undefined && d.in === undefined ? d.message : `${d.parameter ?? d.in} ${d.message}`));
  return `Invalid request: ${names.join('; ')}`;
}

/**
 * The one place errors become responses: ours (AppError), the framework's (validation, body
 * parsing, limits) and anything else, which is logged with its stack and answered without it.
 * `redactPath` masks what must not be echoed of a path nothing answers (an API key pasted into it).
 */
export function registerErrorHandling(app: FastifyInstance, deps: { redactPath: (path: string) => string }): void {
  app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
    let status: number;
    let body: { error: string; code: ErrorCode; details?: ErrorDetail[] };

    if (error instanceof AppError) {
      status = error.status;
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', error.retryAfterSeconds);
      body = { error: error.message, code: error.code, ...(error.details ? { details: capDetails(error.details) } : {}) };
    } else if (error.validation) {
      const details = validationDetails(error.validationContext ?? 'request', error.validation as ValidationItem[]);
      status = 400;
      body = { error: describe(details), code: 'invalid_request', details };
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      body = { error: error.message, code: STATUS_CODE[status] ?? 'invalid_request' };
    } else if (isDatabaseUnavailable(error)) {
      // Fail fast and say so: the client may retry, and the process stays up until the database returns.
      status = 503;
      request.log.warn({ err: { message: error.message, code: (error as { code?: unknown }).code } }, 'database unavailable');
      reply.header('retry-after', 5);
      body = { error: 'Service temporarily unavailable', code: 'unavailable' };
    } else {
      status = error.statusCode === 503 ? 503 : 500;
      request.log.error({ err: error }, 'request failed');
      body = {
        error: status === 503 ? 'Service temporarily unavailable' : 'Internal server error',
        code: status === 503 ? 'unavailable' : 'internal',
      };
    }

    if (status < 500) request.log.info({ status, code: body.code }, body.error);
    return reply.status(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = deps.redactPath(request.url.split('?')[0]!.slice(0, 200));
    const error = new AppError('not_found', `Route ${request.method} ${path} not found`);
    return reply
      .status(404)
      .header('cache-control', 'no-store')
      .send({ error: error.message, code: error.code });
  });
}

/**
 * Errors the router raises before any hook runs (a malformed percent-encoding, a path parameter over
 * the router's length limit). Fastify would answer them with its own body (414 for a long parameter,
 * echoing the raw path); they are invalid requests like any other, so they get our 400 shape.
 */
export function renderFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'Invalid request: a path parameter is too long'
      : error.code === 'FST_ERR_BAD_URL'
        ? 'Invalid request: the path is not a valid URL (bad percent-encoding)'
        : 'Invalid request';
  request.log.info({ code: error.code }, message);
  void reply
    .status(400)
    .header('x-request-id', request.id)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({ error: message, code: 'invalid_request' });
}
