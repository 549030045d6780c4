/**
 * The rules for generated content: what a generation run proposes (new content, changed content,
 * content no longer produced) and what becomes of it. Generation proposes; the entries service
 * decides here and writes (entries.service.ts `storeGenerated`), so every status, edit flag and
 * revision of an entry has one owner. Pure: no I/O.
 */
import type { EntryStatus, EntryType } from '../db/schema.js';

/** What the rules need to know of a stored generated entry (read in the generation run's transaction). */
export interface StoredGeneratedEntry {
  id: string;
  /** The engine's stable key (`generation_key`). */
  key: string;
  entry_type: EntryType;
  status: EntryStatus;
  /**
   * The fingerprint of what generation last proposed: a pending (or discarded) revision's, else the
   * row's own. Null once generation archived it (see `decideEntry`: it comes back under the type's policy).
   */
  fingerprint: string | null;
  /** The fingerprint of the row's own content: what readers see when it is published. */
  live_fingerprint: string | null;
  /** A pending revision waits for review (`pending`), or an editor discarded the last one (`discarded`). */
  revision: 'pending' | 'discarded' | null;
  /** When a person edited its text: generation keeps that text from then on. */
  edited_at: Date | null;
  pending_regeneration: boolean;
  version_label: string | null;
  commit_shas: string[];
  /** A commit entry's label depends on its components (a package's own tag series). */
  component_tags: string[];
  period_start: Date | null;
  period_end: Date | null;
}

/** What the rules need to know of a stored release note. */
export interface StoredGeneratedRelease {
  id: string;
  key: string;
  status: EntryStatus;
  /** As for entries: a revision's fingerprint, else the row's own. */
  fingerprint: string | null;
  live_fingerprint: string | null;
  revision: 'pending' | 'discarded' | null;
  /** An editor edited it in the release editor (release_note_edits): their edits apply onto new content. */
  edited?: boolean;
}

/** Generated content of an entry, as generation hands it over. */
export interface GeneratedContent {
  entryType: EntryType;
  /** The generated columns as one JSON object (src/generation/engine-wire.ts). */
  record: string;
  fingerprint: string;
  /** The row of a commit entry's commit. */
  commitId: string | null;
  /**
   * When the change reached the tracked branch, if that was before its repository was linked
   * (epoch ms; src/generation/history.ts): the entry is history. Null: new work.
   */
  historyAt: number | null;
}

/**
 * What generation proposes for one stored or produced item: `insert` new content, `update` the
 * generated content of a stored one, `archive` one it no longer produces.
 */
export type Proposal<S, P> = { kind: 'insert'; produced: P } | { kind: 'update'; stored: S; produced: P } | { kind: 'archive'; stored: S };
export type EntryProposal = Proposal<StoredGeneratedEntry, GeneratedContent>;
/** `historyAt`: when the release's tag reached the branch, if before its link (as GeneratedContent's). */
export type ReleaseProposal = Proposal<StoredGeneratedRelease, { record: string; fingerprint: string; historyAt: number | null }>;

/** A publishing policy per type: `auto` publishes as generated, `manual` keeps a draft for review. */
type PublishPolicy = 'manual' | 'auto';

/** The project's publishing rules (kept in its generation settings; the engine never reads them). */
export interface PublishingPolicy {
  publish: Readonly<Record<string, PublishPolicy>>;
  /** What becomes of history: published dated by its change, a draft, or not stored. */
  history: 'publish' | 'draft' | 'skip';
  /** History before this instant (ISO 8601) is not stored whatever the policy; null: none. */
  historySince: string | null;
}

/** Where new content goes: stored with this status (and date), or not at all. */
export type Placement = { store: true; history: boolean; status: EntryStatus; publishedAt: Date | null; historyAt: Date | null } | { store: false };

/**
 * Where new content goes: new work follows its type's publishing policy (published now, or a
 * draft); history follows the project's history policy, dated when its change reached the branch.
 */
export function place(entryType: EntryType | 'release', historyAt: number | null, policy: PublishingPolicy): Placement {
  if (historyAt === null) return { store: true, history: false, status: policy.publish[entryType] === 'auto' ? 'published' : 'draft', publishedAt: null, historyAt: null };
  if (policy.history === 'skip') return { store: false };
  if (policy.historySince !== null && historyAt < Date.parse(policy.historySince)) return { store: false };
  return policy.history === 'publish'
    ? { store: true, history: true, status: 'published', publishedAt: new Date(historyAt), historyAt: new Date(historyAt) }
    : { store: true, history: true, status: 'draft', publishedAt: null, historyAt: new Date(historyAt) };
}

