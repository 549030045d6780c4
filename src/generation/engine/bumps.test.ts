import { describe, expect, it } from 'vitest';
import { Bumps, parseBump } from './bumps.js';

/** Adds the titles in order, as buildSections does, and returns the items left. */
function collapse(titles: string[], components: (string | null)[] = []): Array<{ text: string; component: string | null }> {
  const bumps = new Bumps<{ text: string; component: string | null }>();
  const out: Array<{ text: string; component: string | null }> = [];
  titles.forEach((text, i) => {
    const item = { text, component: components[i] ?? null };
    const bump = parseBump(text);
    if (!bump || bumps.add('dependencies', item, bump)) out.push(item);
  });
  return out;
}

describe('repeated dependency updates', () => {
  it("reads Renovate's and Dependabot's titles, and people's, as updates of one package", () => {
    for (const title of [
      'Update dependency postcss to v8.5.17 (#19606)',
      'Update Yuku parser to v0.6.4 (#19650)',
      'Update react to v19 (major) (#18464)',
      'Update dependency @angular/compiler to v21.2.4',
      'Upgrade eslint to 9.1',
      'Update compiler to ^7.29.8 (#15163)',
      'Bump lodash from 4.17.23 to 4.18.1 (#14698)',
      'Bump debian from `e899040` to `d5d3f9c` (#1331)',
      'Bump js-yaml from 4.2.0 to 4.3.0 in /website in the npm_and_yarn group across 1 directory (#19673)',
    ]) {
      expect(parseBump(title), title).not.toBeNull();
    }
    for (const title of [
      'Update all non-major dependencies (#15116)',
      'Bump the minor group across 1 directory with 4 updates (#1357)',
      'Upgrade to TypeScript 6 (#15098)',
      'Update lint (#15121)',
      'Bump lukemathwalker/cargo-chef (#1361)',
      'Update docs to explain the cache',
      'Fix crash when updating to v2',
    ]) {
      expect(parseBump(title), title).toBeNull();
    }
  });

  it('lists one item per package with the version last reached and every reference, at the first update\'s place', () => {
    expect(
      collapse([
        'Update dependency postcss to v8.5.17 (#19606)',
        'Update Yuku parser to v0.6.4 (#19650)',
        'Update dependency postcss to v8.5.19 (#19620)',
        'Update dependency typescript to v6 (#18971)',
        'Update Yuku parser to v0.7.0 (#19664)',
        'Update dependency postcss to v8.5.22 (#19689)',
        'Update Yuku parser to v0.8.0 (#19699)',
      ]).map((i) => i.text),
    ).toEqual([
      'Update dependency postcss to v8.5.22 (#19606, #19620, #19689)',
      'Update Yuku parser to v0.8.0 (#19650, #19664, #19699)',
      'Update dependency typescript to v6 (#18971)',
    ]);
  });

  it('keeps Dependabot\'s first "from" and last "to"', () => {
    expect(
      collapse([
        'Bump debian from `e899040` to `d5d3f9c` (#1331)',
        'Bump debian from `d5d3f9c` to `74d56e3` (#1415)',
        'Bump debian from `74d56e3` to `f065376` (#1468)',
      ]).map((i) => i.text),
    ).toEqual(['Bump debian from `e899040` to `f065376` (#1331, #1415, #1468)']);
  });

  it('keeps apart what differs: another package, another directory, another form', () => {
    expect(
      collapse([
        'Bump qs from 6.14.1 to 6.14.2 in /website (#1)',
        'Bump qs from 6.14.2 to 6.14.3 (#2)',
        'Update dependency vue to v3.5.26 (#3)',
        'Update dependency vue-router to v4 (#4)',
        'Update vue to v3.5.40 (#5)',
      ]).map((i) => i.text),
    ).toEqual(['Bump qs from 6.14.1 to 6.14.2 in /website (#1)', 'Bump qs from 6.14.2 to 6.14.3 (#2)', 'Update dependency vue to v3.5.26 (#3)', 'Update dependency vue-router to v4 (#4)', 'Update vue to v3.5.40 (#5)']);
  });

  it('reads a major update note as the same package, and drops the component when the updates span two', () => {
    expect(collapse(['Update react to v19 (major) (#1)', 'Update react to v19.2.3 (#2)'], ['web', 'web'])).toEqual([{ text: 'Update react to v19.2.3 (#1, #2)', component: 'web' }]);
    expect(collapse(['Update dependency jsdom to v29 (#1)', 'Update dependency jsdom to v30 (#2)'], ['runtime', 'compiler'])).toEqual([{ text: 'Update dependency jsdom to v30 (#1, #2)', component: null }]);
  });

  it('reads hostile titles in linear time and leaves overlong ones alone', () => {
    expect(parseBump(`Update ${'a '.repeat(50_000)}to v1`)).toBeNull();
    expect(parseBump(`Bump ${'from '.repeat(40)}`)).toBeNull();
    expect(parseBump(`Update x to v${'1.'.repeat(100)}`)).not.toBeNull();
  });
});
