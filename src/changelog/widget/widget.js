/*!
 * <changelog-feed> — an embeddable changelog, served at /widget.js. No dependencies, no build.
 *
 *   <script src="https://changes.example.com/widget.js" defer></script>
 *   <changelog-feed project="acme-app" limit="10"></changelog-feed>
 *
 * Attributes: project (slug, required), server (defaults to where this script came from),
 * limit (entries per page, 1–100, default 10), and which entries to show, one kind at a time as on
 * the project's public page (so that one change is not shown as its commit, in its week and in its
 * month): by default the project's default view (its setting, else its release notes when it has
 * published any, else weekly, monthly, daily or every change, whichever it has published);
 *   view="releases"                                   release notes, newest release first
 *   view="weekly" | "monthly" | "daily" | "commit"   only entries of that type
 *   view="all"                                        every entry, all types interleaved
 *   type="weekly" (or daily, monthly, commit)         the same as view="weekly"; view wins if both are set
 * Theme with CSS custom properties on the element:
 * --changelog-accent, --changelog-text, --changelog-muted, --changelog-bg, --changelog-border,
 * --changelog-radius, --changelog-font, --changelog-new-bg, --changelog-new-text.
 *
 * Titles and items render their inline Markdown (code spans, emphasis, links); dates are a rollup's
 * period start or a release's date, in the reader's locale.
 *
 * Safety: entry text comes from commit messages. Nothing is ever parsed as HTML here: Markdown is
 * turned into DOM nodes whose text is set with text nodes, backslash escapes are honoured, links
 * keep only http(s) and mailto, and parsing takes time linear in the text.
 */
