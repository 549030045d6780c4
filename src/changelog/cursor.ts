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

/** Position after a release note in listing order: its release instant (`infinity` for Unreleased) and id. */
export interface ReleaseCursor {
  sortAt: string;
  id: string;
}

const RELEASE_SHAPE = /^(infinity|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function encodeReleaseCursor(cursor: ReleaseCursor): string {
  return Buffer.from(`r|${cursor.sortAt}|${cursor.id}`).toString('base64url');
}

/** A release listing's `meta.next_cursor`, or the same 400 as a bad entry cursor (a listing's cursor is not one). */
export function decodeReleaseCursor(value: string): ReleaseCursor {
  const text = Buffer.from(value, 'base64url').toString('utf8');
  const match = text.startsWith('r|') ? RELEASE_SHAPE.exec(text.slice(2)) : null;
  if (!match || (match[1] !== 'infinity' && !isRealInstant(match[1]!))) {
    throw new AppError('invalid_request', 'Invalid request: cursor is not one this API issued', [
      { in: 'querystring', parameter: 'cursor', message: 'must be a meta.next_cursor value from a previous page of releases' },
    ]);
  }
  return { sortAt: match[1]!, id: match[2]! };
}
