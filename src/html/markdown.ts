import MarkdownIt from 'markdown-it';
import { escapeHtml, trusted, type Html } from './html.js';

// Commit text is untrusted: raw HTML is escaped, and markdown-it's link validation refuses
// javascript:, vbscript:, file: and most data: URLs.
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

/**
 * Markdown as HTML, in the calling thread. markdown-it is linear but costly on crafted input (about
 * 1.7 µs of CPU a character, 1.7 s for a 1 MB entry), so request handlers go through a
 * MarkdownRenderer (markdown-thread.ts), which calls this only for small sources.
 */
export function renderMarkdown(source: string): Html {
  return trusted(md.render(source));
}

/** The source shown as it is, escaped, when rendering it would cost too much. */
export function markdownAsText(source: string): Html {
  return trusted(`<pre class="markdown-text">${escapeHtml(source)}</pre>\n`);
}

// Titles and items are commit text as written: code spans and emphasis render, but a link or an
// image stays text, as in content (the generator escapes them there): a commit's author never
// links readers elsewhere nor loads a picture from their server.
const mdInline = new MarkdownIt({ html: false, linkify: false, typographer: false }).disable(['link', 'image', 'autolink']);

/**
 * One line of inline Markdown (a title, an item) as HTML: code spans and emphasis; raw HTML escaped,
 * links and images left as text. Block syntax stays text.
 */
export function renderInlineMarkdown(source: string): Html {
  return trusted(mdInline.renderInline(source));
}

/** A line shown as it is, escaped, when rendering it would cost too much. */
export function inlineAsText(source: string): Html {
  return trusted(escapeHtml(source));
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * The text of rendered inline HTML (renderInlineMarkdown, inlineAsText): the tags dropped, the
 * entities those write decoded. For places that take plain text (a document's <title>, JSON Feed titles).
 */
export function inlineHtmlText(rendered: Html): string {
  return rendered.value.replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
}
