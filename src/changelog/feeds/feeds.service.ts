import { createHash } from 'node:crypto';
import { Feed } from 'feed';
import { escapeHtml } from '../../html/html.js';
import type { MarkdownRenderer } from '../../html/markdown-thread.js';
import { inlineHtmlText } from '../../html/markdown.js';
import type { Html } from '../../html/html.js';
import { VIEW_LABELS, type AvailableView } from '../../projects/public-view.js';
import type { EntryRow } from '../../db/schema.js';
import type { TextResponse } from '../../cache/cached-text.js';
import { projectTag } from '../../cache/response-cache.js';
import { entryTitle, entryUpdated, type PublicPageService } from '../page/public-page.service.js';
import { feedPath, releasePath } from '../page/views.js';
import type { PublishedRelease } from '../changelog.repository.js';
import type { ReleasesService } from '../releases.service.js';
import { checkedLogo } from '../../projects/theme.js';

export const FEED_FORMATS = {
  atom: 'application/atom+xml; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
} as const;
export type FeedFormat = keyof typeof FEED_FORMATS;

/** How many of the newest published entries a feed carries. */
export const FEED_SIZE = 50;

// Characters XML 1.0 forbids (commit messages can carry them); they are dropped from every text.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const clean = (text: string) => text.replace(NOT_XML, '');
/** The library wraps HTML in CDATA; a `]]>` in it would end the section early. As HTML, `&gt;` means the same. */
const cdataSafe = (text: string) => text.replace(/]]>/g, ']]&gt;');

export interface FeedLinks {
  page: string;
  entry: (id: string) => string;
  feed: (format: FeedFormat) => string;
}

/** A feed item's title three ways: Atom's is HTML, RSS's escaped text, JSON Feed's plain text. */
interface ItemTitle {
  html: string;
  text: string;
}

function itemTitle(rendered: Html): ItemTitle {
  const text = clean(inlineHtmlText(rendered));
  return { html: cdataSafe(clean(rendered.value)), text };
}

/**
 * Atom 1.0, RSS 2.0 and JSON Feed 1.1 of a project's newest published entries, built with the
 * `feed` library. Ids are `urn:uuid:` of the project and entries, so they survive a change of slug
 * or host; dates are the entries' own (published, and updated for Atom and JSON). The feed's date
 * (and Last-Modified) is the listing's last change of any kind, retractions included, which never
 * moves backwards; the newest entry's date did when that entry was unpublished.
 */
export function createFeedsService(publicPage: PublicPageService, publicUrl: string, releases: ReleasesService, markdown: MarkdownRenderer) {
  const links = (slug: string): FeedLinks => ({
    page: `${publicUrl}/c/${slug}`,
    entry: (id) => `${publicUrl}/c/${slug}/entries/${id}`,
    feed: (format) => `${publicUrl}/v1/changelog/${slug}/feed.${format}`,
  });

  return {
    links,

    /**
     * The newest tagged release notes (Unreleased is left out: it changes with every commit) as a
     * feed of their own, at `/v1/changelog/{slug}/releases.<format>`. Ids are `urn:uuid:` of the
     * notes; links go to their permalink pages; dates are the releases'.
     */
    async renderReleases(slug: string, format: FeedFormat): Promise<TextResponse> {
      const { project, releases: notes } = await releases.latest(slug, FEED_SIZE);
      const [rendered, titles] = await Promise.all([
        markdown.render(notes.map((note) => (note.content.trim() ? clean(note.content) : null))),
        markdown.render(notes.map((note) => clean(note.title)), { inline: true }),
      ]);
      const updated = project.published_changed_at;
      const feedUrl = (f: FeedFormat) => `${publicUrl}/v1/changelog/${project.slug}/releases.${f}`;
      const feed = new Feed({
        id: `urn:uuid:${releasesFeedId(project.id)}`,
        title: clean(`${project.name} release notes`),
        description: clean(`What each release of ${project.name} changed`),
        link: `${publicUrl}/c/${project.slug}/releases`,
        feedLinks: { atom: feedUrl('atom'), rss: feedUrl('rss'), json: feedUrl('json') },
        updated,
        generator: 'Changelog service',
        ...logoImage(project.logo_url),
      });
      const itemTitles = titles.html.map(itemTitle);
      notes.forEach((note, i) => feed.addItem(releaseItem(note, rendered.html[i]!.value, itemTitles[i]!, format, publicUrl, project.slug)));
      const body = format === 'atom' ? feed.atom1() : format === 'rss' ? feed.rss2() : jsonFeed11(feed.json1(), itemTitles.map((t) => t.text));
      return { body, tags: [projectTag(project.id)], lastModified: updated, transient: rendered.transient || titles.transient };
    },

    /**
     * The feed of one view of the changelog, as the public page shows it (none asked: the view the
     * page opens on; releases when the project has published any). Ids: the feed without a view keeps
     * the project's id (what it was before views), `releases` the release feed's, the others one
     * derived per view; links and self links carry the view as asked.
     */
    async render(slug: string, format: FeedFormat, asked?: AvailableView): Promise<TextResponse> {
      const listed = await publicPage.latest(slug, FEED_SIZE, asked ?? 'default');
      const { project, view } = listed;
      const shown = view === 'releases' ? listed.releases : listed.entries;
      const [rendered, titles] = await Promise.all([
        markdown.render(shown.map((item) => (item.content?.trim() ? clean(item.content) : null))),
        markdown.render(
          view === 'releases' ? listed.releases.map((note) => clean(note.title)) : listed.entries.map((entry) => clean(entryTitle(entry))),
          { inline: true },
        ),
      ]);
      const to = links(project.slug);
      const self = (f: FeedFormat) => `${publicUrl}${feedPath(project.slug, f, asked)}`;
      const updated = project.published_changed_at;
      // The address without a view keeps the id and title it always had, whatever view it carries now:
      // a reader subscribed to it keeps one feed. A view asked for is a feed of its own.
      const named =
        asked === 'releases' ? `${project.name} release notes` : `${project.name} changelog${!asked || asked === 'all' ? '' : ` (${VIEW_LABELS[asked].toLowerCase()})`}`;
      const id = !asked ? project.id : asked === 'releases' ? releasesFeedId(project.id) : viewFeedId(project.id, asked);
      const feed = new Feed({
        id: `urn:uuid:${id}`,
        title: clean(named),
        description: clean(view === 'releases' ? `What each release of ${project.name} changed` : `What changed in ${project.name}`),
        link: `${publicUrl}/c/${project.slug}${asked ? `?view=${asked}` : ''}`,
        feedLinks: { atom: self('atom'), rss: self('rss'), json: self('json') },
        updated,
        generator: 'Changelog service',
        ...logoImage(project.logo_url),
      });
      const itemTitles = titles.html.map(itemTitle);
      if (view === 'releases') listed.releases.forEach((note, i) => feed.addItem(releaseItem(note, rendered.html[i]!.value, itemTitles[i]!, format, publicUrl, project.slug)));
      else listed.entries.forEach((entry, i) => feed.addItem(item(entry, rendered.html[i]!.value, itemTitles[i]!, format, to)));
      const body = format === 'atom' ? feed.atom1() : format === 'rss' ? feed.rss2() : jsonFeed11(feed.json1(), itemTitles.map((t) => t.text));
      return { body, tags: [projectTag(project.id)], lastModified: updated, transient: rendered.transient || titles.transient };
    },
  };
}

