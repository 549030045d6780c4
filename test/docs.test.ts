// The documentation stays true to the tree: every file path it names exists, every link between its pages
// lands on a file, every setting the service reads is documented, and the README stays a front door.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), 'packages/client/README.md'];
const text = (page: string) => readFileSync(join(root, page), 'utf8');

// A path of this repository written in backticks: `src/app.ts`, `test/helpers/`, `docs/security.md#…`.
const NAMED_PATH = /`((?:src|test|scripts|migrations|docs|packages|public|bin|\.ci)\/[A-Za-z0-9_./-]*)(?:[#:][^`]*)?`/g;
// A path with a placeholder or a pattern names many files, not one (`src/*/routes.ts`, `docs/screenshots/first-hour-*.png`).
const isPattern = (path: string) => /[*{}]|\.\.\.|…|[A-Z]{3,}/.test(path.replace(/(README|CHANGELOG|CODEOWNERS)/g, ''));

/** From the repository root, or from the page's own package (packages/client/README.md names `src/index.ts`). */
function exists(page: string, path: string): boolean {
  const bases = [root, resolve(root, dirname(page))];
  // `migrations/0009` names a migration by its number.
  const migration = /^migrations\/(\d{4})$/.exec(path);
  if (migration) return readdirSync(join(root, 'migrations')).some((f) => f.startsWith(`${migration[1]}_`));
  return bases.some((base) => existsSync(join(base, path)));
}

describe('the documentation', () => {
  it('names only paths that exist', () => {
    const missing: string[] = [];
    for (const page of pages) {
      for (const [, path] of text(page).matchAll(NAMED_PATH)) {
        if (isPattern(path!) || path!.startsWith('test-results/')) continue;
        if (!exists(page, path!)) missing.push(`${page}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('links only to files that exist', () => {
    const broken: string[] = [];
    for (const page of pages) {
      // Links written as code (`[text](url)`) are examples, not links.
      const prose = text(page).replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!) || target!.startsWith('<')) continue;
        const file = target!.split('#')[0]!;
        if (!existsSync(resolve(root, dirname(page), file))) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('documents every setting the service reads, in .env.example and docs/configuration.md', () => {
    // config.ts reads each variable by name through one of its parsers: integer('PORT', …), text('HOST', …).
    const read = [...new Set([...text('src/config.ts').matchAll(/\(\s*'([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1]!))];
    expect(read.length).toBeGreaterThan(50);
    const envExample = text('.env.example');
    const reference = text('docs/configuration.md');
    expect(read.filter((v) => !new RegExp(`\\b${v}=`).test(envExample))).toEqual([]);
    expect(read.filter((v) => !reference.includes(`\`${v}\``) && !new RegExp(`\\b${v}\\b`).test(reference))).toEqual([]);
  });

  it('keeps the README a front door: the two commands first, at most 250 lines', () => {
    const readme = text('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const firstBlock = readme.slice(readme.indexOf('```'), readme.indexOf('```', readme.indexOf('```') + 3));
    expect(firstBlock).toContain('npm ci && npm start');
    expect(firstBlock).toContain('npm test');
  });
});
