import MarkdownIt from 'markdown-it';
import { trusted, type Html } from './html.js';

// Commit text is untrusted: raw HTML is escaped, and markdown-it's link validation refuses
// javascript:, vbscript:, file: and most data: URLs.
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

export function renderMarkdown(source: string): Html {
  return trusted(md.render(source));
}
