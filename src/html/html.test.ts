import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, trusted } from './html.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const reference = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

describe('html templates', () => {
  it('escapes interpolated text, attributes and nested lists', () => {
    const name = `<script>alert("x")</script>' & more`;
    const out = html`<p title="${name}">${name}</p>${[html`<i>${'<b>'}</i>`, null, false]}`.value;
    expect(out).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &amp; more">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &amp; more</p><i>&lt;b&gt;</i>',
    );
  });

  it('keeps trusted markup as is', () => {
    expect(html`<div>${trusted('<em>ok</em>')}</div>`.value).toBe('<div><em>ok</em></div>');
  });

  it('escapes long text (byte by byte) exactly as short text', () => {
    for (const s of ['&<>"\''.repeat(1000), `${'é<ü>😀&\n'.repeat(500)}`, 'plain '.repeat(1000)]) expect(escapeHtml(s)).toBe(reference(s));
    const long = (unit: fc.Arbitrary<string>) => fc.string({ unit, minLength: 1000, maxLength: 3000 });
    fc.assert(fc.property(long(fc.constantFrom('&', '<', '>', '"', "'", 'a', 'é', '😀', '\n')), (s) => escapeHtml(s) === reference(s)), { numRuns: 200 });
    // Any well-formed text (a lone surrogate cannot reach the wire as it is either way).
    fc.assert(fc.property(fc.string({ unit: 'grapheme', minLength: 300, maxLength: 1500 }), (s) => escapeHtml(s) === reference(s)), { numRuns: 200 });
  });
});
