/**
 * History: changes that reached the tracked branch before their repository was linked. Linking a
 * repository with years of it must not flood the review queue, nor date it all by the moment of
 * publishing (a backfilled December listed above the July after it). Storage asks here, for each
 * new entry, whether it is history and, if so, which date it carries.
 *
 * A commit entry is history when its commit arrived (src/generation/arrival.ts) before its own
 * link was made; its date is that arrival. A rollup is history when its period ended by the time
 * every one of its commits' links was made (so all it holds is history); its date is the period's
 * end. A period still open at the link, or holding a later link's new work, is new work.
 */
import type { EntryStatus } from '../db/schema.js';
import type { GenerationSettings } from './types.js';

export interface HistoryEntry {
  commit_sha: string | null;
  /** When a commit entry's commit reached the tracked branch (epoch ms, arrival.ts); null when unknown. */
  arrived_at: number | null;
  /** The entry's commits; null when storage holds the entry already (it keeps its status). */
  commit_shas: readonly string[] | null;
  period_end: string | null;
}

/** What storage does with a new entry: store it (with this status and date) or not at all. */
export type Placement =
  | { store: true; history: boolean; status: EntryStatus; publishedAt: Date | null }
  | { store: false };

export interface HistoryContext {
  /** When the link a commit came through was made (epoch ms); undefined: no link (removed), so never history. */
  linkedAt: (sha: string) => number | undefined;
}

/** The date of an entry if it is history, else null. */
export function historyDate(entry: HistoryEntry, { linkedAt }: HistoryContext): number | null {
  if (entry.commit_sha !== null) {
    const linked = linkedAt(entry.commit_sha);
    const at = entry.arrived_at;
    return linked !== undefined && at !== null && at < linked ? at : null;
  }
  if (!entry.period_end || !entry.commit_shas?.length) return null;
  const end = Date.parse(entry.period_end);
  for (const sha of entry.commit_shas) {
    const linked = linkedAt(sha);
    if (linked === undefined || end > linked) return null;
  }
  return end;
}

/**
 * Where a new entry goes: new work follows the type's publishing policy (published now, or a
 * draft); history follows the project's history policy, dated when its change reached the branch.
 */
export function place(
  entry: HistoryEntry & { entry_type: keyof GenerationSettings['publish'] },
  settings: Pick<GenerationSettings, 'publish' | 'history' | 'historySince'>,
  context: HistoryContext,
): Placement {
  const at = historyDate(entry, context);
  if (at === null) {
    return { store: true, history: false, status: settings.publish[entry.entry_type] === 'auto' ? 'published' : 'draft', publishedAt: null };
  }
  if (settings.history === 'skip') return { store: false };
  if (settings.historySince !== null && at < Date.parse(settings.historySince)) return { store: false };
  return settings.history === 'publish'
    ? { store: true, history: true, status: 'published', publishedAt: new Date(at) }
    : { store: true, history: true, status: 'draft', publishedAt: null };
}
