/**
 * The Markdown renderer with real worker threads: the same HTML as markdown-it in the calling thread,
 * escaped text for a source over the time limit (or the heap limit), and a bounded queue in which
 * ordinary sources go ahead of huge ones.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMarkdownRenderer, INLINE_CHARS, type MarkdownRenderer } from './markdown-thread.js';
import { inlineAsText, markdownAsText, renderInlineMarkdown, renderMarkdown } from './markdown.js';

/** About 1.7 s of markdown-it's CPU (1.7 µs a character): far over the limits these tests set. */
const HEAVY = `<script>alert(1)</script>${'!['.repeat(500_000)}`;
/** A generated monthly rollup's shape, about 60 KB (the largest generated content of the datasets was 58.8 KB). */
const ROLLUP = `### Features\n\n${Array.from({ length: 800 }, (_, i) => `- **api:** Add thing ${i} in \`mod_${i}\` ([#${i}](https://github.com/o/r/pull/${i}))`).join('\n')}\n\n_By Ada_\n`;
const ORDINARY = [
  '## Fixes\n\n- **api:** faster\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>',
  '# Big\n\n## Features\n\n- thing\n\n```js\nlet a = 1 < 2;\n```',
  '| a | b |\n|---|---|\n| 1 | 2 |',
];

const renderers: MarkdownRenderer[] = [];
const renderer = (options: Parameters<typeof createMarkdownRenderer>[0]) => {
  const r = createMarkdownRenderer(options);
  renderers.push(r);
  return r;
};
afterEach(async () => {
  await Promise.all(renderers.splice(0).map((r) => r.close()));
});

describe('MarkdownRenderer', () => {
  it('renders titles inline, in the calling thread or in one, and shows a costly one as escaped text (no <pre>)', async () => {
    const titles = ['Fix `parser` **now** <script>alert(1)</script> [p](javascript:alert(1))', `Long ${'`x` '.repeat(6000)}`];
    const expected = titles.map((t) => renderInlineMarkdown(t).value);
    expect(expected[0]).toBe('Fix <code>parser</code> <strong>now</strong> &lt;script&gt;alert(1)&lt;/script&gt; [p](javascript:alert(1))');
    const r = renderer({ timeLimitMs: 30_000, inlineChars: 100 });
    const out = await r.render(titles, { inline: true });
    expect(out.html.map((h) => h.value)).toEqual(expected);
    expect(r.stats().threads).toBeGreaterThan(0);
    // HEAVY renders inline in about 130 ms on a quiet machine: a 50 ms limit times it out wherever this runs.
    const slow = renderer({ timeLimitMs: 50, inlineChars: 0 });
    // Its thread loaded first, so the limit times the render alone.
    expect((await slow.render(['`warm`'], { inline: true })).html[0]!.value).toBe('<code>warm</code>');
    const heavy = await slow.render([HEAVY], { inline: true });
    expect(heavy.html[0]!.value).toBe(inlineAsText(HEAVY).value);
    expect(heavy.html[0]!.value.startsWith('&lt;script&gt;alert(1)&lt;/script&gt;![![')).toBe(true);
    // Counted as too costly, as a block source would be.
    expect(slow.stats().shownAsText.costly).toBe(1);
  });

  it('gives the HTML markdown-it gives in the calling thread, inline or in a thread, blank sources none', async () => {
    const sources = [...ORDINARY, ROLLUP, null, '  \n', undefined, `${ORDINARY[0]}\n\n${'- item\n'.repeat(3000)}`];
    const expected = sources.map((s) => (s?.trim() ? renderMarkdown(s).value : ''));
    // Default budget: the small ones inline, the large ones in a thread.
    const mixed = renderer({ timeLimitMs: 30_000 });
    const out = await mixed.render(sources);
    expect(out.html.map((h) => h.value)).toEqual(expected);
    expect(out.transient).toBe(false);
    expect(mixed.stats().threads).toBeGreaterThan(0);
    // No inline budget: every source crosses to a thread and back.
    const threaded = await renderer({ timeLimitMs: 30_000, inlineChars: 0 }).render(sources);
    expect(threaded.html.map((h) => h.value)).toEqual(expected);
  });

  it('renders a call’s first INLINE_CHARS inline and starts no thread for them', async () => {
    const r = renderer({ timeLimitMs: 30_000 });
    const small = 'x'.repeat(INLINE_CHARS / 4 - 1);
    const out = await r.render([small, small, small, small]);
    expect(out.html.map((h) => h.value)).toEqual(Array(4).fill(`<p>${small}</p>\n`));
    expect(r.stats()).toEqual({ threads: 0, running: 0, queued: 0, shownAsText: { costly: 0, busy: 0 } });
  });

  it('shows a source over the time limit as escaped text, stably, and remembers it so the next render costs no thread', async () => {
    const r = renderer({ timeLimitMs: 200 });
    const first = await r.render(['## Fine', HEAVY]);
    expect(first.html[0]!.value).toBe('<h2>Fine</h2>\n');
    expect(first.html[1]!.value).toBe(markdownAsText(HEAVY).value);
    expect(first.html[1]!.value.startsWith('<pre class="markdown-text">&lt;script&gt;alert(1)&lt;/script&gt;![![')).toBe(true);
    // Not a passing state: the same source fails the same way, so a page showing it may be kept.
    expect(first.transient).toBe(false);
    // The thread was stopped; the next render of the same source shows the text without sending it to one.
    expect(r.stats().running).toBe(0);
    const again = r.render([HEAVY]);
    expect(r.stats()).toMatchObject({ running: 0, queued: 0 });
    expect((await again).html[0]!.value).toBe(markdownAsText(HEAVY).value);
    expect(r.stats().shownAsText).toEqual({ costly: 2, busy: 0 });
    // The pool still works after a thread was stopped (a plain paragraph over the inline budget).
    const prose = 'word '.repeat(INLINE_CHARS / 4);
    expect((await r.render([prose])).html[0]!.value).toBe(renderMarkdown(prose).value);
  });

  it('shows a source that outgrows the thread heap as text', async () => {
    // 250,000 list items: hundreds of MB of tokens, over a 32 MB heap.
    const list = '- x\n'.repeat(250_000);
    const out = await renderer({ timeLimitMs: 60_000, threadHeapMb: 32 }).render([list]);
    expect(out.html[0]!.value).toBe(markdownAsText(list).value);
    expect(out.transient).toBe(false);
  });

  it('past a full queue shows sources as text at once, marked transient', async () => {
    const r = renderer({ timeLimitMs: 30_000, maxThreads: 1, maxQueued: 0, inlineChars: 0 });
    const out = await r.render([ROLLUP, `${ROLLUP}\n`]);
    expect(out.html[0]!.value).toBe(renderMarkdown(ROLLUP).value);
    expect(out.html[1]!.value).toBe(markdownAsText(`${ROLLUP}\n`).value);
    expect(out.transient).toBe(true);
    expect(r.stats().shownAsText).toEqual({ costly: 0, busy: 1 });
  });

  it('a source that waits longer than the time limit for a thread is shown as text, transient', async () => {
    const r = renderer({ timeLimitMs: 300, maxThreads: 1, inlineChars: 0 });
    // The first holds the one thread until stopped at the limit; the second waits for it past the limit.
    const out = await r.render([HEAVY, `${HEAVY} `]);
    expect(out.html.map((h) => h.value)).toEqual([markdownAsText(HEAVY).value, markdownAsText(`${HEAVY} `).value]);
    expect(out.transient).toBe(true);
  });

  it('ordinary sources waiting for a thread go ahead of huge ones', async () => {
    const r = renderer({ timeLimitMs: 30_000, maxThreads: 1, inlineChars: 0 });
    const done: string[] = [];
    const heavy = (name: string, source: string) => r.render([source]).then(() => done.push(name));
    // Large enough to wait in the large sources' lane; the order does not depend on how long they take.
    const large = '!['.repeat(INLINE_CHARS * 2);
    const running = heavy('heavy 1', large);
    const queuedHeavy = heavy('heavy 2', `${large} `);
    const ordinary = r.render([ORDINARY[0]!]).then((out) => {
      done.push('ordinary');
      return out;
    });
    expect(r.stats()).toMatchObject({ running: 1, queued: 2 });
    const [, , out] = await Promise.all([running, queuedHeavy, ordinary]);
    expect(done).toEqual(['heavy 1', 'ordinary', 'heavy 2']);
    expect(out.html[0]!.value).toBe(renderMarkdown(ORDINARY[0]!).value);
  });
});