/** What becomes of one proposal for an entry. */
export type EntryDecision =
  /** Stored anew with this status; `history`: it is history (counted apart). */
  | { action: 'insert'; status: EntryStatus; publishedAt: Date | null; history: boolean; historyAt: Date | null }
  /** New history the policy does not store. */
  | { action: 'skip' }
  /** Its generated content rewritten; `restore`: back from generation's archive with this status. */
  | { action: 'update'; restore?: { status: EntryStatus; publishedAt: Date | null } }
  /**
   * A published entry under the `manual` policy: the row (what readers see) stays, the content is
   * stored as its pending revision for an editor to publish or discard.
   */
  | { action: 'revise' }
  /** Generation came back to what is published: a revision waiting (or discarded) is dropped. */
  | { action: 'drop-revision' }
  /** A person's text stays; flagged for a regenerate (`flag`: not flagged yet). */
  | { action: 'keep-edit'; flag: boolean }
  | { action: 'archive' };

/**
 * The rules for an entry: new content is placed by policy; changed content rewrites an untouched
 * draft, becomes a published entry's pending revision or is published at once (`revisePublished`),
 * but never replaces a person's edit (that is flagged `pending_regeneration` instead); an entry
 * generation archived (it dropped the fingerprint) comes back under its type's policy; one no
 * longer produced is archived, unless a person edited it (flagged instead).
 */
export function decideEntry(proposal: EntryProposal, policy: PublishingPolicy): EntryDecision {
  if (proposal.kind === 'insert') {
    const placed = place(proposal.produced.entryType, proposal.produced.historyAt, policy);
    return placed.store ? { action: 'insert', status: placed.status, publishedAt: placed.publishedAt, history: placed.history, historyAt: placed.historyAt } : { action: 'skip' };
  }
  const { stored } = proposal;
  if (stored.edited_at) return { action: 'keep-edit', flag: !stored.pending_regeneration };
  if (proposal.kind === 'archive') return { action: 'archive' };
  if (stored.status === 'archived' && stored.fingerprint === null) {
    const placed = place(proposal.produced.entryType, proposal.produced.historyAt, policy);
    if (placed.store) return { action: 'update', restore: { status: placed.status, publishedAt: placed.publishedAt } };
  }
  return stored.status === 'published' ? revisePublished(stored, proposal.produced.fingerprint, policy.publish[stored.entry_type]) : { action: 'update' };
}

/**
 * Public content changes only by a publish: new content for a published item is published at once
 * under its type's `auto` policy (rewritten in place, as a publish would), and waits as a pending
 * revision under `manual`, the row keeping what readers see. Drafts are rewritten in place.
 */
function revisePublished(
  stored: { live_fingerprint: string | null; revision: 'pending' | 'discarded' | null },
  fingerprint: string,
  policy: PublishPolicy | undefined,
): { action: 'update' } | { action: 'revise' } | { action: 'drop-revision' } {
  if (fingerprint === stored.live_fingerprint) return stored.revision ? { action: 'drop-revision' } : { action: 'update' };
  return policy === 'auto' ? { action: 'update' } : { action: 'revise' };
}

/** What becomes of one proposal for a release note (`revise`, `drop-revision`: as for entries). */
export type ReleaseDecision =
  | { action: 'insert'; status: EntryStatus; publishedAt: Date | null; historyAt: Date | null }
  | { action: 'skip' }
  | { action: 'update'; restore?: EntryStatus }
  | { action: 'revise' }
  | { action: 'drop-revision' }
  | { action: 'archive' };

/**
 * The rules for a release note: new ones placed like entries (`place`): a release whose tag reached
 * the branch before the link is history, under the history policy; the others (the Unreleased note
 * too) under the `release` policy. Changed drafts are rewritten in place, changed published ones as
 * `revisePublished` says, those generation had archived come back under the policy, and those no
 * longer produced are archived. A published note an editor edited takes new content (with the edits
 * applied) as a pending revision whatever the policy: it is theirs to publish, as their own edits are,
 * and its new items are marked for their review.
 */
export function decideRelease(proposal: ReleaseProposal, policy: PublishingPolicy): ReleaseDecision {
  const status: EntryStatus = policy.publish.release === 'auto' ? 'published' : 'draft';
  if (proposal.kind === 'insert') {
    const placed = place('release', proposal.produced.historyAt, policy);
    return placed.store ? { action: 'insert', status: placed.status, publishedAt: placed.publishedAt, historyAt: placed.historyAt } : { action: 'skip' };
  }
  if (proposal.kind === 'archive') return { action: 'archive' };
  const back = proposal.stored.status === 'archived' && proposal.stored.fingerprint === null;
  if (back) return { action: 'update', restore: status };
  if (proposal.stored.edited && proposal.stored.status === 'published') return { action: 'revise' };
  return proposal.stored.status === 'published' ? revisePublished(proposal.stored, proposal.produced.fingerprint, policy.publish.release) : { action: 'update' };
}
