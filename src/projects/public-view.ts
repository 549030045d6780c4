/**
 * The views of a public changelog page: one kind of entry at a time, so that a reader does not see
 * the same change as a commit entry, in its week and in its month, one after the other.
 */
import { AppError } from '../errors.js';
import type { EntryType } from '../db/schema.js';
import { ENTRY_TYPES } from '../entries/entry-kinds.js';

/** Every view a project may ever default to (the column's CHECK, migrations/0022). */
export const PUBLIC_VIEWS = ['releases', 'weekly', 'monthly', 'daily', 'commit', 'all'] as const;
export type PublicView = (typeof PUBLIC_VIEWS)[number];

/**
 * The views the page can show today. `releases` waits for stored releases: add it here, to
 * `entryTypeOf` and to AUTOMATIC_ORDER (first) when they exist; the setting, the query parameter
 * and the page's links all follow this list.
 */
export const AVAILABLE_VIEWS = ['weekly', 'monthly', 'daily', 'commit', 'all'] as const satisfies readonly PublicView[];
export type AvailableView = (typeof AVAILABLE_VIEWS)[number];

/** With no default chosen: the first of these the project has published entries of. */
const AUTOMATIC_ORDER: readonly AvailableView[] = ['weekly', 'monthly', 'daily', 'commit'];

export const VIEW_LABELS: Record<AvailableView, string> = {
  weekly: 'Weekly',
  monthly: 'Monthly',
  daily: 'Daily',
  commit: 'Every change',
  all: 'Everything',
};

export function isAvailableView(value: unknown): value is AvailableView {
  return typeof value === 'string' && (AVAILABLE_VIEWS as readonly string[]).includes(value);
}

/** The entry type a view lists; undefined: every type. */
export function entryTypeOf(view: AvailableView): EntryType | undefined {
  return view === 'all' ? undefined : view;
}

/**
 * The view a reader gets without choosing one: the project's default if the page can show it,
 * else the first kind of entry the project has published (`published`: the types it has).
 */
export function defaultView(chosen: string | null, published: readonly EntryType[]): AvailableView {
  if (isAvailableView(chosen)) return chosen;
  return AUTOMATIC_ORDER.find((v) => published.includes(v as EntryType)) ?? 'all';
}

/** How many published entries of each type a project has (kept by triggers, migrations/0024). */
export interface PublishedTypeCounts {
  published_commit_count: number;
  published_daily_count: number;
  published_weekly_count: number;
  published_monthly_count: number;
}

/** The published entries of one type, from the kept counts. */
export function publishedCountOf(counts: PublishedTypeCounts, type: EntryType): number {
  return counts[`published_${type}_count`];
}

/**
 * A project's default view, as the public page shows it and `GET /v1/changelog/{slug}?view=default`
 * (the widget) lists it: its manager's choice, else the first type it has published entries of.
 */
export function projectDefaultView(project: PublishedTypeCounts & { public_view: string | null }): AvailableView {
  return defaultView(project.public_view, ENTRY_TYPES.filter((type) => publishedCountOf(project, type) > 0));
}

/** A default view as a manager sets it: one of AVAILABLE_VIEWS, or '' / 'auto' / null for automatic. */
export function parsePublicView(value: string | null | undefined): AvailableView | null {
  if (value === null || value === undefined || value === '' || value === 'auto') return null;
  if (isAvailableView(value)) return value;
  throw new AppError('invalid_request', 'Invalid public view', [
    { parameter: 'public_view', message: `must be auto or one of ${AVAILABLE_VIEWS.join(', ')}${value === 'releases' ? ' (releases are not available yet)' : ''}` },
  ]);
}
