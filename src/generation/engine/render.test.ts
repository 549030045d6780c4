import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, plainText, renderMarkdown } from './render.js';
import type { GeneratedJson } from './types.js';

const json = (text: string, extra: Partial<GeneratedJson> = {}): GeneratedJson => ({
  title: 't',
  headline_items: [],
  sections: [{ section_type_key: 'fix', label: 'Bug fixes', items: [{ text, component: null }] }],
  component_tags: [],
  team_attribution: null,
  ...extra,
});

// A CommonMark renderer that passes raw HTML through, as a careless consumer's page might.
const commonmark = new MarkdownIt({ html: true, linkify: false });
const html = (text: string) => commonmark.renderInline(escapeMarkdown(text));

describe('escaping commit text', () => {
  it('lets no raw HTML through', () => {
    const out = escapeMarkdown('Fix <script>alert(1)</script> and <img src=x onerror=alert(1)>');
    expect(out).toBe('Fix \\<script\\>alert(1)\\</script\\> and \\<img src=x onerror=alert(1)\\>');
    expect(html('Fix <script>alert(1)</script> and <img src=x onerror=alert(1)>')).toBe(
      'Fix &lt;script&gt;alert(1)&lt;/script&gt; and &lt;img src=x onerror=alert(1)&gt;',
    );
  });

  it('renders hostile messages as their literal text: no tag, link or image comes out', () => {
    const hostile = [
      '<a href="javascript:alert(1)">x</a>',
      '[click](javascript:alert(1))',
      '[ref]: https://evil.example',
      '![x](https://evil.example/p.png)',
      '<https://evil.example>',
      '`x` <b>bold</b> `<i>fine</i>`',
      '**strong** _em_ ~~del~~',
      '&#60;script&#62;',
      'x\u0000<svg onload=alert(1)>',
    ];
    for (const text of hostile) {
      const out = html(text);
      expect(out, text).not.toMatch(/<(?!\/?code>)[a-z]/i);
      expect(out, text).not.toMatch(/<a\s/);
      expect(out, text).not.toContain('<img');
    }
    expect(html('`<i>fine</i>`')).toBe('<code>&lt;i&gt;fine&lt;/i&gt;</code>');
  });

  it('defuses links, images, autolinks and entities', () => {
    expect(escapeMarkdown('[click](javascript:alert(1))')).toBe('\\[click\\](javascript:alert(1))');
    expect(escapeMarkdown('![x](https://evil.example/p.png)')).toBe('!\\[x\\](https://evil.example/p.png)');
    expect(escapeMarkdown('<https://evil.example>')).toBe('\\<https://evil.example\\>');
    expect(escapeMarkdown('&lt;b&gt;')).toBe('\\&lt;b\\&gt;');
    expect(escapeMarkdown('a_b *c* ~d~ | e \\ f')).toBe('a\\_b \\*c\\* \\~d\\~ \\| e \\\\ f');
  });

  it('keeps balanced code spans as they are (their content is literal)', () => {
    expect(escapeMarkdown('Add `ignore_tags` option')).toBe('Add `ignore_tags` option');
    expect(escapeMarkdown('Print `<div>` as-is, not <div>')).toBe('Print `<div>` as-is, not \\<div\\>');
    expect(escapeMarkdown('Unbalanced ` tick <b>')).toBe('Unbalanced \\` tick \\<b\\>');
  });

  it('strips control and bidi characters and folds lines', () => {
    expect(plainText('a\u0000b\u001b[31mc\u202Ed\u2066e\nf\r\ng\tend')).toBe('ab[31mcde f g end');
    expect(escapeMarkdown('line one\n# not a heading\n- not an item')).toBe('line one # not a heading - not an item');
  });
});

describe('plain text', () => {
  // What plainText did before it learned to return clean text untouched.
  // eslint-disable-next-line no-control-regex -- the reference strips control characters too
  const reference = (text: string) => text.replace(/[\t\n\r\f\v]+/g, ' ').replace(/[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, '').replace(/ {2,}/g, ' ').trim();

  it('returns clean text as it is and cleans the rest exactly as before', () => {
    const tricky = fc.constantFrom(' ', '  ', '\t', '\n', '\r', '\u0000', '\u0085', '\u00a0', '\u200e', '\u202e', '\u2028', '\u3000', '\ufeff', 'a', 'b', '`');
    const text = fc.oneof(fc.string(), fc.array(tricky, { maxLength: 12 }).map((parts) => parts.join('')), fc.string({ unit: 'grapheme' }));
    fc.assert(fc.property(text, (t) => {
      expect(plainText(t)).toBe(reference(t));
    }), { numRuns: 5000 });
    const clean = 'Fix `parseQuery()` for a[b] (#12)';
    expect(plainText(clean)).toBe(clean);
  });
});

describe('Markdown rendering', () => {
  it('renders sections, components, breaking notes and attribution, deterministically', () => {
    const input: GeneratedJson = {
      title: 'Week',
      headline_items: [{ section_type_key: 'breaking', title: 'Drop Node 18', body: 'Use Node 20 <or later>' }],
      sections: [
        { section_type_key: 'breaking', label: 'Breaking changes', items: [{ text: 'Drop Node 18', component: 'cli' }] },
        { section_type_key: 'feature', label: 'Features', items: [{ text: 'Add `--json` (#12)', component: null }, { text: 'Support *globs*', component: 'core' }] },
      ],
      component_tags: ['cli', 'core'],
      team_attribution: 'Al, Bea and 2 others',
    };
    const expected = [
      '### Breaking changes',
      '',
      '- **cli:** Drop Node 18',
      '  Use Node 20 \\<or later\\>',
      '',
      '### Features',
      '',
      '- Add `--json` (#12)',
      '- **core:** Support \\*globs\\*',
      '',
      '_By Al, Bea and 2 others_',
      '',
    ].join('\n');
    expect(renderMarkdown(input)).toBe(expected);
    expect(renderMarkdown(structuredClone(input))).toBe(expected);
  });

  it('links PR numbers only through the configured URL template', () => {
    const md = renderMarkdown(json('Fix x (#804) (#1121)'), { pullRequestUrl: 'https://github.com/o/r/pull/{number}' });
    expect(md).toContain('- Fix x ([#804](https://github.com/o/r/pull/804)) ([#1121](https://github.com/o/r/pull/1121))');
    expect(renderMarkdown(json('Fix x (#5)'))).toContain('- Fix x (#5)');
  });

  it('escapes components and attribution too', () => {
    const md = renderMarkdown(json('x', { sections: [{ section_type_key: 'fix', label: 'Fixes', items: [{ text: 'x', component: '<b>' }] }], team_attribution: '<i>me</i>' }));
    expect(md).toContain('**\\<b\\>:**');
    expect(md).toContain('_By \\<i\\>me\\</i\\>_');
  });
});
