/** Markup that is already safe to send; everything else is escaped on interpolation. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Part = Html | string | number | boolean | null | undefined | Part[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text longer than this is escaped byte by byte (escapeLongText); shorter text by a regular expression. */
const LONG_TEXT = 1024;

export function escapeHtml(text: string): string {
  return text.length > LONG_TEXT ? escapeLongText(text) : text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** escapeLongText's replacements, and for each byte the index of its replacement + 1 (0: kept as it is). */
const ENTITIES = ['&amp;', '&lt;', '&gt;', '&quot;', '&#39;'].map((e) => Buffer.from(e));
const ENTITY_OF = new Uint8Array(256);
['&', '<', '>', '"', "'"].forEach((c, i) => (ENTITY_OF[c.charCodeAt(0)] = i + 1));

/**
 * escapeHtml for long text (an entry's content, up to a megabyte, on the event loop): the same output
 * (a lone surrogate becomes U+FFFD, as it would on the wire anyway), several times faster where most
 * characters need escaping: the regular expression's callback per match cost ~100 ms a megabyte of `<`.
 */
function escapeLongText(text: string): string {
  if (!/[&<>"']/.test(text)) return text;
  const src = Buffer.from(text, 'utf8');
  let size = src.length;
  for (let i = 0; i < src.length; i++) {
    const entity = ENTITY_OF[src[i]!]!;
    if (entity) size += ENTITIES[entity - 1]!.length - 1;
  }
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    const entity = ENTITY_OF[c]!;
    if (entity === 0) out[o++] = c;
    else {
      const bytes = ENTITIES[entity - 1]!;
      for (let j = 0; j < bytes.length; j++) out[o++] = bytes[j]!;
    }
  }
  return out.toString('utf8');
}

function render(part: Part): string {
  if (part === null || part === undefined || part === false || part === true) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/** Tagged template: interpolated values are HTML-escaped unless they are already `Html`. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Trusted markup (e.g. markdown-it output with raw HTML disabled). */
export const trusted = (markup: string) => new Html(markup);

/** The start every HTML document of ours shares, through `</head>`: `head` is the rest of the head after the title. */
export function documentHead(title: string, head: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${head}
</head>`;
}
