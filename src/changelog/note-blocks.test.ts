// A release note's content read back into its sections (CHANGELOG.md, changelog-md.ts): the closing
// lines generation adds with the host's pull requests (new contributors, compare link) are its tail,
// never a section of their own nor part of the last section.
import { describe, expect, it } from 'vitest';
import { FULL_CHANGELOG, NEW_CONTRIBUTORS, renderMarkdown } from '../generation/engine/render.js';
import { noteBlocks } from './changelog-md.js';

const json = {
  title: 'v2.0.0',
  headline_items: [],
  sections: [
    { section_type_key: 'feature', label: 'Features', items: [{ text: 'One (#1)', component: null }] },
    { section_type_key: 'fix', label: 'Bug fixes', items: [{ text: 'Two (#2)', component: null }] },
  ],
  component_tags: [],
  team_attribution: null,
  new_contributors: [{ name: '@dev', pr: 2 }],
  compare_url: 'https://github.com/acme/app/compare/v1.9.0...v2.0.0',
};

describe('noteBlocks', () => {
  it('keeps the new contributors and the compare link as the tail, with or without an attribution', () => {
    for (const team_attribution of [null, 'Ada']) {
      const content = renderMarkdown({ ...json, team_attribution });
      const { blocks, tail } = noteBlocks({ content, introduction: null });
      expect(blocks).toEqual([
        { label: 'Features', body: '- One (#1)' },
        { label: 'Bug fixes', body: '- Two (#2)' },
      ]);
      expect(tail).toContain('**New contributors**\n\n- @dev made their first contribution in #2');
      expect(tail).toMatch(/\*\*Full changelog:\*\* \[v1\.9\.0\.\.\.v2\.0\.0\]\(https:\/\/github\.com\/acme\/app\/compare\/v1\.9\.0\.\.\.v2\.0\.0\)$/);
      if (team_attribution) expect(tail).toMatch(/^_By Ada_/);
    }
  });

  it('reads the markers generation writes (changelog-md.ts keeps its own copy of them)', () => {
    expect([NEW_CONTRIBUTORS, FULL_CHANGELOG]).toEqual(['**New contributors**', '**Full changelog:**']);
  });

  it('leaves a note without them as before', () => {
    const content = renderMarkdown({ ...json, new_contributors: undefined, compare_url: undefined, team_attribution: 'Ada' });
    expect(noteBlocks({ content, introduction: null }).tail).toBe('_By Ada_');
  });
});
