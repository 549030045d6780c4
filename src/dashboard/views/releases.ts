import type { ReleaseListRow } from '../../entries/entries.repository.js';
import { BULK_LIMIT, type ReleaseCounts } from '../../entries/entries.service.js';
import { ENTRY_STATUSES } from '../../entries/entry-kinds.js';
import { ROOT_PACKAGE } from '../../entries/release-filter.js';
import type { AppError } from '../../errors.js';
import { html, type Html } from '../../html/html.js';
import { allMatching, count, csrfField, filteredUrl, formErrors, option, when } from './layout.js';
import { releaseEditorUrl } from './release-editor.js';

/** The releases filter as typed (empty: any), carried through links, hidden fields and the filter form. */
export interface RawReleaseFilter {
  status: string;
  package: string;
  prerelease: string;
}

export interface ReleasesView {
  slug: string;
  csrf: string;
  raw: RawReleaseFilter;
  releases: ReleaseListRow[];
  counts: ReleaseCounts;
  /** Tagged drafts: what "publish the whole history" publishes. */
  historyDrafts: number;
  packages: Array<string | null>;
  next: string | null;
  after: string;
  limit: number;
  error?: AppError | undefined;
}

/** The releases page's URL with `raw` and the given overrides (empty values left out). */
export const releasesUrl = (slug: string, raw: RawReleaseFilter, extra: Record<string, string> = {}): string => filteredUrl(`/dashboard/projects/${slug}/releases`, raw, extra);

const hidden = (name: string, value: string) => (value ? html`<input type="hidden" name="${name}" value="${value}">` : '');

function statusFacet(v: ReleasesView): Html {
  const all = Object.values(v.counts.byStatus).reduce((a, b) => a + b, 0);
  const link = (value: string, n: number) => {
    const active = value === (v.raw.status || 'all');
    return html`<li><a href="${releasesUrl(v.slug, v.raw, { status: value === 'all' ? '' : value, after: '' })}"${active ? html` aria-current="true"` : ''}>${value} <span class="count">${count(n)}</span></a></li>`;
  };
  return html`<ul class="facets" aria-label="By status">${link('all', all)}${ENTRY_STATUSES.map((s) => link(s, v.counts.byStatus[s]))}</ul>`;
}

function row(slug: string, n: ReleaseListRow): Html {
  const unreleased = n.tag === null;
  return html`<tr data-entry><td><input type="checkbox" name="ids" value="${n.id}" aria-label="Select ${n.tag ?? 'Unreleased'}"></td>
<td><a href="${releaseEditorUrl(slug, n.tag)}" title="Edit this release note">${unreleased ? html`<em>Unreleased</em>` : n.tag}</a>${n.prerelease ? html` <span class="badge">pre-release</span>` : ''}</td>
<td>${n.version ?? '—'}</td><td>${unreleased ? '—' : when(n.released_at)}</td><td class="hide-sm">${n.package ?? html`<span class="muted">root</span>`}</td>
<td><span class="badge ${n.status}">${n.status}</span>${n.history_at ? html` <span class="muted">history</span>` : ''}${
  n.revision ? html` <span class="badge pending" title="Publishing this note (ticked or by its tag) publishes its new content">new content waiting</span>` : ''
}${n.edited ? html` <span class="badge draft" title="An editor changed its text, items or introduction in the release editor">edited</span>` : ''}</td>
<td>${count(n.items)} items · ${count(n.commits)} commits${
    unreleased && n.commits ? html` <span class="badge pending">${count(n.commits)} new since ${n.previous_tag ?? 'the start'}</span>` : ''
  }</td></tr>`;
}

