import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { decodeCursor, encodeCursor } from './cursor.js';

describe('cursor', () => {
  const cursor = { publishedAt: '2026-01-02T03:04:05.123456Z', id: '0b7c1a9e-4b5a-4e0f-9a43-2f1d5f2b6c7d' };

  it('round-trips, URL-safe', () => {
    const encoded = encodeCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(encoded)).toEqual(cursor);
  });

  it.each([
    '',
    'abc',
    encodeCursor({ ...cursor, id: 'x' }),
    Buffer.from('2026-01-02|x').toString('base64url'),
    '%%%',
    // Dates JavaScript would accept (rolling them over) but PostgreSQL refuses.
    encodeCursor({ ...cursor, publishedAt: '2026-02-30T03:04:05.123456Z' }),
    encodeCursor({ ...cursor, publishedAt: '0000-01-02T03:04:05.123456Z' }),
    encodeCursor({ ...cursor, publishedAt: '2026-01-02T24:30:00.000000Z' }),
  ])(
    'refuses %j with a 400 naming cursor',
    (value) => {
      let error: unknown;
      try {
        decodeCursor(value);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
      expect((error as AppError).details?.[0]?.parameter).toBe('cursor');
    },
  );
});
