import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
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
