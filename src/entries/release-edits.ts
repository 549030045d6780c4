/**
 * An editor's edits of a release note, and how they apply onto generated content. The edits are kept
 * apart from what generation writes (release_note_edits, migrations/0035), keyed by item identity, so
 * that a later generation run updates the sections and the edits are applied onto the new content
 * again: an item keeps its edit while it is generated, items generation adds are "new since your
 * edit". Pure: no I/O, no rendering (the note's Markdown comes from a port, entries.service.ts).
 */
import { createHash } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../errors.js';

/** Limits of what an editor may write (docs/revisions.md). */
export const EDIT_LIMITS = {
  /** An item's text: one line, as generation writes it. */
  itemText: 500,
  /** The introduction, Markdown. */
  introduction: 20_000,
  /** Headline items chosen. */
  headlines: 20,
} as const;

export interface NoteItem {
  text: string;
  component: string | null;
  [more: string]: unknown;
}
export interface NoteSection {
  section_type_key: string;
  label: string;
  items: NoteItem[];
}
export interface NoteHeadline {
  section_type_key: string;
  title: string;
  body: string | null;
}
/** A release note's generated_json (the contract's GeneratedJson, items possibly with more fields). */
export interface NoteJson {
  title: string;
  headline_items: NoteHeadline[];
  sections: NoteSection[];
  component_tags: string[];
  team_attribution: string | null;
}

const Key = Type.String({ maxLength: 40 });
export const ReleaseEditsSchema = Type.Object({
  introduction: Type.Union([Type.String(), Type.Null()]),
  items: Type.Record(Key, Type.Object({ text: Type.Optional(Type.String()), hidden: Type.Optional(Type.Boolean()), section: Type.Optional(Type.String()) })),
  /** Per section key: the items in the order the editor chose; items not listed follow in generated order. */
  order: Type.Record(Type.String(), Type.Array(Key)),
  /** The headline items chosen, in order; null: generation's choice. */
  headlines: Type.Union([Type.Array(Key), Type.Null()]),
  /** The items the editor has seen; any other item of the note is new since their edit. */
  known: Type.Array(Key),
  /**
   * What of the edits a language model wrote (an accepted summary, docs/summaries.md): the introduction,
   * items' texts. Shown as machine-written in the editor until a person edits that text.
   */
  machine: Type.Optional(Type.Object({ introduction: Type.Optional(Type.Boolean()), items: Type.Optional(Type.Array(Key)) })),
});
export type ReleaseEdits = Static<typeof ReleaseEditsSchema>;

export const noEdits = (): ReleaseEdits => ({ introduction: null, items: {}, order: {}, headlines: null, known: [] });

/** An item of a note with its key and generated section. */
export interface KeyedItem {
  key: string;
  section: string;
  item: NoteItem;
}
// keyedItems' results by the sections array they were computed from (never mutated once read).
const keyed = new WeakMap<object, ReadonlyArray<KeyedItem>>();

