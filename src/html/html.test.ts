import { describe, expect, it } from 'vitest';
import { html, trusted } from './html.js';

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
});
