/*!
 * <changelog-feed> — an embeddable changelog, served at /widget.js. No dependencies, no build.
 *
 *   <script src="https://changes.example.com/widget.js" defer></script>
 *   <changelog-feed project="acme-app" limit="10"></changelog-feed>
 *
 * Attributes: project (slug, required), server (defaults to where this script came from),
 * limit (entries per page, 1–100, default 10). Theme with CSS custom properties on the element:
 * --changelog-accent, --changelog-text, --changelog-muted, --changelog-bg, --changelog-border,
 * --changelog-radius, --changelog-font, --changelog-new-bg, --changelog-new-text.
 *
 * Safety: entry text comes from commit messages. Nothing is ever parsed as HTML here: Markdown is
 * turned into DOM nodes whose text is set with text nodes, and links keep only http(s) and mailto.
 */
(() => {
  'use strict';
  if (typeof customElements === 'undefined' || customElements.get('changelog-feed')) return;

  const SCRIPT_ORIGIN = (() => {
    try {
      return new URL(document.currentScript.src).origin;
    } catch {
      return location.origin;
    }
  })();

  const STYLE = `
:host{display:block;font-family:var(--changelog-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);color:var(--changelog-text,#1b1f24);background:var(--changelog-bg,transparent);line-height:1.5}
[hidden]{display:none!important}
header{display:flex;align-items:center;gap:.5rem;margin:0 0 .75rem}
h2{font-size:1.15em;margin:0}
ol{list-style:none;margin:0;padding:0;display:grid;gap:.75rem}
article{border:1px solid var(--changelog-border,#d5d9e0);border-radius:var(--changelog-radius,8px);padding:.75rem 1rem}
h3{font-size:1.05em;margin:0 0 .15rem;display:flex;flex-wrap:wrap;gap:.4rem;align-items:baseline}
h4{font-size:.95em;margin:.6rem 0 .2rem}
.meta{color:var(--changelog-muted,#4a5260);font-size:.85em;margin:0 0 .4rem;display:flex;gap:.6rem;flex-wrap:wrap}
.version{font-weight:700;color:var(--changelog-text,#1b1f24);border:1px solid var(--changelog-border,#d5d9e0);border-radius:4px;padding:0 .35rem}
.new{font-size:.75em;font-weight:700;text-transform:uppercase;letter-spacing:.03em;background:var(--changelog-new-bg,var(--changelog-accent,#0a4fb8));color:var(--changelog-new-text,#fff);border-radius:999px;padding:.05rem .5rem}
ul,ol.md{padding-left:1.2rem;margin:.25rem 0}
ul{list-style:disc}
ol.md{list-style:decimal;display:block}
p{margin:.25rem 0}
.headline{font-weight:600}
.component{color:var(--changelog-muted,#4a5260);font-size:.9em}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em;background:rgba(127,127,127,.12);border-radius:4px}
code{padding:0 .2rem}pre{padding:.5rem;overflow:auto}
a{color:var(--changelog-accent,#0a4fb8)}
button{font:inherit;margin-top:.75rem;padding:.4rem .9rem;border-radius:6px;border:1px solid var(--changelog-accent,#0a4fb8);background:var(--changelog-accent,#0a4fb8);color:var(--changelog-new-text,#fff);cursor:pointer}
button:disabled{opacity:.6;cursor:progress}
:focus-visible{outline:2px solid var(--changelog-accent,#0a4fb8);outline-offset:2px}
.status{color:var(--changelog-muted,#4a5260);font-size:.9em}`;

  /** Creates an element with attributes and children; strings become text nodes, never markup. */
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value !== undefined && value !== null && value !== false) el.setAttribute(name, String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      el.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return el;
  }

  /** Only web and mail links survive; anything else (javascript:, data:, relative tricks) becomes plain text. */
  function safeHref(raw) {
    try {
      const url = new URL(raw);
      return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:' ? url.href : null;
    } catch {
      return null;
    }
  }

  // Underscore emphasis only at word boundaries, as in CommonMark: `snake_case_names` stay as they are.
  const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|(?<!\w)__([^_]+)__(?!\w)|\[([^\]]+)\]\(([^)\s]+)\)|\*([^*\s][^*]*)\*|(?<!\w)_([^_\s][^_]*)_(?!\w)/g;

  /** Inline Markdown (code, bold, italic, links) as nodes. */
  function inline(text) {
    const nodes = [];
    let last = 0;
    for (const m of text.matchAll(INLINE)) {
      if (m.index > last) nodes.push(text.slice(last, m.index));
      if (m[1] !== undefined) nodes.push(h('code', null, m[1]));
      else if (m[2] !== undefined || m[3] !== undefined) nodes.push(h('strong', null, inline(m[2] ?? m[3])));
      else if (m[4] !== undefined) {
        const href = safeHref(m[5]);
        nodes.push(href ? h('a', { href, rel: 'noopener noreferrer nofollow' }, inline(m[4])) : m[4]);
      } else nodes.push(h('em', null, inline(m[6] ?? m[7])));
      last = m.index + m[0].length;
    }
    if (last < text.length) nodes.push(text.slice(last));
    return nodes;
  }

  /** Block Markdown (headings, lists, code fences, paragraphs) as a fragment. */
  function markdown(source) {
    const out = document.createDocumentFragment();
    const lines = String(source).replace(/\r\n?/g, '\n').split('\n');
    let para = null;
    let list = null;
    const flush = () => {
      if (para) out.append(h('p', null, inline(para.join(' '))));
      para = null;
      list = null;
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      let m;
      if (/^\s*```/.test(line)) {
        flush();
        const code = [];
        while (++i < lines.length && !/^\s*```/.test(lines[i])) code.push(lines[i]);
        out.append(h('pre', null, h('code', null, code.join('\n'))));
      } else if (!line.trim()) {
        flush();
      } else if ((m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line))) {
        flush();
        out.append(h('h4', null, inline(m[1])));
      } else if ((m = /^\s*(?:([-*+])|\d+[.)])\s+(.*)$/.exec(line))) {
        if (para) {
          out.append(h('p', null, inline(para.join(' '))));
          para = null;
        }
        const tag = m[1] ? 'ul' : 'ol';
        if (!list || list.tagName.toLowerCase() !== tag) out.append((list = h(tag, tag === 'ol' ? { class: 'md' } : null)));
        list.append(h('li', null, inline(m[2])));
      } else if (list && /^\s{2,}\S/.test(line)) {
        list.lastChild.append(' ', ...inline(line.trim()));
      } else {
        list = null;
        (para = para || []).push(line.trim());
      }
    }
    flush();
    return out;
  }

  const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

  class ChangelogFeed extends HTMLElement {
    static get observedAttributes() {
      return ['project', 'server', 'limit'];
    }

    constructor() {
      super();
      this.attachShadow({ mode: 'open' });
      this._generation = 0;
    }

    connectedCallback() {
      this._start();
    }

    attributeChangedCallback(_name, old, value) {
      if (old !== value && this.isConnected) this._start();
    }

    get _limit() {
      const n = Number.parseInt(this.getAttribute('limit') || '10', 10);
      return Number.isFinite(n) ? Math.min(100, Math.max(1, n)) : 10;
    }

    get _server() {
      return (this.getAttribute('server') || SCRIPT_ORIGIN).replace(/\/+$/, '');
    }

    get _storageKey() {
      return `changelog-feed:seen:${this._server}:${this.getAttribute('project')}`;
    }

    _start() {
      const project = this.getAttribute('project');
      const generation = ++this._generation;
      this._cursor = null;
      this._newest = null;
      const root = this.shadowRoot;
      root.replaceChildren();
      root.append(h('style', null, STYLE));
      this._title = h('h2', { part: 'title' }, 'Changelog');
      this._badge = h('span', { class: 'new', part: 'badge', hidden: true });
      this._list = h('ol', { part: 'list' });
      this._status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' }, 'Loading…');
      this._more = h('button', { type: 'button', part: 'more', hidden: true }, 'Load more');
      this._more.addEventListener('click', () => this._load(generation));
      root.append(h('section', { 'aria-labelledby': 'title' }, h('header', null, this._title, this._badge), this._list, this._status, this._more));
      this._title.id = 'title';
      if (!project) {
        this._status.textContent = 'No project given.';
        return;
      }
      try {
        this._lastSeen = localStorage.getItem(this._storageKey);
      } catch {
        this._lastSeen = null;
      }
      this._newCount = 0;
      this._load(generation);
    }

    async _load(generation) {
      const project = this.getAttribute('project');
      const params = new URLSearchParams({ limit: String(this._limit) });
      if (this._cursor) params.set('cursor', this._cursor);
      this._more.disabled = true;
      this._status.textContent = 'Loading…';
      let body;
      try {
        const res = await fetch(`${this._server}/v1/changelog/${encodeURIComponent(project)}?${params}`, { headers: { accept: 'application/json' } });
        if (!res.ok) throw new Error(res.status === 404 ? 'This changelog does not exist.' : `The changelog could not be loaded (${res.status}).`);
        body = await res.json();
      } catch (error) {
        if (generation !== this._generation) return;
        this._status.textContent = error instanceof Error && /changelog/.test(error.message) ? error.message : 'The changelog could not be loaded.';
        this._more.disabled = false;
        return;
      }
      if (generation !== this._generation) return;
      this._title.textContent = `${body.project && body.project.name ? body.project.name : project} changelog`;
      for (const entry of body.entries || []) this._list.append(this._entry(entry));
      this._cursor = body.meta && body.meta.next_cursor;
      this._more.hidden = !this._cursor;
      this._more.disabled = false;
      const shown = this._list.childElementCount;
      this._status.textContent = shown ? `${shown} ${shown === 1 ? 'entry' : 'entries'} shown.` : 'Nothing has been published yet.';
      this._remember(body.entries || []);
      this.dispatchEvent(new CustomEvent('changelog-loaded', { detail: { count: shown, hasMore: Boolean(this._cursor) } }));
    }

    /** Counts entries newer than the last visit and stores the newest date seen, for next time. */
    _remember(entries) {
      for (const entry of entries) {
        if (this._lastSeen && entry.published_at && entry.published_at > this._lastSeen) this._newCount++;
        if (entry.published_at && (!this._newest || entry.published_at > this._newest)) this._newest = entry.published_at;
      }
      this._badge.hidden = this._newCount === 0;
      this._badge.textContent = `${this._newCount} new since your last visit`;
      try {
        const stored = localStorage.getItem(this._storageKey);
        if (this._newest && (!stored || this._newest > stored)) localStorage.setItem(this._storageKey, this._newest);
      } catch {
        /* storage unavailable (privacy mode): no badge, nothing else lost */
      }
    }

    _entry(entry) {
      const json = entry.generated_json;
      const isNew = Boolean(this._lastSeen && entry.published_at && entry.published_at > this._lastSeen);
      const title = entry.title || (json && json.title) || entry.version_label || 'Changes';
      const date = entry.published_at ? new Date(entry.published_at) : null;
      const body = [];
      if (json && (json.headline_items.length || json.sections.length)) {
        if (json.headline_items.length) {
          body.push(h('ul', { class: 'headlines' }, json.headline_items.map((item) =>
            h('li', null, h('span', { class: 'headline' }, inline(item.title)), item.body ? h('p', null, inline(item.body)) : null))));
        }
        for (const section of json.sections) {
          body.push(h('h4', null, section.label));
          body.push(h('ul', null, section.items.map((item) =>
            h('li', null, item.component ? h('span', { class: 'component' }, `${item.component}: `) : null, inline(item.text)))));
        }
      } else if (entry.content) {
        body.push(markdown(entry.content));
      }
      return h('li', null, h('article', { part: 'entry', 'data-id': entry.id },
        h('h3', null, title, isNew ? h('span', { class: 'new', part: 'new' }, 'New') : null),
        h('p', { class: 'meta' },
          entry.version_label ? h('span', { class: 'version' }, entry.version_label) : null,
          date ? h('time', { datetime: entry.published_at }, DATE.format(date)) : null),
        body));
    }
  }

  customElements.define('changelog-feed', ChangelogFeed);
})();
