import { randomUUID } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { Db, Executor } from '../db/database.js';
import type { EntryRow, EntryStatus, EntryType, NewEntry, ReleaseNoteRow } from '../db/schema.js';
import { AppError, notFound, type ErrorDetail } from '../errors.js';
import { DateTime, Nullable, StringEnum, Uuid } from '../http/schemas.js';
import { compileValidator } from '../http/validator.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { entriesRepository, type RegenerableEntry, type ReleaseListRow, type ReviewRow } from './entries.repository.js';
import {
  decideEntry,
  decideRelease,
  type EntryProposal,
  type PublishingPolicy,
  type ReleaseProposal,
} from './generated.js';
import { ENTRY_STATUSES, ENTRY_TYPES, GeneratedJson, HeadlineItem, Section, SectionItem } from './entry.schemas.js';
import { decodeCursor, encodeCursor, REVIEW_PAGE_MAX, type ReviewFilter } from './review-filter.js';
import { isUuid } from '../ids.js';
import { releaseKey } from './release-key.js';
import {
  applyEdits,
  edit,
  editedByPerson,
  editorView,
  keyedItems,
  storedEdits,
  withSummary,
  type EditorItem,
  type KeyedItem,
  type NoteJson,
  type ReleaseEdit,
  type ReleaseEdits,
} from './release-edits.js';
import { releaseSummariesRepository, type ReleaseSummaryRow, type StoredSummary, type SummaryStatus } from './release-summaries.repository.js';
import { releaseRecordOf } from './entries.repository.js';
import { decodeReleaseCursor, encodeReleaseCursor, RELEASE_PAGE_MAX, type ReleaseFilter } from './release-filter.js';

/** Most entries one bulk action changes: a larger selection is refused, to be narrowed first. */
export const BULK_LIMIT = 5000;

/** How long an editor's change of a release note waits for a generation run of its project to end. */
export const EDITOR_LOCK_WAIT_MS = 10_000;

/**
 * The project's content lock for an editor's change (edit, publish, unpublish of release notes): a
 * generation run of the project holds it while it rewrites the notes, so the change is made on what
 * the run wrote, never beside it (an edit applied onto content the run then replaces, a revision written
 * for a note just unpublished). Past EDITOR_LOCK_WAIT_MS the change is refused (409), nothing changed.
 */
async function lockForEditor(tx: Executor, projectId: string): Promise<void> {
  try {
    await entriesRepository.lockContent(tx, projectId, EDITOR_LOCK_WAIT_MS);
  } catch (error) {
    if ((error as { code?: unknown }).code === '55P03') {
      throw new AppError('conflict', 'The release notes of this project are being generated again; nothing was changed. Try again in a moment');
    }
    throw error;
  }
}

/** What a bulk action applies to: ticked ids, or every entry matching a filter (re-evaluated here). */
export type Selection =
  | {
      ids: readonly string[];
      /** What the page showed of ticked entries (id → entryVersion): a publish leaves those changed since. */
      seen?: ReadonlyMap<string, string>;
    }
  | {
      filter: ReviewFilter;
      /** How many the person saw matching when they confirmed; more matching now is refused. */
      expected?: number;
    };

/** Bulk status changes, and the statuses each one moves entries from (others are left as they are). */
const BULK_MOVES = {
  publish: { to: 'published', from: ['draft', 'archived'] },
  archive: { to: 'archived', from: ['draft', 'published'] },
  unpublish: { to: 'draft', from: ['published'] },
} as const satisfies Record<string, { to: EntryStatus; from: readonly EntryStatus[] }>;
export type BulkStatusAction = keyof typeof BULK_MOVES;
export const BULK_STATUS_ACTIONS = Object.keys(BULK_MOVES) as BulkStatusAction[];

/**
 * What a bulk action on release notes applies to: ticked ids (the dashboard), tags (the command
 * line; `unreleased`: the Unreleased note), or every note matching a filter (re-evaluated here).
 */
export type ReleaseSelection =
  | { ids: readonly string[] }
  | { tags: readonly string[] }
  | {
      filter: ReleaseFilter;
      /** How many the person saw matching when they confirmed; more matching now is refused. */
      expected?: number;
    };

/**
 * Bulk status changes of release notes. A filter publishes drafts only: a note generation archived
 * (an Unreleased note emptied by a tag, a tag deleted) is no longer part of the history; a note
 * ticked or named by its tag is published from archived too, as a single publish does.
 */
export const RELEASE_ACTIONS = ['publish', 'unpublish'] as const;
export type ReleaseAction = (typeof RELEASE_ACTIONS)[number];

/** Release notes matching a filter, per status (for the status filter). */
export interface ReleaseCounts {
  total: number;
  byStatus: Record<EntryStatus, number>;
}

/** Entries matching a filter, per status (for the type filter) and per type (for the status filter). */
export interface ReviewCounts {
  /** Matching the whole filter. */
  total: number;
  byStatus: Record<EntryStatus, number>;
  byType: Record<string, number>;
  /** Published entries with a pending revision (matching the filter but for status): they wait with the drafts. */
  revisions: number;
}

/**
 * One entry of an import file, in the contract's field names. `id`, `project_id`, `created_at`
 * and `updated_at` are accepted (so an API response can be fed back in) and ignored: an import
 * always creates new entries in the named project.
 */
const ImportedEntry = Type.Object(
  {
    id: Type.Optional(Type.Unknown()),
    project_id: Type.Optional(Type.Unknown()),
    created_at: Type.Optional(Type.Unknown()),
    updated_at: Type.Optional(Type.Unknown()),
    // Plain enums so an error lists the allowed values.
    entry_type: StringEnum(ENTRY_TYPES),
    status: Type.Optional(StringEnum(ENTRY_STATUSES)),
    title: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    content: Type.Optional(Nullable(Type.String({ maxLength: 1_000_000 }))),
    generated_json: Type.Optional(Type.Union([Type.Ref(GeneratedJson), Type.Null()])),
    version_label: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    team_attribution: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    component_tags: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 })),
    commit_id: Type.Optional(Nullable(Uuid)),
    commit_shas: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9a-f]{7,64}$' }), { maxItems: 100_000 })),
    period_start: Type.Optional(Nullable(DateTime)),
    period_end: Type.Optional(Nullable(DateTime)),
    published_at: Type.Optional(Nullable(DateTime)),
  },
  { additionalProperties: false },
);

const ImportFile = Type.Array(ImportedEntry, { maxItems: 100_000 });
const checkImport = compileValidator<Static<typeof ImportFile>>(ImportFile, [HeadlineItem, SectionItem, Section, GeneratedJson]);

/** Generation's writes run in its transaction: `tx` is that transaction (default: outside any). */
interface WriteOptions {
  tx?: Executor;
  /** Called after each batch is stored, with the number of rows it held. */
  onBatch?: (written: number) => void;
}

/** Edited release notes read for rule suggestions: the newest, enough to show a habit… */
const RECENT_EDITED_NOTES = 50;
/** …each at most this large as stored (a note of some hundreds of items), so a page parses little. */
const RECENT_EDITED_NOTE_BYTES = 64 * 1024;

/**
 * Entries per write: up to 1,000 (the repository writes up to 1,000 rows per statement) or about
 * 1 MB of their JSON, so that the last writes of a generation run, of large rollups, are not one
 * long statement the run waits for after the engine is done.
 */
const WRITE_BATCH = 1000;
const WRITE_CHARS = 1024 * 1024;