(() => {
  'use strict';

  /** Only web and mail links survive; anything else (javascript:, data:, relative tricks) becomes plain text. */
  function safeHref(raw) {
    try {
      const url = new URL(raw);
      return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:' ? url.href : null;
    } catch {
      return null;
    }
  }

  // Markdown becomes a tree of plain objects ({t: tag, a: attributes, c: children}, or strings), made
  // into DOM nodes later. Linear in the input whatever it holds (runs of brackets, asterisks or
  // backticks: every character is scanned a bounded number of times). Backslash escapes are honoured:
  // the server escapes commit text, so `\[x\](https://…)` from a commit stays text, and a link is
  // only ever Markdown the server or a person wrote. Code spans bind first, then links, then emphasis.
  const SPECIAL = /[\\`*_[\]]/g;
  const PUNCT = /[!-/:-@[-`{-~]/;
  const MAX_NESTING = 16;
  const isSpace = (c) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0';
  const isWord = (c) => {
    const k = c.charCodeAt(0) | 32; // ASCII letters and digits without a regular expression: the common case
    return c < '\u0080' ? (k >= 97 && k <= 122) || (c >= '0' && c <= '9') : /[\p{L}\p{N}]/u.test(c);
  };

  /** Inline Markdown (code, strong, emphasis, and links unless `noLinks`) as tree nodes. */
  function inline(source, noLinks) {
    const s = String(source);
    // Backtick runs by length: a code span closes at the next run of the same length (pointers only move forward).
    const runs = new Map();
    for (let i = s.indexOf('`'); i >= 0; i = s.indexOf('`', i)) {
      const start = i;
      while (s[i] === '`') i++;
      if (!runs.has(i - start)) runs.set(i - start, { at: [], k: 0 });
      runs.get(i - start).at.push(start);
    }
    const closer = (from, n) => {
      const run = runs.get(n);
      if (!run) return -1;
      while (run.k < run.at.length && run.at[run.k] < from) run.k++;
      return run.k < run.at.length ? run.at[run.k] : -1;
    };
    // Delimiters stay text in `out` until matched, when their slot becomes the node.
    const out = [];
    const emphKind = []; // open emphasis, innermost last: its run and its index in out
    const emphAt = [];
    const bracketAt = []; // open `[`: its index in out, and the emphasis depth then
    const bracketEmph = [];
    const floor = { '*': 0, '**': 0, _: 0, __: 0 }; // below this depth, no opener of the kind can match
    const lower = (depth) => {
      for (const kind in floor) if (floor[kind] > depth) floor[kind] = depth;
    };
    const delim = (run, start, end) => {
      if (run.length > 2) return void out.push(run);
      const before = start ? s[start - 1] : ' ';
      const after = end < s.length ? s[end] : ' ';
      const star = run[0] === '*';
      // Underscores only at word boundaries, as in CommonMark: snake_case_names stay as they are.
      const canOpen = !isSpace(after) && (star || !isWord(before));
      const canClose = !isSpace(before) && (star || !isWord(after));
      if (canClose) {
        const bottom = Math.max(floor[run], bracketEmph.length ? bracketEmph[bracketEmph.length - 1] : 0);
        for (let k = emphKind.length - 1; k >= bottom; k--) {
          if (emphKind[k] !== run) continue;
          const at = emphAt[k];
          out[at] = { t: run.length === 2 ? 'strong' : 'em', c: out.splice(at + 1) };
          emphKind.length = emphAt.length = k;
          lower(k);
          return;
        }
        floor[run] = emphKind.length;
      }
      if (canOpen && emphKind.length < MAX_NESTING) {
        emphKind.push(run);
        emphAt.push(out.length);
      }
      out.push(run);
    };
    let from = 0;
    for (;;) {
      SPECIAL.lastIndex = from;
      const m = SPECIAL.exec(s);
      if (!m) break;
      let i = m.index;
      if (i > from) out.push(s.slice(from, i));
      const ch = s[i];
      if (ch === '\\') {
        if (PUNCT.test(s[i + 1] || '')) {
          out.push(s[i + 1]);
          i += 2;
        } else out.push(s[i++]);
      } else if (ch === '`') {
        let j = i;
        while (s[j] === '`') j++;
        const end = closer(j, j - i);
        if (end < 0) out.push(s.slice(i, j));
        else {
          let code = s.slice(j, end);
          if (code.length > 1 && code[0] === ' ' && code[code.length - 1] === ' ' && code.trim()) code = code.slice(1, -1);
          out.push({ t: 'code', c: [code] });
          j = end + j - i;
        }
        i = j;
      } else if (ch === '*' || ch === '_') {
        let j = i;
        while (s[j] === ch) j++;
        delim(s.slice(i, j), i, j);
        i = j;
      } else if (ch === '[') {
        // Without links, brackets are text and bound nothing.
        if (!noLinks) {
          bracketAt.push(out.length);
          bracketEmph.push(emphKind.length);
        }
        out.push('[');
        i++;
      } else {
        // `]`: a link when a `[` is open and an unescaped `(url)` follows at once.
        const open = bracketAt.length ? bracketAt.pop() : -1;
        bracketEmph.length = bracketAt.length;
        let j = i + 1;
        if (open >= 0 && s[j] === '(') while (++j < s.length && !/[\s()<>[\]`\\]/.test(s[j]));
        const url = open >= 0 && s[i + 1] === '(' && s[j] === ')' && j > i + 2 ? s.slice(i + 2, j) : null;
        if (url === null) {
          out.push(']');
          i++;
        } else {
          // Emphasis does not cross the link's edges, and links do not nest.
          while (emphAt.length && emphAt[emphAt.length - 1] > open) emphKind.length = --emphAt.length;
          lower(emphKind.length);
          bracketAt.length = bracketEmph.length = 0;
          const href = safeHref(url);
          const children = out.splice(open + 1);
          out[open] = href ? { t: 'a', a: { href, rel: 'noopener noreferrer nofollow' }, c: children } : { c: children };
          i = j + 1;
        }
      }
      from = i;
    }
    if (from < s.length) out.push(s.slice(from));
    return finish(out);
  }

  /** Neighbouring texts as one string (delimiters that matched nothing are text already). */
  function finish(list) {
    const done = [];
    let texts = [];
    for (const item of list) {
      if (typeof item === 'string') texts.push(item);
      else {
        if (texts.length) done.push(texts.join(''));
        texts = [];
        item.c = finish(item.c);
        done.push(item);
      }
    }
    if (texts.length) done.push(texts.join(''));
    return done;
  }

  /** Strips a heading's optional closing `#`s (without a backtracking regular expression). */
  function headingText(text) {
    const t = text.trimEnd();
    let k = t.length;
    while (k && t[k - 1] === '#') k--;
    return (k === 0 || t[k - 1] === ' ' || t[k - 1] === '\t' ? t.slice(0, k) : t).trimEnd();
  }

  /** Block Markdown (headings, lists, code fences, paragraphs) as tree nodes. */
  function markdown(source) {
    const out = [];
    const lines = String(source).replace(/\r\n?/g, '\n').split('\n');
    let para = null;
    let list = null;
    const paragraph = () => {
      if (para) out.push({ t: 'p', c: inline(para.join(' ')) });
      para = null;
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      let m;
      if (/^\s*```/.test(line)) {
        paragraph();
        list = null;
        const code = [];
        while (++i < lines.length && !/^\s*```/.test(lines[i])) code.push(lines[i]);
        out.push({ t: 'pre', c: [{ t: 'code', c: [code.join('\n')] }] });
      } else if (!line.trim()) {
        paragraph();
        list = null;
      } else if ((m = /^#{1,6}\s+(.*)$/.exec(line))) {
        paragraph();
        list = null;
        out.push({ t: 'h4', c: inline(headingText(m[1])) });
      } else if ((m = /^\s*(?:([-*+])|\d+[.)])\s+(.*)$/.exec(line))) {
        paragraph();
        const tag = m[1] ? 'ul' : 'ol';
        if (!list || list.t !== tag) out.push((list = { t: tag, a: tag === 'ol' ? { class: 'md' } : null, c: [] }));
        list.c.push({ t: 'li', c: inline(m[2]) });
      } else if (list && /^\s{2,}\S/.test(line)) {
        const item = list.c[list.c.length - 1].c; // appended in place: copying would be quadratic in the lines
        item.push(' ');
        for (const node of inline(line.trim())) item.push(node);
      } else {
        list = null;
        (para = para || []).push(line.trim());
      }
    }
    paragraph();
    return out;
  }

  if (typeof customElements === 'undefined') {
    // Outside a browser (the unit tests run this file in node:vm) the parser is all there is.
    if (typeof changelogFeedParser === 'function') changelogFeedParser({ inline, markdown }); // eslint-disable-line no-undef
    return;
  }
  if (customElements.get('changelog-feed')) return;

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
.kind{color:var(--changelog-muted,#4a5260);font-size:.9em}
.explanation{color:var(--changelog-muted,#4a5260)}
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

  /** Tree nodes from inline() and markdown() as DOM nodes (a node without a tag is its children). */
  function build(node) {
    if (typeof node === 'string') return node;
    if (node.t) return h(node.t, node.a, node.c.map(build));
    const fragment = document.createDocumentFragment();
    for (const child of node.c) fragment.append(build(child));
    return fragment;
  }

  // The reader's locale; in UTC, as periods start at midnight UTC (a week of 4 March is not "3 March" in New York).
  const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
  // What GET /v1/changelog/{slug}?view= accepts, and releases (GET /v1/changelog/{slug}/releases); the types are also what `type` accepts.
  const TYPES = ['weekly', 'monthly', 'daily', 'commit'];
  const VIEWS = ['default', 'releases', 'all', ...TYPES];

  /**
   * A title or an item (commit text as written) as DOM nodes: code spans and emphasis, but a link
   * stays text, as the server shows it: a commit's author never links readers elsewhere.
   */
  const inlineNodes = (text) => inline(text, true).map(build);

  /** The date an entry is shown with: a rollup's period start, else when it was published. */
  function entryDate(entry) {
    const at = entry.entry_type !== 'commit' && entry.period_start ? entry.period_start : entry.published_at;
    return at ? { iso: at, date: new Date(at) } : null;
  }

  class ChangelogFeed extends HTMLElement {
    static get observedAttributes() {
      return ['project', 'server', 'limit', 'view', 'type'];
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

    /** The view asked for: `view`, else `type`, else the project's default; null when neither is one the API knows. */
    get _view() {
      const view = this.getAttribute('view');
      const type = this.getAttribute('type');
      if (view !== null) return VIEWS.includes(view) ? view : null;
      if (type !== null) return TYPES.includes(type) ? type : null;
      return 'default';
    }

    get _storageKey() {
      return `changelog-feed:seen:${this._server}:${this.getAttribute('project')}`;
    }

    _start() {
      const project = this.getAttribute('project');
      const generation = ++this._generation;
      this._cursor = null;
      this._newest = null;
      // `default` is resolved by the first page (meta.view); later pages ask for that very view.
      this._pageView = this._view;
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
      if (!this._pageView) {
        this._status.textContent = `Unknown view: use view="${VIEWS.join('", "')}" or type="${TYPES.join('", "')}".`;
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
      const releases = this._pageView === 'releases';
      const params = new URLSearchParams({ limit: String(this._limit) });
      if (!releases) params.set('view', this._pageView);
      if (this._cursor) params.set('cursor', this._cursor);
      this._more.disabled = true;
      this._status.textContent = 'Loading…';
      let body;
      try {
        const path = `${this._server}/v1/changelog/${encodeURIComponent(project)}${releases ? '/releases' : ''}?${params}`;
        const res = await fetch(path, { headers: { accept: 'application/json' } });
        if (!res.ok) throw new Error(res.status === 404 ? 'This changelog does not exist.' : `The changelog could not be loaded (${res.status}).`);
        body = await res.json();
      } catch (error) {
        if (generation !== this._generation) return;
        this._status.textContent = error instanceof Error && /changelog/.test(error.message) ? error.message : 'The changelog could not be loaded.';
        this._more.disabled = false;
        return;
      }
      if (generation !== this._generation) return;
      // The project's page opens on its release notes: so does the widget (a second request, once).
      if (!releases && !this._cursor && body.meta && body.meta.default_view === 'releases') {
        this._pageView = 'releases';
        return this._load(generation);
      }
      this._title.textContent = `${body.project && body.project.name ? body.project.name : project} ${releases ? 'releases' : 'changelog'}`;
      const items = releases ? body.releases || [] : body.entries || [];
      for (const item of items) this._list.append(releases ? this._release(item) : this._entry(item));
      this._cursor = body.meta && body.meta.next_cursor;
      if (body.meta && body.meta.view) this._pageView = body.meta.view;
      this._more.hidden = !this._cursor;
      this._more.disabled = false;
      const shown = this._list.childElementCount;
      const noun = releases ? (shown === 1 ? 'release' : 'releases') : shown === 1 ? 'entry' : 'entries';
      this._status.textContent = shown ? `${shown} ${noun} shown.` : 'Nothing has been published yet.';
      this._remember(items);
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

    /**
     * The structured form as the public page shows an entry: each change once, under its section.
     * Headline items are a selection of those same changes (a commit entry's one change, a rollup's
     * most significant ones), so they are not listed again; a breaking change's explanation, which
     * only they carry, goes under its item. A commit entry's one change is its title: only its
     * section (and component) is added.
     */
    _structured(json, title) {
      const explained = new Map();
      for (const item of json.headline_items) if (item.section_type_key === 'breaking' && item.body) explained.set(item.title, item.body);
      const items = json.sections.flatMap((section) => section.items.map((item) => ({ section, item })));
      const component = (item) => (item.component ? h('span', { class: 'component' }, `${item.component}: `) : null);
      const explanation = (section, item) =>
        section.section_type_key === 'breaking' && explained.has(item.text) ? h('p', { class: 'explanation' }, inlineNodes(explained.get(item.text))) : null;
      if (items.length === 1 && items[0].item.text === title) {
        const { section, item } = items[0];
        return [h('p', { class: 'kind' }, section.label, item.component ? ` · ${item.component}` : null), explanation(section, item)];
      }
      if (!items.length) {
        // Nothing but headlines (an entry someone imported so): they are all there is to show.
        return [h('ul', null, json.headline_items.map((item) => h('li', null, inlineNodes(item.title), item.body ? h('p', null, inlineNodes(item.body)) : null)))];
      }
      return json.sections.flatMap((section) => [
        h('h4', null, section.label),
        h('ul', null, section.items.map((item) => h('li', null, component(item), inlineNodes(item.text), explanation(section, item)))),
      ]);
    }

    _entry(entry) {
      const json = entry.generated_json;
      const isNew = Boolean(this._lastSeen && entry.published_at && entry.published_at > this._lastSeen);
      const title = entry.title || (json && json.title) || entry.version_label || 'Changes';
      return this._article(entry, title, entry.version_label, entryDate(entry), isNew);
    }

    /** A release note (view="releases"): its title, version and release date, then its changes as an entry's. */
    _release(release) {
      const isNew = Boolean(this._lastSeen && release.published_at && release.published_at > this._lastSeen);
      const date = release.released_at ? { iso: release.released_at, date: new Date(release.released_at) } : null;
      const title = release.title || release.tag || 'Unreleased';
      // "v1.1.0" needs no "1.1.0" chip beside it.
      return this._article(release, title, release.version && !title.includes(release.version) ? release.version : null, date, isNew);
    }

    /** The structured form when there is one, else the Markdown content; the title and items as inline Markdown. */
    _article(item, title, version, date, isNew) {
      const json = item.generated_json;
      let body = [];
      // A release note's introduction (its editor's Markdown) comes before its changes.
      const intro = item.introduction ? markdown(item.introduction).map(build) : [];
      if (json && (json.headline_items.length || json.sections.length)) {
        body = [...intro, ...this._structured(json, title)];
      } else if (item.content) {
        for (const block of markdown(item.content)) body.push(build(block));
      }
      return h('li', null, h('article', { part: 'entry', 'data-id': item.id },
        h('h3', null, inlineNodes(title), isNew ? h('span', { class: 'new', part: 'new' }, 'New') : null),
        h('p', { class: 'meta' },
          version ? h('span', { class: 'version' }, version) : null,
          date ? h('time', { datetime: date.iso }, DATE.format(date.date)) : null),
        body));
    }
  }

  customElements.define('changelog-feed', ChangelogFeed);
})();
