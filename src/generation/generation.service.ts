import type { Db } from '../db/database.js';
import type { ProjectRow } from '../db/schema.js';
import { AppError, notFound } from '../errors.js';
import type { EntriesService, GeneratedOutcome, Selection } from '../entries/entries.service.js';
import type { EntryProposal, GeneratedContent, Proposal, ReleaseProposal, StoredGeneratedEntry, StoredGeneratedRelease } from '../entries/generated.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { type SettingsComparison } from './engine/compare.js';
import type { PullRequestInfo } from './engine/pull-requests.js';
import type { StoredLabel, Touch } from './engine/touched.js';
import type { PullRequestFacts, PullRequestPreview } from './pr-preview.js';
import { proposeSections, type Calibration, type SectionProposal } from './calibration.js';
import { suggestFromEdits, type EditSuggestions } from './edit-suggestions.js';
import { GenerationTimeout, inlineEngine, type Engine, type EngineResult, type ReleaseNoteFields } from './engine-thread.js';
import type { EntryToStore, ReleaseToStore } from './engine-wire.js';
import { generationRepository, type StoredCommit } from './generation.repository.js';
import { historyDate, type HistoryContext } from './history.js';
import { reconcile, Reconciler } from './reconcile.js';
import { resolveSettings, SettingsError, type SettingsInput } from './settings.js';
import { type GeneratedEntryType, type GenerationSettings } from './engine/types.js';

type PerType = Record<GeneratedEntryType, number>;

/**
 * The note a ref would produce (previewRelease): generated, stored nowhere. `tag` null: what would be
 * Unreleased at the ref; `content`: GitHub-flavoured Markdown, as a publish of the note would show it.
 */
export interface ReleasePreview extends ReleaseNoteFields {
  /** The full SHA the ref named. */
  sha: string;
}

/** A full or abbreviated commit SHA (7 to 40 hex digits). */
const SHA_REF = /^[0-9a-f]{7,40}$/i;
/** A tag a preview may name for the release at its ref: what git accepts, kept to one plain line. */
const PREVIEW_TAG = /^[A-Za-z0-9@][A-Za-z0-9._@/+-]{0,199}$/;

/** The commit `ref` names among the stored ones: a tag, else a unique SHA prefix (in linear time). */
function resolveRef(rows: readonly StoredCommit[], ref: string): StoredCommit {
  const byTag = rows.find((r) => r.record.tags.includes(ref));
  if (byTag) return byTag;
  if (SHA_REF.test(ref)) {
    const prefix = ref.toLowerCase();
    const matches = rows.filter((r) => r.record.sha.startsWith(prefix));
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new AppError('invalid_request', `The ref ${ref} is ambiguous: it starts ${matches.length} synced commits; give more digits`, [{ parameter: 'ref', message: 'ambiguous' }]);
    }
  }
  throw new AppError('unprocessable', `The ref ${ref} is neither a tag nor a commit of the synced history: push it and sync the link first`, [
    { parameter: 'ref', message: 'not a synced tag or commit' },
  ]);
}

