import { describe, expect, it } from 'vitest';
import { isoWeek, periodFromKey, periodOf } from './periods.js';

describe('periods in a time zone', () => {
  it('puts a commit at 23:30 in UTC-5 on that local day, not the next UTC day', () => {
    const instant = new Date('2024-01-10T23:30:00-05:00'); // 2024-01-11T04:30Z
    const day = periodOf(instant, 'daily', 'America/New_York');
    expect(day.key).toBe('daily:2024-01-10');
    expect(day.start.toISOString()).toBe('2024-01-10T05:00:00.000Z');
    expect(day.end.toISOString()).toBe('2024-01-11T05:00:00.000Z');
    expect(periodOf(instant, 'daily', 'UTC').key).toBe('daily:2024-01-11');
  });

  it('starts ISO weeks on Monday, in local time', () => {
    // Sunday 2024-01-14 22:00 in New York is Monday 03:00 UTC.
    const sunday = new Date('2024-01-14T22:00:00-05:00');
    const week = periodOf(sunday, 'weekly', 'America/New_York');
    expect(week.key).toBe('weekly:2024-01-08');
    expect(week.start.toISOString()).toBe('2024-01-08T05:00:00.000Z');
    expect(week.end.toISOString()).toBe('2024-01-15T05:00:00.000Z');
    expect(periodOf(sunday, 'weekly', 'UTC').key).toBe('weekly:2024-01-15');
  });

  it('makes months run from the first local midnight to the next', () => {
    const m = periodOf(new Date('2024-02-29T23:59:59+09:00'), 'monthly', 'Asia/Tokyo');
    expect(m.key).toBe('monthly:2024-02-01');
    expect(m.start.toISOString()).toBe('2024-01-31T15:00:00.000Z');
    expect(m.end.toISOString()).toBe('2024-02-29T15:00:00.000Z');
    expect(periodOf(new Date('2024-12-31T12:00:00Z'), 'monthly', 'UTC').end.toISOString()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('handles daylight saving: a week across the spring change is 167 hours long', () => {
    const week = periodOf(new Date('2024-03-31T12:00:00Z'), 'weekly', 'Europe/Berlin');
    expect(week.key).toBe('weekly:2024-03-25');
    expect(week.start.toISOString()).toBe('2024-03-24T23:00:00.000Z');
    expect(week.end.toISOString()).toBe('2024-03-31T22:00:00.000Z');
    expect((week.end.getTime() - week.start.getTime()) / 3_600_000).toBe(167);
  });

  it('has an inclusive start and an exclusive end', () => {
    const start = new Date('2024-01-08T00:00:00Z');
    expect(periodOf(start, 'weekly', 'UTC').key).toBe('weekly:2024-01-08');
    expect(periodOf(new Date(start.getTime() - 1), 'weekly', 'UTC').key).toBe('weekly:2024-01-01');
  });

  it('turns keys back into periods', () => {
    expect(periodFromKey('weekly:2024-01-08', 'America/New_York')).toEqual(periodOf(new Date('2024-01-10T12:00:00Z'), 'weekly', 'America/New_York'));
    expect(() => periodFromKey('yearly:2024-01-01', 'UTC')).toThrow();
  });

  it('numbers ISO weeks', () => {
    expect(isoWeek({ year: 2024, month: 1, day: 1 })).toEqual({ year: 2024, week: 1 });
    expect(isoWeek({ year: 2021, month: 1, day: 3 })).toEqual({ year: 2020, week: 53 });
    expect(isoWeek({ year: 2024, month: 12, day: 30 })).toEqual({ year: 2025, week: 1 });
    expect(isoWeek({ year: 2026, month: 11, day: 16 })).toEqual({ year: 2026, week: 47 });
  });
});
