import { AppError } from '../errors.js';

/** Position after an entry in published order: its published_at (to the microsecond) and id. */
export interface Cursor {
  publishedAt: string;
  id: string;
}

const SHAPE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.publishedAt}|${cursor.id}`).toString('base64url');
}

export function decodeCursor(value: string): Cursor {
  const match = SHAPE.exec(Buffer.from(value, 'base64url').toString('utf8'));
  if (!match || !isRealInstant(match[1]!)) {
    throw new AppError('invalid_request', 'Invalid request: cursor is not one this API issued', [
      { in: 'querystring', parameter: 'cursor', message: 'must be a meta.next_cursor value from a previous page' },
    ]);
  }
  return { publishedAt: match[1]!, id: match[2]! };
}

/**
 * A date-time that exists, as PostgreSQL reads it: JavaScript rolls 02-30 over into March and takes
 * year 0000, PostgreSQL refuses both (and a refused cursor must be the sender's 400, not a failed
 * statement shared with other requests).
 */
function isRealInstant(text: string): boolean {
  const ms = Date.parse(text);
  return Number.isFinite(ms) && !text.startsWith('0000') && new Date(ms).toISOString().slice(0, 23) === text.slice(0, 23);
}
