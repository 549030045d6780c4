/**
 * What a generation run proposes: what the engine produced matched, by the engine's stable key,
 * against what is stored. A new key is proposed for insertion, a changed fingerprint for an update
 * of the generated content, a stored key the run speaks for and no longer produces for archiving;
 * the same fingerprint is left alone, so a second run proposes nothing. What a proposal comes to
 * (a status, a person's edit kept) is the entries service's decision (src/entries/generated.ts).
 * Pure: no I/O.
 */
import type { EntryStatus } from '../db/schema.js';
import type { Proposal } from '../entries/generated.js';

/** A stored item as matched: its key, fingerprint (null once generation archived it) and status. */
export interface StoredItem {
  key: string;
  fingerprint: string | null;
  status: EntryStatus;
}

/** A produced item as matched: its key and the fingerprint of its content. */
export interface ProducedItem {
  key: string;
  fingerprint: string;
}

/**
 * Reconciles as the engine streams: `produced` for each batch, then `vanished` once the engine is
 * done (only then is it known what was not produced).
 */
export class Reconciler<S extends StoredItem, P extends ProducedItem> {
  readonly #byKey: ReadonlyMap<string, S>;
  readonly #stored: readonly S[];
  readonly #produced = new Set<string>();
  /** Produced items whose stored fingerprint is the same. */
  unchanged = 0;

  constructor(stored: readonly S[]) {
    this.#stored = stored;
    this.#byKey = new Map(stored.map((s) => [s.key, s]));
  }

  /** The proposals for a batch of produced items: insert the new, update the changed. */
  produced(batch: Iterable<P>): Proposal<S, P>[] {
    const proposals: Proposal<S, P>[] = [];
    for (const item of batch) {
      this.#produced.add(item.key);
      const stored = this.#byKey.get(item.key);
      if (!stored) proposals.push({ kind: 'insert', produced: item });
      else if (stored.fingerprint === item.fingerprint) this.unchanged++;
      else proposals.push({ kind: 'update', stored, produced: item });
    }
    return proposals;
  }

  /**
   * Stored items the run speaks for (`inScope`: an incremental run, only the periods it touched)
   * that none of the batches produced: archive them. Archived ones are left as they are.
   */
  vanished(inScope: (stored: S) => boolean = () => true): Array<{ kind: 'archive'; stored: S }> {
    return this.#stored.filter((s) => !this.#produced.has(s.key) && s.status !== 'archived' && inScope(s)).map((stored) => ({ kind: 'archive' as const, stored }));
  }
}

/** Stored against produced, all at once: the proposals and how many produced items are unchanged. */
export function reconcile<S extends StoredItem, P extends ProducedItem>(
  stored: readonly S[],
  produced: readonly P[],
  inScope?: (stored: S) => boolean,
): { proposals: Proposal<S, P>[]; unchanged: number } {
  const reconciler = new Reconciler<S, P>(stored);
  const proposals = [...reconciler.produced(produced), ...reconciler.vanished(inScope)];
  return { proposals, unchanged: reconciler.unchanged };
}
