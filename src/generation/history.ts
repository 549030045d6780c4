/**
 * History: changes that reached the tracked branch before their repository was linked. Linking a
 * repository with years of it must not flood the review queue, nor date it all by the moment of
 * publishing (a backfilled December listed above the July after it). Generation tells, for each
 * entry it proposes, whether it is history and, if so, which date it carries; the entries service
 * places it by the project's history policy (src/entries/generated.ts `place`).
 *
 * A commit entry is history when its commit arrived (src/generation/engine/arrival.ts) before its own
 * link was made; its date is that arrival. A rollup is history when its period ended by the time
 * every one of its commits' links was made (so all it holds is history); its date is the period's
 * end. A period still open at the link, or holding a later link's new work, is new work.
 */

export interface HistoryEntry {
  commit_sha: string | null;
  /** When a commit entry's commit reached the tracked branch (epoch ms, arrival.ts); null when unknown. */
  arrived_at: number | null;
  /** The entry's commits; null when storage holds the entry already (it keeps its status). */
  commit_shas: readonly string[] | null;
  period_end: string | null;
}

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
