import type { Db } from '../../db/database.js';
import type { EntryRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { changelogRepository, type EntryFilter, type PublicProject, type PublishedRelease } from '../changelog.repository.js';
import { ENTRY_TYPES } from '../../entries/entry.schemas.js';
import { entryTypeOf, projectDefaultView, publishedCountOf, type AvailableView } from '../../projects/public-view.js';

export const PAGE_SIZE = 20;
/** The component menu lists at most this many of the project's components, by name. */
const MAX_COMPONENTS = 200;

export interface ChangelogView {
  project: PublicProject;
  /** The entries shown (none in the releases view). */
  entries: EntryRow[];
  /** The release notes shown, newest first (the releases view only). */
  releases: PublishedRelease[];
  hasMore: boolean;
  components: string[];
  types: EntryRow['entry_type'][];
  /** Whether the project has published the note of a tagged release (the page offers the releases view). */
  hasReleases?: boolean;
  /** The view shown: the reader's choice, else the project's default. */
  view: AvailableView;
}

/**
 * What a reader asked for. `view` picks one kind of entry (the project's default when absent);
 * `type`, the older filter, is honoured when no view is given.
 */
export interface PageFilter {
  view?: AvailableView | undefined;
  type?: EntryFilter['type'];
  component?: string | undefined;
}

/** What readers see of a project without an account: its theme and its published entries. */
export function createPublicPageService(readDb: Db) {
  async function requireProject(slug: string): Promise<PublicProject> {
    const project = await changelogRepository.findProject(readDb, slug);
    if (!project) throw notFound('Changelog');
    return project;
  }

  return {
    requireProject,

    /** One page (1-based) of the changelog, filtered, with what the filter menus offer. */
    async changelog(slug: string, filter: PageFilter, page: number): Promise<ChangelogView> {
      const project = await requireProject(slug);
      const hasReleases = await changelogRepository.hasTaggedRelease(readDb, project);
      // Without a choice, the project's default: the same rule as the feeds' and the widget's.
      const view: AvailableView = filter.view ?? filter.type ?? projectDefaultView(project, hasReleases);
      // The types offered are those the default view is chosen from: every type with a published entry.
      const types = ENTRY_TYPES.filter((type) => publishedCountOf(project, type) > 0).sort();
      const window = { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE };
      if (view === 'releases') {
        // Release notes carry no component filter: the menu is not offered in this view.
        const rows = await changelogRepository.publishedReleases(readDb, project.id, window);
        return { project, entries: [], releases: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE, components: [], types, view, hasReleases };
      }
      const listFilter: EntryFilter = { type: entryTypeOf(view), component: filter.component };
      const [rows, components] = await Promise.all([
        changelogRepository.listPublished(readDb, project.id, listFilter, window),
        changelogRepository.componentOptions(readDb, project.id, MAX_COMPONENTS),
      ]);
      return { project, entries: rows.slice(0, PAGE_SIZE), releases: [], hasMore: rows.length > PAGE_SIZE, components, types, view, hasReleases };
    },

    /**
     * The newest published entries of a view (`default`: the page's default), for feeds. The releases
     * view lists tagged release notes (Unreleased left out: it changes with every commit).
     */
    async latest(
      slug: string,
      limit: number,
      asked: AvailableView | 'default' = 'all',
    ): Promise<{ project: PublicProject; view: AvailableView; entries: EntryRow[]; releases: PublishedRelease[] }> {
      const project = await requireProject(slug);
      const view = asked === 'default' ? projectDefaultView(project, await changelogRepository.hasTaggedRelease(readDb, project)) : asked;
      if (view === 'releases') return { project, view, entries: [], releases: await changelogRepository.latestReleased(readDb, project.id, limit) };
      const entries = await changelogRepository.listPublished(readDb, project.id, { type: entryTypeOf(view) }, { limit, offset: 0 });
      return { project, view, entries, releases: [] };
    },

    async entry(slug: string, id: string): Promise<{ project: PublicProject; entry: EntryRow }> {
      const project = await requireProject(slug);
      const entry = await changelogRepository.findPublished(readDb, project.id, id);
      if (!entry) throw notFound('Entry');
      return { project, entry };
    },
  };
}

export type PublicPageService = ReturnType<typeof createPublicPageService>;

const DAY = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** An entry's heading: its title, else its version, else what it covers. */
export function entryTitle(entry: Pick<EntryRow, 'title' | 'version_label' | 'entry_type' | 'published_at' | 'period_start'>): string {
  const title = entry.title?.trim();
  if (title) return title;
  if (entry.version_label) return entry.version_label;
  const day = entry.period_start ?? entry.published_at;
  return day ? `${entry.entry_type === 'commit' ? 'Change' : 'Changes'} of ${DAY.format(day)}` : 'Changes';
}

/** When an entry last changed, as readers see it. */
export function entryUpdated(entry: Pick<EntryRow, 'updated_at' | 'published_at'>): Date {
  const published = entry.published_at?.getTime() ?? 0;
  return new Date(Math.max(entry.updated_at.getTime(), published));
}