/** A UUID of its own for one view's feed (weekly, monthly, daily, commit, all), derived from the project's. */
function viewFeedId(projectId: string, view: AvailableView): string {
  return derivedUuid(`view:${view}:${projectId}`);
}

/** A UUID of its own for a project's release feed, derived from the project's (stable across slug and host changes). */
function releasesFeedId(projectId: string): string {
  return derivedUuid(`releases:${projectId}`);
}

function derivedUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  // Shaped as a version 8 (custom) UUID, RFC 9562.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A title as the format takes it: Atom declares it HTML (its inline Markdown rendered, sanitized as
 * the page's), RSS readers treat it as HTML of unknown flavour (the text, escaped, never markup).
 */
const titleFor = (title: ItemTitle, format: FeedFormat) => (format === 'atom' ? title.html : escapeHtml(title.text));

/** A feed item; `content` is the entry's Markdown as HTML ('' for none). */
function item(entry: EntryRow, content: string, title: ItemTitle, format: FeedFormat, to: FeedLinks) {
  return {
    id: `urn:uuid:${entry.id}`,
    title: titleFor(title, format),
    link: to.entry(entry.id),
    date: entryUpdated(entry),
    ...(entry.published_at ? { published: entry.published_at } : {}),
    ...(content ? { content: cdataSafe(content) } : { description: titleFor(title, format) }),
    category: entry.component_tags.map((tag) => ({ name: clean(tag), term: clean(tag) })),
  };
}

/** A release note as a feed item: dated by its release, linked to its permalink page. */
function releaseItem(note: PublishedRelease, content: string, title: ItemTitle, format: FeedFormat, publicUrl: string, slug: string) {
  return {
    id: `urn:uuid:${note.id}`,
    title: titleFor(title, format),
    link: `${publicUrl}${releasePath(slug, note)}`,
    date: note.updated_at,
    published: note.released_at ?? note.published_at,
    ...(content ? { content: cdataSafe(content) } : { description: titleFor(title, format) }),
    category: note.component_tags.map((tag) => ({ name: clean(tag), term: clean(tag) })),
  };
}

/**
 * The library writes JSON Feed 1; 1.1 differs in the version URL and `authors` (unused here).
 * Titles go back to plain text, as JSON Feed defines them.
 */
function jsonFeed11(json1: string, titles: string[]): string {
  const feed = JSON.parse(json1) as { version: string; items: { title?: string }[] };
  feed.version = 'https://jsonfeed.org/version/1.1';
  feed.items.forEach((item, i) => {
    item.title = titles[i]!;
  });
  return JSON.stringify(feed);
}

/** The feed's image: the project's logo when it passes today's check (one saved before it existed may not). */
function logoImage(stored: string | null): { image: string } | Record<string, never> {
  const logo = checkedLogo(stored);
  return logo ? { image: logo.url } : {};
}

export type FeedsService = ReturnType<typeof createFeedsService>;
