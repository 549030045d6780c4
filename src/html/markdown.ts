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
