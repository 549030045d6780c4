/**
 * What an incremental run touches, and which stored entries it speaks for. Both read the arrival
 * and version indexes of the whole history, which the engine builds anyway: done here, in the
 * engine's thread, they are built once per run and never on the caller's event loop.
 */
import type { CommitRecord } from '../../git/commit-record.js';
import type { ArrivalIndex } from './arrival.js';
import { classifyCommit } from './classify.js';
import { touchedPeriods } from './engine.js';
import type { GeneratedEntryType } from './types.js';
import type { VersionIndex } from './versions.js';

/** A stored entry's version label, and what the index reads it from. */
export interface StoredLabel {
  /** Its first commit (a commit entry's own). */
  sha: string;
  /** A commit entry's components: a package's own tag series labels it. */
  components: readonly string[];
  /** A rollup's period (labelled by the best release tagged in it); null for a commit entry. */
  periodStart: Date | null;
  periodEnd: Date | null;
  label: string | null;
}

/** What an incremental run asks to touch. */
export interface Touch {
  /** Commits touched in any case (named, or stored since the ingest started). */
  shas: readonly string[];
  /** Also the commits that reached the tracked branch at or after this instant (epoch ms). */
  arrivedSince?: number;
  /** Stored entries' labels: one the index no longer gives (a tag pushed later) brings its commit along. */
  labels: readonly StoredLabel[];
  /**
   * Tags were added, moved or removed on commits stored before, or came with new ones: a commit's
   * release window may have moved where no label shows it. A revert and its target cancel out in a
   * rollup only inside one window, so every revert is touched (its periods are regenerated).
   */
  windowsMoved?: boolean;
}

/** Every message classify.ts may read as a revert mentions the word: only those are classified. */
const REVERTISH = /revert/i;

/** The SHAs an incremental run regenerates. */
export function touchedCommits(commits: readonly CommitRecord[], touch: Touch, arrival: ArrivalIndex, versions: VersionIndex): Set<string> {
  const touched = new Set(touch.shas);
  if (touch.arrivedSince !== undefined) for (const c of commits) if (arrival.get(c.sha)!.at >= touch.arrivedSince) touched.add(c.sha);
  for (const e of touch.labels) {
    const expected = e.periodStart && e.periodEnd ? versions.highestIn(e.periodStart, e.periodEnd) : versions.labelOf(e.sha, e.components);
    if (expected !== e.label) touched.add(e.sha);
  }
  // A tag moved between a change and its revert in one week splits them into two releases: the week
  // now lists both, though its label (the best release in it) is the same. The windows a run saw
  // before are not kept, so a run that moved tags looks again at each revert (few in any history).
  if (touch.windowsMoved) for (const c of commits) if (REVERTISH.test(c.message) && classifyCommit(c).reverts) touched.add(c.sha);
  return touched;
}

/**
 * The keys of the entries a run of `touched` speaks for (what it archives when no longer produced):
 * the touched commits' own entries and the rollups of their periods. By arrival: a merge ingested
 * today touches today's period, not the older ones its branch's commits were committed in (their
 * entries there must stay, not be archived as gone).
 */
export function touchedKeys(
  commits: readonly Pick<CommitRecord, 'sha' | 'committer'>[],
  touched: ReadonlySet<string>,
  types: readonly GeneratedEntryType[],
  timeZone: string,
  arrival: ArrivalIndex,
): string[] {
  const keys = new Set<string>(touchedPeriods(commits.filter((c) => touched.has(c.sha)), types, timeZone, arrival).map((p) => p.key));
  for (const sha of touched) keys.add(`commit:${sha}`);
  return [...keys];
}
