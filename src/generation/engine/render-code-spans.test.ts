/**
 * Attacker test: a commit title is escaped for Markdown in the generation worker, and whoever can
 * push chooses it. Runs of backticks of growing length (`a`a``a```…) have no closing run of the
 * same length; the code-span regex then retried a lazy scan to the end of the title from every
 * backtick, about 30 s for a 65 KB title (the stored message cap) — a generation budget spent on
 * one commit, every generation.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from './render.js';

const commonmark = new MarkdownIt({ html: false });
const inline = (text: string) => commonmark.renderInline(escapeMarkdown(text));

/** `a` + 1 backtick, `a` + 2 backticks, … : every run a different length, none closed. */
const ladder = (runs: number) => Array.from({ length: runs }, (_, i) => `a${'`'.repeat(i + 1)}`).join('');

describe('code spans in untrusted titles', () => {
  it('a 65 KB ladder of unclosed backtick runs is escaped at once, every backtick literal', () => {
    const title = ladder(360);
    expect(title.length).toBeGreaterThan(65_000);
    const started = performance.now();
    const escaped = escapeMarkdown(title);
    // Generous: the regex took ~30 s here; the scan takes milliseconds.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(inline(title)).toBe(title);
    expect(escaped).not.toContain('<code>');
  });

  it('keeps what CommonMark would show as code: a run closed by the next run of the same length', () => {
    expect(escapeMarkdown('Add `ignore_tags` option')).toBe('Add `ignore_tags` option');
    expect(escapeMarkdown('use ``a ` b`` here')).toBe('use ``a ` b`` here');
    expect(inline('use ``a ` b`` here <b>')).toBe('use <code>a ` b</code> here &lt;b&gt;');
    // Unbalanced runs are shown as typed, never as code and never as markup.
    for (const text of ['``a`', '`a``', 'x ` y <i>', '```', '`a` `b', 'a`*b*`c` _d_']) {
      const shown = inline(text);
      expect(shown).not.toMatch(/<(?!\/?code>)/);
    }
    expect(inline('``a` <i>x</i>')).toBe('``a` &lt;i&gt;x&lt;/i&gt;');
    expect(inline('a`*b*`c` _d_')).toBe('a<code>*b*</code>c` _d_');
  });
});
