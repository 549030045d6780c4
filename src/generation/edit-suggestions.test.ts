import { describe, expect, it } from 'vitest';
import { keyedItems, noEdits, type NoteJson, type ReleaseEdits } from '../entries/release-edits.js';
import { defaultSections } from './settings.js';
import { MAX_ITEMS, suggestFromEdits, type EditedNote } from './edit-suggestions.js';

/** A note with `docs` documentation items and `fixes` bug fixes, and edits made by `edit` (given the note's keys by text). */
function note(docs: string[], fixes: string[], edit: (keyOf: (text: string) => string) => Partial<ReleaseEdits>['items'] = () => ({})): EditedNote {
  const generated: Pick<NoteJson, 'sections'> = {
    sections: [
      { section_type_key: 'fix', label: 'Bug fixes', items: fixes.map((text) => ({ text, component: null })) },
      { section_type_key: 'documentation', label: 'Documentation', items: docs.map((text) => ({ text, component: null })) },
    ].filter((s) => s.items.length),
  };
  const keys = new Map(keyedItems(generated).map((k) => [k.item.text, k.key]));
  return { generated, edits: { ...noEdits(), items: edit((text) => keys.get(text)!) ?? {} } };
}

const hide = (...texts: string[]) => (keyOf: (text: string) => string) => Object.fromEntries(texts.map((t) => [keyOf(t), { hidden: true }]));

describe('rules suggested by editors’ edits', () => {
  it('suggests hiding a section whose items editors keep hiding, with the counts behind it and the sections it would set', () => {
    const suggestions = suggestFromEdits(
      [
        note(['Fix a typo in the README', 'Explain the options'], ['Crash on start'], hide('Fix a typo in the README', 'Explain the options')),
        note(['Add an example (#4)'], ['Wrong exit code'], hide('Add an example (#4)')),
        note(['Reword the guide'], [], hide('Reword the guide')),
        note([], ['Leak in the watcher']),
      ],
      defaultSections(),
    );
    expect(suggestions.notes).toBe(4);
    expect(suggestions.hideSections).toEqual([{ key: 'documentation', label: 'Documentation', hidden: 4, items: 4, notes: 3 }]);
    const proposed = suggestions.proposal!;
    expect(proposed.find((s) => s.key === 'documentation')!.visible).toBe(false);
    // Everything else as it was: the same keys, labels, order and visibility.
    expect(proposed.filter((s) => s.key !== 'documentation')).toEqual(defaultSections().filter((s) => s.key !== 'documentation'));
  });

  it('suggests nothing from one note, from a few hides among many items, or from moves and rewordings', () => {
    // Three hides, but all in one release: one editor's call about one note.
    expect(suggestFromEdits([note(['a', 'b', 'c'], [], hide('a', 'b', 'c'))], defaultSections()).hideSections).toEqual([]);
    // Four of ten fixes hidden over two notes: a judgement per item, not a rule.
    const fixes = Array.from({ length: 5 }, (_, i) => `fix ${i}`);
    const fixes2 = Array.from({ length: 5 }, (_, i) => `other fix ${i}`);
    expect(
      suggestFromEdits([note([], fixes, hide('fix 0', 'fix 1')), note([], fixes2, hide('other fix 0', 'other fix 1'))], defaultSections()).hideSections,
    ).toEqual([]);
    // Moved and reworded, never hidden.
    const moved = (keyOf: (text: string) => string) => ({ [keyOf('a')]: { section: 'fix' }, [keyOf('b')]: { text: 'B, better' } });
    const none = suggestFromEdits([note(['a', 'b'], [], moved), note(['a', 'b'], [], moved)], defaultSections());
    expect(none).toEqual({ notes: 2, hideSections: [], proposal: null });
  });

  it('does not suggest hiding a section the settings already hide', () => {
    const sections = defaultSections().map((s) => (s.key === 'documentation' ? { ...s, visible: false } : s));
    const notes = [note(['a', 'b'], [], hide('a', 'b')), note(['c', 'd'], [], hide('c', 'd'))];
    expect(suggestFromEdits(notes, sections).hideSections).toEqual([]);
    expect(suggestFromEdits(notes, defaultSections()).hideSections.map((s) => s.key)).toEqual(['documentation']);
  });
  it(`reads at most ${MAX_ITEMS.toLocaleString('en')} items, newest notes first, skipping a note that would pass the budget`, () => {
    const huge = note(Array.from({ length: MAX_ITEMS + 1 }, (_, i) => `doc ${i}`), [], hide('doc 0', 'doc 1', 'doc 2'));
    const small = [note(['a', 'b'], [], hide('a', 'b')), note(['c', 'd'], [], hide('c', 'd'))];
    // The huge note (newest) is skipped; the two after it still count.
    const suggested = suggestFromEdits([huge, ...small], defaultSections());
    expect(suggested.notes).toBe(2);
    expect(suggested.hideSections).toEqual([{ key: 'documentation', label: 'Documentation', hidden: 4, items: 4, notes: 2 }]);
    // Within the budget, a note is read: MAX_ITEMS items in all.
    const fits = note(Array.from({ length: MAX_ITEMS - 4 }, (_, i) => `doc ${i}`), []);
    expect(suggestFromEdits([fits, ...small], defaultSections()).notes).toBe(3);
    expect(suggestFromEdits([fits, note(['x'], []), ...small], defaultSections()).notes).toBe(3);
  });
});
