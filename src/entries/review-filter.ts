import type { EntryStatus, EntryType } from '../db/schema.js';
import { AppError, type ErrorDetail } from '../errors.js';
import { isUuid } from '../ids.js';
import { ENTRY_STATUSES, ENTRY_TYPES } from './entry-kinds.js';

/** Largest review page (here, not in the service, so that `changelog --help` can name it without loading the service). */
export const REVIEW_PAGE_MAX = 500;

/** Which entries the review queue shows; an absent field does not filter. */
export interface ReviewFilter {
  status?: EntryStatus;
  type?: EntryType;
  /** Entries whose generated_json has a section of this key (`fix`, `feature`, …). */
  section?: string;
  /** The entry's own date (period start, or commit date) at or after this instant… */
  since?: Date;
  /** …and before this one. */
  until?: Date;
  /** Only edited entries whose commits changed since (waiting for a regenerate). */
  pending?: boolean;
}

/** Where a page starts: after this (date, id) in newest-first order. */
export interface ReviewCursor {
  /** The entry's date in microseconds since the epoch (the column's precision; a JS Date has ms). */
  atMicros: bigint;
  id: string;
}

/** The filter as a form, a query string or the CLI give it: text, with empty meaning "any". */
export interface RawReviewFilter {
  status?: string | undefined;
  type?: string | undefined;
  section?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  pending?: string | boolean | undefined;
}

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date or instant; a plain date is that day in UTC. `end`: a plain date includes its whole day
 * (`--until 2024-06-30` keeps entries of June 30th).
 */
function parseInstant(text: string, end: boolean): Date | undefined {
  const t = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(t)) return undefined;
  const date = new Date(DATE_ONLY.test(t) ? `${t}T00:00:00Z` : t);
  if (Number.isNaN(date.getTime())) return undefined;
  return end && DATE_ONLY.test(t) ? new Date(date.getTime() + DAY_MS) : date;
}

/** Checks a filter given as text; every problem is reported at once. `all`/`any` status means no status filter. */
export function parseReviewFilter(raw: RawReviewFilter): ReviewFilter {
  const details: ErrorDetail[] = [];
  const filter: ReviewFilter = {};
  const text = (v: string | undefined) => (v ?? '').trim();
  const status = text(raw.status);
  if (status && status !== 'all' && status !== 'any') {
    if ((ENTRY_STATUSES as readonly string[]).includes(status)) filter.status = status as EntryStatus;
    else details.push({ parameter: 'status', message: `must be one of ${ENTRY_STATUSES.join(', ')} or all` });
  }
  const type = text(raw.type);
  if (type && type !== 'all' && type !== 'any') {
    if ((ENTRY_TYPES as readonly string[]).includes(type)) filter.type = type as EntryType;
    else details.push({ parameter: 'type', message: `must be one of ${ENTRY_TYPES.join(', ')}` });
  }
  const section = text(raw.section);
  if (section && section !== 'all' && section !== 'any') {
    if (/^[a-z][a-z0-9_-]{0,49}$/.test(section)) filter.section = section;
    else details.push({ parameter: 'section', message: 'must be a section key such as feature or fix' });
  }
  for (const [name, end] of [['since', false], ['until', true]] as const) {
    const value = text(raw[name]);
    if (!value) continue;
    const at = parseInstant(value, end);
    if (at) filter[name] = at;
    else details.push({ parameter: name, message: 'must be a date (YYYY-MM-DD) or an ISO 8601 instant' });
  }
  if (filter.since && filter.until && filter.since >= filter.until) details.push({ parameter: 'until', message: 'must be after since' });
  if (raw.pending === true || ['1', 'true', 'on', 'yes'].includes(text(raw.pending === false ? '' : raw.pending))) filter.pending = true;
  if (details.length) throw new AppError('invalid_request', 'Invalid filter', details);
  return filter;
}

export const encodeCursor = (c: ReviewCursor): string => `${c.atMicros.toString()}.${c.id}`;

// Instants of years 1 to 9999: anything outside is no cursor we gave, and would overflow PostgreSQL's
// timestamp arithmetic (a 500) instead of being refused.
const MIN_MICROS = -62_135_596_800_000_000n;
const MAX_MICROS = 253_402_300_799_999_999n;

/** A cursor as `encodeCursor` wrote it; anything else is a bad request. */
export function decodeCursor(text: string): ReviewCursor {
  const m = /^(-?\d{1,18})\.([0-9a-f-]{36})$/i.exec(text.trim());
  const at = m ? BigInt(m[1]!) : 0n;
  if (!m || !isUuid(m[2]!) || at < MIN_MICROS || at > MAX_MICROS) throw new AppError('invalid_request', 'Invalid page cursor', [{ parameter: 'after', message: 'is not a cursor this listing gave' }]);
  return { atMicros: at, id: m[2]!.toLowerCase() };
}
