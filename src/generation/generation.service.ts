import type { Db, Executor } from '../db/database.js';
import type { EntryStatus, ProjectRow } from '../db/schema.js';
import { AppError, notFound } from '../errors.js';
import type { EntriesService, Selection } from '../entries/entries.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { computeArrivals, type ArrivalIndex } from './arrival.js';
import { type SettingsComparison } from './compare.js';
import { touchedPeriods } from './engine.js';
import { inlineEngine, type Engine, type EngineResult } from './engine-thread.js';
import type { EntryToStore, ReleaseToStore } from './engine-wire.js';
import { generationRepository, type StoredGenerated, type StoredRelease } from './generation.repository.js';
import { place, type HistoryContext } from './history.js';
import { resolveSettings, SettingsError, type SettingsInput } from './settings.js';
import type { CommitRecord } from '../git/commit-record.js';
import { type GeneratedEntryType, type GenerationSettings } from './types.js';
import { buildVersionIndex } from './versions.js';
import { isUuid } from '../ids.js';

type PerType = Record<GeneratedEntryType, number>;
type InsertRow = { record: string; commitId: string | null; status: EntryStatus; publishedAt: Date | null };
type UpdateRow = { id: string; record: string; commitId: string | null; restore?: EntryStatus; publishedAt?: Date | null };

/**
 * Entries per write: up to 1,000 (the entries service writes up to 1,000 rows per statement) or
 * about 1 MB of their JSON, so that the last writes, of large rollups, are not one long statement
 * the run waits for after the engine is done.
 */
const WRITE_BATCH = 1000;
const WRITE_CHARS = 1024 * 1024;

export interface GenerateRunOptions {
  /** Only commits that reached the tracked branch at or after this instant (and the periods they fall in). */
  since?: Date;
  /** Only these commits (the ones an ingest stored) and the periods they fall in. */
  shas?: readonly string[];
  /** Only commits stored at or after this instant (what an ingest added) and their periods. */
  storedSince?: Date;
  /** Entry types to produce; default: the project's. */
  types?: readonly GeneratedEntryType[];
  /** Store release notes too; default: the project's `releases` setting. */
  releases?: boolean;
  /** Called as the run advances (the CLI draws a progress bar on a terminal). */
  onProgress?: (progress: GenerateProgress) => void;
  /** Entries of the project whose edit is dropped first, in the run's transaction (a bulk regenerate). */
  clear?: readonly string[];
}

/** `generate`: commits classified and entries built; `store`: entries written of those to write. */
export interface GenerateProgress {
  stage: 'generate' | 'store';
  done: number;
  total: number;
}

export interface GenerateSummary {
  project: string;
  /** Reachable commits the run read (the whole history: version labels and path rules need it). */
  commits: number;
  /** Commits whose entries the run regenerated. */
  touched: number;
  created: PerType;
  updated: PerType;
  unchanged: number;
  /** Edited entries whose commits changed: kept as edited, flagged for a regenerate. */
  pending: number;
  /** Entries whose period or commit no longer has anything visible to show. */
  archived: number;
  /** Release notes written (releases.ts); null when the run did not produce them (the `releases` setting is off). */
  releases: ReleaseSummary | null;
  /** New entries of history (changes from before the link) stored as the history policy says. */
  history: { published: number; drafts: number; skipped: number };
  /** Problems that did not stop the run (a CODEOWNERS line from the repository skipped). */
  warnings: string[];
}

export interface ReleaseSummary {
  created: number;
  updated: number;
  unchanged: number;
  /** Notes no longer produced (a tag deleted; Unreleased emptied by a new tag). */
  archived: number;
}

/** Settings changes the CLI and the dashboard make: any SettingsInput field, replaced when given. */
export type SettingsPatch = Partial<SettingsInput>;

const zero = (): PerType => ({ commit: 0, daily: 0, weekly: 0, monthly: 0 });

/** The stored input with the patch's given fields replaced. */
function applyPatch(current: SettingsInput, patch: SettingsPatch): SettingsInput {
  const next: SettingsInput = { ...current };
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  return next;
}

/**
 * The repository's CODEOWNERS (read at ingest) where the project has none of its own. Added after
 * validation: the repository's file is not the project's to fix, so its bad lines are skipped
 * with a warning at generation instead of refusing the settings.
 */
function withRepoCodeowners(settings: GenerationSettings, codeowners: string | null | undefined): GenerationSettings {
  return settings.codeowners !== null || !codeowners ? settings : { ...settings, codeowners };
}

