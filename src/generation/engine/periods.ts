/**
 * Daily, weekly (ISO: Monday start) and monthly windows in an IANA time zone. A window is
 * [start, end) in UTC instants; its key is the local date it starts on, so it is stable.
 */
import type { RollupType } from './types.js';

export interface Period {
  readonly type: RollupType;
  /** `weekly:2024-01-01` — the local start date. */
  readonly key: string;
  /** Local calendar date the period starts on (YYYY-MM-DD). */
  readonly localStart: string;
  readonly start: Date;
  readonly end: Date;
}

interface LocalDate {
  year: number;
  month: number; // 1-12
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const HOUR = 3_600_000;
const offsetCache = new Map<string, Map<number, number>>();

/**
 * Offset of the zone from UTC at an instant, in milliseconds (UTC-5 → -5 h). Offsets change on
 * whole quarter hours, so the answer is cached per UTC quarter hour: history spans few of them.
 */
function zoneOffset(instant: number, timeZone: string): number {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return 0;
  let cache = offsetCache.get(timeZone);
  if (!cache) offsetCache.set(timeZone, (cache = new Map()));
  const bucket = Math.floor(instant / (HOUR / 4));
  let offset = cache.get(bucket);
  if (offset === undefined) {
    offset = computeOffset(bucket * (HOUR / 4), timeZone);
    cache.set(bucket, offset);
  }
  return offset;
}

function computeOffset(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The local calendar date of an instant in the zone. */
export function localDate(instant: number, timeZone: string): LocalDate {
  const local = new Date(instant + zoneOffset(instant, timeZone));
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() };
}

/** The UTC instant of local midnight starting a calendar date (DST-safe: re-checks the offset). */
export function startOfLocalDay(date: LocalDate, timeZone: string): Date {
  const naive = Date.UTC(date.year, date.month - 1, date.day);
  let guess = naive - zoneOffset(naive, timeZone);
  const corrected = naive - zoneOffset(guess, timeZone);
  if (corrected !== guess) guess = corrected;
  return new Date(guess);
}

function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function isoDate(date: LocalDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

function periodStartDate(date: LocalDate, type: RollupType): LocalDate {
  if (type === 'daily') return date;
  if (type === 'monthly') return { year: date.year, month: date.month, day: 1 };
  const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay(); // 0 = Sunday
  return addDays(date, -((weekday + 6) % 7));
}

function periodEndDate(start: LocalDate, type: RollupType): LocalDate {
  if (type === 'daily') return addDays(start, 1);
  if (type === 'weekly') return addDays(start, 7);
  return start.month === 12 ? { year: start.year + 1, month: 1, day: 1 } : { year: start.year, month: start.month + 1, day: 1 };
}

const periodCache = new Map<string, Map<number, Period>>();

/** The window of the given type that contains an instant. */
export function periodOf(instant: Date | number, type: RollupType, timeZone: string): Period {
  const t = typeof instant === 'number' ? instant : instant.getTime();
  // Periods are immutable and few: cache them per zone, type and local day.
  const localDay = Math.floor((t + zoneOffset(t, timeZone)) / 86_400_000);
  const zoneKey = `${timeZone}|${type}`;
  let byDay = periodCache.get(zoneKey);
  if (!byDay) periodCache.set(zoneKey, (byDay = new Map()));
  let period = byDay.get(localDay);
  if (!period) {
    period = periodFromLocalStart(periodStartDate(localDate(t, timeZone), type), type, timeZone);
    if (byDay.size > 100_000) byDay.clear();
    byDay.set(localDay, period);
  }
  return period;
}

export function periodFromLocalStart(startDate: LocalDate, type: RollupType, timeZone: string): Period {
  const localStart = isoDate(startDate);
  return {
    type,
    key: `${type}:${localStart}`,
    localStart,
    start: startOfLocalDay(startDate, timeZone),
    end: startOfLocalDay(periodEndDate(startDate, type), timeZone),
  };
}

/** Parses a period key back (`weekly:2024-01-01`), so storage can ask for a period's commits. */
export function periodFromKey(key: string, timeZone: string): Period {
  const m = /^(daily|weekly|monthly):(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  if (!m) throw new Error(`Not a period key: ${key}`);
  return periodFromLocalStart({ year: Number(m[2]), month: Number(m[3]), day: Number(m[4]) }, m[1] as RollupType, timeZone);
}

/** ISO 8601 week number and week-year of a local date (for titles: "Week 2024-W01"). */
export function isoWeek(date: LocalDate): { year: number; week: number } {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day));
  const weekday = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - weekday + 3); // Thursday of this week decides the year
  const year = d.getUTCFullYear();
  const week = 1 + Math.floor((d.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 / 7);
  return { year, week };
}

export function parseLocalDate(iso: string): LocalDate {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return { year, month, day };
}