/**
 * What a page showed of an entry, as the token its publish form sends back: when the entry last
 * changed and which revision waited. A publish checks it (transition), so an editor never publishes
 * content that arrived after they looked.
 */
export const entryVersion = (updatedAt: Date, revisionFingerprint: string | null): string => `${updatedAt.getTime()}.${revisionFingerprint ?? ''}`;

type InsertRow = { record: string; commitId: string | null; status: EntryStatus; publishedAt: Date | null; historyAt: Date | null };
/** `seen`: the status the rules decided on (entries.repository.ts updateGenerated). */
type UpdateRow = { id: string; record: string; commitId: string | null; seen: EntryStatus; restore?: EntryStatus; publishedAt?: Date | null };

/** What a generation run's proposals came to, per entry type where it says so. */
export interface GeneratedOutcome {
  created: Partial<Record<EntryType, number>>;
  updated: Partial<Record<EntryType, number>>;
  /** Edited entries whose generated content changed or went: kept as edited, flagged for a regenerate. */
  pending: number;
  /** Published entries whose new content waits for review as a pending revision (`manual` policy). */
  revised: number;
  archived: number;
  /** New entries of history (changes from before the link), as the history policy placed them. */
  history: { published: number; drafts: number; skipped: number };
  /** Release notes, when the run proposed any. */
  releases: { created: number; updated: number; archived: number; revised: number } | null;
}

/**
 * One generation run's storing, opened in its transaction. Proposals are decided as they come
 * (generated.ts) and written in batches while the engine makes the rest; `finish` writes what is
 * left, then archives and flags, and says what was done.
 */
export interface GeneratedStore {
  /** Decides each proposal and queues its write; a batch is written once enough is queued. */
  entries(proposals: readonly EntryProposal[]): void;
  /** Decides and writes the run's release note proposals (all of them at once). */
  releases(proposals: readonly ReleaseProposal[]): void;
  /** Starts writing everything queued. */
  flush(): void;
  /** Rows handed to the database so far (what `onBatch` counts up to once flushed). */
  readonly queued: number;
  /** Waits for every write (failing with the first that failed), archives, flags; the outcome. */
  finish(): Promise<GeneratedOutcome>;
  /** Waits for writes in flight without failing: no write may still run when the run's transaction rolls back. */
  abandon(): Promise<void>;
}

/**
 * Renders a release note's sections as generation does (Markdown, with the project's generation
 * settings: pull-request links): a port, since generation is a layer above (wired in core-services.ts).
 */
export type ReleaseMarkdown = (json: NoteJson, generationSettings: Record<string, unknown>) => string;

/** What the release editor shows of a note. */
export interface ReleaseEditorView {
  note: ReleaseNoteRow;
  edits: ReleaseEdits | null;
  editedAt: Date | null;
  introduction: string | null;
  sections: Array<{ key: string; label: string; items: EditorItem[] }>;
  newItems: number;
  /** Published, with content (the editor's or generation's) waiting for a publish. */
  waiting: boolean;
  /** releaseVersion: what the editor's publish expects to publish (publishRelease's `expected`). */
  version: string;
  /** The newest machine-written summary of the note (docs/summaries.md), whatever its status; null: none. */
  summary: (ReleaseSummaryRow & { current: boolean }) | null;
  /** The introduction was written by a language model (an accepted summary) and no person has edited it since. */
  machineIntroduction: boolean;
}

/** A release note a language model may be asked to summarize: its generated content now (docs/summaries.md). */
export interface SummaryCandidate {
  note: ReleaseNoteRow;
  /** The fingerprint of that content: a summary is for it, and only it. */
  fingerprint: string;
  json: NoteJson;
  items: ReadonlyArray<KeyedItem>;
}

/** What accepting a summary did: `held` when `auto` left it for the editor (a person's edits, other content waiting). */
export type SummaryAcceptance = 'accepted' | 'published' | 'held';

/**
 * The version of what publishing a note would publish, as an editor saw it: its row and its pending
 * revision, each as of its last write. An edit, a generation run or another editor's publish moves it.
 */
export const releaseVersion = (note: Pick<ReleaseNoteRow, 'updated_at' | 'status'>, revisionAt: Date | undefined): string =>
  `${note.status}.${note.updated_at.getTime()}.${revisionAt?.getTime() ?? 0}`;

/** A generated record with the edits applied: the columns readers see once it is published. */
function editedRecord(record: Record<string, unknown>, edits: ReleaseEdits, render: (json: NoteJson) => string): Record<string, unknown> {
  const json = applyEdits(record.generated_json as NoteJson, edits);
  const body = json.sections.length ? render(json) : '';
  const content = edits.introduction ? `${edits.introduction}\n\n${body}`.trimEnd() + '\n' : body;
  return { ...record, generated_json: json, content, introduction: edits.introduction };
}

/** A stored section as generation writes it: a key and items with text (component optional). */
function isNoteSection(value: unknown): boolean {
  const s = value as { section_type_key?: unknown; items?: unknown } | null;
  return (
    !!s &&
    typeof s.section_type_key === 'string' &&
    Array.isArray(s.items) &&
    s.items.every((item: unknown) => !!item && typeof (item as { text?: unknown }).text === 'string')
  );
}

