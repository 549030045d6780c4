import { documentHead, html, trusted, type Html } from '../../html/html.js';
import { inlineHtmlText } from '../../html/markdown.js';
import type { EntryRow, EntryType } from '../../db/schema.js';
import { checkedLogo, textColorOn } from '../../projects/theme.js';
import type { PublicProject, PublishedRelease } from '../changelog.repository.js';
import { AVAILABLE_VIEWS, VIEW_LABELS, type AvailableView } from '../../projects/public-view.js';
import type { ChangelogView } from './public-page.service.js';

const DEFAULT_ACCENT = '#1f2937';
const DAY = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
const TYPE_LABELS: Record<EntryType, string> = { commit: 'Single changes', daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

export interface Filters {
  /** The view the reader chose (absent: the project's default). */
  view?: AvailableView | undefined;
  /** The older type filter, read as a view. */
  type: EntryType | undefined;
  component: string | undefined;
  page: number;
}

/** What a page's links carry: the view only when the reader chose one, so the default page stays `/c/{slug}`. */
interface LinkState {
  view: AvailableView | undefined;
  component: string | undefined;
  page: number;
}

/**
 * The stylesheet, inline: one request per page, nothing from another origin. Colours meet WCAG AA
 * (text 4.5:1); the accent only ever sits behind black or white text chosen for contrast.
 */
export const PALETTE = {
  text: '#1b1f24',
  muted: '#4a5260',
  link: '#0a4fb8',
  page: '#f6f7f9',
  card: '#ffffff',
  chip: '#eef0f4',
} as const;

const CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:${PALETTE.text};background:${PALETTE.page}}
a{color:${PALETTE.link}}a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid ${PALETTE.link};outline-offset:2px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.skip{position:absolute;left:-9999px}.skip:focus{left:1rem;top:1rem;z-index:2;background:${PALETTE.card};padding:.5rem 1rem}
.masthead{background:var(--accent);color:var(--on-accent)}
.masthead .inner{display:flex;gap:.75rem;align-items:center;min-height:3.5rem}
.masthead img{height:2.25rem;width:auto;max-width:10rem;object-fit:contain}
.masthead .name{font-weight:700;font-size:1.15rem;margin:0}
.masthead a{color:inherit}
.inner{max-width:46rem;margin:0 auto;padding:0 1rem}
main{padding:1.5rem 0 3rem}
h1{font-size:1.9rem;line-height:1.25;margin:.5rem 0}
.feeds{margin:.25rem 0 1.25rem;color:${PALETTE.muted}}
form.filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end;background:${PALETTE.card};border:1px solid #d5d9e0;border-radius:8px;padding:.75rem 1rem;margin-bottom:1rem}
form.filters div{display:flex;flex-direction:column;gap:.2rem}
label{font-weight:600;font-size:.9rem}
select,button{font:inherit;padding:.35rem .5rem;border:1px solid #8a93a3;border-radius:6px;background:${PALETTE.card};color:${PALETTE.text}}
button{background:var(--accent);color:var(--on-accent);border-color:var(--accent);cursor:pointer;font-weight:600}
.count{color:${PALETTE.muted};margin:.5rem 0 1rem}
nav.views ul{list-style:none;margin:0 0 1rem;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}
nav.views a{display:inline-block;padding:.3rem .75rem;border:1px solid #8a93a3;border-radius:999px;background:${PALETTE.card};text-decoration:none}
nav.views a[aria-current="page"]{background:var(--accent);color:var(--on-accent);border-color:var(--accent);font-weight:600}
ol.entries{list-style:none;margin:0;padding:0;display:grid;gap:1rem}
article{background:${PALETTE.card};border:1px solid #d5d9e0;border-radius:8px;padding:1rem 1.25rem}
article h2{font-size:1.3rem;margin:0 0 .25rem;line-height:1.3}
article h2 a{color:inherit;text-decoration:none}article h2 a:hover{text-decoration:underline}
.meta{color:${PALETTE.muted};font-size:.9rem;margin:0 0 .5rem;display:flex;flex-wrap:wrap;gap:.25rem .75rem}
.version{font-weight:700;color:${PALETTE.text};background:${PALETTE.chip};border-radius:4px;padding:0 .4rem}
.tags a{margin-right:.4rem}
.content h3,.content h4{font-size:1.05rem;margin:1rem 0 .25rem}
.content ul{padding-left:1.25rem;list-style:disc}
.content>:first-child{margin-top:0}.content>:last-child{margin-bottom:0}
.content code{background:${PALETTE.chip};padding:0 .25rem;border-radius:4px;font-size:.9em}
.content pre{overflow:auto;background:${PALETTE.chip};padding:.75rem;border-radius:6px}
nav.pages{display:flex;justify-content:space-between;margin-top:1.5rem}
.empty{background:${PALETTE.card};border:1px dashed #8a93a3;border-radius:8px;padding:1rem}
footer{color:${PALETTE.muted};font-size:.85rem;padding:1rem 0 2rem}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}`;

/**
 * Entry content (its Markdown as HTML, rendered before the page: MarkdownRenderer) with its top
 * heading level one below the entry's own heading (`## Features` under an h2 is an h3).
 */
function entryContent(content: Html, entryHeading: number): Html {
  // markdown-it escapes raw HTML, so these are the renderer's own tags.
  const rendered = content.value;
  const levels = [...rendered.matchAll(/<h([1-6])>/g)].map((m) => Number(m[1]));
  if (!levels.length) return trusted(rendered);
  const shift = entryHeading + 1 - Math.min(...levels);
  return trusted(rendered.replace(/<(\/?)h([1-6])>/g, (_m, close: string, level: string) => `<${close}h${Math.min(6, Number(level) + shift)}>`));
}

function time(date: Date | null): Html {
  return date ? html`<time datetime="${date.toISOString()}">${DAY.format(date)}</time>` : html``;
}

/** A feed's address: the page's default view without a parameter, a chosen view with `?view=`. */
export function feedPath(slug: string, format: 'atom' | 'rss' | 'json', view?: AvailableView): string {
  return `/v1/changelog/${slug}/feed.${format}${view ? `?view=${view}` : ''}`;
}

function feedLinks(slug: string, name: string, view?: AvailableView): Html {
  const of = view ? ` (${VIEW_LABELS[view].toLowerCase()})` : '';
  return html`<link rel="alternate" type="application/atom+xml" title="${name} changelog${of} (Atom)" href="${feedPath(slug, 'atom', view)}">
<link rel="alternate" type="application/rss+xml" title="${name} changelog${of} (RSS)" href="${feedPath(slug, 'rss', view)}">
<link rel="alternate" type="application/feed+json" title="${name} changelog${of} (JSON Feed)" href="${feedPath(slug, 'json', view)}">`;
}

/** A release note's page address: the tag URL-encoded (`@org/pkg@1.0.0` has a slash), `unreleased` for Unreleased. */
export function releasePath(slug: string, release: Pick<PublishedRelease, 'tag'>): string {
  return `/c/${slug}/releases/${encodeURIComponent(release.tag ?? 'unreleased')}`;
}

function releaseFeedLinks(slug: string, name: string): Html {
  const base = `/v1/changelog/${slug}/releases`;
  return html`<link rel="alternate" type="application/atom+xml" title="${name} releases (Atom)" href="${base}.atom">
<link rel="alternate" type="application/rss+xml" title="${name} releases (RSS)" href="${base}.rss">
<link rel="alternate" type="application/feed+json" title="${name} releases (JSON Feed)" href="${base}.json">`;
}

function layout(project: PublicProject, title: string, canonical: string, body: Html, extraHead: Html = html``, view?: AvailableView): string {
  const accent = project.theme_color ?? DEFAULT_ACCENT;
  // Shown only when its host is one the page's Content-Security-Policy names (public-page.routes.ts).
  const logo = checkedLogo(project.logo_url);
  const head = html`<meta name="color-scheme" content="light">
<meta name="description" content="What changed in ${project.name}">
<link rel="canonical" href="${canonical}">
${feedLinks(project.slug, project.name, view)}
${extraHead}
<style>:root{--accent:${accent};--on-accent:${textColorOn(accent)}}
${trusted(CSS)}</style>`;
  return html`${documentHead(title, head)}
<body>
<a class="skip" href="#main">Skip to the changelog</a>
<header class="masthead"><div class="inner">
${logo ? html`<img src="${logo.url}" alt="" width="144" height="36" referrerpolicy="no-referrer">` : ''}
<p class="name"><a href="/c/${project.slug}">${project.name}</a></p>
</div></header>
<main id="main"><div class="inner">
${body}
</div></main>
<footer><div class="inner">Subscribe with <a href="${feedPath(project.slug, 'atom', view)}">Atom</a>, <a href="${feedPath(project.slug, 'rss', view)}">RSS</a> or <a href="${feedPath(project.slug, 'json', view)}">JSON Feed</a> · <a href="/v1/changelog/${project.slug}">JSON API</a></div></footer>
</body>
</html>
`.value;
}

/**
 * The date an entry is shown with: a rollup's period start (history publishes it at the period's
 * end, the next day, week or month at midnight: "23 November" under "16–22 November" misleads),
 * else when it was published.
 */
export function entryDate(entry: Pick<EntryRow, 'entry_type' | 'period_start' | 'published_at'>): Date | null {
  return entry.entry_type !== 'commit' && entry.period_start ? entry.period_start : entry.published_at;
}

/**
 * The section (and component) of an entry whose one item is its title, when its content says no
 * more than that (but for the team's attribution, `rest`): the item is then not repeated as the
 * entry's body, which is `rest` alone. Content a person edited, more than one item, an explanation
 * or a link (a pull request) keeps the body as it is.
 */
export function soleItemOf(
  entry: Pick<EntryRow, 'title' | 'content' | 'generated_json'>,
): { label: string; component: string | null; rest: string } | null {
  const json = entry.generated_json;
  const title = entry.title?.trim();
  if (!json || !title || json.sections.length !== 1) return null;
  const section = json.sections[0]!;
  const item = section.items.length === 1 ? section.items[0]! : null;
  if (!item || item.text.trim() !== title) return null;
  const lines = (entry.content ?? '').split('\n').filter((line) => line.trim());
  if (lines.length < 2 || lines.length > 3 || !lines[0]!.startsWith('### ') || !lines[1]!.startsWith('- ') || lines[1]!.includes('](')) return null;
  const rest = lines[2] ?? '';
  if (rest && !/^_By [^\n]+_$/.test(rest)) return null;
  return { label: section.label, component: item.component, rest };
}

/** The Markdown an entry's body shows: its content, or only what follows its sole item (soleItemOf). */
export function bodyOf(entry: Pick<EntryRow, 'title' | 'content' | 'generated_json'>): string | null {
  const sole = soleItemOf(entry);
  return sole ? sole.rest : entry.content;
}

function entryMeta(slug: string, entry: EntryRow): Html {
  const sole = soleItemOf(entry);
  return html`<p class="meta">${entry.version_label ? html`<span class="version">${entry.version_label}</span>` : ''}${time(entryDate(entry))}<span>${TYPE_LABELS[entry.entry_type]}</span>${
    sole ? html`<span class="section">${sole.label}${sole.component ? ` · ${sole.component}` : ''}</span>` : ''
  }${
    entry.component_tags.length
      ? html`<span class="tags"><span class="visually-hidden">Components: </span>${entry.component_tags.map(
          (c) => html`<a href="/c/${slug}?component=${encodeURIComponent(c)}" aria-label="More changes to ${c}">${c}</a>`,
        )}</span>`
      : ''
  }</p>`;
}

function query(slug: string, state: Partial<LinkState>): string {
  const params = new URLSearchParams();
  if (state.view) params.set('view', state.view);
  if (state.component) params.set('component', state.component);
  if (state.page && state.page > 1) params.set('page', String(state.page));
  const qs = params.toString();
  return `/c/${slug}${qs ? `?${qs}` : ''}`;
}

/** Links to the other views: those the project has published entries of, everything, and the one shown. */
function viewLinks(slug: string, view: ChangelogView, component: string | undefined): Html {
  const offered = AVAILABLE_VIEWS.filter(
    (v) => v === view.view || v === 'all' || (v === 'releases' ? view.hasReleases : view.types.includes(v as EntryType)),
  );
  return html`<nav class="views" aria-label="Views"><ul>${offered.map(
    (v) => html`<li><a href="${query(slug, { view: v, component })}"${v === view.view ? html` aria-current="page"` : ''}>${VIEW_LABELS[v]}</a></li>`,
  )}</ul></nav>`;
}

/**
 * What the page shows rendered: each entry's (or, in the releases view, each release note's) content
 * and title as HTML (inline Markdown), in the order listed.
 */
export interface Rendered {
  contents: readonly Html[];
  titles: readonly Html[];
}

/** `content`: the entry's body (bodyOf) as HTML. */
function entryItem(slug: string, entry: EntryRow, content: Html, title: Html): Html {
  return html`<li><article id="entry-${entry.id}" aria-labelledby="h-${entry.id}">
<h2 id="h-${entry.id}"><a href="/c/${slug}/entries/${entry.id}">${title}</a></h2>
${entryMeta(slug, entry)}
${content.value ? html`<div class="content">${entryContent(content, 2)}</div>` : ''}
</article></li>`;
}

function releaseItem(slug: string, release: PublishedRelease, content: Html, title: Html): Html {
  return html`<li><article id="release-${release.id}" aria-labelledby="h-${release.id}">
<h2 id="h-${release.id}"><a href="${releasePath(slug, release)}">${title}</a></h2>
${releaseMeta(release)}
<div class="content">${entryContent(content, 2)}</div>
</article></li>`;
}

export function changelogPage(publicUrl: string, view: ChangelogView, filters: Filters, rendered: Rendered): string {
  const { project, entries, releases } = view;
  const { contents, titles } = rendered;
  const slug = project.slug;
  const releasesView = view.view === 'releases';
  // The reader's choice stays in the links; the project's default needs no parameter.
  const state: LinkState = { view: (filters.view ?? filters.type) ? view.view : undefined, component: releasesView ? undefined : filters.component, page: filters.page };
  const filtered = Boolean(state.component);
  const components = filters.component && !view.components.includes(filters.component) ? [...view.components, filters.component] : view.components;
  const label = VIEW_LABELS[view.view];
  const described = releasesView
    ? 'release notes'
    : [view.view === 'all' ? 'all entries' : `${label.toLowerCase()} entries`, filters.component ? `touching ${filters.component}` : ''].filter(Boolean).join(' ');
  const shown = releasesView ? releases.length : entries.length;
  const older = releasesView ? 'Older releases →' : 'Older entries →';
  const newer = releasesView ? '← Newer releases' : '← Newer entries';
  const body = html`<h1>${project.name} changelog</h1>
<p class="feeds">Published changes, newest first. Subscribe to this view: <a href="${feedPath(slug, 'atom', state.view)}">Atom</a> · <a href="${feedPath(slug, 'rss', state.view)}">RSS</a> · <a href="${feedPath(slug, 'json', state.view)}">JSON Feed</a></p>
${viewLinks(slug, view, state.component)}
${
  releasesView
    ? ''
    : html`<form class="filters" method="get" action="/c/${slug}" role="search" aria-label="Filter entries">
  ${state.view ? html`<input type="hidden" name="view" value="${state.view}">` : ''}
  <div><label for="filter-component">Component</label><select id="filter-component" name="component"><option value="">All components</option>${components.map(
    (c) => html`<option value="${c}"${filters.component === c ? html` selected` : ''}>${c}</option>`,
  )}</select></div>
  <div><button type="submit">Filter</button></div>
  ${filtered ? html`<div><a href="${query(slug, { view: state.view })}">Clear filters</a></div>` : ''}
</form>`
}
${
  shown
    ? html`<p class="count">${filters.page > 1 ? `Page ${filters.page} of ` : ''}${
        releasesView ? 'Release notes' : view.view === 'all' && !filtered ? 'All entries' : `Showing ${described}`
      }.</p>
<ol class="entries">
${releasesView
    ? releases.map((release, i) => releaseItem(slug, release, contents[i]!, titles[i]!))
    : entries.map((entry, i) => entryItem(slug, entry, contents[i]!, titles[i]!))}
</ol>`
    : html`<p class="empty">${
        filtered
          ? 'No entries match these filters.'
          : view.view === 'all'
            ? 'Nothing has been published yet.'
            : releasesView
              ? 'No release notes have been published yet.'
              : `No ${label.toLowerCase()} entries have been published yet.`
      }</p>`
}
${
  filters.page > 1 || view.hasMore
    ? html`<nav class="pages" aria-label="More entries">${
        filters.page > 1 ? html`<a rel="prev" href="${query(slug, { ...state, page: filters.page - 1 })}">${newer}</a>` : html`<span></span>`
      }${view.hasMore ? html`<a rel="next" href="${query(slug, { ...state, page: filters.page + 1 })}">${older}</a>` : ''}</nav>`
    : ''
}`;
  const title = `${project.name} changelog${state.view || filtered ? ` · ${described}` : ''}${filters.page > 1 ? ` · page ${filters.page}` : ''}`;
  return layout(project, title, `${publicUrl}${query(slug, state)}`, body, releasesView ? releaseFeedLinks(slug, project.name) : html``, state.view);
}

/** `content`: the entry's body (bodyOf) as HTML; `title`: its title as HTML (inline Markdown). */
export function entryPage(publicUrl: string, project: PublicProject, entry: EntryRow, content: Html, title: Html): string {
  const body = html`<p><a href="/c/${project.slug}">← All changes to ${project.name}</a></p>
<article id="entry-${entry.id}" aria-labelledby="entry-title">
<h1 id="entry-title">${title}</h1>
${entryMeta(project.slug, entry)}
${content.value ? html`<div class="content">${entryContent(content, 1)}</div>` : ''}
</article>`;
  return layout(project, `${inlineHtmlText(title)} · ${project.name} changelog`, `${publicUrl}/c/${project.slug}/entries/${entry.id}`, body);
}

function releaseMeta(release: PublishedRelease): Html {
  const date = release.released_at ?? null;
  return html`<p class="meta">${release.version ? html`<span class="version">${release.version}</span>` : ''}${
    date ? time(date) : html`<span>Not released yet</span>`
  }${release.package ? html`<span>Package ${release.package}</span>` : ''}${release.prerelease ? html`<span>Pre-release</span>` : ''}${
    release.previous_tag ? html`<span>Changes since ${release.previous_tag}</span>` : ''
  }</p>`;
}

export interface ReleasesView {
  project: PublicProject;
  releases: PublishedRelease[];
  hasMore: boolean;
  page: number;
}

/** `/c/{slug}/releases`: published release notes, newest first (Unreleased on top), 20 a page; contents and titles in their order. */
export function releasesPage(publicUrl: string, view: ReleasesView, { contents, titles }: Rendered): string {
  const { project, releases, page } = view;
  const slug = project.slug;
  const at = (n: number) => `/c/${slug}/releases${n > 1 ? `?page=${n}` : ''}`;
  const body = html`<p><a href="/c/${slug}">← All changes to ${project.name}</a></p>
<h1>${project.name} release notes</h1>
<p class="feeds">What each release changed since the previous one of its series. Subscribe: <a href="/v1/changelog/${slug}/releases.atom">Atom</a> · <a href="/v1/changelog/${slug}/releases.rss">RSS</a> · <a href="/v1/changelog/${slug}/releases.json">JSON Feed</a></p>
${
  releases.length
    ? html`<ol class="entries">
${releases.map(
  (release, i) => html`<li><article id="release-${release.id}" aria-labelledby="h-${release.id}">
<h2 id="h-${release.id}"><a href="${releasePath(slug, release)}">${titles[i]!}</a></h2>
${releaseMeta(release)}
<div class="content">${entryContent(contents[i]!, 2)}</div>
</article></li>`,
)}
</ol>`
    : html`<p class="empty">No release notes have been published yet.</p>`
}
${
  page > 1 || view.hasMore
    ? html`<nav class="pages" aria-label="More release notes">${
        page > 1 ? html`<a rel="prev" href="${at(page - 1)}">← Newer releases</a>` : html`<span></span>`
      }${view.hasMore ? html`<a rel="next" href="${at(page + 1)}">Older releases →</a>` : ''}</nav>`
    : ''
}`;
  return layout(project, `${project.name} release notes${page > 1 ? ` · page ${page}` : ''}`, `${publicUrl}${at(page)}`, body, releaseFeedLinks(slug, project.name));
}

/** The permalink page of one release note; `content`: its content as HTML, `title` its title (inline Markdown). */
export function releasePage(publicUrl: string, project: PublicProject, release: PublishedRelease, content: Html, title: Html): string {
  const body = html`<p><a href="/c/${project.slug}/releases">← All releases of ${project.name}</a></p>
<article id="release-${release.id}" aria-labelledby="release-title">
<h1 id="release-title">${title}</h1>
${releaseMeta(release)}
<div class="content">${entryContent(content, 1)}</div>
</article>`;
  return layout(
    project,
    `${inlineHtmlText(title)} · ${project.name} release notes`,
    `${publicUrl}${releasePath(project.slug, release)}`,
    body,
    releaseFeedLinks(project.slug, project.name),
  );
}

/** A small HTML page for a browser that followed a dead link. */
export function notFoundPage(message: string): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title>
<style>body{font:16px/1.6 system-ui,sans-serif;color:#1b1f24;max-width:40rem;margin:3rem auto;padding:0 1rem}</style></head>
<body><main><h1>Not found</h1><p>${message}.</p></main></body></html>
`.value;
}

export { DEFAULT_ACCENT };
