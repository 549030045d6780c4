import type { ErrorDetail } from '../../errors.js';
import { documentHead, html, type Html, type Part } from '../../html/html.js';

export interface Viewer {
  name: string;
  email: string;
}

export interface PageContext {
  /** The signed-in user, or null on the sign-in and sign-up pages. */
  viewer: Viewer | null;
  csrf: string;
  assets: { css: string; js: string };
  /** Which top-level navigation item is current. */
  section?: 'overview' | 'github' | 'account';
  notice?: { kind: 'ok' | 'error' | 'warn'; text: string } | undefined;
}

export function layout(ctx: PageContext, title: string, body: Html): Html {
  const current = (section: PageContext['section']) => (ctx.section === section ? html` aria-current="page"` : '');
  const head = html`<meta name="referrer" content="no-referrer">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${ctx.assets.css}">
<script src="${ctx.assets.js}" defer></script>`;
  return html`${documentHead(`${title} · Changelog`, head)}
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="topbar"><div class="inner">
  <a class="brand" href="/dashboard">Changelog<span>.</span></a>
  ${
    ctx.viewer
      ? html`<nav aria-label="Main">
    <a href="/dashboard"${current('overview')}>Overview</a>
    <a href="/dashboard/settings/github"${current('github')}>GitHub</a>
    <a href="/dashboard/account"${current('account')}>${ctx.viewer.name}</a>
    <form method="post" action="/logout">${csrfField(ctx)}<button type="submit">Sign out</button></form>
  </nav>`
      : ''
  }
</div></header>
<main id="main">
${ctx.notice ? html`<div class="notice ${ctx.notice.kind}" role="${ctx.notice.kind === 'error' ? 'alert' : 'status'}">${ctx.notice.text}</div>` : ''}
${body}
</main>
<footer>Changelog service · <a href="/docs">API reference</a></footer>
</body>
</html>`;
}

export const csrfField = (ctx: { csrf: string }) => html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`;

/** A labelled input with its error message wired up for assistive technology. */
export function field(options: {
  name: string;
  label: string;
  value?: string | undefined;
  type?: string;
  errors?: ErrorDetail[] | undefined;
  hint?: string | Html;
  required?: boolean;
  autocomplete?: string;
  attrs?: Html;
}): Html {
  const id = `f-${options.name}`;
  const error = options.errors?.find((d) => d.parameter === options.name)?.message;
  const described = [options.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div>
  <label for="${id}">${options.label}</label>
  <input id="${id}" name="${options.name}" type="${options.type ?? 'text'}" value="${options.value ?? ''}"${
    options.required ? html` required` : ''
  }${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${described ? html` aria-describedby="${described}"` : ''}${
    error ? html` aria-invalid="true"` : ''
  }${options.attrs ?? ''}>
  ${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : ''}
  ${error ? html`<p class="field-error" id="${id}-error">${capitalize(options.label)} ${error}</p>` : ''}
</div>`;
}

export function formErrors(message: string | undefined, details?: ErrorDetail[], known: string[] = []): Part {
  if (!message) return '';
  const others = (details ?? []).filter((d) => !d.parameter || !known.includes(d.parameter));
  return html`<div class="notice error" role="alert">${message}${
    others.length ? html`<ul>${others.map((d) => html`<li>${d.parameter ? `${d.parameter} ` : ''}${d.message}</li>`)}</ul>` : ''
  }</div>`;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

export function when(date: Date | null | undefined, never = '—'): Html {
  if (!date) return html`<span class="muted">${never}</span>`;
  return html`<time datetime="${date.toISOString()}">${DATE.format(date)} UTC</time>`;
}

/** A number as lists show it (thousands separated). */
export const count = (n: number) => n.toLocaleString('en');

/** An <option>, selected when it is the current value. */
export const option = (value: string, label: string, selected: string) =>
  html`<option value="${value}"${value === selected ? html` selected` : ''}>${label}</option>`;

/** A filtered list's URL: `path` with the filter `raw` and the given overrides (empty values left out). */
export function filteredUrl(path: string, raw: object, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...raw, ...extra })) if (typeof v === 'string' && v) params.set(k, v);
  const query = params.toString();
  return `${path}${query ? `?${query}` : ''}`;
}

/** The head of a project's page: where it sits, its title, and the project's other editorial pages. */
export const projectPageHead = (ws: { base: string; label: string }, project: { slug: string; name: string }, title: string, links: Html) =>
  html`<div class="crumbs"><a href="/dashboard">Overview</a> / <a href="${ws.base}">${ws.label}</a> / <a href="/dashboard/projects/${project.slug}">${project.name}</a> /</div>
<h1>${title}</h1>
<p class="subtitle">${links}</p>`;

/** A list's "all N matching this filter" choice for its bulk actions, refused above `limit`. */
export function allMatching(total: number, limit: number): Part {
  if (!total) return '';
  const tooMany = total > limit;
  return html`<label class="check"><input type="checkbox" name="scope" value="matching"${tooMany ? html` disabled` : ''}> all ${count(total)} matching this filter${
    tooMany ? html` <span class="muted">(at most ${count(limit)} at once: narrow the filter)</span>` : ''
  }</label>`;
}
