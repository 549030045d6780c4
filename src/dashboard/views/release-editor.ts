import type { ReleaseEditorView } from '../../entries/entries.service.js';
import { EDIT_LIMITS, type EditorItem } from '../../entries/release-edits.js';
import type { AppError } from '../../errors.js';
import { html, type Html } from '../../html/html.js';
import { csrfField, formErrors, when } from './layout.js';

/** The editor's address of a note: the tag URL-encoded (`@org/pkg@1.0.0` has a slash), `unreleased` for Unreleased. */
export function releaseEditorUrl(slug: string, tag: string | null): string {
  return `/dashboard/projects/${slug}/releases/${encodeURIComponent(tag ?? 'unreleased')}`;
}

export interface ReleaseEditorPage {
  slug: string;
  csrf: string;
  view: ReleaseEditorView;
  error?: AppError | undefined;
  /** The page of items shown (1-based), EDITOR_PAGE_ITEMS a page. */
  page?: number | undefined;
}

/**
 * Items an editor page shows: a note of thousands of items (a first tag after years of history) is
 * edited page by page, each page a few screens of forms rather than megabytes of them.
 */
export const EDITOR_PAGE_ITEMS = 200;

/** The pages a note's items take (at least one). */
export const editorPages = (view: Pick<ReleaseEditorView, 'sections'>): number =>
  Math.max(1, Math.ceil(view.sections.reduce((n, s) => n + s.items.length, 0) / EDITOR_PAGE_ITEMS));

const itemId = (key: string) => `item-${key.replace(/[^\w-]/g, '_')}`;

function item(p: ReleaseEditorPage, base: string, action: string, sections: ReleaseEditorView['sections'], i: EditorItem, first: boolean, last: boolean): Html {
  const edited = i.text !== i.generatedText;
  const moved = i.section !== i.generatedSection;
  const from = sections.find((s) => s.key === i.generatedSection)?.label ?? i.generatedSection;
  return html`<li id="${itemId(i.key)}" class="edit-item${i.hidden ? ' hidden-item' : ''}" data-key="${i.key}">
    <form class="inline" method="post" action="${action}">
      ${csrfField(p)}<input type="hidden" name="key" value="${i.key}" />
      ${i.component ? html`<span class="muted">${i.component}:</span>` : ''}
      <label class="visually-hidden" for="t-${itemId(i.key)}">Text</label
      ><input id="t-${itemId(i.key)}" name="text" value="${i.text}" maxlength="${String(EDIT_LIMITS.itemText)}" size="60" />
      <button type="submit" name="action" value="text">Save text</button>
      ${
        i.hidden
          ? html`<button class="secondary" type="submit" name="action" value="show">Show</button>`
          : html`${first ? '' : html`<button class="secondary" type="submit" name="action" value="up" aria-label="Move up">↑</button>`}${
                last ? '' : html`<button class="secondary" type="submit" name="action" value="down" aria-label="Move down">↓</button>`
              }<button class="secondary" type="submit" name="action" value="hide">Hide</button>
              <button class="secondary" type="submit" name="action" value="${i.headline ? 'unheadline' : 'headline'}">
                ${i.headline ? 'Not a headline' : 'Make headline'}
              </button>
              ${
                sections.length > 1
                  ? html`<label class="visually-hidden" for="s-${itemId(i.key)}">Section</label
                      ><select id="s-${itemId(i.key)}" name="section">
                        ${sections.map((s) => html`<option value="${s.key}" ${s.key === i.section ? html` selected` : ''}>${s.label}</option>`)}</select
                      ><button class="secondary" type="submit" name="action" value="move">Move</button>`
                  : ''
              }`
      }
      ${i.isNew ? html`<span class="badge pending">new since your edit</span><button class="secondary" type="submit" name="action" value="reviewed">Reviewed</button>` : ''}
      ${i.headline && !i.hidden ? html`<span class="badge published">headline</span>` : ''}${i.hidden ? html`<span class="badge archived">hidden</span>` : ''}${
        edited ? html`<span class="badge draft" title="Generated: ${i.generatedText}">edited</span>` : ''
      }${moved ? html`<span class="badge draft">moved from ${from}</span>` : ''}${
        i.machine ? html`<span class="badge pending machine" title="Written by a language model; generated: ${i.generatedText}">machine-written</span>` : ''
      }
    </form>
  </li>`;
}

/**
 * The language model's summary of the note (docs/summaries.md): each kept sentence with the items it
 * cites (their generated text: its sources), the reworded items beside their generated text, what
 * verification dropped and why, and the editor's choice. Nothing of it is public unless used and published.
 */
