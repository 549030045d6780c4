import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, parseReviewFilter } from './review-filter.js';

describe('parseReviewFilter', () => {
  it('reads every field; "all" and empty do not filter; a plain until date includes its day', () => {
    expect(parseReviewFilter({ status: 'all', type: '', section: 'any' })).toEqual({});
    expect(parseReviewFilter({ status: 'draft', type: 'weekly', section: 'fix', since: '2024-06-01', until: '2024-06-30', pending: '1' })).toEqual({
      status: 'draft',
      type: 'weekly',
      section: 'fix',
      since: new Date('2024-06-01T00:00:00Z'),
      until: new Date('2024-07-01T00:00:00Z'),
      pending: true,
    });
    expect(parseReviewFilter({ until: '2024-06-30T12:00:00Z' }).until).toEqual(new Date('2024-06-30T12:00:00Z'));
  });

  it('reports every problem at once', () => {
    try {
      parseReviewFilter({ status: 'maybe', type: 'yearly', section: 'Fix!', since: 'last week', until: '2024-13-45' });
      expect.unreachable();
    } catch (error) {
      expect((error as { details: { parameter: string }[] }).details.map((d) => d.parameter)).toEqual(['status', 'type', 'section', 'since', 'until']);
    }
    expect(() => parseReviewFilter({ since: '2024-07-01', until: '2024-06-01' })).toThrow('Invalid filter');
  });
});

describe('page cursors', () => {
  it('round-trip exactly (microseconds), and refuse anything else', () => {
    const cursor = { atMicros: 1719792000123456n, id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(() => decodeCursor('1.2')).toThrow('Invalid page cursor');
    // Past year 9999 (or a bigint's range): refused here, not a database overflow.
    expect(() => decodeCursor('253402300800000000.0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b')).toThrow('Invalid page cursor');
    expect(() => decodeCursor('99999999999999999999.0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b')).toThrow('Invalid page cursor');
    expect(decodeCursor('-62135596800000000.0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b').atMicros).toBe(-62135596800000000n);
    expect(() => decodeCursor("1.0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' OR 1=1")).toThrow('Invalid page cursor');
  });
});
