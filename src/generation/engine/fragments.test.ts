import { describe, expect, it } from 'vitest';
import { bodySection, changelogTrailer, firstParagraph, parseFragment } from './fragments.js';

describe("a PR description's release-notes section", () => {
  it('finds it under a heading, a bold line or a `Release notes:` line, and takes its first paragraph or bullets', () => {
    expect(bodySection('## Release Notes ##\n\nAdds a `--json` flag.\nIt prints JSON.\n\nMore later.')).toEqual({
      text: 'Adds a `--json` flag. It prints JSON.',
    });
    expect(bodySection('**Changelog:**\n* One\n* Two\n\n## Other')).toEqual({ text: 'One; Two' });
    expect(bodySection('Intro\n\nRelease notes:\n1. First\n2. Second')).toEqual({ text: 'First; Second' });
    expect(bodySection('### Changes\n<!-- Write what users see -->\n\nFaster startup')).toEqual({ text: 'Faster startup' });
  });

  it('says "leave it out" for None or N/A, and nothing without such a section or with an empty one', () => {
    expect(bodySection('## Release notes\nN/A')).toEqual({ hidden: true });
    expect(bodySection('## Changelog\n\nNone.')).toEqual({ hidden: true });
    expect(bodySection('## Release notes\n\n## Testing\nran it')).toBeNull();
    expect(bodySection('Fixes #12. The changelog: later.')).toBeNull();
    expect(bodySection('<!-- ## Release notes\nhidden in a comment -->')).toBeNull();
  });

  it('caps what it takes on a word', () => {
    const text = firstParagraph('word '.repeat(1000));
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text.endsWith('word…')).toBe(true);
  });
});

describe('a `Changelog:` trailer', () => {
  it('is the first such line with something after the colon, in any of the texts', () => {
    expect(changelogTrailer(['body without one', 'fix: x\n\nChangelog: Fixed the thing\nSigned-off-by: A <a@b>'])).toEqual({ text: 'Fixed the thing' });
    expect(changelogTrailer(['changelog:\n', 'CHANGELOG: skip'])).toEqual({ hidden: true });
    expect(changelogTrailer(['See the changelog: it moved'])).toBeNull();
  });
});

describe('change fragments', () => {
  it('reads a changeset: packages and the largest bump from its front matter, its first paragraph', () => {
    expect(parseFragment({ path: '.changeset/a.md', text: "---\n'@acme/core': patch\nacme-cli: major\n---\n\nDrop Node 16\n\nDetails." })).toEqual({
      text: 'Drop Node 16',
      section: 'breaking',
      packages: ['@acme/core', 'acme-cli'],
      hidden: false,
    });
    expect(parseFragment({ path: '.changeset/README.md', text: 'Hello' })).toBeNull();
    expect(parseFragment({ path: '.changeset/odd.md', text: '---\nnot: front matter: at all\n---\n' })).toBeNull();
  });

  it('reads towncrier fragments by their type, and leaves misc ones out', () => {
    expect(parseFragment({ path: 'newsfragments/12.feature.rst', text: 'Add ``x``.' })).toMatchObject({ text: 'Add ``x``.', section: 'feature' });
    expect(parseFragment({ path: 'changelog.d/12.bugfix.1.md', text: 'Fix y.' })).toMatchObject({ section: 'fix' });
    expect(parseFragment({ path: 'changes/+orphan.deprecation', text: 'Deprecate z.' })).toMatchObject({ section: 'deprecation' });
    expect(parseFragment({ path: 'changelog.d/13.misc', text: 'whatever' })).toMatchObject({ hidden: true });
    expect(parseFragment({ path: 'changelog.d/template.jinja', text: 'x' })).toBeNull();
    expect(parseFragment({ path: 'src/changes/12.feature', text: 'code' })).toBeNull();
  });
});