export interface GenerateRunOptions {
  /** Only commits that reached the tracked branch at or after this instant (and the periods they fall in). */
  since?: Date;
  /** Only these commits (the ones an ingest stored) and the periods they fall in. */
  shas?: readonly string[];
  /** Only commits stored at or after this instant (what an ingest added) and their periods. */
  storedSince?: Date;
  /**
   * The ingest added, moved or removed tags of commits stored before: with `storedSince`, the run
   * also looks again at what a release window decides (engine/touched.ts `windowsMoved`).
   */
  retagged?: boolean;
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
  /** Published entries whose new content waits for review as a pending revision (`manual` policy). */
  revised: number;
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
  /** Published notes whose new content waits for review as a pending revision. */
  revised: number;
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

/** The settings with every default filled in; invalid ones fail as the API's 400. */
function resolve(input: SettingsInput): GenerationSettings {
  try {
    return resolveSettings(input);
  } catch (error) {
    if (error instanceof SettingsError) throw invalidSettings(error);
    throw error;
  }
}

/** What a run reads, in its transaction under the project's lock. */
interface RunInput {
  settings: GenerationSettings;
  /** The reachable commits, oldest first, with their rows' ids, links and when they were stored. */
  rows: StoredCommit[];
  stored: StoredGeneratedEntry[];
  /** Empty when the run makes no release notes. */
  storedReleases: StoredGeneratedRelease[];
  withReleases: boolean;
  trunk: string[];
  /** When the link each commit came through was made: which new entries are history (history.ts). */
  history: HistoryContext;
  /** The merged pull requests of the history (GitHub links), empty where there are none. */
  pullRequests: PullRequestInfo[];
}

/**
 * What an incremental run asks the engine to touch (null: a full run). Only what needs no graph is
 * worked out here; commits by arrival and entries a later tag relabels are the engine thread's,
 * which builds the arrival and version indexes anyway (engine/touched.ts).
 */
function touchOf({ rows, stored }: RunInput, options: GenerateRunOptions): Touch | null {
  if (!options.since && !options.shas && !options.storedSince) return null;
  const shas = new Set(options.shas ?? []);
  let windowsMoved = options.retagged === true;
  if (options.storedSince) {
    const since = options.storedSince.getTime();
    for (const r of rows) {
      if (r.storedAt < since) continue;
      shas.add(r.record.sha);
      // A new tagged commit can be the first release of older commits (a merged branch's tag).
      if (r.record.tags.length) windowsMoved = true;
    }
  }
  // A tag pushed later relabels entries no new commit touches: the thread checks each stored label.
  const labels: StoredLabel[] = [];
  for (const e of stored) {
    if (e.status === 'archived' || !e.commit_shas.length) continue;
    labels.push({ sha: e.commit_shas[0]!, components: e.component_tags, periodStart: e.period_start, periodEnd: e.period_end, label: e.version_label });
  }
  return { shas: [...shas], ...(options.since ? { arrivedSince: options.since.getTime() } : {}), labels, ...(windowsMoved ? { windowsMoved } : {}) };
}

/** The commits only release branches reach, as the engine takes them (nothing when there are none). */
function releaseOnlyOf(rows: readonly StoredCommit[]): { releaseOnly?: string[] } {
  const shas: string[] = [];
  for (const r of rows) if (!r.onTrackedBranch) shas.push(r.record.sha);
  return shas.length ? { releaseOnly: shas } : {};
}

/** The JSON to write for an entry: the engine leaves it out only where the stored fingerprint matches. */
function recordOf(entry: EntryToStore | ReleaseToStore): string {
  if (entry.record === null) throw new Error(`generation returned no record for ${entry.key}, whose fingerprint changed`);
  return entry.record;
}

/**
 * What a run proposes to the entries service: what the engine produces reconciled with what is
 * stored (reconcile.ts), with the content the entries service stores (its commit's row, whether it
 * is history).
 */
function proposer({ rows, stored, storedReleases, history }: RunInput) {
  const commitIds = new Map(rows.map((r) => [r.record.sha, r.id]));
  const reconciler = new Reconciler<StoredGeneratedEntry, EntryToStore>(stored);
  const contentOf = (entry: EntryToStore): GeneratedContent => ({
    entryType: entry.entry_type,
    record: recordOf(entry),
    fingerprint: entry.fingerprint,
    commitId: entry.commit_sha ? (commitIds.get(entry.commit_sha) ?? null) : null,
    historyAt: historyDate(entry, history),
  });
  const withContent = (p: Proposal<StoredGeneratedEntry, EntryToStore>): EntryProposal =>
    p.kind === 'insert' ? { kind: 'insert', produced: contentOf(p.produced) } : p.kind === 'update' ? { ...p, produced: contentOf(p.produced) } : p;
  let releasesUnchanged = 0;
  // A release is history when its tagged commit reached the branch before that commit's link was
  // made: the rule of a commit entry (history.ts), on the tagged commit.
  const taggedSha = new Map<string, string>();
  for (const r of rows) for (const tag of r.record.tags) taggedSha.set(tag, r.record.sha);
  const releaseHistoryAt = (note: ReleaseToStore): number | null => {
    const sha = note.tag === null ? undefined : taggedSha.get(note.tag);
    return sha === undefined ? null : historyDate({ commit_sha: sha, arrived_at: note.releasedAt, commit_shas: null, period_end: null }, history);
  };
  return {
    /** A batch of the engine's entries. */
    entries: (batch: readonly EntryToStore[]): EntryProposal[] => reconciler.produced(batch).map(withContent),
    /** Every release note of the history, at once. */
    releases(notes: readonly ReleaseToStore[]): ReleaseProposal[] {
      const { proposals, unchanged } = reconcile(storedReleases, notes);
      releasesUnchanged = unchanged;
      return proposals.map((p) =>
        p.kind === 'archive' ? p : { ...p, produced: { record: recordOf(p.produced), fingerprint: p.produced.fingerprint, historyAt: releaseHistoryAt(p.produced) } },
      );
    },
    /** Once the engine is done: the stored entries in scope it no longer produced. */
    vanished: (inScope: (e: StoredGeneratedEntry) => boolean): EntryProposal[] => reconciler.vanished(inScope),
    unchanged: () => ({ entries: reconciler.unchanged, releases: releasesUnchanged }),
  };
}

/** Which stored entries a run speaks for: all of its types, or (an incremental run) the keys it touched. */
function scopeOf(types: readonly GeneratedEntryType[], touched: EngineResult['touched']): (e: StoredGeneratedEntry) => boolean {
  const typeSet = new Set<string>(types);
  if (!touched) return (e) => typeSet.has(e.entry_type);
  const keys = new Set(touched.keys);
  return (e) => typeSet.has(e.entry_type) && keys.has(e.key);
}

/** The run's summary from what the engine did and what the entries service made of the proposals. */
function summaryOf(
  project: ProjectRow,
  commits: number,
  result: EngineResult,
  outcome: GeneratedOutcome,
  unchanged: { entries: number; releases: number },
): GenerateSummary {
  const { releases } = outcome;
  return {
    project: project.slug,
    commits,
    touched: result.touched ? result.touched.commits : commits,
    created: { ...zero(), ...outcome.created },
    updated: { ...zero(), ...outcome.updated },
    unchanged: unchanged.entries,
    pending: outcome.pending,
    revised: outcome.revised,
    archived: outcome.archived,
    releases: releases
      ? { created: releases.created, updated: releases.updated, unchanged: unchanged.releases, archived: releases.archived, revised: releases.revised }
      : null,
    history: outcome.history,
    warnings: result.warnings,
  };
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
  entries: Pick<EntriesService, 'lockContent' | 'storedGenerated' | 'storeGenerated' | 'dropEdit' | 'dropEdits' | 'regenerable' | 'publishPolicyDrafts' | 'recentReleaseEdits'>;
  /** The settings are kept on the project row. */
  projects: Pick<ProjectsService, 'findBySlug' | 'findById' | 'generationSettings' | 'saveGenerationSettings'>;
  /**
   * The cached merged pull requests of a project's history (the github module's, wired in services.ts:
   * generation sits below it); none without it.
   */
  pullRequests?: PullRequestLoader;
}

/** Loads the merged pull requests of a project's reachable history, read with `executor` (a run's transaction). */
export type PullRequestLoader = (projectId: string, executor: Db) => Promise<PullRequestInfo[]>;

/** The request field for them: left out when there are none, so a request without GitHub is as before. */
const withPullRequests = (pullRequests: PullRequestInfo[]): { pullRequests?: PullRequestInfo[] } => (pullRequests.length ? { pullRequests } : {});

export function createGenerationService(db: Db, { engine = inlineEngine, entries, projects, pullRequests: loadPullRequests = async () => [] }: GenerationDeps) {
  async function projectBySlug(slug: string): Promise<ProjectRow> {
    const project = await projects.findBySlug(slug);
    if (!project) throw notFound(`Project ${slug}`);
    return project;
  }

  /**
   * The project's settings with the repository's CODEOWNERS (read at ingest from the tracked
   * branch's head) filled in; teams from it apply where the project's own mapping names none.
   */
  async function settingsFor(executor: Db, projectId: string): Promise<GenerationSettings> {
    const input = (await projects.generationSettings(projectId, executor)) as SettingsInput;
    return withRepoCodeowners(resolve(input), await generationRepository.codeownersOf(executor, projectId));
  }

  /** Reads what a run works from, in its transaction (settings and stored entries as of the lock). */
  async function readInput(tx: Db, project: ProjectRow, options: GenerateRunOptions): Promise<RunInput> {
    const settings = await settingsFor(tx, project.id);
    // Labels and detected path rules come from the whole history, so the whole history is read;
    // an incremental run's touch limits which entries are produced and written.
    const rows = await generationRepository.reachableCommits(tx, project.id);
    // Release notes come from the whole history every run (cheap next to classification), so an
    // incremental run still sees a tag pushed without new commits.
    const withReleases = options.releases ?? settings.releases;
    const { entries: stored, releases: storedReleases } = await entries.storedGenerated(project.id, { tx, releases: withReleases });
    const trunk = await generationRepository.trackedBranches(tx, project.id);
    const linkTimes = await generationRepository.linkTimes(tx, project.id);
    const linkOf = new Map(rows.map((r) => [r.record.sha, r.linkId]));
    const history: HistoryContext = {
      linkedAt: (sha) => {
        const link = linkOf.get(sha);
        return link ? linkTimes.get(link) : undefined;
      },
    };
    const pullRequests = await loadPullRequests(project.id, tx);
    return { settings, rows, stored, storedReleases, withReleases, trunk, history, pullRequests };
  }

  /**
   * Runs the engine and proposes what it produces as it streams, then what it no longer produces;
   * the entries service decides and writes meanwhile. In a worker thread on a server: the engine's
   * CPU never holds the event loop, and a run over its time budget is stopped (GenerationTimeout)
   * instead of hanging the job.
   */
  async function generateAndPropose(tx: Db, project: ProjectRow, input: RunInput, options: GenerateRunOptions): Promise<GenerateSummary> {
    const { settings, rows, stored, storedReleases, withReleases, trunk, pullRequests } = input;
    const commits = rows.map((r) => r.record);
    const types = options.types ?? settings.entryTypes;
    const touch = touchOf(input, options);
    const progress = options.onProgress ?? (() => {});
    progress({ stage: 'generate', done: 0, total: commits.length });
    // Stored fingerprints go along so that the JSON of unchanged entries is neither made nor sent back.
    const fingerprints = new Map<string, string>();
    for (const e of stored) if (e.fingerprint) fingerprints.set(e.key, e.fingerprint);
    const releaseFingerprints = new Map<string, string>();
    for (const r of storedReleases) if (r.fingerprint) releaseFingerprints.set(r.key, r.fingerprint);

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
    const propose = proposer(input);
    let result: EngineResult;
    try {
      result = await engine.run(
        {
          kind: 'generate',
          commits,
          settings,
          options: { types, trunk },
          ...(touch ? { touch } : {}),
          stored: fingerprints,
          ...(withReleases ? { releases: { stored: releaseFingerprints } } : {}),
          ...releaseOnlyOf(rows),
          ...withPullRequests(pullRequests),
        },
        {
          onEntries: (batch) => store.entries(propose.entries(batch)),
          // The notes come first, once the commits are classified: written while the entries are made.
          onReleases: (notes) => store.releases(propose.releases(notes)),
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
    store.entries(propose.vanished(scopeOf(types, result.touched)));
    return summaryOf(project, commits.length, result, await store.finish(), propose.unchanged());
  }

  async function run(project: ProjectRow, options: GenerateRunOptions = {}): Promise<GenerateSummary> {
    return db.transaction().execute(async (tx) => {
      await entries.lockContent(project.id, { tx });
      if (options.clear?.length) await entries.dropEdits(project.id, options.clear, { tx });
      return generateAndPropose(tx, project, await readInput(tx, project, options), options);
    });
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
      const rows = await generationRepository.reachableCommits(db, project.id);
      const comparison = await engine.run({ kind: 'compare', commits: rows.map((r) => r.record), current, proposed, ...releaseOnlyOf(rows) });
      // The settings as a form shows them: the repository's CODEOWNERS is not the project's own.
      return { ...comparison, settings: resolve(next) };
    },

    /**
     * Replaces the given fields of a project's settings; all problems are reported at once and nothing
     * is stored. A type whose publishing policy becomes `auto` has what the policy held back published
     * in the same transaction (the entries service decides which: generation's drafts of new work
     * that no person edited or unpublished); `onPublished` hears how many.
     */
    async configure(
      slug: string,
      patch: SettingsPatch,
      options: { onPublished?: (published: { entries: number; releases: number; types: string[] }) => void } = {},
    ): Promise<GenerationSettings> {
      const project = await projectBySlug(slug);
      const before = resolve(project.generation_settings as SettingsInput);
      const next = applyPatch(project.generation_settings as SettingsInput, patch);
      const resolved = resolve(next);
      const nowAuto = Object.entries(resolved.publish).flatMap(([type, policy]) => (policy === 'auto' && before.publish[type as keyof typeof before.publish] !== 'auto' ? [type] : []));
      await db.transaction().execute(async (tx) => {
        await projects.saveGenerationSettings(project.id, next as Record<string, unknown>, tx);
        if (!nowAuto.length) return;
        const published = await entries.publishPolicyDrafts(project.id, nowAuto, { tx });
        options.onPublished?.({ ...published, types: nowAuto });
      });
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

    /**
     * The release note `ref` (a synced tag, or a SHA of a synced commit) would produce, stored nowhere:
     * the history up to the ref, with `tag` put on it when given (the release about to be tagged), through
     * the same engine, settings and renderer as a run, in a worker thread under its time budget. A tag
     * gives its own note; an untagged ref without `tag` gives what would be Unreleased there.
     */
    async previewRelease(projectId: string, ref: string, tag?: string): Promise<ReleasePreview> {
      if (tag !== undefined && !PREVIEW_TAG.test(tag)) {
        throw new AppError('invalid_request', 'The tag must be a plain tag name (letters, digits, . _ @ / + -; at most 200)', [{ parameter: 'tag', message: 'not a tag name' }]);
      }
      const settings = await settingsFor(db, projectId);
      const rows = await generationRepository.reachableCommits(db, projectId);
      const tip = resolveRef(rows, ref);
      if (tag !== undefined && tag !== ref && rows.some((r) => r.record.tags.includes(tag) && r !== tip)) {
        throw new AppError('conflict', `The tag ${tag} already names another commit`, [{ parameter: 'tag', message: 'already tags another commit' }]);
      }
      const wanted = tag ?? (tip.record.tags.includes(ref) ? ref : null);
      const trunk = await generationRepository.trackedBranches(db, projectId);
      const pullRequests = await loadPullRequests(projectId, db);
      let note: ReleaseNoteFields | null;
      try {
        // The thread narrows the history to the tip's ancestors.
        note = await engine.run({ kind: 'release', commits: rows.map((r) => r.record), settings, trunk, tip: tip.record.sha, tag: wanted, ...releaseOnlyOf(rows), ...withPullRequests(pullRequests) });
      } catch (error) {
        // A caller waiting on HTTP gets a plain answer, not a 500: the budget is the operator's.
        if (error instanceof GenerationTimeout) throw new AppError('unavailable', 'The preview took longer than the generation time budget (GENERATION_TIME_BUDGET_MS); try again later', undefined, { retryAfterSeconds: 60 });
        throw error;
      }
      if (!note) {
        // An untagged ref right on a tag has nothing unreleased; a tag outside the project's release series makes no note.
        throw new AppError('unprocessable', wanted === null ? `Nothing is unreleased at ${ref}` : `The tag ${wanted} makes no release note (not a version the project's tags follow)`, [
          { parameter: wanted === null || tag === undefined ? 'ref' : 'tag', message: 'no note' },
        ]);
      }
      const { previous_tag, version, prerelease, title, content, commits } = note;
      return { tag: wanted, previous_tag, version, prerelease, title, content, sha: tip.record.sha, commits };
    },

    /**
     * How a pull request will read in the next release note with the project's settings, classified in
     * the engine's thread under its time budget: the title and description are an author's text.
     */
    async previewPullRequest(projectId: string, pr: PullRequestFacts, repoUrl: string): Promise<PullRequestPreview> {
      const settings = await settingsFor(db, projectId);
      return engine.run({ kind: 'pull-request', commits: [], pr, settings, repoUrl });
    },

    /**
     * What the repository's CHANGELOG.md says about the sections its maintainers use, and the section
     * settings that would follow it (offered in the settings page, never applied on its own); null when
     * no linked repository has a changelog with releases.
     */
    async calibration(projectId: string): Promise<{ calibration: Calibration; proposal: SectionProposal | null } | null> {
      const stored = await generationRepository.changelogCalibrationOf(db, projectId);
      if (!stored) return null;
      const calibration = stored as unknown as Calibration;
      return { calibration, proposal: proposeSections(calibration, (await settingsFor(db, projectId)).sections) };
    },

    /** Section settings that editors' hides of release-note items suggest (edit-suggestions.ts); shown, never applied here. */
    async editSuggestions(projectId: string): Promise<EditSuggestions> {
      return suggestFromEdits(await entries.recentReleaseEdits(projectId), (await settingsFor(db, projectId)).sections);
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
