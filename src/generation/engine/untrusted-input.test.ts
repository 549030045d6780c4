/**
 * Commit text, file names, tag names and globs come from whoever can push to a linked repository:
 * every step over them must be linear. Adversarial inputs must finish quickly (with output), and
 * the linear rewrites must agree with the originals (picomatch, the regexes they replace) on
 * ordinary input.
 */
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { classifyCommit, cleanTitle } from './classify.js';
import { parseMessage } from './conventional.js';
import { generate } from './engine.js';
import { compileGlob, globProblem, wildcardMatch } from './glob.js';
import { matchesAuthor } from './people.js';
import { renderMarkdown } from './render.js';
import { resolveSettings, SettingsError } from '../settings.js';
import { createTeamResolver } from './teams.js';
import { tagVersion } from './versions.js';
import { coAuthorsOf, type CommitRecord } from '../../git/commit-record.js';
import { buildCommit } from '../../../test/helpers/commits.js';

const commit = (message: string, paths: string[] = ['a.txt']): CommitRecord =>
  buildCommit({ sha: 'f'.repeat(40), name: 'A', email: 'a@example.com', date: '2024-01-01T00:00:00+00:00', message, changes: paths.map((p) => ['M', p]) });

/** Milliseconds `fn` takes. Bounds are generous: the old code took seconds to minutes on these. */
const time = (fn: () => unknown) => {
  const started = performance.now();
  fn();
  return performance.now() - started;
};

/** ~200 KB of `Key: value` paragraphs closed by prose: the old scan was quadratic in paragraphs. */
const footerBomb = () => `feat: x\n\n${Array.from({ length: 12_000 }, (_, i) => `Key-${i}: value ${i}`).join('\n\n')}\n\nprose at the end\n`;

describe('adversarial commit text is processed in linear time', () => {
  it('a 200 KB message of footer paragraphs ending in prose: parsed quickly, prose means no footer block', () => {
    const message = footerBomb();
    expect(message.length).toBeGreaterThan(190_000);
    let parsed!: ReturnType<typeof parseMessage>;
    expect(time(() => (parsed = parseMessage(message)))).toBeLessThan(500);
    expect(parsed.footers).toEqual([]);
    expect(parsed.header?.type).toBe('feat');
    // Without the prose, every paragraph is a footer.
    const footersOnly = parseMessage(message.replace(/\n\nprose at the end\n$/, '\n'));
    expect(footersOnly.footers).toHaveLength(12_000);
    expect(footersOnly.footers[11_999]).toEqual({ token: 'Key-11999', value: 'value 11999' });
  });

  it('runs of spaces, (#n) chains, co-author lines and long tags: each well under a second', () => {
    const spaces = ' '.repeat(100_000);
    const cases: Array<[string, () => unknown]> = [
      ['classify: spaces around no CI marker', () => classifyCommit(commit(`fix: a${spaces}b`))],
      ['co-authors', () => coAuthorsOf(`x\n\nCo-authored-by: a${spaces}x`)],
      ['pull request links', () => renderMarkdown({ sections: [{ section_type_key: 'fix', label: 'Fixes', items: [{ text: `${'(#1) '.repeat(20_000)}x`, component: null }] }], headline_items: [], team_attribution: null } as never, { pullRequestUrl: 'https://x/{number}' })],
      ['tag name', () => tagVersion(`${'-0.0.0'.repeat(20_000)}!`)],
      ['CODEOWNERS owner token', () => createTeamResolver([], `* x@${'.a'.repeat(50_000)}@ @ok\n`)],
      ['author pattern', () => matchesAuthor({ name: 'a'.repeat(5_000), email: 'a@example.com' }, [`${'*a'.repeat(30)}*b`])],
      ['bot labels in a title', () => cleanTitle(`x ${'[security '.repeat(20_000)}[bot`)],
      ['a .github path of many folders', () => classifyCommit(commit('Tweak config', [`.github/${'a/'.repeat(50_000)}x.yml`, `.github/${'a.'.repeat(50_000)}md`]))],
      ['a changelog-like file name', () => classifyCommit(commit('Update notes', [`CHANGELOG${'-.'.repeat(50_000)}x`]))],
      ['a merge of a maintenance line', () => generate([commit('feat: a'), { ...commit(`Merge branch '${'a/'.repeat(50_000)}v1.x-`), sha: 'e'.repeat(40), parents: ['f'.repeat(40), 'f'.repeat(40)] }], resolveSettings({ entryTypes: ['weekly'] }))],
    ];
    for (const [name, fn] of cases) expect(time(fn), name).toBeLessThan(1000);
  });

  it('repeated updates in a rollup cost what plain ones do', () => {
    // 2,000 commits are most of a second of ordinary work on a loaded machine (a fixed bound failed
    // a CI run): the same rollup of plain subjects, timed beside it, is the yardstick.
    const rollup = (subject: (i: number) => string) => () =>
      generate(
        Array.from({ length: 2_000 }, (_, i) => ({ ...commit(subject(i)), sha: i.toString(16).padStart(40, '0') })),
        resolveSettings({ entryTypes: ['weekly'] }),
      );
    const plain = rollup((i) => `Update dependency pkg-${i % 40} to v${i}.0 (#${i})`);
    const repeated = rollup((i) => `Update dependency ${'a '.repeat(i % 40)}to v${i}.0 (#${i})`);
    plain(); // warm-up
    const yardstick = time(plain);
    const took = time(repeated);
    expect(took, `${Math.round(took)} ms against ${Math.round(yardstick)} ms`).toBeLessThan(3 * yardstick + 200);
  });
});

