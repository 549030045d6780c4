import type { ReviewRow, RevisionText } from '../../entries/entries.repository.js';
import { lineDiff } from '../../entries/line-diff.js';
import { BULK_LIMIT, entryVersion, type ReviewCounts } from '../../entries/entries.service.js';
import { ENTRY_STATUSES, ENTRY_TYPES } from '../../entries/entry.schemas.js';
import type { AppError } from '../../errors.js';
import { SECTION_KEYS } from '../../generation/engine/types.js';
import { html, type Html } from '../../html/html.js';
import { inlineHtmlText } from '../../html/markdown.js';
import { allMatching, count, csrfField, filteredUrl, formErrors, option, when } from './layout.js';

/** The filter as typed (empty: any), carried through links, hidden fields and the filter form. */
export interface RawFilter {
  status: string;
  type: string;
  section: string;
  since: string;
  until: string;
  pending: string;
}

export interface ReviewView {
  slug: string;
  csrf: string;
  raw: RawFilter;
  entries: ReviewRow[];
  /** The pending revisions of the entries shown, by entry id. */
  revisions: ReadonlyMap<string, RevisionText>;
  /** Each entry's title as HTML (its inline Markdown), in the order of `entries`. */
  titles: readonly Html[];
  counts: ReviewCounts;
  /** Cursor of the next (older) page, if any; `after` is this page's own. */
  next: string | null;
  after: string;
  limit: number;
  error?: AppError | undefined;
}

/** The review page's URL with `raw` and the given overrides (empty values left out). */
export const reviewUrl = (slug: string, raw: RawFilter, extra: Record<string, string> = {}): string => filteredUrl(`/dashboard/projects/${slug}/review`, raw, extra);

/** A facet's choices as links that keep the rest of the filter, with the count each would show. */
function facet(v: ReviewView, name: 'status' | 'type', values: readonly string[], counts: Record<string, number>, allCount: number): Html {
  const current = v.raw[name];
  const link = (value: string, label: string, n: number) => {
    const active = value === current || (value === 'all' && !current && name === 'type');
    return html`<li><a href="${reviewUrl(v.slug, v.raw, { [name]: value })}"${active ? html` aria-current="true"` : ''}>${label} <span class="count">${count(n)}</span></a></li>`;
  };
  return html`<ul class="facets" aria-label="${name === 'status' ? 'By status' : 'By type'}">${link('all', 'all', allCount)}${values.map((s) => link(s, s, counts[s] ?? 0))}</ul>`;
}

const hidden = (name: string, value: string) => (value ? html`<input type="hidden" name="${name}" value="${value}">` : '');

/** A pending revision against what is public: title and content, line by line. */
export function revisionDiff(r: RevisionText): Html {
  const lines = [
    ...lineDiff(`# ${r.public_title ?? ''}`, `# ${r.title ?? ''}`),
    { op: 'same' as const, text: '' },
    ...lineDiff(r.public_content ?? '', r.content ?? ''),
  ];
  const mark = { same: ' ', removed: '-', added: '+' } as const;
  return html`<pre class="diff" aria-label="Pending revision against what is public">${lines.map(
    (l) => html`<span class="diff-${l.op}">${mark[l.op]} ${l.text}</span>
`,
  )}</pre>`;
}