/** A trailing pull-request reference, `(#123)`: the item's key when it has one (text may be reworded). */
const PULL_REQUEST = /\(#(\d{1,10})\)\s*$/;

/**
 * Each item's key, in generated order: `pr:<number>` when its text ends with a pull-request reference,
 * else a hash of its component and text (`t:…`). The same key twice in a note (the same line in two
 * sections) is told apart by its rank (`~2`). Items carry no commit of their own in generated_json, so
 * this is the identity that survives a regeneration: a reworded title is a new item.
 */
export function keyedItems(json: Pick<NoteJson, 'sections'>): ReadonlyArray<KeyedItem> {
  // One hash per item, once per note object: an edit and its rendering key the same note several times
  // (about 11 ms for 10,000 items each time).
  const known = keyed.get(json.sections);
  if (known) return known;
  const seen = new Map<string, number>();
  const out: KeyedItem[] = [];
  for (const section of json.sections) {
    for (const item of section.items) {
      const pr = PULL_REQUEST.exec(item.text);
      const base = pr
        ? `pr:${pr[1]}`
        : `t:${createHash('sha256')
            .update(`${item.component ?? ''}\u0000${item.text}`)
            .digest('hex')
            .slice(0, 16)}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      out.push({ key: n === 1 ? base : `${base}~${n}`, section: section.section_type_key, item });
    }
  }
  keyed.set(json.sections, out);
  return out;
}

/** One item as the editor shows it: generated and edited. */
export interface EditorItem {
  key: string;
  /** Where it is shown (the editor's choice, else generation's). */
  section: string;
  generatedSection: string;
  text: string;
  generatedText: string;
  component: string | null;
  hidden: boolean;
  headline: boolean;
  /** Generated after the editor's last edit: for them to review. */
  isNew: boolean;
  /** Its text was written by a language model (an accepted summary) and no person has edited it since. */
  machine: boolean;
}

/** Generation's headline items as item keys (a headline is an item's text in its section). */
function generatedHeadlineKeys(json: NoteJson, items: ReturnType<typeof keyedItems>): string[] {
  const keys: string[] = [];
  for (const h of json.headline_items) {
    const match = items.find((i) => i.section === h.section_type_key && i.item.text === h.title) ?? items.find((i) => i.item.text === h.title);
    if (match && !keys.includes(match.key)) keys.push(match.key);
  }
  return keys;
}

/**
 * The note's items with the edits applied, section by section in the order shown (hidden ones too,
 * after the shown ones of their section), for the editor.
 */
export function editorView(
  json: NoteJson,
  edits: ReleaseEdits | null,
): { sections: Array<{ key: string; label: string; items: EditorItem[] }>; newItems: number } {
  const items = keyedItems(json);
  const e = edits ?? noEdits();
  const sectionKeys = new Set(json.sections.map((s) => s.section_type_key));
  const headlines = new Set(e.headlines ?? generatedHeadlineKeys(json, items));
  const known = new Set(e.known);
  const machine = new Set(e.machine?.items ?? []);
  const view: EditorItem[] = items.map(({ key, section, item }) => {
    const edit = e.items[key] ?? {};
    return {
      key,
      section: edit.section && sectionKeys.has(edit.section) ? edit.section : section,
      generatedSection: section,
      text: edit.text ?? item.text,
      generatedText: item.text,
      component: item.component,
      hidden: edit.hidden === true,
      headline: headlines.has(key),
      isNew: edits !== null && !known.has(key),
      machine: edit.text !== undefined && machine.has(key),
    };
  });
  const sections = json.sections.map((s) => {
    const here = view.filter((i) => i.section === s.section_type_key);
    const rank = new Map((e.order[s.section_type_key] ?? []).map((k, i) => [k, i]));
    // Stable: items the editor ordered first, in their order, then the others as generated.
    const ordered = here
      .map((item, i) => ({ item, i }))
      .sort((a, b) => (rank.get(a.item.key) ?? Infinity) - (rank.get(b.item.key) ?? Infinity) || a.i - b.i)
      .map((x) => x.item);
    return { key: s.section_type_key, label: s.label, items: [...ordered.filter((i) => !i.hidden), ...ordered.filter((i) => i.hidden)] };
  });
  return { sections, newItems: view.filter((i) => i.isNew).length };
}

/**
 * generated_json with the edits applied: items' text, section and order as the editor chose, hidden
 * items left out (and sections left empty by it), headline items as chosen (a breaking change keeps
 * its explanation). What readers see once it is published.
 */
export function applyEdits(json: NoteJson, edits: ReleaseEdits): NoteJson {
  const { sections } = editorView(json, edits);
  const raw = new Map(keyedItems(json).map((i) => [i.key, i.item]));
  const shown = sections.flatMap((s) => s.items.filter((i) => !i.hidden));
  const byKey = new Map(shown.map((i) => [i.key, i]));
  const bodies = new Map(json.headline_items.map((h) => [`${h.section_type_key}\u0000${h.title}`, h.body]));
  let headline_items: NoteHeadline[];
  if (edits.headlines === null) {
    // Generation's choice, each with the text and section its item now has; hidden ones left out.
    const items = keyedItems(json);
    headline_items = json.headline_items.flatMap((h) => {
      const match = items.find((i) => i.section === h.section_type_key && i.item.text === h.title) ?? items.find((i) => i.item.text === h.title);
      if (!match) return [h];
      const item = byKey.get(match.key);
      return item ? [{ section_type_key: item.section, title: item.text, body: h.body }] : [];
    });
  } else {
    headline_items = edits.headlines.flatMap((key) => {
      const item = byKey.get(key);
      if (!item) return [];
      return [{ section_type_key: item.section, title: item.text, body: bodies.get(`${item.generatedSection}\u0000${item.generatedText}`) ?? null }];
    });
  }
  return {
    ...json,
    headline_items,
    sections: sections
      .map((s) => ({
        section_type_key: s.key,
        label: s.label,
        // The generated item (its other fields kept) with the editor's text.
        items: s.items.filter((i) => !i.hidden).map((i) => ({ ...raw.get(i.key)!, text: i.text })),
      }))
      .filter((s) => s.items.length),
  };
}

/** One change an editor makes; `key` names an item of the note, `section` one of its sections. */
export type ReleaseEdit =
  | { action: 'text'; key: string; text: string }
  | { action: 'hide' | 'show' | 'up' | 'down' | 'headline' | 'unheadline' | 'reviewed'; key: string }
  | { action: 'move'; key: string; section: string }
  | { action: 'introduction'; text: string }
  | { action: 'reviewed-all' };

export const EDIT_ACTIONS = ['text', 'hide', 'show', 'up', 'down', 'headline', 'unheadline', 'move', 'introduction', 'reviewed', 'reviewed-all'] as const;

// C0 controls but tab and newline, DEL, C1 controls, bidirectional marks, overrides and isolates (what
// generation strips from commit text, engine/render.ts), interlinear annotations and noncharacters:
// never part of what readers see, and a way to make shown text read otherwise than it is stored.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\uFFF9-\uFFFB\uFFFE\uFFFF]/;
/** Line breaks an item (one line) may not hold, the Unicode separators too. */
const LINE_BREAK = /[\r\n\u2028\u2029]/;

/**
 * The edits after one more change, checked against the note's generated content: an unknown item, a
 * section the note does not have, text too long or with control characters are refused (400) and
 * nothing changes. The acted-on item is seen by the editor from then on.
 */
export function edit(json: NoteJson, current: ReleaseEdits | null, change: ReleaseEdit): ReleaseEdits {
  const items = keyedItems(json);
  const keys = new Set(items.map((i) => i.key));
  // The first edit: everything generated so far is what the editor saw.
  const e: ReleaseEdits = current ? structuredClone(current) : { ...noEdits(), known: [...keys] };
  const bad = (parameter: string, message: string) => new AppError('invalid_request', `Invalid edit: ${parameter} ${message}`, [{ parameter, message }]);
  if (change.action === 'introduction') {
    if (change.text.length > EDIT_LIMITS.introduction) throw bad('introduction', `must be at most ${EDIT_LIMITS.introduction.toLocaleString('en')} characters`);
    if (CONTROL.test(change.text.replace(/\r/g, ''))) throw bad('introduction', 'must not contain control characters');
    const text = change.text.replace(/\r\n?|[\u2028\u2029]/g, '\n').trim();
    // A person's introduction, even if they kept the machine's words: they saw and saved it.
    if (e.machine) delete e.machine.introduction;
    e.introduction = text ? text : null;
    return e;
  }
  if (change.action === 'reviewed-all') {
    e.known = [...new Set([...e.known, ...keys])];
    return e;
  }
  const { key } = change;
  if (!keys.has(key))
    throw new AppError('not_found', 'No such item in this release note; nothing was changed', [{ parameter: 'key', message: 'is not an item of this note' }]);
  const item = (e.items[key] ??= {});
  const view = editorView(json, e);
  const at = view.sections.find((s) => s.items.some((i) => i.key === key))!;
  switch (change.action) {
    case 'text': {
      const text = change.text.trim();
      if (!text) throw bad('text', 'must not be empty (hide the item instead)');
      if (text.length > EDIT_LIMITS.itemText) throw bad('text', `must be at most ${EDIT_LIMITS.itemText} characters`);
      if (LINE_BREAK.test(text) || CONTROL.test(text)) throw bad('text', 'must be one line without control characters');
      const generated = items.find((i) => i.key === key)!.item.text;
      if (text === generated) delete item.text;
      else item.text = text;
      if (e.machine?.items) e.machine.items = e.machine.items.filter((k) => k !== key);
      break;
    }
    case 'hide':
      item.hidden = true;
      break;
    case 'show':
      delete item.hidden;
      break;
    case 'move': {
      if (!json.sections.some((s) => s.section_type_key === change.section)) {
        throw bad('section', 'is not a section of this release note');
      }
      const generated = items.find((i) => i.key === key)!.section;
      if (change.section === generated) delete item.section;
      else item.section = change.section;
      // Last of its new section, where the editor will look for it.
      const target = editorView(json, e).sections.find((s) => s.key === change.section)!;
      e.order[change.section] = [...target.items.filter((i) => !i.hidden && i.key !== key).map((i) => i.key), key];
      break;
    }
    case 'up':
    case 'down': {
      const order = at.items.filter((i) => !i.hidden).map((i) => i.key);
      const from = order.indexOf(key);
      const to = change.action === 'up' ? from - 1 : from + 1;
      if (from < 0 || to < 0 || to >= order.length) break;
      [order[from], order[to]] = [order[to]!, order[from]!];
      e.order[at.key] = order;
      break;
    }
    case 'headline':
    case 'unheadline': {
      const chosen = view.sections
        .flatMap((s) => s.items)
        .filter((i) => i.headline)
        .map((i) => i.key);
      const next = change.action === 'headline' ? [...chosen.filter((k) => k !== key), key] : chosen.filter((k) => k !== key);
      if (next.length > EDIT_LIMITS.headlines) throw bad('key', `would make more than ${EDIT_LIMITS.headlines} headline items`);
      e.headlines = next;
      break;
    }
    case 'reviewed':
      break;
  }
  if (!Object.keys(item).length) delete e.items[key];
  if (!e.known.includes(key)) e.known.push(key);
  return e;
}

/** The edits as stored: anything unreadable counts as no edits rather than failing the note. */
export function storedEdits(value: unknown): ReleaseEdits | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<ReleaseEdits>;
  return {
    introduction: typeof v.introduction === 'string' ? v.introduction : null,
    items: v.items && typeof v.items === 'object' ? v.items : {},
    order: v.order && typeof v.order === 'object' ? v.order : {},
    headlines: Array.isArray(v.headlines) ? v.headlines : null,
    known: Array.isArray(v.known) ? v.known : [],
    ...(v.machine && typeof v.machine === 'object'
      ? {
          machine: {
            introduction: v.machine.introduction === true,
            items: Array.isArray(v.machine.items) ? v.machine.items.filter((k) => typeof k === 'string') : [],
          },
        }
      : {}),
  };
}

/**
 * The edits with an accepted machine summary applied (docs/summaries.md): its introduction, and its
 * rewordings of items no person reworded (a person's text wins), all marked machine-written. Keys the
 * note no longer has are left out (the summary was for this content: callers check its fingerprint).
 */
export function withSummary(
  json: NoteJson,
  current: ReleaseEdits | null,
  summary: { introduction: string | null; rewordings: ReadonlyArray<{ id: string; text: string }> },
): ReleaseEdits {
  const keys = new Set(keyedItems(json).map((i) => i.key));
  const e: ReleaseEdits = current ? structuredClone(current) : { ...noEdits(), known: [...keys] };
  const machine = { introduction: e.machine?.introduction === true, items: [...(e.machine?.items ?? [])] };
  if (summary.introduction) {
    e.introduction = summary.introduction;
    machine.introduction = true;
  }
  for (const { id, text } of summary.rewordings) {
    if (!keys.has(id)) continue;
    const item = (e.items[id] ??= {});
    if (item.text !== undefined && !machine.items.includes(id)) continue;
    item.text = text;
    if (!machine.items.includes(id)) machine.items.push(id);
  }
  e.machine = machine;
  return e;
}

/** Whether a person (not only an accepted machine summary) edited the note. */
export function editedByPerson(edits: ReleaseEdits | null): boolean {
  if (!edits) return false;
  const machineItems = new Set(edits.machine?.items ?? []);
  const personItems = Object.entries(edits.items).some(
    ([key, item]) => item.hidden || item.section !== undefined || (item.text !== undefined && !machineItems.has(key)),
  );
  return (
    personItems ||
    (edits.introduction !== null && edits.machine?.introduction !== true) ||
    Object.values(edits.order).some((o) => o.length) ||
    edits.headlines !== null
  );
}

/** Whether the edits change anything readers see. */
export function changesAnything(edits: ReleaseEdits): boolean {
  return edits.introduction !== null || Object.keys(edits.items).length > 0 || Object.values(edits.order).some((o) => o.length) || edits.headlines !== null;
}
