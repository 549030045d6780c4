/**
 * What a settings change would change: the entries generation produces with the current settings
 * and with the proposed ones, compared by key and fingerprint. Pure; nothing is stored.
 */
import type { GenerationResult } from './engine.js';
import { GENERATED_ENTRY_TYPES, type GeneratedEntry, type GeneratedEntryType, type GenerationSettings, type SectionKey } from './types.js';

export interface TypeComparison {
  current: number;
  proposed: number;
  added: number;
  removed: number;
  changed: number;
  unchanged: number;
}

export interface SectionCount {
  key: SectionKey;
  label: string;
  visible: boolean;
  /** Commits classified into the section, after exclusions (reverts not yet cancelled). */
  commits: number;
}

export interface SettingsComparison {
  commits: number;
  /** Commits left out (merges, exclusions, skip markers), by reason, with the proposed settings. */
  skipped: Record<string, number>;
  byType: Record<GeneratedEntryType, TypeComparison>;
  sections: SectionCount[];
  /** A few entries of each kind of change, newest first. */
  samples: { added: GeneratedEntry[]; removed: GeneratedEntry[]; changed: Array<{ before: GeneratedEntry; after: GeneratedEntry }> };
  /** The newest entries the proposed settings produce: rollups (largest type first), then commits. */
  newest: GeneratedEntry[];
}

/** Later periods first; ties (commit entries have no period) are left to the caller. */
const newestFirst = (a: GeneratedEntry, b: GeneratedEntry) => when(b) - when(a);

function when(e: GeneratedEntry): number {
  return e.period_start ? Date.parse(e.period_start) : 0;
}

export function compareGenerations(
  current: GenerationResult,
  proposed: GenerationResult,
  settings: GenerationSettings,
  options: { samples?: number; newest?: number } = {},
): SettingsComparison {
  const sampleSize = options.samples ?? 5;
  const byType = Object.fromEntries(
    GENERATED_ENTRY_TYPES.map((t) => [t, { current: 0, proposed: 0, added: 0, removed: 0, changed: 0, unchanged: 0 }]),
  ) as Record<GeneratedEntryType, TypeComparison>;
  const before = new Map(current.entries.map((e) => [e.key, e]));
  const after = new Map(proposed.entries.map((e) => [e.key, e]));
  const added: GeneratedEntry[] = [];
  const removed: GeneratedEntry[] = [];
  const changed: Array<{ before: GeneratedEntry; after: GeneratedEntry }> = [];
  for (const e of current.entries) byType[e.entry_type].current++;
  for (const e of proposed.entries) {
    const t = byType[e.entry_type];
    t.proposed++;
    const old = before.get(e.key);
    if (!old) {
      t.added++;
      added.push(e);
    } else if (old.fingerprint !== e.fingerprint) {
      t.changed++;
      changed.push({ before: old, after: e });
    } else t.unchanged++;
  }
  for (const e of current.entries) {
    if (after.has(e.key)) continue;
    byType[e.entry_type].removed++;
    removed.push(e);
  }
  // Commit entries have no period: the order they were produced in (oldest first) stands for time.
  const order = new Map(proposed.entries.map((e, i) => [e.key, i]));
  const orderBefore = new Map(current.entries.map((e, i) => [e.key, i]));
  const recent = (list: GeneratedEntry[], index: Map<string, number>) =>
    [...list].sort((a, b) => newestFirst(a, b) || (index.get(b.key) ?? 0) - (index.get(a.key) ?? 0)).slice(0, sampleSize);

  const rollupTypes = (['monthly', 'weekly', 'daily'] as const).filter((t) => byType[t].proposed > 0);
  const newestCount = options.newest ?? 3;
  const newest: GeneratedEntry[] = [];
  for (const type of rollupTypes.slice(0, 1)) newest.push(...recent(proposed.entries.filter((e) => e.entry_type === type), order).slice(0, newestCount));
  newest.push(...recent(proposed.entries.filter((e) => e.entry_type === 'commit'), order).slice(0, newestCount));

  return {
    commits: proposed.stats.commits,
    skipped: proposed.stats.skipped,
    byType,
    sections: settings.sections.map((s) => ({ key: s.key, label: s.label, visible: s.visible, commits: proposed.stats.bySection[s.key] })),
    samples: {
      added: recent(added, order),
      removed: recent(removed, orderBefore),
      changed: [...changed]
        .sort((a, b) => newestFirst(a.after, b.after) || (order.get(b.after.key) ?? 0) - (order.get(a.after.key) ?? 0))
        .slice(0, sampleSize),
    },
    newest,
  };
}
