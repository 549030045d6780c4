/**
 * The views of a public changelog page: one kind of entry at a time, so that a reader does not see
 * the same change as a commit entry, in its week and in its month, one after the other.
 */
import { AppError } from '../errors.js';
import type { EntryType } from '../db/schema.js';

/** Every view a project may ever default to (the column's CHECK, migrations/0022). */
export const PUBLIC_VIEWS = ['releases', 'weekly', 'monthly', 'daily', 'commit', 'all'] as const;
export type PublicView = (typeof PUBLIC_VIEWS)[number];

/**
 * The views the page can show: published release notes (`releases`), one entry type, or every entry.
 * The setting, the query parameters of the page and feeds, and the page's links all follow this list.
 */
export const AVAILABLE_VIEWS = ['releases', 'weekly', 'monthly', 'daily', 'commit', 'all'] as const satisfies readonly PublicView[];
export type AvailableView = (typeof AVAILABLE_VIEWS)[number];

/** The views that list entries: every view but `releases` (release notes are not entries). */
export const ENTRY_VIEWS = ['weekly', 'monthly', 'daily', 'commit', 'all'] as const satisfies readonly AvailableView[];
export type EntryView = (typeof ENTRY_VIEWS)[number];

/** With no default chosen: releases when the project has published any, else the first entry type it has published. */
const AUTOMATIC_ORDER = ['releases', 'weekly', 'monthly', 'daily', 'commit'] as const satisfies readonly AvailableView[];
/** The same order among the entry views: what an entry listing defaults to. */
const AUTOMATIC_ENTRY_ORDER = ['weekly', 'monthly', 'daily', 'commit'] as const satisfies readonly (EntryView & EntryType)[];

export const VIEW_LABELS: Record<AvailableView, string> = {
  releases: 'Releases',
  weekly: 'Weekly',
  monthly: 'Monthly',
  daily: 'Daily',
  commit: 'Every change',
  all: 'Everything',
};

export function isAvailableView(value: unknown): value is AvailableView {
  return typeof value === 'string' && (AVAILABLE_VIEWS as readonly string[]).includes(value);
}

export function isEntryView(value: unknown): value is EntryView {
  return typeof value === 'string' && (ENTRY_VIEWS as readonly string[]).includes(value);
}

/** The entry type a view lists; undefined: every type. */
export function entryTypeOf(view: EntryView): EntryType | undefined {
  return view === 'all' ? undefined : view;
}

/**
 * The view a reader gets without choosing one: the project's default if the page can show it,
 * else releases or the first kind of entry the project has published (`published`: what it has).
 */
export function defaultView(chosen: string | null, published: readonly (EntryType | 'releases')[]): AvailableView {
  if (isAvailableView(chosen)) return chosen;
  return AUTOMATIC_ORDER.find((view) => published.includes(view)) ?? 'all';
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

export interface DefaultViewInputs extends PublishedTypeCounts {
  public_view: string | null;
}

/**
 * A project's default view, as the public page opens on it and its feeds default to: its manager's
 * choice, else releases when it has published the note of a tagged release (`hasReleases`), else
 * the first type it has published entries of.
 */
export function projectDefaultView(project: DefaultViewInputs, hasReleases: boolean): AvailableView {
  const published = AUTOMATIC_ENTRY_ORDER.filter((type) => publishedCountOf(project, type) > 0);
  return defaultView(project.public_view, hasReleases ? ['releases', ...published] : published);
}

/**
 * The default among the entry views, for listings of entries (`GET /v1/changelog/{slug}?view=default`):
 * the manager's choice when it is one, else the first type the project has published entries of.
 */
export function projectDefaultEntryView(project: DefaultViewInputs): EntryView {
  if (isEntryView(project.public_view)) return project.public_view;
  return AUTOMATIC_ENTRY_ORDER.find((type) => publishedCountOf(project, type) > 0) ?? 'all';
}

/** A default view as a manager sets it: one of AVAILABLE_VIEWS, or '' / 'auto' / null for automatic. */
export function parsePublicView(value: string | null | undefined): AvailableView | null {
  if (value === null || value === undefined || value === '' || value === 'auto') return null;
  if (isAvailableView(value)) return value;
  throw new AppError('invalid_request', 'Invalid public view', [
    { parameter: 'public_view', message: `must be auto or one of ${AVAILABLE_VIEWS.join(', ')}` },
  ]);
}
