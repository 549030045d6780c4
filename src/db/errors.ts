/** PostgreSQL SQLSTATE of a failed statement, on both drivers (pg and PGlite set `code`). */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

/** Messages of the pg driver when the server cannot be reached or the link dropped or stalled. */
const LINK_FAILURE = /timeout exceeded when trying to connect|Connection terminated|Query read timeout|connect ECONNREFUSED|ECONNRESET|Client has encountered a connection error|not queryable|Connection terminated unexpectedly/i;

/**
 * True for failures that mean "the database is not there right now" rather than "this statement is
 * wrong": refused or dropped connections, connect and statement timeouts, and the SQLSTATEs of a
 * server shutting down or not yet accepting connections (class 08, 57P01-57P03, 53300).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const state = sqlState(error);
  if (state !== undefined && (/^08/.test(state) || /^57P0[123]$/.test(state) || state === '53300')) return true;
  if (state !== undefined && /^E[A-Z]+$/.test(state)) return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH/.test(state);
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && LINK_FAILURE.test(message);
}
