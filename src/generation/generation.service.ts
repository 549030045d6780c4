import type { Db } from '../db/database.js';
import type { ProjectRow } from '../db/schema.js';
import { AppError, notFound } from '../errors.js';
import type { EntriesService, Selection } from '../entries/entries.service.js';
import type { EntryProposal, GeneratedContent, Proposal, ReleaseProposal, StoredGeneratedEntry } from '../entries/generated.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { computeArrivals, type ArrivalIndex } from './engine/arrival.js';
import { type SettingsComparison } from './engine/compare.js';
import { touchedPeriods } from './engine/engine.js';
import { inlineEngine, type Engine, type EngineResult } from './engine-thread.js';
import type { EntryToStore, ReleaseToStore } from './engine-wire.js';
import { generationRepository } from './generation.repository.js';
import { historyDate, type HistoryContext } from './history.js';
import { reconcile, Reconciler } from './reconcile.js';
import { resolveSettings, SettingsError, type SettingsInput } from './settings.js';
import type { CommitRecord } from '../git/commit-record.js';
import { type GeneratedEntryType, type GenerationSettings } from './engine/types.js';
import { buildVersionIndex } from './engine/versions.js';

type PerType = Record<GeneratedEntryType, number>;

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
 * Generates entries from a project's stored commits and proposes them for storage. What the engine
 * produces is matched to what is stored by the engine's stable key: new keys are proposed for
 * insertion, changed fingerprints for an update in place, keys no longer produced for archiving;
 * unchanged ones are left alone, so a second run changes nothing. The entries service decides
 * what each proposal comes to (status, a person's edit kept and flagged) and writes it.
 */
export interface GenerationDeps {
  engine?: Engine;
  /** Every status, edit flag and revision of an entry is the entries service's. */
  entries: Pick<EntriesService, 'storedGenerated' | 'storeGenerated' | 'dropEdit' | 'dropEdits' | 'regenerable'>;
  /** The settings are kept on the project row. */
  projects: Pick<ProjectsService, 'findBySlug' | 'findById' | 'generationSettings' | 'saveGenerationSettings'>;
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
    const input = (await projects.generationSettings(projectId, executor)) as SettingsInput;
    return withRepoCodeowners(resolve(input), await generationRepository.codeownersOf(executor, projectId));
  }

  async function run(project: ProjectRow, options: GenerateRunOptions = {}): Promise<GenerateSummary> {
    return db.transaction().execute(async (tx) => {
      await generationRepository.lockProject(tx, project.id);
      if (options.clear?.length) await entries.dropEdits(project.id, options.clear, { tx });
      const settings = await settingsFor(tx, project.id);
      const rows = await generationRepository.reachableCommits(tx, project.id);
      const commits = rows.map((r) => r.record);
      const commitIds = new Map(rows.map((r) => [r.record.sha, r.id]));
      // Release notes come from the whole history every run (cheap next to classification), so an
      // incremental run still sees a tag pushed without new commits.
      const withReleases = options.releases ?? settings.releases;
      // Labels and detected path rules come from the whole history, so the whole history is read;
      // `touched` limits which entries are produced and written.
      const { entries: stored, releases: storedReleases } = await entries.storedGenerated(project.id, { tx, releases: withReleases });
      const trunk = await generationRepository.trackedBranches(tx, project.id);

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
      for (const e of stored) if (e.fingerprint) fingerprints.set(e.key, e.fingerprint);
      const releaseFingerprints = new Map<string, string>();
      for (const r of storedReleases) if (r.fingerprint) releaseFingerprints.set(r.key, r.fingerprint);
      const reconciler = new Reconciler<StoredGeneratedEntry, EntryToStore>(stored);
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
      // one batch while the engine's thread works on the next.
      let written = 0;
      let storing = false;
      const store = entries.storeGenerated(project.id, settings, {
        tx,
        onBatch: (n) => {
          written += n;
          if (storing) progress({ stage: 'store', done: written, total: store.queued });
        },
      });
      const contentOf = (entry: EntryToStore): GeneratedContent => ({
        entryType: entry.entry_type,
        record: recordOf(entry),
        commitId: entry.commit_sha ? (commitIds.get(entry.commit_sha) ?? null) : null,
        historyAt: historyDate(entry, history),
      });
      const withContent = (p: Proposal<StoredGeneratedEntry, EntryToStore>): EntryProposal =>
        p.kind === 'insert' ? { kind: 'insert', produced: contentOf(p.produced) } : p.kind === 'update' ? { ...p, produced: contentOf(p.produced) } : p;
      let releasesUnchanged = 0;
      const proposeReleases = (notes: readonly ReleaseToStore[]): ReleaseProposal[] => {
        const { proposals, unchanged } = reconcile(storedReleases, notes);
        releasesUnchanged = unchanged;
        return proposals.map((p) => (p.kind === 'archive' ? p : { ...p, produced: { record: recordOf(p.produced) } }));
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
            onEntries: (batch) => store.entries(reconciler.produced(batch).map(withContent)),
            // The notes come first, once the commits are classified: written while the entries are made.
            onReleases: (notes) => store.releases(proposeReleases(notes)),
          },
        );
      } catch (error) {
        // No write may still be running when the transaction rolls back.
        await store.abandon();
        throw error;
      }
      progress({ stage: 'generate', done: commits.length, total: commits.length });
      store.flush();
      storing = true;
      progress({ stage: 'store', done: written, total: store.queued });

      // Entries in scope that the engine no longer produces (a force-push dropped the commit, a
      // revert cancelled a period's only change, a section was hidden) are proposed for archiving.
      store.entries(reconciler.vanished(scopeOf(settings, types, touched, commits, arrival)));
      const outcome = await store.finish();
      return {
        project: project.slug,
        commits: commits.length,
        touched: touched ? touched.size : commits.length,
        created: { ...zero(), ...outcome.created },
        updated: { ...zero(), ...outcome.updated },
        unchanged: reconciler.unchanged,
        pending: outcome.pending,
        archived: outcome.archived,
        releases: outcome.releases ? { created: outcome.releases.created, updated: outcome.releases.updated, unchanged: releasesUnchanged, archived: outcome.releases.archived } : null,
        history: outcome.history,
        warnings: result.warnings,
      };
    });
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
  ): (e: StoredGeneratedEntry) => boolean {
    const types = new Set<string>(entryTypes);
    if (!touched) return (e) => types.has(e.entry_type);
    const touchedCommits = commits.filter((c) => touched.has(c.sha));
    // By arrival: a merge ingested today touches today's period, not the older ones its branch's
    // commits were committed in (their entries there must stay, not be archived as "gone").
    const keys = new Set<string>(touchedPeriods(touchedCommits, entryTypes, settings.timeZone, arrival ?? undefined).map((p) => p.key));
    for (const sha of touched) keys.add(`commit:${sha}`);
    return (e) => types.has(e.entry_type) && keys.has(e.key);
  }

  return {
    /** The stored settings as given, and with every default filled in. */
    async settings(slug: string): Promise<{ input: SettingsInput; resolved: GenerationSettings }> {
      const input = (await projectBySlug(slug)).generation_settings as SettingsInput;
      return { input, resolved: resolve(input) };
    },

    /**
     * What generation would produce from the project's stored commits with `patch` applied, against
     * what the current settings produce. Nothing is stored; invalid settings fail as configure does.
     */
    async previewSettings(slug: string, patch: SettingsPatch): Promise<SettingsComparison & { settings: GenerationSettings }> {
      const project = await projectBySlug(slug);
      const input = project.generation_settings as SettingsInput;
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
      const next = applyPatch(project.generation_settings as SettingsInput, patch);
      const resolved = resolve(next);
      await projects.saveGenerationSettings(project.id, next as Record<string, unknown>);
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
      const { selected, targets } = await entries.regenerable(projectId, selection);
      const summary = await run(project, {
        shas: [...new Set(targets.flatMap((t) => t.commit_shas))],
        types: [...new Set(targets.map((t) => t.entry_type))],
        clear: targets.map((t) => t.id),
      });
      return { ...summary, selected, skipped: selected - targets.length };
    },

    /** Drops a person's edit of an entry and writes the generated text again. */
    async regenerate(entryId: string): Promise<GenerateSummary> {
      const entry = await entries.dropEdit(entryId);
      const project = await projects.findById(entry.projectId);
      if (!project) throw notFound('Project');
      // Its own type only, even if the project no longer generates that type.
      return run(project, { shas: entry.commitShas, types: [entry.entryType] });
    },
  };
}

export type GenerationService = ReturnType<typeof createGenerationService>;
