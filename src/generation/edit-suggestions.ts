/**
 * Rules suggested by what editors did to release notes (issue 24, calibration): when they keep hiding
 * the items of one section, the setting that would have left that section out. A suggestion is only
 * shown (with a link that fills the settings form, whose preview says what it would change); nothing
 * here changes a setting. Pure: the edited notes come from the caller.
 *
 * Moves and rewordings are counted but suggest nothing: no setting moves one section's items into
 * another or rewrites titles, and a suggestion must be a rule the settings can hold.
 */
import { keyedItems, type NoteJson, type ReleaseEdits } from '../entries/release-edits.js';
import type { SectionKey, SectionSetting } from './engine/types.js';

/** An editor's hides count as a pattern only from this many items… */
export const MIN_HIDDEN = 3;
/** …in at least this many notes… */
export const MIN_NOTES = 2;
/** …making at least this share of what generation put in the section across those notes. */
export const MIN_SHARE = 0.75;
/**
 * Items read at most (newest notes first; a note that would pass it is skipped): each is hashed to its
 * key on the page's request, so the work stays bounded whatever the notes hold (the caller also reads
 * only notes of bounded size).
 */
export const MAX_ITEMS = 20_000;

/** One release note as generated, with an editor's edits of it. */
export interface EditedNote {
  generated: Pick<NoteJson, 'sections'>;
  edits: ReleaseEdits;
}

export interface HideSectionSuggestion {
  key: SectionKey;
  label: string;
  /** Items of the section the editors hid, … */
  hidden: number;
  /** … of the section's items in the edited notes, … */
  items: number;
  /** … in this many notes. */
  notes: number;
}

export interface EditSuggestions {
  /** Edited notes read (the newest, within MAX_ITEMS). */
  notes: number;
  hideSections: HideSectionSuggestion[];
  /** The section settings with the suggestions applied (what "fill the form" puts there); null without suggestions. */
  proposal: SectionSetting[] | null;
}

/** What the edits of `notes` suggest for a project whose sections are `sections`. */
export function suggestFromEdits(notes: readonly EditedNote[], sections: readonly SectionSetting[]): EditSuggestions {
  const tally = new Map<string, { hidden: number; items: number; notes: number }>();
  let read = 0;
  let budget = MAX_ITEMS;
  for (const { generated, edits } of notes) {
    const size = generated.sections.reduce((n, s) => n + s.items.length, 0);
    if (size > budget) continue;
    budget -= size;
    read++;
    const hiddenHere = new Set<string>();
    for (const { key, section } of keyedItems(generated)) {
      const t = tally.get(section) ?? { hidden: 0, items: 0, notes: 0 };
      tally.set(section, t);
      t.items++;
      if (edits.items[key]?.hidden === true) {
        t.hidden++;
        hiddenHere.add(section);
      }
    }
    for (const section of hiddenHere) tally.get(section)!.notes++;
  }
  const hideSections: HideSectionSuggestion[] = [];
  for (const setting of sections) {
    const t = tally.get(setting.key);
    if (!setting.visible || !t) continue;
    if (t.hidden >= MIN_HIDDEN && t.notes >= MIN_NOTES && t.hidden >= MIN_SHARE * t.items) {
      hideSections.push({ key: setting.key, label: setting.label, ...t });
    }
  }
  hideSections.sort((a, b) => b.hidden - a.hidden || a.key.localeCompare(b.key));
  const hide = new Set<string>(hideSections.map((s) => s.key));
  return {
    notes: read,
    hideSections,
    proposal: hideSections.length ? sections.map((s) => (hide.has(s.key) ? { ...s, visible: false } : { ...s })) : null,
  };
}