export function reviewPage(v: ReviewView): Html {
  const { counts } = v;
  const statusTotal = Object.values(counts.byStatus).reduce((a, b) => a + b, 0);
  const typeTotal = Object.values(counts.byType).reduce((a, b) => a + b, 0);
  return html`<section class="panel" aria-labelledby="filter-h"><h2 id="filter-h" class="visually-hidden">Filter</h2>
<form class="filters" method="get" action="/dashboard/projects/${v.slug}/review">
<div><label for="f-status">Status</label><select id="f-status" name="status">${option('all', 'all', v.raw.status)}${ENTRY_STATUSES.map((s) => option(s, s, v.raw.status))}</select></div>
<div><label for="f-type">Type</label><select id="f-type" name="type">${option('', 'all', v.raw.type)}${ENTRY_TYPES.map((t) => option(t, t, v.raw.type))}</select></div>
<div><label for="f-section">Section</label><select id="f-section" name="section">${option('', 'any', v.raw.section)}${SECTION_KEYS.map((k) => option(k, k, v.raw.section))}</select></div>
<div><label for="f-since">From</label><input id="f-since" type="date" name="since" value="${v.raw.since.slice(0, 10)}"></div>
<div><label for="f-until">To (inclusive)</label><input id="f-until" type="date" name="until" value="${v.raw.until.slice(0, 10)}"></div>
<div><label class="check"><input type="checkbox" name="pending" value="1"${v.raw.pending ? html` checked` : ''}> Only with newer commits</label></div>
<div class="actions"><button type="submit">Filter</button> <a href="/dashboard/projects/${v.slug}/review?status=all">Clear</a></div>
</form>
<div class="facet-row"><span class="muted">Status</span>${facet(v, 'status', ENTRY_STATUSES, counts.byStatus, statusTotal)}</div>
<div class="facet-row"><span class="muted">Type</span>${facet(v, 'type', ENTRY_TYPES, counts.byType, typeTotal)}</div>
</section>
${formErrors(v.error?.message, v.error?.details)}
<form id="review-form" method="post" action="/dashboard/projects/${v.slug}/review/bulk" data-review-queue data-matching="${String(counts.total)}">${csrfField({ csrf: v.csrf })}
${hidden('status', v.raw.status)}${hidden('type', v.raw.type)}${hidden('section', v.raw.section)}${hidden('since', v.raw.since)}${hidden('until', v.raw.until)}${hidden('pending', v.raw.pending)}${hidden('after', v.after)}
<input type="hidden" name="expected" value="${String(counts.total)}">
<div class="toolbar">
<p class="muted" id="queue-count">${count(counts.total)} matching · newest first by each entry's own date${
    v.raw.status === 'draft' && counts.revisions ? html` · drafts and ${count(counts.revisions)} published ${counts.revisions === 1 ? 'entry' : 'entries'} with new content waiting for review` : ''
  }</p>
<div class="actions">
<button type="submit" name="action" value="publish">Publish</button>
<button class="secondary" type="submit" name="action" value="archive">Archive</button>
<button class="secondary" type="submit" name="action" value="regenerate">Regenerate</button>
${allMatching(counts.total, BULK_LIMIT)}
</div>
<p class="hint">Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>x</kbd> select, <kbd>p</kbd> publish, <kbd>a</kbd> archive, <kbd>o</kbd> open. Regenerate drops people's edits of the selected entries.</p>
</div>
${v.entries.length
    ? html`<div class="table-wrap"><table class="queue"><thead><tr><th scope="col"><input type="checkbox" data-select-page aria-label="Select every entry on this page"></th><th scope="col">Title</th><th scope="col">Type</th><th scope="col">Date</th><th scope="col">Status</th><th scope="col" class="hide-sm">Updated</th></tr></thead><tbody>
${v.entries.map(
  (e, i) => html`<tr data-entry><td><input type="checkbox" name="ids" value="${e.id}" aria-label="Select ${e.title ? inlineHtmlText(v.titles[i]!) : 'entry'}"><input type="hidden" name="seen" value="${e.id}@${entryVersion(e.updated_at, e.revision_fingerprint)}"></td>
<td><a href="/dashboard/entries/${e.id}">${v.titles[i]!}</a>${e.version_label ? html` <span class="muted">${e.version_label}</span>` : ''}${
    e.pending_regeneration ? html` <span class="badge pending">newer commits</span>` : ''
  }${e.revision ? html` <span class="badge pending">new content waiting</span>` : ''}${
    v.revisions.has(e.id) ? html`<details class="revision"><summary>Changes against what is public</summary>${revisionDiff(v.revisions.get(e.id)!)}</details>` : ''
  }</td><td>${e.entry_type}</td><td>${when(e.occurred_at)}</td><td><span class="badge ${e.status}">${e.status}</span>${e.edited_at ? html` <span class="muted">edited</span>` : ''}</td><td class="hide-sm">${when(e.updated_at)}</td></tr>`,
)}
</tbody></table></div>`
    : html`<p class="empty">${v.after ? 'No older entries.' : 'Nothing matches this filter.'}</p>`}
</form>
<nav class="pager" aria-label="Pages">${v.after ? html`<a href="${reviewUrl(v.slug, v.raw, { limit: v.limit === 50 ? '' : String(v.limit) })}">Newest</a>` : ''}${
    v.next ? html`<a rel="next" href="${reviewUrl(v.slug, v.raw, { after: v.next, limit: v.limit === 50 ? '' : String(v.limit) })}">Older entries</a>` : ''
  }</nav>`;
}
