import type { EntryStatus } from '../db/schema.js';
import { AppError, type ErrorDetail } from '../errors.js';
import { isUuid } from '../ids.js';
import { ENTRY_STATUSES } from './entry-kinds.js';

/** Largest page of release notes (here, not in the service, so that `changelog --help` names it without loading it). */
export const RELEASE_PAGE_MAX = 500;

/**
 * The package filter's name for the root package's series (tags like `v1.2.0`, package null): a
 * git tag cannot hold a colon, so no package is named this.
 */
export const ROOT_PACKAGE = ':root';

/** Which of a project's release notes a listing or a bulk action covers; an absent field does not filter. */
export interface ReleaseFilter {
  status?: EntryStatus;
  /** A package's tag series; null: the root package's. */
  package?: string | null;
  prerelease?: boolean;
  /** Released at or after this instant (the Unreleased note counts as newest). */
  since?: Date;
  /** Released after this tag of the project (resolved by the service). */
  sinceTag?: string;
  /** Only notes of a tag: leaves out the Unreleased note (publishing "the history of releases"). */
  tagged?: boolean;
  /** What waits for a publish: drafts, and published notes with a pending revision (as the review queue's `draft`). */
  awaiting?: boolean;
}

/** The filter as a form, a query string or the CLI give it: text, with empty meaning "any". */
export interface RawReleaseFilter {
  status?: string | undefined;
  package?: string | undefined;
  prerelease?: string | boolean | undefined;
  since?: string | undefined;
}

/** Checks a filter given as text; every problem is reported at once. `since` is a date, an instant or a tag. */
export function parseReleaseFilter(raw: RawReleaseFilter): ReleaseFilter {
  const details: ErrorDetail[] = [];
  const filter: ReleaseFilter = {};
  const text = (v: string | boolean | undefined) => (typeof v === 'boolean' ? String(v) : (v ?? '')).trim();
  const status = text(raw.status);
  if (status && status !== 'all' && status !== 'any') {
    if ((ENTRY_STATUSES as readonly string[]).includes(status)) filter.status = status as EntryStatus;
    else details.push({ parameter: 'status', message: `must be one of ${ENTRY_STATUSES.join(', ')} or all` });
  }
  const pkg = text(raw.package);
  if (pkg && pkg !== 'all' && pkg !== 'any') {
    if (pkg === ROOT_PACKAGE) filter.package = null;
    else if (pkg.length <= 200) filter.package = pkg;
    else details.push({ parameter: 'package', message: 'must be at most 200 characters' });
  }
  const prerelease = text(raw.prerelease);
  if (prerelease && prerelease !== 'all' && prerelease !== 'any') {
    if (['1', 'true', 'yes', 'only'].includes(prerelease)) filter.prerelease = true;
    else if (['0', 'false', 'no', 'none'].includes(prerelease)) filter.prerelease = false;
    else details.push({ parameter: 'prerelease', message: 'must be true (only pre-releases) or false (none)' });
  }
  const since = text(raw.since);
  if (since) {
    if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(since)) {
      const at = new Date(/^\d{4}-\d{2}-\d{2}$/.test(since) ? `${since}T00:00:00Z` : since);
      if (Number.isNaN(at.getTime())) details.push({ parameter: 'since', message: 'must be a date (YYYY-MM-DD), an ISO 8601 instant or a release tag' });
      else filter.since = at;
    } else if (since.length <= 250) filter.sinceTag = since;
    else details.push({ parameter: 'since', message: 'must be a date or a release tag' });
  }
  if (details.length) throw new AppError('invalid_request', 'Invalid filter', details);
  return filter;
}

/** Where a page starts: after this (sort_at, id) in newest-first order; `null` sort: the Unreleased note (infinity). */
export interface ReleaseCursor {
  /** sort_at in microseconds since the epoch; null for infinity (the Unreleased note). */
  atMicros: bigint | null;
  id: string;
}

export const encodeReleaseCursor = (c: ReleaseCursor): string => `${c.atMicros === null ? 'inf' : c.atMicros.toString()}.${c.id}`;

const MIN_MICROS = -62_135_596_800_000_000n;
const MAX_MICROS = 253_402_300_799_999_999n;

/** A cursor as `encodeReleaseCursor` wrote it; anything else is a bad request. */
export function decodeReleaseCursor(text: string): ReleaseCursor {
  const m = /^(inf|-?\d{1,18})\.([0-9a-f-]{36})$/i.exec(text.trim());
  const at = m && m[1] !== 'inf' ? BigInt(m[1]!) : null;
  if (!m || !isUuid(m[2]!) || (at !== null && (at < MIN_MICROS || at > MAX_MICROS))) {
    throw new AppError('invalid_request', 'Invalid page cursor', [{ parameter: 'after', message: 'is not a cursor this listing gave' }]);
  }
  return { atMicros: at, id: m[2]!.toLowerCase() };
}