export function releasesPage(v: ReleasesView): Html {
  const { counts } = v;
  const packageChoices = v.packages.map((p) => (p === null ? option(ROOT_PACKAGE, 'root (tags like v1.2.0)', v.raw.package) : option(p, p, v.raw.package)));
  const carry = html`${hidden('status', v.raw.status)}${hidden('package', v.raw.package)}${hidden('prerelease', v.raw.prerelease)}${hidden('after', v.after)}`;
  return html`<section class="panel" aria-labelledby="history-h"><h2 id="history-h">Release history</h2>
${v.historyDrafts
    ? html`<form method="post" action="/dashboard/projects/${v.slug}/releases/bulk" data-confirm="Publish all ${count(v.historyDrafts)} draft release notes of tags?">${csrfField({ csrf: v.csrf })}
<input type="hidden" name="scope" value="history"><input type="hidden" name="expected" value="${String(v.historyDrafts)}">
<p>${count(v.historyDrafts)} release ${v.historyDrafts === 1 ? 'note of a tag is a draft' : 'notes of tags are drafts'}. <button type="submit" name="action" value="publish">Publish the whole history of releases</button></p>
<p class="hint">Publishes every draft note of a tag at once (not the Unreleased note, nor notes a person archived).</p></form>`
    : html`<p class="muted">Every release note of a tag is published or archived.</p>`}
</section>
<section class="panel" aria-labelledby="filter-h"><h2 id="filter-h" class="visually-hidden">Filter</h2>
<form class="filters" method="get" action="/dashboard/projects/${v.slug}/releases">
<div><label for="f-status">Status</label><select id="f-status" name="status">${option('', 'all', v.raw.status)}${ENTRY_STATUSES.map((s) => option(s, s, v.raw.status))}</select></div>
<div><label for="f-package">Package</label><select id="f-package" name="package">${option('', 'all', v.raw.package)}${packageChoices}</select></div>
<div><label for="f-pre">Pre-releases</label><select id="f-pre" name="prerelease">${option('', 'included', v.raw.prerelease)}${option('false', 'left out', v.raw.prerelease)}${option('true', 'only', v.raw.prerelease)}</select></div>
<div class="actions"><button type="submit">Filter</button> <a href="/dashboard/projects/${v.slug}/releases">Clear</a></div>
</form>
<div class="facet-row"><span class="muted">Status</span>${statusFacet(v)}</div>
</section>
${formErrors(v.error?.message, v.error?.details)}
<form id="releases-form" method="post" action="/dashboard/projects/${v.slug}/releases/bulk" data-bulk-list data-matching="${String(counts.total)}">${csrfField({ csrf: v.csrf })}
${carry}<input type="hidden" name="expected" value="${String(counts.total)}">
<div class="toolbar">
<p class="muted" id="releases-count">${count(counts.total)} matching · newest release first, Unreleased on top</p>
<div class="actions">
<button type="submit" name="action" value="publish">Publish</button>
<button class="secondary" type="submit" name="action" value="unpublish">Unpublish</button>
${allMatching(counts.total, BULK_LIMIT)}
</div>
</div>
${v.releases.length
    ? html`<div class="table-wrap"><table class="queue"><thead><tr><th scope="col"><input type="checkbox" data-select-page aria-label="Select every release on this page"></th><th scope="col">Tag</th><th scope="col">Version</th><th scope="col">Date</th><th scope="col" class="hide-sm">Package</th><th scope="col">Status</th><th scope="col">Contents</th></tr></thead><tbody>
${v.releases.map((n) => row(v.slug, n))}
</tbody></table></div>`
    : html`<p class="empty">${v.after ? 'No older releases.' : 'No release notes match this filter.'}</p>`}
</form>
<nav class="pager" aria-label="Pages">${v.after ? html`<a href="${releasesUrl(v.slug, v.raw, { limit: v.limit === 50 ? '' : String(v.limit) })}">Newest</a>` : ''}${
    v.next ? html`<a rel="next" href="${releasesUrl(v.slug, v.raw, { after: v.next, limit: v.limit === 50 ? '' : String(v.limit) })}">Older releases</a>` : ''
  }</nav>`;
}
