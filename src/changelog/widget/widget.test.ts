import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../generation/engine/render.js';
import type { GeneratedJson } from '../../generation/engine/types.js';
import { WIDGET_FILE } from './widget.routes.js';

const source = readFileSync(WIDGET_FILE, 'utf8');
/** The code without its block comments (the header shows how to embed it with a script tag). */
const code = source.replace(/\/\*[\s\S]*?\*\//g, '');

describe('widget.js', () => {
  it('is under 15 KB gzipped', () => {
    const gzipped = gzipSync(source, { level: 9 }).length;
    expect(gzipped).toBeLessThan(15 * 1024);
  });

  it('never hands text to an HTML parser and loads nothing else', () => {
    // Rendering builds nodes; these are the ways text could become markup or code.
    expect(code).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setHTMLUnsafe|DOMParser/);
    expect(code).not.toMatch(/\bimport\s*\(|\bimport\s+[\w{*]|<script/);
  });
});

/** The widget's Markdown parser, run in Node: widget.js hands it over where there are no custom elements. */
type Tree = string | { t?: string; a?: Record<string, string> | null; c: Tree[] };
interface Parser {
  inline(text: string, noLinks?: boolean): Tree[];
  markdown(text: string): Tree[];
}
const parser = (() => {
  let api: Parser | undefined;
  runInNewContext(source, { URL, changelogFeedParser: (given: Parser) => (api = given) });
  if (!api) throw new Error('widget.js did not hand over its parser');
  return api;
})();
const textOf = (nodes: Tree[]): string => nodes.map((n) => (typeof n === 'string' ? n : textOf(n.c))).join('');
const links = (nodes: Tree[]): { href: string; text: string }[] =>
  nodes.flatMap((n) => (typeof n === 'string' ? [] : n.t === 'a' ? [{ href: n.a!.href!, text: textOf(n.c) }, ...links(n.c)] : links(n.c)));
const tags = (nodes: Tree[]): string[] => nodes.flatMap((n) => (typeof n === 'string' ? [] : [n.t ?? '', ...tags(n.c)]));

describe('widget.js Markdown', () => {
  const generated = (text: string): GeneratedJson => ({
    title: 'T',
    headline_items: [],
    sections: [{ section_type_key: 'fix', label: 'Fixes', items: [{ text, component: null }] }],
    component_tags: [],
    team_attribution: null,
  });

  it('commit text the server escaped never becomes a link, emphasis or code; the server\'s own links stay links', () => {
    for (const hostile of [
      '[phish](https://evil.example/login)',
      '<https://evil.example/login>',
      '![x](https://evil.example/pixel)',
      '*[phish](https://evil.example/login)*',
      '\\[phish](https://evil.example/login)',
      '[a `b](https://evil.example/login)',
    ]) {
      const content = renderMarkdown(generated(hostile));
      const tree = parser.markdown(content);
      expect(links(tree), content).toEqual([]);
      expect(textOf(tree), content).toContain(hostile);
    }
    // The escaped form the server writes for the finding's example.
    expect(renderMarkdown(generated('[phish](https://evil.example/login)'))).toContain('\\[phish\\](https://evil.example/login)');
    // A code span in commit text is kept by the server and shown literally, link syntax and all.
    const code = parser.markdown(renderMarkdown(generated('use `[x](https://evil.example)` here')));
    expect(links(code)).toEqual([]);
    expect(tags(code)).toContain('code');

    const withPr = parser.markdown(renderMarkdown(generated('Fix login (#12)'), { pullRequestUrl: 'https://github.com/o/r/pull/{number}' }));
    expect(links(withPr)).toEqual([{ href: 'https://github.com/o/r/pull/12', text: '#12' }]);
  });

  it('renders the Markdown people write: emphasis, code, links, escapes', () => {
    expect(parser.inline('**bold** and *em* and _em_ and __strong__')).toEqual([
      { t: 'strong', c: ['bold'] }, ' and ', { t: 'em', c: ['em'] }, ' and ', { t: 'em', c: ['em'] }, ' and ', { t: 'strong', c: ['strong'] },
    ]);
    expect(parser.inline('snake_case_names stay')).toEqual(['snake_case_names stay']);
    expect(parser.inline('`a` and ``b`c`` and \\``d`')).toEqual([
      { t: 'code', c: ['a'] }, ' and ', { t: 'code', c: ['b`c'] }, ' and `', { t: 'code', c: ['d'] },
    ]);
    expect(parser.inline('\\*not em\\* \\\\ \\q')).toEqual(['*not em* \\ \\q']);
    expect(parser.inline('*a **b** c*')).toEqual([{ t: 'em', c: ['a ', { t: 'strong', c: ['b'] }, ' c'] }]);
    expect(links(parser.inline('see [**the** report](https://example.com/issues/42).'))).toEqual([{ href: 'https://example.com/issues/42', text: 'the report' }]);
    // Not a destination (parentheses), so not a link; one that is not http(s) or mailto leaves its text alone.
    expect(parser.inline('[click me](javascript:alert(1))')).toEqual(['[click me](javascript:alert(1))']);
    expect(parser.inline('[click me](javascript:alert) x')).toEqual([{ c: ['click me'] }, ' x']);
    expect(parser.inline('[no link] [x](not a url) [[y](https://a.example/)]')).toEqual([
      '[no link] [x](not a url) [',
      { t: 'a', a: { href: 'https://a.example/', rel: 'noopener noreferrer nofollow' }, c: ['y'] },
      ']',
    ]);
    expect(parser.markdown('## Features ##\n\n- **api:** one\n- two\n  more\n\n1. first\n\n```\n[x](https://a.example)\n```')).toEqual([
      { t: 'h4', c: ['Features'] },
      { t: 'ul', a: null, c: [{ t: 'li', c: [{ t: 'strong', c: ['api:'] }, ' one'] }, { t: 'li', c: ['two', ' ', 'more'] }] },
      { t: 'ol', a: { class: 'md' }, c: [{ t: 'li', c: ['first'] }] },
      { t: 'pre', c: [{ t: 'code', c: ['[x](https://a.example)'] }] },
    ]);
  });

  // A guard against quadratic parsing (80,000 `[` froze a visitor's tab for 8.6 s; a quadratic parser
  // would take about a minute on 200,000): a generous bound for a shared, loaded machine, output checked too.
  it.each([
    ['[', (n: number) => '['.repeat(n)],
    ['[a](', (n: number) => '[a]('.repeat(n / 4)],
    ['[a]', (n: number) => '[a]'.repeat(n / 3)],
    ['](x)', (n: number) => '[' + '](x)'.repeat(n / 4)],
    ['*a', (n: number) => '*a'.repeat(n / 2)],
    ['* a', (n: number) => '* a'.repeat(n / 3)],
    ['_a_b', (n: number) => ' _a_b'.repeat(n / 5)],
    ['*_', (n: number) => 'x*_'.repeat(n / 3)],
    ['**a *b', (n: number) => '**a *b '.repeat(n / 7)],
    ['`', (n: number) => 'a' + '`'.repeat(n - 1)],
    ['`a``', (n: number) => '`a``'.repeat(n / 4)],
    ['` `` ```', (n: number) => Array.from({ length: n / 1000 }, (_, i) => '`'.repeat((i % 200) + 1) + 'x').join('').padEnd(n, 'y')],
    ['\\[', (n: number) => '\\['.repeat(n / 2)],
    ['# ', (n: number) => '# a' + ' '.repeat(n) + 'x'],
    ['list continuation lines', (n: number) => '- item' + '\n  more'.repeat(n / 7)],
  ])('%s repeated to 200,000 characters renders in linear time', (_name, make) => {
    const input = make(200_000);
    const started = performance.now();
    const tree = parser.markdown(input);
    const elapsed = performance.now() - started;
    // No text is lost or invented: what is shown is the input less the Markdown syntax.
    expect(textOf(tree).length).toBeGreaterThan(input.length / 4);
    expect(textOf(tree).length).toBeLessThanOrEqual(input.length);
    expect(elapsed).toBeLessThan(1500);
  });

  it('titles and items (commit text as written) render code spans and emphasis, never a link', () => {
    expect(parser.inline('Add `--fast` mode, **much** faster', true)).toEqual(['Add ', { t: 'code', c: ['--fast'] }, ' mode, ', { t: 'strong', c: ['much'] }, ' faster']);
    for (const hostile of ['[phish](https://evil.example/login)', '*[phish](https://evil.example/login)*', '[a `b](https://evil.example/login)', '<script>alert(1)</script>']) {
      const tree = parser.inline(hostile, true);
      expect(links(tree), hostile).toEqual([]);
      expect(tags(tree), hostile).not.toContain('a');
    }
    expect(textOf(parser.inline('[phish](https://evil.example/login)', true))).toBe('[phish](https://evil.example/login)');
    // Still linear: 200,000 brackets and parentheses at once.
    const started = performance.now();
    expect(textOf(parser.inline('[a](https://a.example/)'.repeat(9_000), true))).toHaveLength(9_000 * 23);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('80,000 `[` are shown as they are', () => {
    expect(parser.inline('['.repeat(80_000))).toEqual(['['.repeat(80_000)]);
    expect(parser.inline(`${'['.repeat(80_000)}x](https://a.example)`)).toEqual([
      '['.repeat(79_999),
      { t: 'a', a: { href: 'https://a.example/', rel: 'noopener noreferrer nofollow' }, c: ['x'] },
    ]);
  });

  it('nesting is bounded, so building the DOM cannot exhaust the stack', () => {
    const depth = (nodes: Tree[]): number => Math.max(0, ...nodes.map((n) => (typeof n === 'string' ? 0 : 1 + depth(n.c))));
    const nested = '*_'.repeat(50_000) + 'x' + '_*'.repeat(50_000);
    expect(depth(parser.inline(nested))).toBeLessThanOrEqual(17);
  });
});
