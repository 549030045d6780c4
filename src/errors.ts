/**
 * The error vocabulary every layer speaks: a closed list of codes, the HTTP status of each, and the
 * one error class. Rendering them (and the framework's own errors) is http/errors.ts's job.
 */
/** The closed list of error codes and the HTTP status each one is answered with. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  /** Where the problem is: `querystring`, `params`, `body` or `headers`. */
  in?: string;
  /** The offending parameter or field (a JSON pointer inside a body). */
  parameter?: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  /** Sent as Retry-After: when the client may try again (a 503 or 429 that knows). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);

/** Details listed in one error body; the rest are counted in a final entry (see capDetails). */
export const MAX_DETAILS = 20;

/**
 * At most MAX_DETAILS details and a final "…and N more": a body of a megabyte of unknown keys would
 * otherwise be answered with ten times as many bytes of details (and as long an `error` string).
 */
export function capDetails(details: ErrorDetail[], max = MAX_DETAILS): ErrorDetail[] {
  if (details.length <= max) return details;
  const rest = details.length - max;
  return [...details.slice(0, max), { message: `…and ${rest} more problem${rest === 1 ? '' : 's'}` }];
}