function summaryPanel(p: ReleaseEditorPage, base: string): Html {
  const { summary } = p.view;
  if (!summary) return html``;
  const texts = new Map(p.view.sections.flatMap((s) => s.items.map((i) => [i.key, i.generatedText] as const)));
  const dropped = summary.summary.rejected.length
    ? html`<details class="summary-dropped">
        <summary>${String(summary.summary.rejected.length)} dropped by verification</summary>
        <ul>
          ${summary.summary.rejected.map((r) => html`<li><span class="muted">${r.kind}:</span> “${r.text}” — ${r.reason}</li>`)}
        </ul>
      </details>`
    : '';
  const header = html`<h2 id="summary-h">Machine-written summary <span class="badge pending machine">machine-written</span></h2>`;
  if (summary.status === 'failed') {
    return html`<section class="panel" aria-labelledby="summary-h">
      ${header}
      <p>
        No summary for this content (${summary.model}, ${when(summary.created_at)}): ${summary.error ?? 'nothing passed verification'}. The note stays as
        generated.
      </p>
      ${dropped}
    </section>`;
  }
  if (summary.status !== 'pending') {
    return html`<section class="panel" aria-labelledby="summary-h">
      ${header}
      <p class="muted">
        The summary ${summary.model} wrote ${when(summary.created_at)} was ${summary.status}${summary.decided_at ? html` ${when(summary.decided_at)}` : ''}.
      </p>
    </section>`;
  }
  const { sentences, rewordings } = summary.summary;
  return html`<section class="panel" aria-labelledby="summary-h">
    ${header}
    <p>
      ${summary.model} suggests the text below (${when(summary.created_at)}). Every sentence cites items of this release, and every name, number and version in
      it is in those items' text; check the sources. Readers see none of it unless you use it and publish.
    </p>
    ${summary.current ? '' : html`<p class="notice">Written for earlier content of this note: it cannot be used. The next generation run asks again.</p>`}
    ${
      sentences.length
        ? html`<h3>Introduction</h3>
            <ol class="summary-sentences">
              ${sentences.map(
                (s) =>
                  html`<li>
                    ${s.text}
                    <details>
                      <summary>Sources (${String(s.items.length)})</summary>
                      <ul>
                        ${s.items.map((key) => html`<li><a href="#${itemId(key)}">${texts.get(key) ?? key}</a></li>`)}
                      </ul>
                    </details>
                  </li>`,
              )}
            </ol>`
        : ''
    }
    ${
      rewordings.length
        ? html`<h3>Reworded items</h3>
            <table class="summary-rewordings">
              <thead>
                <tr>
                  <th>Generated</th>
                  <th>Suggested</th>
                </tr>
              </thead>
              <tbody>
                ${rewordings.map(
                  (r) =>
                    html`<tr>
                      <td><a href="#${itemId(r.id)}">${texts.get(r.id) ?? r.id}</a></td>
                      <td>${r.text}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
        : ''
    }
    ${dropped}
    <form class="inline" method="post" action="${base}/status">
      ${csrfField(p)}${summary.current ? html`<button type="submit" name="action" value="summary-accept">Use this summary</button>` : ''}<button
        class="secondary"
        type="submit"
        name="action"
        value="summary-dismiss"
      >
        Dismiss
      </button>
    </form>
  </section>`;
}

/** One release note in the editor: its introduction, its items by section, publication. */
export function releaseEditorPage(p: ReleaseEditorPage): Html {
  const { view } = p;
  const { note } = view;
  const base = releaseEditorUrl(p.slug, note.tag);
  const pages = editorPages(view);
  const page = Math.min(Math.max(1, p.page ?? 1), pages);
  // Forms post back to the page they are on, so the editor stays where they work.
  const action = page > 1 ? `${base}/edit?page=${page}` : `${base}/edit`;
  const from = (page - 1) * EDITOR_PAGE_ITEMS;
  let at = 0;
  const shownSections = view.sections.flatMap((s) => {
    const start = at;
    at += s.items.length;
    const items = s.items.slice(Math.max(0, from - start), Math.max(0, from + EDITOR_PAGE_ITEMS - start));
    // An empty section shows on the first page ("No items"); a section of other pages is left out.
    return items.length || (!s.items.length && page === 1) ? [{ s, items }] : [];
  });
  const total = at;
  const pageUrl = (n: number) => (n > 1 ? `${base}?page=${n}#items-h` : `${base}#items-h`);
  const pager =
    pages > 1
      ? html`<nav class="pager" aria-label="Pages of items">
          Items ${(from + 1).toLocaleString('en')}–${Math.min(from + EDITOR_PAGE_ITEMS, total).toLocaleString('en')} of ${total.toLocaleString('en')}
          ${page > 1 ? html` · <a href="${pageUrl(page - 1)}" rel="prev">Previous</a>` : ''}${page < pages ? html` · <a href="${pageUrl(page + 1)}" rel="next">Next</a>` : ''}
        </nav>`
      : '';
  const published = note.status === 'published';
  const state = published
    ? view.waiting
      ? html`<p>
          <span class="badge pending">changes waiting</span> Readers see the published version; your edits (and any new generated content) reach them when you
          publish.
        </p>`
      : html`<p>Readers see this note as it is below.</p>`
    : html`<p>A ${note.status}: readers see nothing of it until you publish it.</p>`;
  return html`${formErrors(p.error?.message, p.error?.details)}
    <section class="panel" aria-labelledby="status-h">
      <h2 id="status-h">Publication</h2>
      <p>
        <span class="badge ${note.status}">${note.status}</span>${note.released_at ? html` · released ${when(note.released_at)}` : ''}${
          view.editedAt ? html` · edited ${when(view.editedAt)}` : ' · not edited'
        }${view.newItems ? html` · <span class="badge pending">${String(view.newItems)} new since your edit</span>` : ''}
      </p>
      ${state}
      <div class="actions">
        <form class="inline" method="post" action="${base}/status">
          ${csrfField(p)}<input type="hidden" name="version" value="${view.version}" /><button
            type="submit"
            name="action"
            value="publish"
            ${published && !view.waiting ? html` disabled` : ''}
          >
            ${published ? 'Publish changes' : 'Publish'}</button
          >${published ? html`<button class="secondary" type="submit" name="action" value="unpublish">Unpublish</button>` : ''}${
            view.edits
              ? html`<button
                  class="secondary"
                  type="submit"
                  name="action"
                  value="reset"
                  data-confirm="Drop every edit of this note and go back to the generated content?"
                >
                  Discard my edits
                </button>`
              : ''
          }
        </form>
        <a href="${base}/preview">Preview as the public page</a
        >${published ? html` · <a href="/c/${p.slug}/releases/${encodeURIComponent(note.tag ?? 'unreleased')}">Public page</a>` : ''}
        ${view.newItems ? html`<form class="inline" method="post" action="${base}/edit">${csrfField(p)}<button class="secondary" type="submit" name="action" value="reviewed-all">Mark all new items reviewed</button></form>` : ''}
      </div>
    </section>
    ${summaryPanel(p, base)}
    <section class="panel" aria-labelledby="intro-h">
      <h2 id="intro-h">Introduction${p.view.machineIntroduction ? html` <span class="badge pending machine">machine-written</span>` : ''}</h2>
      <form class="stack" method="post" action="${base}/edit">
        ${csrfField(p)}<input type="hidden" name="action" value="introduction" />
        <label for="f-introduction">Shown before the changes (Markdown; empty: none)</label>
        <textarea id="f-introduction" name="introduction" rows="5" maxlength="${String(EDIT_LIMITS.introduction)}" aria-describedby="f-introduction-hint">
${view.introduction ?? ''}</textarea>
        <p class="hint" id="f-introduction-hint">
          At most ${EDIT_LIMITS.introduction.toLocaleString('en')} characters. Rendered like every entry's Markdown (links, emphasis, code; no HTML).
        </p>
        <div class="actions"><button type="submit">Save introduction</button></div>
      </form>
    </section>
    <section class="panel" aria-labelledby="items-h">
      <h2 id="items-h">Changes</h2>
      <p class="hint">
        Item text is one line of at most ${String(EDIT_LIMITS.itemText)} characters, shown as written (code spans in backticks); at most
        ${String(EDIT_LIMITS.headlines)} headline items. Edits are kept when the note is generated again.
      </p>
      ${
        view.sections.length
          ? html`${pager}${shownSections.map(({ s, items }) => {
              const shown = s.items.filter((i) => !i.hidden);
              return html`<h3 id="section-${s.key}">${s.label}</h3>
                ${
                  items.length
                    ? html`<ol class="edit-items">
                        ${items.map((i) => item(p, base, action, view.sections, i, shown[0] === i, shown[shown.length - 1] === i))}
                      </ol>`
                    : html`<p class="muted">No items.</p>`
                }`;
            })}${pager}`
          : html`<p class="empty">This note lists no changes.</p>`
      }
    </section>`;
}
