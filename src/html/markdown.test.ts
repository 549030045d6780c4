import { describe, expect, it } from 'vitest';
import { markdownAsText, renderMarkdown } from './markdown.js';

describe('Markdown preview', () => {
  it('renders Markdown and escapes raw HTML and script links', () => {
    const out = renderMarkdown('## Fixes\n\n- **api:** faster\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>').value;
    expect(out).toContain('<h2>Fixes</h2>');
    expect(out).toContain('<strong>api:</strong> faster');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('href="javascript:');
  });
});

describe('Markdown shown as text', () => {
  it('is the source, escaped, in a <pre>', () => {
    expect(markdownAsText(`<script>alert("x")</script> & 'y'\n\n**b**`).value).toBe(
      '<pre class="markdown-text">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;\n\n**b**</pre>\n',
    );
  });
});