describe('globs: linear matching, refused patterns named', () => {
  it('the pattern that made picomatch backtrack for minutes is answered at once', () => {
    const glob = compileGlob('**/*a*a*a*a*a*a*a*a*a*a*a*a*b');
    expect(time(() => expect(glob.test('a'.repeat(40))).toBe(false))).toBeLessThan(100);
    expect(glob.test(`dir/${'a'.repeat(39)}b`)).toBe(true);
    const resolver = createTeamResolver([], `*a*a*a*a*a*a*a*a*a*a*a*a*b @acme/slow\n`);
    expect(time(() => resolver.teamsOf(classifyCommit(commit('feat: x')), Array.from({ length: 200 }, (_, i) => ['M', `${'a'.repeat(39)}${i}`])))).toBeLessThan(500);
  });

  it('team rules and path rules the matcher refuses are a settings error naming the pattern', () => {
    const long = `${'*a'.repeat(300)}`;
    let error: unknown;
    try {
      resolveSettings({ teams: [{ team: 'Core', paths: ['src/**', long] }], pathRules: ['+(a|b)/**=x'], codeowners: '+(a|b) @a' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    const problems = (error as SettingsError).problems;
    expect(problems).toContain(`team "Core": glob "${long.slice(0, 80)}…" is longer than 512 characters`);
    expect(problems).toContain('Path rule "+(a|b)/**=x": glob "+(a|b)/**" uses an extglob (+(…)), which is not supported');
    expect(problems).toContain('CODEOWNERS line 1 skipped: glob "**/+(a|b)" uses an extglob (+(…)), which is not supported');
    expect(globProblem('{a,b}/{c,d}/{e,f}/{g,h}/{i,j}/{k,l}/{m,n}')).toBe('glob "{a,b}/{c,d}/{e,f}/{g,h}/{i,j}/{k,l}/{m,n}" expands to more than 64 alternatives');
    // The user's ordinary rules are accepted.
    expect(resolveSettings({ teams: [{ team: 'Core', paths: ['packages/*/src/**', '*.{ts,js}'] }], pathRules: ['apps/*/**=$1'] }).teams).toHaveLength(1);
  });

  // Globs and paths over a small alphabet, so that matches are frequent; no pathological ones needed.
  // No `.`/`..` segments: picomatch never matches them (and drops a leading `./`); git never lists them.
  const notDots = (x: string) => x !== '.' && x !== '..';
  const segment = fc.stringMatching(/^[ab.]{1,4}$/).filter(notDots);
  const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
  const globSegment = fc.oneof(
    fc.stringMatching(/^[ab.]{1,3}$/).filter(notDots),
    // Bracket classes are left out: picomatch wraps them in an extra group that also matches the
    // literal text `[ab]`; they are checked on their own below.
    fc.constantFrom('*', '**', '?', 'a*', '*b', '*.a', '{a,b}', 'a?*', '{a,b.}*', 'b{,a}', '*{,a}'),
  );
  // Consecutive `**` segments (which picomatch folds into one) are left out, and so are braces that
  // can leave a segment empty (`a/{,b}` may mean `a/`): no path has an empty segment.
  const glob = fc
    .array(globSegment, { minLength: 1, maxLength: 4 })
    .filter((s) => !s.some((x, i) => x === '**' && s[i + 1] === '**'))
    .map((s) => s.join('/'));

  it('matches exactly what picomatch matches (dot: true), captures included', () => {
    fc.assert(
      fc.property(glob, path, (g, p) => {
        const reference = picomatch.makeRe(g, { capture: true, dot: true }).exec(p);
        const ours = compileGlob(g).exec(p);
        expect(ours === null).toBe(reference === null);
        if (reference && ours) expect(ours.map((c) => c ?? '')).toEqual([...reference].map((c) => c ?? ''));
      }),
      { numRuns: 3000 },
    );
  });

  it('reports the captures of the match the regex finds first, across brace alternatives', () => {
    // The leading `**\/` tries empty first, so `b.` (the second alternative) at the start wins over
    // `a` later in the path, although `a` is the first alternative.
    const g = '**/{a,b.}*/**';
    const p = 'b.b/a/a';
    expect(compileGlob(g).exec(p)).toEqual([...picomatch.makeRe(g, { capture: true, dot: true }).exec(p)!]);
    expect(compileGlob(g).exec(p)?.slice(2)).toEqual(['b.', 'b', 'a/a']);
    // A lone `*` segment before an empty alternative: lazy, so it leaves the `a` to the braces.
    expect(compileGlob('x/*{,a}').exec('x/ba')).toEqual(['x/ba', 'b', 'a']);
  });

  it('bracket classes match one character but a slash; ! or ^ negates', () => {
    const cls = compileGlob('src/[a-c]?[!x]/*.[jt]s');
    expect(['src/abz/i.ts', 'src/c1y/i.js'].map(cls.test)).toEqual([true, true]);
    expect(['src/dbz/i.ts', 'src/abx/i.ts', 'src/a/z/i.ts', 'src/abz/i.cs'].map(cls.test)).toEqual([false, false, false, false]);
    expect(compileGlob('[^a]').test('b')).toBe(true);
    expect(compileGlob('[]]').test(']')).toBe(true);
  });

  it('star-only author patterns agree with the regex they replace', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab*]{0,8}$/), fc.stringMatching(/^[ab]{0,10}$/), (pattern, text) => {
        const re = new RegExp(`^${pattern.split('*').join('.*')}$`);
        expect(wildcardMatch(pattern, text)).toBe(re.test(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('linear rewrites agree with the regexes they replace on ordinary text', () => {
  const line = fc.oneof(
    fc.constant(''),
    fc.constantFrom('Co-authored-by: Ann <ann@example.com>', 'co-authored-by:Bob<bob@x>  ', 'Co-Authored-By: C <c@x> trailing', 'Co-authored-by: <d@x>', 'Co-authored-by:  E F  <e@x>'),
    fc.stringMatching(/^[A-Za-z<>@ :-]{0,20}$/),
  );
  const message = fc.array(line, { maxLength: 8 }).map((l) => l.join('\n'));

  it('co-author trailers (ingest): the old regex, line by line', () => {
    const OLD = /^co-authored-by:[ \t]*(.+?)[ \t]*<([^<>\n]+)>[ \t]*$/gim;
    fc.assert(
      fc.property(message, (m) => {
        const seen = new Set<string>();
        const expected: Array<{ name: string; email: string }> = [];
        for (const match of m.matchAll(OLD)) {
          const email = match[2]!.trim();
          if (!email || seen.has(email.toLowerCase())) continue;
          seen.add(email.toLowerCase());
          expected.push({ name: match[1]!.trim(), email });
        }
        expect(coAuthorsOf(m)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('footer blocks: the old scan', () => {
    const FOOTER_LINE = /^(BREAKING CHANGE|BREAKING-CHANGE|[A-Za-z][A-Za-z0-9-]*)(?:: | #)(.*)$/;
    const oldFooterStart = (rest: string[]) => {
      const isFooterBlock = (lines: string[]) => {
        let paragraphStart = true;
        for (const l of lines) {
          if (l.trim() === '') {
            paragraphStart = true;
            continue;
          }
          if (paragraphStart && !FOOTER_LINE.test(l)) return false;
          paragraphStart = false;
        }
        return true;
      };
      for (let i = 0; i < rest.length; i++) if ((i === 0 || rest[i - 1]!.trim() === '') && FOOTER_LINE.test(rest[i]!) && isFooterBlock(rest.slice(i))) return i;
      return rest.length;
    };
    const bodyLine = fc.constantFrom('', ' ', 'Refs: #1', 'Signed-off-by: A <a@x>', 'BREAKING CHANGE: gone', 'prose here', 'Fixes #12', 'more: text');
    fc.assert(
      fc.property(fc.array(bodyLine, { maxLength: 10 }), (rest) => {
        const parsed = parseMessage(['feat: x', ...rest].join('\n'));
        const start = oldFooterStart(rest);
        expect(parsed.body).toBe(rest.slice(0, start).join('\n').trim());
      }),
      { numRuns: 3000 },
    );
  });

  // Of the owners the old regex took, only teams (`@org/team`) name who made a change.
  it('CODEOWNERS owners: the old regex, teams only', () => {
    const OLD = /^(@[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)?|[^@\s]+@[^@\s]+\.[^@\s]+)$/;
    fc.assert(
      fc.property(fc.stringMatching(/^[@a./]{1,8}$/), (token) => {
        const owners = createTeamResolver([], `* ${token}\n`).teamsOf(classifyCommit(commit('feat: x')), [['M', 'f']]);
        const team = OLD.test(token) && token.startsWith('@') && token.includes('/');
        expect(owners).toEqual(team ? [token.replace(/^@/, '')] : []);
      }),
      { numRuns: 3000 },
    );
  });

  it('pull request links and CI markers render as before', () => {
    expect(cleanTitle(`fix ${' '.repeat(5)}[skip ci] ${' '.repeat(5)}it [CI SKIP]`)).toBe('Fix it');
    const md = (text: string) =>
      renderMarkdown({ sections: [{ section_type_key: 'fix', label: 'Fixes', items: [{ text, component: null }] }], headline_items: [], team_attribution: null } as never, { pullRequestUrl: 'https://x/{number}' });
    expect(md('Fix (#1) (#2)')).toContain('- Fix ([#1](https://x/1)) ([#2](https://x/2))');
    expect(md('Fix (#1) x')).toContain('- Fix (#1) x');
    expect(md('(#7)')).toContain('- ([#7](https://x/7))');
  });
});