export function createEntriesService(db: Db, deps: { projects: Pick<ProjectsService, 'findBySlug' | 'findById'>; releaseMarkdown: ReleaseMarkdown }) {
  /** The project's release Markdown renderer, with its settings read in `tx`. */
  async function releaseRenderer(projectId: string, tx: Executor): Promise<(json: NoteJson) => string> {
    const project = await deps.projects.findById(projectId, tx);
    const settings = (project?.generation_settings ?? {}) as Record<string, unknown>;
    return (json) => deps.releaseMarkdown(json, settings);
  }

  /**
   * Generated records of edited notes (id → record) with their edits applied, and the edits' new
   * generated base stored: what a run writes into their rows or revisions instead.
   */
  async function applyStoredEdits(tx: Executor, projectId: string, rows: ReadonlyArray<{ id: string; record: string }>): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (!rows.length) return out;
    const stored = await entriesRepository.releaseEdits(tx, projectId, rows.map((r) => r.id));
    if (!stored.length) return out;
    const render = await releaseRenderer(projectId, tx);
    const byId = new Map(stored.map((e) => [e.release_id, e]));
    const bases: Array<{ id: string; record: string }> = [];
    for (const row of rows) {
      const e = byId.get(row.id);
      const edits = e && storedEdits(e.edits);
      if (!edits) continue;
      out.set(row.id, JSON.stringify(editedRecord(JSON.parse(row.record) as Record<string, unknown>, edits, render)));
      bases.push(row);
    }
    await entriesRepository.setEditsGenerated(tx, bases);
    return out;
  }

  /** See GeneratedStore. Writes queue on the transaction's connection in order. */
  function storeGenerated(projectId: string, policy: PublishingPolicy, { tx = db, onBatch }: WriteOptions = {}): GeneratedStore {
    const outcome: GeneratedOutcome = { created: {}, updated: {}, pending: 0, revised: 0, archived: 0, history: { published: 0, drafts: 0, skipped: 0 }, releases: null };
    const count = (per: GeneratedOutcome['created'], type: EntryType) => void (per[type] = (per[type] ?? 0) + 1);
    let inserts: InsertRow[] = [];
    let updates: UpdateRow[] = [];
    let insertChars = 0;
    let updateChars = 0;
    let queued = 0;
    const archive: string[] = [];
    const flag: string[] = [];
    const revise: Array<{ id: string; record: string; fingerprint: string }> = [];
    const dropRevisions: string[] = [];
    const writes: Array<Promise<void>> = [];
    const track = (write: Promise<void>) => {
      // Surfaced where the writes are awaited; meanwhile not an unhandled rejection.
      write.catch(() => {});
      writes.push(write);
    };
    const full = (rows: number, chars: number) => rows >= WRITE_BATCH || chars >= WRITE_CHARS;
    const flush = (all: boolean) => {
      if (inserts.length && (all || full(inserts.length, insertChars))) {
        queued += inserts.length;
        track(entriesRepository.insertGenerated(tx, projectId, inserts, onBatch));
        inserts = [];
        insertChars = 0;
      }
      if (updates.length && (all || full(updates.length, updateChars))) {
        queued += updates.length;
        track(entriesRepository.updateGenerated(tx, updates, onBatch));
        updates = [];
        updateChars = 0;
      }
    };

    return {
      entries(proposals) {
        for (const proposal of proposals) {
          const decision = decideEntry(proposal, policy);
          if (decision.action === 'skip') outcome.history.skipped++;
          else if (decision.action === 'keep-edit') {
            if (decision.flag && proposal.kind !== 'insert') flag.push(proposal.stored.id);
            outcome.pending++;
          } else if (decision.action === 'archive' && proposal.kind === 'archive') archive.push(proposal.stored.id);
          else if (decision.action === 'revise' && proposal.kind === 'update') {
            const { record, commitId, fingerprint } = proposal.produced;
            // The record as updateGenerated would write it in place, so that a publish writes just that.
            revise.push({ id: proposal.stored.id, record: record.slice(0, -1) + `,"commit_id":${JSON.stringify(commitId)}}`, fingerprint });
            outcome.revised++;
          } else if (decision.action === 'drop-revision' && proposal.kind === 'update') dropRevisions.push(proposal.stored.id);
          else if (decision.action === 'insert' && proposal.kind === 'insert') {
            const { record, commitId, entryType } = proposal.produced;
            if (decision.history) outcome.history[decision.status === 'published' ? 'published' : 'drafts']++;
            inserts.push({ record, commitId, status: decision.status, publishedAt: decision.publishedAt, historyAt: decision.historyAt });
            insertChars += record.length;
            count(outcome.created, entryType);
          } else if (decision.action === 'update' && proposal.kind === 'update') {
            const { record, commitId, entryType } = proposal.produced;
            const restore = decision.restore ? { restore: decision.restore.status, publishedAt: decision.restore.publishedAt } : {};
            updates.push({ id: proposal.stored.id, record, commitId, seen: proposal.stored.status, ...restore });
            updateChars += record.length;
            count(outcome.updated, entryType);
          }
        }
        flush(false);
      },

      releases(proposals) {
        const inserts: Array<{ record: string; status: EntryStatus; publishedAt: Date | null; historyAt: Date | null }> = [];
        const updates: Array<{ id: string; record: string; seen: EntryStatus; restore?: EntryStatus }> = [];
        const revisions: Array<{ id: string; record: string; fingerprint: string }> = [];
        const dropped: string[] = [];
        const archive: string[] = [];
        for (const proposal of proposals) {
          const decision = decideRelease(proposal, policy);
          if (proposal.kind === 'insert' && decision.action === 'insert') {
            inserts.push({ record: proposal.produced.record, status: decision.status, publishedAt: decision.publishedAt, historyAt: decision.historyAt });
          } else if (proposal.kind === 'update' && decision.action === 'revise') revisions.push({ id: proposal.stored.id, ...proposal.produced });
          else if (proposal.kind === 'update' && decision.action === 'drop-revision') dropped.push(proposal.stored.id);
          else if (proposal.kind === 'update' && decision.action === 'update') {
            updates.push({ id: proposal.stored.id, record: proposal.produced.record, seen: proposal.stored.status, ...(decision.restore ? { restore: decision.restore } : {}) });
          } else if (proposal.kind === 'archive') archive.push(proposal.stored.id);
        }
        track(
          (async () => {
            // Notes an editor edited get the new content with their edits applied (release-edits.ts).
            const edited = await applyStoredEdits(tx, projectId, [...updates, ...revisions]);
            const withEdits = <T extends { id: string; record: string }>(row: T): T => ({ ...row, record: edited.get(row.id) ?? row.record });
            await entriesRepository.insertGeneratedReleases(tx, projectId, inserts);
            await entriesRepository.updateGeneratedReleases(tx, updates.map(withEdits));
            await entriesRepository.archiveGeneratedReleases(tx, archive);
            await entriesRepository.reviseReleases(tx, projectId, revisions.map(withEdits));
            // An edited note whose new content, edits applied, is what readers see already: nothing waits.
            await entriesRepository.dropIdleReleaseRevisions(tx, revisions.filter((r) => edited.has(r.id)).map((r) => r.id));
            await entriesRepository.dropReleaseRevisions(tx, dropped);
            outcome.releases = { created: inserts.length, updated: updates.length, archived: archive.length, revised: revisions.length };
          })(),
        );
      },

      flush: () => flush(true),

      get queued() {
        return queued;
      },

      async finish() {
        flush(true);
        const failed = (await Promise.allSettled(writes)).find((w) => w.status === 'rejected');
        if (failed) throw failed.reason;
        // Archived without the fingerprint: should the entry come back (a force-push undone, a
        // section shown again), it is told apart from one a person archived (see decideEntry).
        await entriesRepository.archiveGenerated(tx, archive);
        await entriesRepository.markPending(tx, flag);
        await entriesRepository.reviseEntries(tx, projectId, revise);
        await entriesRepository.dropEntryRevisions(tx, dropRevisions);
        // Revisions that waited under `manual` for a type now `auto` are published with the run, as
        // the policy says, not left waiting until their content changes again.
        const autoTypes = ENTRY_TYPES.filter((t) => policy.publish[t] === 'auto');
        if (autoTypes.length) await entriesRepository.applyEntryRevisions(tx, projectId, await entriesRepository.waitingRevisionIds(tx, projectId, autoTypes));
        if (policy.publish.release === 'auto') {
          await entriesRepository.applyReleaseRevisions(tx, projectId, await entriesRepository.waitingReleaseRevisionIds(tx, projectId));
        }
        outcome.archived = archive.length;
        return outcome;
      },

      async abandon() {
        await Promise.allSettled(writes);
      },
    };
  }

  /**
   * Moves an entry to `status`, in one transaction with its pending revision: publishing applies it
   * (the revision is what is published), leaving `published` writes it into the row once the row is
   * no longer public. The one place a revision reaches an entry's row.
   */
  async function transition(id: string, status: EntryStatus, owner?: string, seen?: string): Promise<EntryRow> {
    const existing = isUuid(id) ? await entriesRepository.findById(db, id) : undefined;
    if (!existing || (owner !== undefined && existing.project_id !== owner)) throw notFound('Entry');
    return db.transaction().execute(async (tx) => {
      // A publish from a page that showed the entry publishes what that page showed, or nothing.
      const checked = seen === undefined ? undefined : await checkSeen(tx, new Map([[id, seen]]));
      if (checked?.stale.length) {
        throw new AppError('conflict', 'This entry changed since the page showed it (new commits or another editor): review it again before publishing');
      }
      const updated = await entriesRepository.setStatus(tx, id, status);
      if (!updated) throw notFound('Entry');
      const applied = await entriesRepository.applyEntryRevisions(tx, updated.project_id, [id], checked?.revisions);
      return applied.length ? ((await entriesRepository.findById(tx, id)) ?? updated) : updated;
    });
  }

  /**
   * Locks the entries a page showed and compares each with what it showed (entryVersion): the stale
   * ones, and for the rest the revision each page showed (null: none), which is all a publish may apply.
   */
  async function checkSeen(tx: Executor, seen: ReadonlyMap<string, string>): Promise<{ stale: string[]; revisions: Map<string, string | null> }> {
    const current = await entriesRepository.lockForPublish(tx, [...seen.keys()]);
    const stale: string[] = [];
    const revisions = new Map<string, string | null>();
    for (const [id, token] of seen) {
      const now = current.get(id);
      if (!now) continue;
      if (entryVersion(now.updatedAt, now.revision) === token) revisions.set(id, now.revision);
      else stale.push(id);
    }
    return { stale, revisions };
  }

  /**
   * The generated content of a note nobody edited yet: a published note's waiting revision (the newest
   * content generation proposed), else its row.
   */
  async function generatedOf(tx: Executor, projectId: string, note: ReleaseNoteRow): Promise<Record<string, unknown>> {
    const revision = note.status === 'published' ? await entriesRepository.releaseRevisionRecord(tx, projectId, note.id) : undefined;
    return revision && !revision.discarded ? revision.record : releaseRecordOf(note);
  }

  /** Edited content into the note: a draft's row (nothing public), a published note's pending revision. */
  async function writeEdited(tx: Executor, projectId: string, note: ReleaseNoteRow, record: Record<string, unknown>, base: Record<string, unknown>): Promise<void> {
    if (note.status !== 'published') return entriesRepository.writeReleaseRecord(tx, note.id, record);
    const fingerprint = typeof base.fingerprint === 'string' ? base.fingerprint : (note.fingerprint ?? '');
    await entriesRepository.reviseReleases(tx, projectId, [{ id: note.id, record: JSON.stringify(record), fingerprint }]);
    // Back to what readers see (an edit undone): nothing waits.
    await entriesRepository.dropIdleReleaseRevisions(tx, [note.id]);
  }

  /** A release note by project and tag (`unreleased`: the Unreleased note), moved to `status` (its revision as for entries). */
  async function releaseTransition(projectSlug: string, tag: string, status: EntryStatus, expected?: string): Promise<ReleaseNoteRow> {
    const project = await deps.projects.findBySlug(projectSlug);
    if (!project) throw notFound(`Project ${projectSlug}`);
    return db.transaction().execute(async (tx) => {
      await lockForEditor(tx, project.id);
      if (status === 'draft') {
        // An unpublish takes back what is published, nothing else: an archived note stays archived (as a
        // draft, a later `auto` policy would publish it without a person); a draft is answered as it is.
        const note = await entriesRepository.lockRelease(tx, project.id, releaseKey(tag));
        if (!note) throw notFound(`Release ${tag}`);
        if (note.status !== 'published') return note;
      }
      if (expected !== undefined) {
        // What the editor previewed is what is published: a run (or another editor) that changed the note
        // since they opened it refuses the publish rather than publishing content nobody looked at.
        const note = await entriesRepository.lockRelease(tx, project.id, releaseKey(tag));
        if (!note) throw notFound(`Release ${tag}`);
        if (releaseVersion(note, await entriesRepository.releaseRevisionProposedAt(tx, note.id)) !== expected) {
          throw new AppError('conflict', 'This note changed since you opened it (new generated content or another edit); nothing was published. Review it and publish again');
        }
      }
      const updated = await entriesRepository.setReleaseStatus(tx, project.id, releaseKey(tag), status);
      if (!updated) throw notFound(`Release ${tag}`);
      const applied = await entriesRepository.applyReleaseRevisions(tx, project.id, [updated.id]);
      return applied.length ? ((await entriesRepository.findReleaseById(tx, updated.id)) ?? updated) : updated;
    });
  }

  /**
   * The project's entries a selection names, checked in `tx` (locked there). Ticked ids must all
   * be the project's: one that is not (another project's, made up) refuses the whole selection.
   * A filter is evaluated here, not trusted from a page, and refused above BULK_LIMIT or when more
   * match than the person confirmed.
   */
  async function select(projectId: string, selection: Selection, { tx = db }: WriteOptions = {}): Promise<string[]> {
    if ('ids' in selection) {
      const ids = [...new Set(selection.ids.map((id) => id.toLowerCase()))];
      if (!ids.length) throw new AppError('invalid_request', 'No entries selected');
      if (ids.length > BULK_LIMIT) throw new AppError('invalid_request', `At most ${BULK_LIMIT} entries at once`);
      const owned = await entriesRepository.ownedIds(tx, projectId, ids.filter((id) => isUuid(id)));
      const foreign = ids.filter((id) => !owned.has(id));
      if (foreign.length) {
        throw new AppError(
          'not_found',
          `${foreign.length === 1 ? 'One selected entry is' : `${foreign.length} selected entries are`} not in this project; nothing was changed`,
          foreign.slice(0, 20).map((id) => ({ parameter: 'ids', message: `${id.slice(0, 40)} is not an entry of this project` })),
        );
      }
      return ids;
    }
    const ids = await entriesRepository.matchingIds(tx, projectId, selection.filter, BULK_LIMIT + 1);
    if (ids.length > BULK_LIMIT) {
      throw new AppError('invalid_request', `More than ${BULK_LIMIT} entries match this filter; narrow it (by type, section or dates) and try again`);
    }
    if (selection.expected !== undefined && ids.length > selection.expected) {
      throw new AppError('conflict', `${ids.length} entries match now, more than the ${selection.expected} you confirmed; nothing was changed. Review the list and confirm again`);
    }
    if (!ids.length) throw new AppError('invalid_request', 'No entries match this filter');
    return ids;
  }

  /** The filter with its `sinceTag` resolved to that release's date; an unknown tag is not found. */
  async function releaseFilterOf(projectId: string, filter: ReleaseFilter, tx: Executor = db): Promise<ReleaseFilter & { sinceAt?: Date | null }> {
    if (filter.sinceTag === undefined) return filter;
    const since = await entriesRepository.findRelease(tx, projectId, releaseKey(filter.sinceTag));
    if (!since || !since.released_at) {
      throw new AppError('not_found', `No release ${filter.sinceTag} in this project`, [{ parameter: 'since', message: 'must be a date or a release tag of this project' }]);
    }
    return { ...filter, sinceAt: since.released_at };
  }

  /** The project's release notes a selection names, checked and locked in `tx`, as `select` does for entries. */
  async function selectReleases(projectId: string, selection: ReleaseSelection, tx: Executor): Promise<{ ids: string[]; explicit: boolean }> {
    if ('ids' in selection) {
      const ids = [...new Set(selection.ids.map((id) => id.toLowerCase()))];
      if (!ids.length) throw new AppError('invalid_request', 'No release notes selected');
      if (ids.length > BULK_LIMIT) throw new AppError('invalid_request', `At most ${BULK_LIMIT} release notes at once`);
      const owned = await entriesRepository.ownedReleaseIds(tx, projectId, ids.filter((id) => isUuid(id)));
      const foreign = ids.filter((id) => !owned.has(id));
      if (foreign.length) {
        throw new AppError(
          'not_found',
          `${foreign.length === 1 ? 'One selected release note is' : `${foreign.length} selected release notes are`} not in this project; nothing was changed`,
          foreign.slice(0, 20).map((id) => ({ parameter: 'ids', message: `${id.slice(0, 40)} is not a release note of this project` })),
        );
      }
      return { ids, explicit: true };
    }
    if ('tags' in selection) {
      const tags = [...new Set(selection.tags)];
      if (!tags.length) throw new AppError('invalid_request', 'Name release tags, or select with a filter (--all)');
      if (tags.length > BULK_LIMIT) throw new AppError('invalid_request', `At most ${BULK_LIMIT} release notes at once`);
      const byKey = await entriesRepository.releaseIdsByKey(tx, projectId, tags.map(releaseKey));
      const missing = tags.filter((t) => !byKey.has(releaseKey(t)));
      if (missing.length) {
        throw new AppError(
          'not_found',
          `${missing.length === 1 ? `No release ${missing[0]!.slice(0, 100)}` : `${missing.length} of the tags are no releases`} in this project; nothing was changed`,
          missing.slice(0, 20).map((t) => ({ parameter: 'tags', message: `${t.slice(0, 100)} is not a release of this project` })),
        );
      }
      return { ids: [...byKey.values()], explicit: true };
    }
    const filter = await releaseFilterOf(projectId, selection.filter, tx);
    const ids = await entriesRepository.matchingReleaseIds(tx, projectId, filter, BULK_LIMIT + 1);
    if (ids.length > BULK_LIMIT) throw new AppError('invalid_request', `More than ${BULK_LIMIT} release notes match this filter; narrow it (by package or date) and try again`);
    if (selection.expected !== undefined && ids.length > selection.expected) {
      throw new AppError('conflict', `${ids.length} release notes match now, more than the ${selection.expected} you confirmed; nothing was changed. Review the list and confirm again`);
    }
    if (!ids.length) throw new AppError('invalid_request', 'No release notes match this filter');
    return { ids, explicit: false };
  }

  return {
    /** Validates every entry first and stores all of them in one transaction, or none. */
    async import(projectSlug: string, input: unknown): Promise<{ imported: number; ids: string[] }> {
      const checked = checkImport(input);
      if (!checked.ok) {
        // Array positions read as `[2].entry_type`, like the consistency checks below.
        const details = checked.details
          .slice(0, 50)
          .map((d) => ({ ...d, parameter: d.parameter?.replace(/^(\d+)(?=\.|$)/, '[$1]') }));
        throw new AppError('invalid_request', 'The import file is not a JSON array of valid entries', details);
      }
      const entries = checked.value;
      const problems: ErrorDetail[] = [];
      entries.forEach((entry, i) => {
        if (entry.period_start && entry.period_end && new Date(entry.period_start) >= new Date(entry.period_end)) {
          problems.push({ parameter: `[${i}].period_end`, message: 'must be after period_start' });
        }
        if ((entry.status ?? 'draft') !== 'published' && entry.published_at) {
          problems.push({ parameter: `[${i}].published_at`, message: 'may be set only on published entries' });
        }
      });
      if (problems.length) throw new AppError('invalid_request', 'Some entries are inconsistent', problems);

      return db.transaction().execute(async (tx) => {
        const project = await deps.projects.findBySlug(projectSlug, tx);
        if (!project) throw notFound(`Project ${projectSlug}`);
        const commitIds = [...new Set(entries.map((e) => e.commit_id).filter((id): id is string => !!id))];
        if (commitIds.length) {
          const known = await entriesRepository.commitIdsOfProject(tx, project.id, commitIds);
          const missing = entries.flatMap((e, i) =>
            e.commit_id && !known.has(e.commit_id) ? [{ parameter: `[${i}].commit_id`, message: 'is not a commit of this project' }] : [],
          );
          if (missing.length) throw new AppError('invalid_request', 'Some entries point at unknown commits', missing);
        }
        const now = new Date();
        const rows: NewEntry[] = entries.map((entry) => {
          const status = entry.status ?? 'draft';
          return {
            id: randomUUID(),
            project_id: project.id,
            entry_type: entry.entry_type,
            status,
            title: entry.title ?? null,
            content: entry.content ?? null,
            generated_json: entry.generated_json ? JSON.stringify(entry.generated_json) : null,
            version_label: entry.version_label ?? null,
            team_attribution: entry.team_attribution ?? null,
            component_tags: entry.component_tags ?? [],
            commit_id: entry.commit_id ?? null,
            commit_shas: entry.commit_shas ?? [],
            period_start: entry.period_start ?? null,
            period_end: entry.period_end ?? null,
            published_at: status === 'published' ? (entry.published_at ?? now) : null,
          };
        });
        // Ids are chosen here so that `ids` follows the input order whatever order rows come back in.
        for (let i = 0; i < rows.length; i += 1000) await entriesRepository.insertMany(tx, rows.slice(i, i + 1000));
        return { imported: rows.length, ids: rows.map((r) => r.id as string) };
      });
    },

    listForProject: (projectId: string, limit = 200, offset = 0) => entriesRepository.listForProject(db, projectId, limit, offset),

    async get(id: string): Promise<EntryRow> {
      const entry = isUuid(id) ? await entriesRepository.findById(db, id) : undefined;
      if (!entry) throw notFound('Entry');
      return entry;
    },

    /** Replaces an entry's title and Markdown content (empty means none). */
    async editText(id: string, input: { title: string; content: string }): Promise<EntryRow> {
      const title = input.title.trim();
      const details: ErrorDetail[] = [];
      if (title.length > 1000) details.push({ parameter: 'title', message: 'must be at most 1000 characters' });
      if (input.content.length > 1_000_000) details.push({ parameter: 'content', message: 'must be at most 1,000,000 characters' });
      if (details.length) throw new AppError('invalid_request', 'Invalid entry', details);
      if (!isUuid(id)) throw notFound('Entry');
      return db.transaction().execute(async (tx) => {
        const updated = await entriesRepository.updateText(tx, id, { title: title || null, content: input.content.trim() ? input.content : null });
        if (!updated) throw notFound('Entry');
        // The person's text replaces a revision waiting for review; that newer generated content is
        // still there to take, as for any edit whose commits changed: flagged for a regenerate.
        if (await entriesRepository.dropWaitingRevision(tx, id)) await entriesRepository.markPending(tx, [id]);
        return updated;
      });
    },

    publish: (id: string) => transition(id, 'published'),
    unpublish: (id: string) => transition(id, 'draft'),
    archive: (id: string) => transition(id, 'archived'),

    /**
     * Publishes an entry of the project (ids of other projects are not found): a draft, or the pending
     * revision of a published one. The dashboard's path, where the project was checked for the person.
     * `seen` (entryVersion of what the page showed): anything changed since is refused (409), nothing published.
     */
    publishInProject: (projectId: string, id: string, seen?: string) => transition(id, 'published', projectId, seen),

    /** Back to draft, an entry of the project only (ids of other projects are not found), as `unpublish`. */
    /** Back to draft, if published; an archived or draft entry is answered as it is (see releaseTransition). */
    async unpublishInProject(projectId: string, id: string): Promise<EntryRow> {
      const existing = isUuid(id) ? await entriesRepository.findById(db, id) : undefined;
      if (!existing || existing.project_id !== projectId) throw notFound('Entry');
      return existing.status === 'published' ? transition(id, 'draft', projectId) : existing;
    },

    /**
     * Keeps what is public: the entry's pending revision is discarded (remembered by its fingerprint,
     * so the same content is not proposed again; new content is). Not an entry of the project, or no
     * revision waiting: not found.
     */
    async discardRevision(projectId: string, id: string): Promise<void> {
      if (!isUuid(id) || !(await entriesRepository.discardEntryRevision(db, projectId, id))) throw notFound('Pending revision');
    },

    /** The waiting revisions of the project's entries among `ids`, beside what is public. */
    revisions: (projectId: string, ids: readonly string[]) => entriesRepository.entryRevisions(db, projectId, ids.filter((id) => isUuid(id))),

    /**
     * A page of the review queue, newest first by each entry's own date; `next` continues after
     * its last entry (null on the last page). `after` is a cursor a previous page gave.
     */
    async review(projectId: string, filter: ReviewFilter, page: { after?: string; limit?: number } = {}): Promise<{ entries: ReviewRow[]; next: string | null }> {
      const limit = Math.min(Math.max(1, Math.trunc(page.limit ?? 50)), REVIEW_PAGE_MAX);
      const after = page.after ? decodeCursor(page.after) : undefined;
      // One more than shown says whether a next page exists without counting.
      const rows = await entriesRepository.reviewPage(db, projectId, filter, { limit: limit + 1, ...(after ? { after } : {}) });
      const entries = rows.slice(0, limit);
      const last = entries[entries.length - 1];
      return { entries, next: rows.length > limit && last ? encodeCursor({ atMicros: BigInt(last.occurred_us), id: last.id }) : null };
    },

    async reviewCounts(projectId: string, filter: ReviewFilter): Promise<ReviewCounts> {
      const rows = await entriesRepository.reviewFacets(db, projectId, filter);
      const byStatus = Object.fromEntries(ENTRY_STATUSES.map((s) => [s, 0])) as Record<EntryStatus, number>;
      const byType: Record<string, number> = Object.fromEntries(ENTRY_TYPES.map((t) => [t, 0]));
      let total = 0;
      let revisions = 0;
      for (const r of rows) {
        const typeOk = !filter.type || r.entry_type === filter.type;
        const statusOk = !filter.status || r.status === filter.status;
        // The draft filter is what waits for review: published entries with a pending revision too.
        const waiting = filter.status === 'draft' && r.status === 'published' ? r.revisions : 0;
        if (typeOk) byStatus[r.status] += r.n;
        if (typeOk) revisions += r.revisions;
        if (statusOk) byType[r.entry_type] = (byType[r.entry_type] ?? 0) + r.n;
        else if (waiting) byType[r.entry_type] = (byType[r.entry_type] ?? 0) + waiting;
        if (typeOk && statusOk) total += r.n;
        else if (typeOk) total += waiting;
      }
      return { total, byStatus, byType, revisions };
    },

    select,

    /**
     * Publishes, archives or unpublishes the selected entries of a project in one transaction;
     * entries already there (or not movable: publishing leaves published ones alone) are counted as unchanged.
     */
    async bulkStatus(projectId: string, action: BulkStatusAction, selection: Selection): Promise<{ selected: number; changed: number; unchanged: number; stale: number }> {
      const move = BULK_MOVES[action];
      return db.transaction().execute(async (tx) => {
        let ids = await select(projectId, selection, { tx });
        // Ticked on a page that showed them: a publish leaves those that changed since (new commits,
        // another editor) as they are, and publishes of the others only the revision the page showed.
        const selected = new Set(ids);
        const seen = action === 'publish' && 'ids' in selection && selection.seen ? new Map([...selection.seen].filter(([id]) => selected.has(id))) : undefined;
        const checked = seen?.size ? await checkSeen(tx, seen) : undefined;
        if (checked?.stale.length) {
          const stale = new Set(checked.stale);
          ids = ids.filter((id) => !stale.has(id));
        }
        // "All matching" the queue's default filter also matches published entries whose new content
        // waits: publishing publishes that content, but archiving or unpublishing drafts must not
        // take those entries off the public page.
        const waitingOnly = 'filter' in selection && selection.filter.status === 'draft';
        const from = waitingOnly ? move.from.filter((s) => s !== 'published') : move.from;
        const moved = await entriesRepository.setStatusMany(tx, projectId, ids, move.to, from);
        // After the moves (see transition): a published entry's waiting revision is what a publish
        // publishes; one that left `published` takes it in once no longer public.
        const revised = await entriesRepository.applyEntryRevisions(tx, projectId, waitingOnly && action !== 'publish' ? moved : ids, checked?.revisions);
        const changed = new Set([...moved, ...revised]).size;
        const stale = checked?.stale.length ?? 0;
        return { selected: ids.length + stale, changed, unchanged: ids.length + stale - changed, stale };
      });
    },

    /** Serialises generation runs of one project (the job and the CLI may run at once) and editors' changes of its notes: a run takes it first in its transaction. */
    lockContent: (projectId: string, { tx = db }: WriteOptions = {}) => entriesRepository.lockContent(tx, projectId),

    /** The project's generated entries (and release notes) as stored, for a generation run to reconcile, in its transaction. */
    storedGenerated: async (projectId: string, { tx = db, releases = false }: WriteOptions & { releases?: boolean } = {}) => ({
      entries: await entriesRepository.storedGenerated(tx, projectId),
      releases: releases ? await entriesRepository.storedReleases(tx, projectId) : [],
    }),

    /*
     * Generated content (entries and release notes, migrations/0020): generation proposes, the rules
     * in generated.ts decide, and every status, edit flag and revision is written here.
     */
    storeGenerated,

    /**
     * Drops a person's edit of a generated entry, so that the next run writes generated text again.
     * Returns what that run regenerates: the entry's project, type and commits.
     */
    async dropEdit(id: string): Promise<{ projectId: string; entryType: EntryType; commitShas: string[] }> {
      const entry = isUuid(id) ? await entriesRepository.findGenerated(db, id) : undefined;
      if (!entry) throw notFound('Entry');
      if (!entry.generation_key) throw new AppError('conflict', 'This entry was not generated from commits, so it cannot be regenerated');
      await entriesRepository.dropEdits(db, entry.project_id, [entry.id]);
      return { projectId: entry.project_id, entryType: entry.entry_type, commitShas: entry.commit_shas };
    },

    /**
     * Of the selected entries, those a bulk regenerate rewrites: the project's generated entries that
     * are not archived (regenerating would bring those back). None of them: refused.
     */
    async regenerable(projectId: string, selection: Selection): Promise<{ selected: number; targets: RegenerableEntry[] }> {
      const ids = await select(projectId, selection);
      const targets = await entriesRepository.regenerable(db, projectId, ids);
      if (!targets.length) throw new AppError('conflict', 'None of the selected entries can be regenerated: they were not generated from commits, or are archived');
      return { selected: ids.length, targets };
    },

    /** Drops people's edits of the project's entries among `ids` (a bulk regenerate, inside its run's transaction). */
    dropEdits: async (projectId: string, ids: readonly string[], { tx = db }: WriteOptions = {}) => entriesRepository.dropEdits(tx, projectId, ids),

    /** A project's release notes in every status, newest first (for review). */
    async listReleases(projectSlug: string, limit = 200): Promise<Array<ReleaseNoteRow & { pending_revision: boolean }>> {
      const project = await deps.projects.findBySlug(projectSlug);
      if (!project) throw notFound(`Project ${projectSlug}`);
      const notes = await entriesRepository.listReleases(db, project.id, limit);
      const waiting = await entriesRepository.releasesWithRevision(db, project.id, notes.map((n) => n.id));
      return notes.map((n) => ({ ...n, pending_revision: waiting.has(n.id) }));
    },

    /**
     * A page of a project's release notes in every status (or as filtered), newest release first
     * with the Unreleased note on top; `next` continues after its last note (null on the last page).
     */
    async releases(projectId: string, filter: ReleaseFilter, page: { after?: string; limit?: number } = {}): Promise<{ releases: ReleaseListRow[]; next: string | null }> {
      const limit = Math.min(Math.max(1, Math.trunc(page.limit ?? 50)), RELEASE_PAGE_MAX);
      const after = page.after ? decodeReleaseCursor(page.after) : undefined;
      const resolved = await releaseFilterOf(projectId, filter);
      // One more than shown says whether a next page exists without counting.
      const rows = await entriesRepository.releasePage(db, projectId, resolved, { limit: limit + 1, ...(after ? { after } : {}) });
      const releases = rows.slice(0, limit);
      const last = releases[releases.length - 1];
      const next = rows.length > limit && last ? encodeReleaseCursor({ atMicros: last.sort_us === 'inf' ? null : BigInt(last.sort_us), id: last.id }) : null;
      return { releases, next };
    },

    /** How many of a project's release notes match the filter, per status (the status filter aside). */
    async releaseCounts(projectId: string, filter: ReleaseFilter): Promise<ReleaseCounts> {
      const rows = await entriesRepository.releaseFacets(db, projectId, await releaseFilterOf(projectId, filter));
      const byStatus = Object.fromEntries(ENTRY_STATUSES.map((s) => [s, 0])) as Record<EntryStatus, number>;
      let total = 0;
      for (const r of rows) {
        byStatus[r.status] += r.n;
        if (!filter.status || r.status === filter.status) total += r.n;
      }
      return { total, byStatus };
    },

    /** The package series of a project's release notes (null: the root package's). */
    releasePackages: (projectId: string) => entriesRepository.releasePackages(db, projectId),

    /** A project's release note by tag (`unreleased`: the Unreleased note), in any status. */
    async release(projectId: string, tag: string): Promise<ReleaseNoteRow> {
      const note = await entriesRepository.findRelease(db, projectId, releaseKey(tag));
      if (!note) throw notFound(`Release ${tag}`);
      return note;
    },

    /**
     * Publishes or unpublishes the selected release notes of a project in one transaction; any id or
     * tag that is not the project's refuses the whole selection. Notes already there (and without a
     * waiting revision to publish) are counted as unchanged.
     */
    async bulkReleaseStatus(projectId: string, action: ReleaseAction, selection: ReleaseSelection): Promise<{ selected: number; changed: number; unchanged: number }> {
      const move = BULK_MOVES[action];
      return db.transaction().execute(async (tx) => {
        await lockForEditor(tx, projectId);
        const { ids, explicit } = await selectReleases(projectId, selection, tx);
        const from = action === 'publish' && !explicit ? (['draft'] as const) : move.from;
        const changed = await entriesRepository.setReleaseStatusMany(tx, projectId, ids, move.to, from);
        // Their waiting revisions as for one note (releaseTransition): leaving `published` writes them into
        // rows no longer public; publishing notes someone ticked or named publishes theirs too. A filter
        // publishes drafts only: it never makes public a revision nobody picked.
        const revised = await entriesRepository.applyReleaseRevisions(tx, projectId, action !== 'publish' ? changed : explicit ? ids : []);
        const moved = new Set([...changed, ...(action === 'publish' ? revised : [])]);
        return { selected: ids.length, changed: moved.size, unchanged: ids.length - moved.size };
      });
    },

    /**
     * Publishes what the publishing policy held back once it became `auto` for these types (the
     * settings' change, in its transaction): generated drafts of new work that no person edited or
     * unpublished (entries.repository.ts publishPolicyDrafts), and the revisions waiting on published ones.
     */
    async publishPolicyDrafts(projectId: string, types: readonly string[], { tx = db }: WriteOptions = {}) {
      const entryTypes = types.filter((t): t is EntryType => (ENTRY_TYPES as readonly string[]).includes(t));
      const published = await entriesRepository.publishPolicyDrafts(tx, projectId, entryTypes, types.includes('release'));
      // The new content it held back on published entries and notes too (as the next generation run would).
      if (entryTypes.length) await entriesRepository.applyEntryRevisions(tx, projectId, await entriesRepository.waitingRevisionIds(tx, projectId, entryTypes));
      if (types.includes('release')) await entriesRepository.applyReleaseRevisions(tx, projectId, await entriesRepository.waitingReleaseRevisionIds(tx, projectId));
      return published;
    },

    /** Publishes a release note with its waiting revision; with `expected` (releaseVersion), only if the note is still that version (409 otherwise). */
    publishRelease: (projectSlug: string, tag: string, expected?: string) => releaseTransition(projectSlug, tag, 'published', expected),

    /** Keeps the public revision of a release note: its pending revision is discarded (as discardRevision). */
    async discardReleaseRevision(projectSlug: string, tag: string): Promise<void> {
      const project = await deps.projects.findBySlug(projectSlug);
      if (!project) throw notFound(`Project ${projectSlug}`);
      const note = await entriesRepository.findRelease(db, project.id, releaseKey(tag));
      if (!note || !(await entriesRepository.discardReleaseRevision(db, project.id, note.id))) throw notFound(`Pending revision of release ${tag}`);
    },

    /** A release note's waiting revision beside what is public, if one waits. */
    async releaseRevision(projectSlug: string, tag: string) {
      const project = await deps.projects.findBySlug(projectSlug);
      if (!project) throw notFound(`Project ${projectSlug}`);
      const note = await entriesRepository.findRelease(db, project.id, releaseKey(tag));
      if (!note) throw notFound(`Release ${tag}`);
      return (await entriesRepository.releaseRevision(db, project.id, note.id)) ?? null;
    },

    /**
     * What editors did to the project's newest edited release notes (at most `RECENT_EDITED_NOTES`): each
     * note's generated sections and the edits on them, for rules suggested from them (edit-suggestions.ts).
     */
    async recentReleaseEdits(projectId: string): Promise<Array<{ generated: Pick<NoteJson, 'sections'>; edits: ReleaseEdits }>> {
      const rows = await entriesRepository.recentReleaseEdits(db, projectId, RECENT_EDITED_NOTES, RECENT_EDITED_NOTE_BYTES);
      return rows.flatMap((row) => {
        const edits = storedEdits(row.edits);
        // Stored JSON of another version, or damaged: a note that is not what generation writes is skipped.
        const sections = Array.isArray(row.sections) && row.sections.every(isNoteSection) ? (row.sections as NoteJson['sections']) : null;
        return edits && sections ? [{ generated: { sections }, edits }] : [];
      });
    },

    /** A release note as the release editor shows it: its items generated and edited, new ones marked. */
    async releaseEditor(projectId: string, tag: string): Promise<ReleaseEditorView> {
      const note = await entriesRepository.findRelease(db, projectId, releaseKey(tag));
      if (!note) throw notFound(`Release ${tag}`);
      const [row] = await entriesRepository.releaseEdits(db, projectId, [note.id]);
      const edits = row ? storedEdits(row.edits) : null;
      const base = row ? row.generated : await generatedOf(db, projectId, note);
      const view = editorView(base.generated_json as NoteJson, edits);
      const revision = note.status === 'published' ? await entriesRepository.releaseRevisionRecord(db, projectId, note.id) : undefined;
      // The version from the same reads the page shows (a revision only matters to a published note's publish,
      // but a draft's is read too: publishing a draft applies a revision left from before an unpublish).
      const revisionAt = revision?.proposedAt ?? (note.status === 'published' ? undefined : await entriesRepository.releaseRevisionProposedAt(db, note.id));
      const summary = await releaseSummariesRepository.find(db, projectId, note.id);
      return {
        note,
        edits,
        editedAt: row?.edited_at ?? null,
        introduction: edits?.introduction ?? null,
        ...view,
        waiting: !!revision && !revision.discarded,
        version: releaseVersion(note, revisionAt),
        summary: summary ? { ...summary, current: summary.fingerprint === String(base.fingerprint ?? '') } : null,
        machineIntroduction: edits?.machine?.introduction === true && edits.introduction !== null,
      };
    },

    /**
     * Applies one editor's change to a release note (release-edits.ts `edit`: checked against the note,
     * refused whole). The edits are stored apart from generated content; the note's row takes the
     * edited content while it is a draft, and its pending revision while it is published: readers see
     * the edit once the editor publishes it (publishRelease), never before.
     */
    async editRelease(projectId: string, tag: string, change: ReleaseEdit, userId: string | null = null): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await lockForEditor(tx, projectId);
        const note = await entriesRepository.lockRelease(tx, projectId, releaseKey(tag));
        if (!note) throw notFound(`Release ${tag}`);
        const [row] = await entriesRepository.releaseEdits(tx, projectId, [note.id], true);
        const base = row ? row.generated : await generatedOf(tx, projectId, note);
        const next = edit(base.generated_json as NoteJson, row ? storedEdits(row.edits) : null, change);
        const record = editedRecord(base, next, await releaseRenderer(projectId, tx));
        await entriesRepository.saveReleaseEdits(tx, { releaseId: note.id, projectId, edits: next, generated: base, userId });
        await writeEdited(tx, projectId, note, record, base);
      });
    },

    /**
     * The project's newest tagged release notes (at most `limit`) whose generated content has no summary
     * yet: what a generation run asks the model about. Their content is the generated base edits apply to.
     */
    async summaryCandidates(projectId: string, limit: number): Promise<SummaryCandidate[]> {
      const notes = (await entriesRepository.listReleases(db, projectId, limit + 1)).filter((n) => n.tag !== null && n.status !== 'archived').slice(0, limit);
      const ids = notes.map((n) => n.id);
      const [edits, seen] = await Promise.all([entriesRepository.releaseEdits(db, projectId, ids), releaseSummariesRepository.fingerprints(db, projectId, ids)]);
      const edited = new Map(edits.map((e) => [e.release_id, e.generated]));
      const out: SummaryCandidate[] = [];
      for (const note of notes) {
        const base = edited.get(note.id) ?? (await generatedOf(db, projectId, note));
        const fingerprint = String(base.fingerprint ?? '');
        if (seen.get(note.id) === fingerprint) continue;
        const json = base.generated_json as NoteJson;
        out.push({ note, fingerprint, json, items: keyedItems(json) });
      }
      return out;
    },

    /** Stores what the model wrote for a note (verified) or why it wrote nothing: for the editor, never for readers. */
    async saveReleaseSummary(
      projectId: string,
      releaseId: string,
      row: { fingerprint: string; model: string; status: Extract<SummaryStatus, 'pending' | 'failed'>; summary: StoredSummary; error: string | null },
    ): Promise<void> {
      await releaseSummariesRepository.save(db, { releaseId, projectId, ...row });
    },

    /**
     * Applies a note's waiting summary as edits (release-edits.ts withSummary: marked machine-written): a
     * draft's row takes it, a published note's pending revision does, so readers see it once it is
     * published. `auto` (the project's `auto` for summaries) publishes it at once, but only onto a note no
     * person edited and with nothing else waiting: it never publishes what an editor has not.
     * A summary written for other content than the note's now is refused (409).
     */
    async acceptReleaseSummary(projectId: string, tag: string, userId: string | null, { auto = false }: { auto?: boolean } = {}): Promise<SummaryAcceptance> {
      return db.transaction().execute(async (tx) => {
        await lockForEditor(tx, projectId);
        const note = await entriesRepository.lockRelease(tx, projectId, releaseKey(tag));
        if (!note) throw notFound(`Release ${tag}`);
        const summary = await releaseSummariesRepository.find(tx, projectId, note.id, true);
        if (!summary || summary.status !== 'pending') throw notFound(`Summary waiting for release ${tag}`);
        const [row] = await entriesRepository.releaseEdits(tx, projectId, [note.id], true);
        const base = row ? row.generated : await generatedOf(tx, projectId, note);
        if (String(base.fingerprint ?? '') !== summary.fingerprint) {
          throw new AppError('conflict', 'This note was generated again since the summary was written; nothing was changed');
        }
        const current = row ? storedEdits(row.edits) : null;
        if (auto) {
          const revision = note.status === 'published' ? await entriesRepository.releaseRevisionRecord(tx, projectId, note.id) : undefined;
          if (editedByPerson(current) || (revision && !revision.discarded)) return 'held';
        }
        const next = withSummary(base.generated_json as NoteJson, current, summary.summary);
        const record = editedRecord(base, next, await releaseRenderer(projectId, tx));
        await entriesRepository.saveReleaseEdits(tx, { releaseId: note.id, projectId, edits: next, generated: base, userId });
        await writeEdited(tx, projectId, note, record, base);
        await releaseSummariesRepository.decide(tx, note.id, 'accepted', userId);
        if (auto && note.status === 'published') {
          // The publish the project chose to make automatic: the revision just written, and nothing else (checked above).
          await entriesRepository.applyReleaseRevisions(tx, projectId, [note.id]);
          return 'published';
        }
        return 'accepted';
      });
    },

    /** Dismisses a note's waiting summary: nothing of it is used; the next new content asks again. */
    async dismissReleaseSummary(projectId: string, tag: string, userId: string | null): Promise<void> {
      const note = await entriesRepository.findRelease(db, projectId, releaseKey(tag));
      if (!note) throw notFound(`Release ${tag}`);
      const summary = await releaseSummariesRepository.find(db, projectId, note.id);
      if (!summary || summary.status !== 'pending') throw notFound(`Summary waiting for release ${tag}`);
      await releaseSummariesRepository.decide(db, note.id, 'dismissed', userId);
    },

    /** Drops the editor's edits of a note: its generated content comes back (for a published note, as a pending revision). */
    async resetReleaseEdits(projectId: string, tag: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await lockForEditor(tx, projectId);
        const note = await entriesRepository.lockRelease(tx, projectId, releaseKey(tag));
        if (!note) throw notFound(`Release ${tag}`);
        const [row] = await entriesRepository.releaseEdits(tx, projectId, [note.id], true);
        if (!row) return;
        await entriesRepository.deleteReleaseEdits(tx, projectId, note.id);
        await writeEdited(tx, projectId, note, { ...row.generated, introduction: null }, row.generated);
      });
    },

    /** The note as it will read once published: its row, or the revision waiting to be published into it. */
    async releasePreview(projectId: string, tag: string): Promise<ReleaseNoteRow> {
      const note = await entriesRepository.findRelease(db, projectId, releaseKey(tag));
      if (!note) throw notFound(`Release ${tag}`);
      const revision = note.status === 'published' ? await entriesRepository.releaseRevisionRecord(db, projectId, note.id) : undefined;
      if (!revision || revision.discarded) return note;
      const r = revision.record;
      return {
        ...note,
        title: String(r.title ?? note.title),
        content: String(r.content ?? ''),
        generated_json: r.generated_json as ReleaseNoteRow['generated_json'],
        introduction: typeof r.introduction === 'string' ? r.introduction : null,
      };
    },

    unpublishRelease: (projectSlug: string, tag: string) => releaseTransition(projectSlug, tag, 'draft'),
    archiveRelease: (projectSlug: string, tag: string) => releaseTransition(projectSlug, tag, 'archived'),
  };
}

export type EntriesService = ReturnType<typeof createEntriesService>;