/** Validation problems as the API's error shape. */
function invalidSettings(error: SettingsError): AppError {
  return new AppError('invalid_request', 'Invalid generation settings', error.problems.map((message) => ({ message })));
}

/**
 * Stores what the engine generates from a project's stored commits. Entries are matched by the
 * engine's stable key: new keys are created (draft, or published when the type's policy is
 * `auto`), changed fingerprints are rewritten in place, unchanged ones are left alone, so a
 * second run changes nothing. An entry a person edited keeps its text and is flagged
 * `pending_regeneration` instead.
 */
export interface GenerationDeps {
  engine?: Engine;
  /** Every status an entry gets (draft, published, archived) is written by the entries service. */
  entries: Pick<
    EntriesService,
    'insertGenerated' | 'updateGenerated' | 'archiveGenerated' | 'insertGeneratedReleases' | 'updateGeneratedReleases' | 'archiveGeneratedReleases' | 'select'
  >;
  projects: Pick<ProjectsService, 'findBySlug' | 'findById'>;
}

export function createGenerationService(db: Db, { engine = inlineEngine, entries, projects }: GenerationDeps) {
  async function projectBySlug(slug: string): Promise<ProjectRow> {
    const project = await projects.findBySlug(slug);
    if (!project) throw notFound(`Project ${slug}`);
    return project;
  }

  function resolve(input: SettingsInput): GenerationSettings {
    try {
      return resolveSettings(input);
    } catch (error) {
      if (error instanceof SettingsError) throw invalidSettings(error);
      throw error;
    }
  }

  /**
   * The project's settings with the repository's CODEOWNERS (read at ingest from the tracked
   * branch's head) filled in; teams from it apply where the project's own mapping names none.
   */
  async function settingsFor(executor: Db, projectId: string): Promise<GenerationSettings> {
    const input = (await generationRepository.settingsOf(executor, projectId)) as SettingsInput;
    return withRepoCodeowners(resolve(input), await generationRepository.codeownersOf(executor, projectId));
  }

  async function run(project: ProjectRow, options: GenerateRunOptions = {}): Promise<GenerateSummary> {
    return db.transaction().execute(async (tx) => {
      await generationRepository.lockProject(tx, project.id);
      if (options.clear?.length) await generationRepository.clearEdits(tx, project.id, options.clear);
      const settings = await settingsFor(tx, project.id);
      const rows = await generationRepository.reachableCommits(tx, project.id);
      const commits = rows.map((r) => r.record);
      const commitIds = new Map(rows.map((r) => [r.record.sha, r.id]));
      // Labels and detected path rules come from the whole history, so the whole history is read;
      // `touched` limits which entries are produced and written.
      const stored = await generationRepository.generatedEntries(tx, project.id);
      const trunk = await generationRepository.trackedBranches(tx, project.id);
      const byKey = new Map(stored.map((e) => [e.generation_key, e]));

      let touched: Set<string> | null = null;
      // Periods are those of each commit's arrival on the tracked branch (a merged branch's commits
      // belong to their merge), read from the whole history like the engine does.
      let arrival: ArrivalIndex | null = null;
      if (options.since || options.shas || options.storedSince) {
        arrival = computeArrivals(commits, { trunk });
        const versions = buildVersionIndex(commits, { arrival });
        touched = new Set(options.shas ?? []);
        if (options.storedSince) {
          const since = options.storedSince.getTime();
          for (const r of rows) if (r.storedAt >= since) touched.add(r.record.sha);
        }
        if (options.since) {
          const since = options.since.getTime();
          for (const c of commits) if (arrival.get(c.sha)!.at >= since) touched.add(c.sha);
        }
        // A tag pushed later relabels entries no new commit touches: bring those along.
        for (const e of stored) {
          if (e.status === 'archived' || !e.commit_shas.length) continue;
          const expected = e.period_start && e.period_end ? versions.highestIn(e.period_start, e.period_end) : versions.labelOf(e.commit_shas[0]!, e.component_tags);
          if (expected !== e.version_label) touched.add(e.commit_shas[0]!);
        }
      }

      const types = options.types ?? settings.entryTypes;
      const progress = options.onProgress ?? (() => {});
      progress({ stage: 'generate', done: 0, total: commits.length });
      // In a worker thread on a server: the engine's CPU never holds the event loop, and a run over
      // its time budget is stopped (GenerationTimeout) instead of hanging the job.
      // Stored fingerprints go along so that the JSON of unchanged entries is neither made nor sent back.
      const fingerprints = new Map<string, string>();
      for (const e of stored) if (e.fingerprint) fingerprints.set(e.generation_key, e.fingerprint);
      // Release notes come from the whole history every run (cheap next to classification), so an
      // incremental run still sees a tag pushed without new commits.
      const withReleases = options.releases ?? settings.releases;
      const storedReleases = withReleases ? await generationRepository.generatedReleases(tx, project.id) : [];
      const releaseFingerprints = new Map<string, string>();
      for (const r of storedReleases) if (r.fingerprint) releaseFingerprints.set(r.key, r.fingerprint);
      const summary: GenerateSummary = {
        project: project.slug,
        commits: commits.length,
        touched: touched ? touched.size : commits.length,
        created: zero(),
        updated: zero(),
        unchanged: 0,
        pending: 0,
        archived: 0,
        releases: null,
        history: { published: 0, drafts: 0, skipped: 0 },
        warnings: [],
      };
      let inserts: InsertRow[] = [];
      let updates: UpdateRow[] = [];
      const pending: string[] = [];
      const produced = new Set<string>();
      const linkTimes = await generationRepository.linkTimes(tx, project.id);
      const linkOf = new Map(rows.map((r) => [r.record.sha, r.linkId]));
      // A commit entry's arrival comes with it from the engine, which reads the graph anyway.
      const history: HistoryContext = {
        linkedAt: (sha) => {
          const link = linkOf.get(sha);
          return link ? linkTimes.get(link) : undefined;
        },
      };
      // Entries are written while the engine makes the rest (it streams them): the database stores
      // one batch while the engine's thread works on the next. Writes queue on the transaction's
      // connection in order; each is awaited before the transaction ends, also when the run fails.
      const writes: Array<Promise<void>> = [];
      let written = 0;
      let storing = false;
      let toWrite = 0;
      const onWritten = (n: number) => {
        written += n;
        if (storing) progress({ stage: 'store', done: written, total: toWrite });
      };
      const track = (write: Promise<void>) => {
        // Surfaced where the writes are awaited; meanwhile not an unhandled rejection.
        write.catch(() => {});
        writes.push(write);
      };
      let insertChars = 0;
      let updateChars = 0;
      const full = (rows: number, chars: number) => rows >= WRITE_BATCH || chars >= WRITE_CHARS;
      const flush = (all: boolean) => {
        if (inserts.length && (all || full(inserts.length, insertChars))) {
          toWrite += inserts.length;
          track(entries.insertGenerated(project.id, inserts, { tx, onBatch: onWritten }));
          inserts = [];
          insertChars = 0;
        }
        if (updates.length && (all || full(updates.length, updateChars))) {
          toWrite += updates.length;
          track(entries.updateGenerated(updates, { tx, onBatch: onWritten }));
          updates = [];
          updateChars = 0;
        }
      };
      const consider = (entry: EntryToStore) => {
        produced.add(entry.key);
        const existing = byKey.get(entry.key);
        const commitId = entry.commit_sha ? (commitIds.get(entry.commit_sha) ?? null) : null;
        if (!existing) {
          // History (from before the link) follows the history policy, dated by its change.
          const placed = place(entry, settings, history);
          if (!placed.store) {
            summary.history.skipped++;
            return;
          }
          if (placed.history) summary.history[placed.status === 'published' ? 'published' : 'drafts']++;
          inserts.push({ record: recordOf(entry), commitId, status: placed.status, publishedAt: placed.publishedAt });
          insertChars += entry.record!.length;
          summary.created[entry.entry_type]++;
        } else if (existing.fingerprint === entry.fingerprint) {
          summary.unchanged++;
        } else if (existing.edited_at) {
          if (!existing.pending_regeneration) pending.push(existing.id);
          summary.pending++;
        } else {
          // Archived by generation (no fingerprint) and produced again: back under the type's policy.
          const back = existing.status === 'archived' && existing.fingerprint === null && !existing.edited_at;
          const placed = back ? place(entry, settings, history) : undefined;
          const restore = placed?.store ? { restore: placed.status, publishedAt: placed.publishedAt } : {};
          updates.push({ id: existing.id, record: recordOf(entry), commitId, ...restore });
          updateChars += entry.record!.length;
          summary.updated[entry.entry_type]++;
        }
      };
      let result: EngineResult;
      try {
        result = await engine.run(
          {
            kind: 'generate',
            commits,
            settings,
            options: { types, trunk, ...(touched ? { touched: [...touched] } : {}) },
            stored: fingerprints,
            ...(withReleases ? { releases: { stored: releaseFingerprints } } : {}),
          },
          {
            onEntries: (batch) => {
              for (const entry of batch) consider(entry);
              flush(false);
            },
            // The notes come first, once the commits are classified: written while the entries are made.
            onReleases: (notes) => {
              const write = storeReleases(tx, project.id, settings, storedReleases, notes);
              track(write.then((r) => void (summary.releases = r)));
            },
          },
        );
      } catch (error) {
        // No write may still be running when the transaction rolls back.
        await Promise.allSettled(writes);
        throw error;
      }
      summary.warnings = result.warnings;
      progress({ stage: 'generate', done: commits.length, total: commits.length });
      flush(true);
      storing = true;
      progress({ stage: 'store', done: written, total: toWrite });
      const failed = (await Promise.allSettled(writes)).find((w) => w.status === 'rejected');
      if (failed) throw failed.reason;

      // Entries in scope that the engine no longer produces (a force-push dropped the commit, a
      // revert cancelled a period's only change, a section was hidden) are archived, edited ones flagged.
      const inScope = scopeOf(settings, types, touched, commits, arrival);
      const archive: string[] = [];
      for (const e of stored) {
        if (produced.has(e.generation_key) || e.status === 'archived' || !inScope(e)) continue;
        if (e.edited_at) {
          if (!e.pending_regeneration) pending.push(e.id);
          summary.pending++;
        } else archive.push(e.id);
      }
      await entries.archiveGenerated(archive, { tx });
      await generationRepository.markPending(tx, pending);
      summary.archived = archive.length;
      return summary;
    });
  }

  /**
   * Release notes, matched by key like entries: new ones created under the `release` policy (the
   * Unreleased note too: it is replaced in place as commits and tags arrive, and archived when a tag
   * leaves it empty), changed fingerprints rewritten (status kept), notes no longer produced archived.
   * Nobody edits a note's text, so there is no pending state.
   */
  async function storeReleases(
    tx: Executor,
    projectId: string,
    settings: GenerationSettings,
    stored: readonly StoredRelease[],
    notes: readonly ReleaseToStore[],
  ): Promise<ReleaseSummary> {
    const byKey = new Map(stored.map((r) => [r.key, r]));
    const status: EntryStatus = settings.publish.release === 'auto' ? 'published' : 'draft';
    const inserts: Array<{ record: string; status: EntryStatus }> = [];
    const updates: Array<{ id: string; record: string; restore?: EntryStatus }> = [];
    const summary: ReleaseSummary = { created: 0, updated: 0, unchanged: 0, archived: 0 };
    const produced = new Set<string>();
    for (const note of notes) {
      produced.add(note.key);
      const existing = byKey.get(note.key);
      if (!existing) {
        inserts.push({ record: recordOf(note), status });
        summary.created++;
      } else if (existing.fingerprint === note.fingerprint) {
        summary.unchanged++;
      } else {
        // Archived by generation (no fingerprint) and produced again: back under the release policy.
        const restore = existing.status === 'archived' && existing.fingerprint === null ? status : undefined;
        updates.push({ id: existing.id, record: recordOf(note), ...(restore ? { restore } : {}) });
        summary.updated++;
      }
    }
    const archive = stored.filter((r) => !produced.has(r.key) && r.status !== 'archived').map((r) => r.id);
    await entries.insertGeneratedReleases(projectId, inserts, { tx });
    await entries.updateGeneratedReleases(updates, { tx });
    await entries.archiveGeneratedReleases(archive, { tx });
    summary.archived = archive.length;
    return summary;
  }

  /** The JSON to write for an entry: the engine leaves it out only where the stored fingerprint matches. */
  function recordOf(entry: EntryToStore | ReleaseToStore): string {
    if (entry.record === null) throw new Error(`generation returned no record for ${entry.key}, whose fingerprint changed`);
    return entry.record;
  }

  /** Which stored entries this run speaks for: all of the configured types, or the touched keys. */
  function scopeOf(
    settings: GenerationSettings,
    entryTypes: readonly GeneratedEntryType[],
    touched: Set<string> | null,
    commits: readonly Pick<CommitRecord, 'sha' | 'committer'>[],
    arrival: ArrivalIndex | null,
  ): (e: StoredGenerated) => boolean {
    const types = new Set<string>(entryTypes);
    if (!touched) return (e) => types.has(e.entry_type);
    const touchedCommits = commits.filter((c) => touched.has(c.sha));
    // By arrival: a merge ingested today touches today's period, not the older ones its branch's
    // commits were committed in (their entries there must stay, not be archived as "gone").
    const keys = new Set<string>(touchedPeriods(touchedCommits, entryTypes, settings.timeZone, arrival ?? undefined).map((p) => p.key));
    for (const sha of touched) keys.add(`commit:${sha}`);
    return (e) => types.has(e.entry_type) && keys.has(e.generation_key);
  }

  return {
    /** The stored settings as given, and with every default filled in. */
    async settings(slug: string): Promise<{ input: SettingsInput; resolved: GenerationSettings }> {
      const project = await projectBySlug(slug);
      const input = (await generationRepository.settingsOf(db, project.id)) as SettingsInput;
      return { input, resolved: resolve(input) };
    },

    /**
     * What generation would produce from the project's stored commits with `patch` applied, against
     * what the current settings produce. Nothing is stored; invalid settings fail as configure does.
     */
    async previewSettings(slug: string, patch: SettingsPatch): Promise<SettingsComparison & { settings: GenerationSettings }> {
      const project = await projectBySlug(slug);
      const input = (await generationRepository.settingsOf(db, project.id)) as SettingsInput;
      const codeowners = await generationRepository.codeownersOf(db, project.id);
      const next = applyPatch(input, patch);
      const proposed = withRepoCodeowners(resolve(next), codeowners);
      const current = withRepoCodeowners(resolve(input), codeowners);
      const commits = (await generationRepository.reachableCommits(db, project.id)).map((r) => r.record);
      const comparison = await engine.run({ kind: 'compare', commits, current, proposed });
      // The settings as a form shows them: the repository's CODEOWNERS is not the project's own.
      return { ...comparison, settings: resolve(next) };
    },

    /** Replaces the given fields of a project's settings; all problems are reported at once and nothing is stored. */
    async configure(slug: string, patch: SettingsPatch): Promise<GenerationSettings> {
      const project = await projectBySlug(slug);
      const current = (await generationRepository.settingsOf(db, project.id)) as SettingsInput;
      const next = applyPatch(current, patch);
      const resolved = resolve(next);
      await generationRepository.saveSettings(db, project.id, next as Record<string, unknown>);
      return resolved;
    },

    async generate(slug: string, options: GenerateRunOptions = {}): Promise<GenerateSummary> {
      return run(await projectBySlug(slug), options);
    },

    async generateProject(projectId: string, options: GenerateRunOptions = {}): Promise<GenerateSummary> {
      const project = await projects.findById(projectId);
      if (!project) throw notFound('Project');
      return run(project, options);
    },

    /** Whether a linked repository has a CODEOWNERS file (read at ingest). */
    hasCodeowners: async (projectId: string) => Boolean(await generationRepository.codeownersOf(db, projectId)),

    /**
     * Drops people's edits of the selected entries of a project and writes their generated text
     * again, in one run (one transaction). Entries not generated from commits, and archived ones
     * (regenerating would bring them back), are left alone and counted in `skipped`.
     */
    async regenerateMany(projectId: string, selection: Selection): Promise<GenerateSummary & { selected: number; skipped: number }> {
      const project = await projects.findById(projectId);
      if (!project) throw notFound('Project');
      const ids = await entries.select(projectId, selection);
      const targets = await generationRepository.regenerable(db, projectId, ids);
      if (!targets.length) throw new AppError('conflict', 'None of the selected entries can be regenerated: they were not generated from commits, or are archived');
      const summary = await run(project, {
        shas: [...new Set(targets.flatMap((t) => t.commit_shas))],
        types: [...new Set(targets.map((t) => t.entry_type))],
        clear: targets.map((t) => t.id),
      });
      return { ...summary, selected: ids.length, skipped: ids.length - targets.length };
    },

    /** Drops a person's edit of an entry and writes the generated text again. */
    async regenerate(entryId: string): Promise<GenerateSummary> {
      const entry = isUuid(entryId) ? await generationRepository.findEntry(db, entryId) : undefined;
      if (!entry) throw notFound('Entry');
      if (!entry.generation_key) throw new AppError('conflict', 'This entry was not generated from commits, so it cannot be regenerated');
      await generationRepository.clearEdit(db, entry.id);
      const project = await projects.findById(entry.project_id);
      if (!project) throw notFound('Project');
      // Its own type only, even if the project no longer generates that type.
      return run(project, { shas: entry.commit_shas, types: [entry.entry_type] });
    },
  };
}

export type GenerationService = ReturnType<typeof createGenerationService>;
