/**
 * Runs the generation engine (pure CPU over untrusted commit text) in a worker thread with a time
 * budget, so that a repository crafted to be slow costs a thread for at most the budget and never
 * the event loop that answers HTTP.
 */
import { availableParallelism } from 'node:os';
import { AppError } from '../errors.js';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { endRun, startModuleWorker } from '../worker-threads.js';
import { computeArrivals } from './engine/arrival.js';
import { compareGenerations, type SettingsComparison } from './engine/compare.js';
import { generate, prepareCommits, type GenerateOptions, type PreparedCommit } from './engine/engine.js';
import {
  entryToStore,
  packCommits,
  releaseToStore,
  toCommitRecords,
  type EngineCommit,
  type EntryToStore,
  type PackedCommits,
  type ReleaseToStore,
} from './engine-wire.js';
import { generateReleases } from './engine/releases.js';
import { touchedCommits, touchedKeys, type Touch } from './engine/touched.js';
import type { CommitRecord } from '../git/commit-record.js';
import type { PullRequestInfo } from './engine/pull-requests.js';
import type { GeneratedEntry, GenerationSettings } from './engine/types.js';
import { buildVersionIndex } from './engine/versions.js';
import { previewPullRequest, type PullRequestFacts, type PullRequestPreview } from './pr-preview.js';

/**
 * What the engine is asked: the commits, the settings and plain options. The version and arrival
 * indexes are built in the thread, once per run (they hold functions, and building them holds the
 * CPU). `touch` makes an incremental run: the thread works out from it which commits it touches
 * and which stored entries it speaks for (engine/touched.ts). `stored` (key → fingerprint of the
 * stored entries) lets the engine leave out the JSON of entries storage holds unchanged.
 */
export type EngineRequest =
  | {
      kind: 'generate';
      commits: readonly EngineCommit[];
      settings: GenerationSettings;
      options: Omit<GenerateOptions, 'versions' | 'arrival' | 'touched' | 'onEntry' | 'onPrepared'>;
      touch?: Touch;
      stored?: ReadonlyMap<string, string>;
      /**
       * Release notes too, from the same classified commits (releases.ts), with the stored notes'
       * fingerprints (key → fingerprint) so that unchanged ones come back without their JSON.
       */
      releases?: { stored: ReadonlyMap<string, string> };
      /**
       * The SHAs of commits only release branches reach (repository links' `releaseBranches`): their
       * tags make release notes; they make no entry and no rollup (those are the tracked branch's).
       */
      releaseOnly?: readonly string[];
      /**
       * The host's merged pull requests (the github module's cache): release notes then have one item
       * per PR (engine/pull-request-items.ts). Absent: notes as before.
       */
      pullRequests?: readonly PullRequestInfo[];
    }
  | { kind: 'compare'; commits: readonly EngineCommit[]; current: GenerationSettings; proposed: GenerationSettings; releaseOnly?: readonly string[] }
  /**
   * One release note of the history up to `tip` (a SHA): the note of `tag` (put on the tip when it
   * does not carry it: the release about to be tagged), or with null what is Unreleased there. The
   * thread walks the tip's ancestors, and only the note's fields cross back, not the stored form
   * (whose items JSON runs to megabytes for a large release): neither costs the caller's event loop.
   */
  | {
      kind: 'release';
      commits: readonly EngineCommit[];
      settings: GenerationSettings;
      trunk?: readonly string[];
      releaseOnly?: readonly string[];
      tip: string;
      tag: string | null;
      /** As for `generate`: the host's merged pull requests, for the note's items. */
      pullRequests?: readonly PullRequestInfo[];
    }
  /**
   * How a pull request will read in the next release note (pr-preview.ts): its title and description
   * are an author's text, so they are classified here under the budget like any commit (`commits` is empty).
   */
  | { kind: 'pull-request'; commits: readonly EngineCommit[]; pr: PullRequestFacts; settings: GenerationSettings; repoUrl: string };

/** The fields of one release note that a preview shows (`commits`: how many it covers). */
export interface ReleaseNoteFields {
  tag: string | null;
  previous_tag: string | null;
  version: string | null;
  prerelease: boolean;
  title: string;
  content: string;
  commits: number;
}

/**
 * A request as it crosses to the thread: the commits packed (engine-wire.ts); `stream`: which of
 * release notes and entries come back as they are made (`StreamMessage`s) ahead of the response.
 */
export type WireRequest = DistributiveOmit<EngineRequest, 'commits'> & { commits: PackedCommits; stream: { entries: boolean; releases: boolean } };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Entries in the form storage writes (only entries and warnings come back, not the prepared commits). */
export interface EngineResult {
  entries: EntryToStore[];
  /** Every release note of the history, when the request asked for them. */
  releases?: ReleaseToStore[];
  warnings: string[];
  /**
   * An incremental run's reach (the request had `touch`): how many commits it touched, and the keys
   * of the entries it speaks for (a stored one of these keys it did not produce is gone).
   */
  touched?: { commits: number; keys: string[] };
}
type ResultOf<R extends EngineRequest> = R extends { kind: 'generate' }
  ? EngineResult
  : R extends { kind: 'release' }
    ? ReleaseNoteFields | null
    : R extends { kind: 'pull-request' }
      ? PullRequestPreview
      : SettingsComparison;
type AnyResult = EngineResult | SettingsComparison | ReleaseNoteFields | PullRequestPreview | null;
export type EngineResponse = { ok: true; result: AnyResult } | { ok: false; message: string };
/** What a streamed run sends ahead of its response: release notes, then the entries in batches. */
export type StreamMessage = { entries: EntryToStore[] } | { releases: ReleaseToStore[] };

/** How a caller takes a run's output: all in the result (default), or streamed as it is made. */
export interface RunOptions {
  /**
   * Receives the entries in order, in batches, while the engine makes the rest (storage writes
   * them meanwhile); the result's `entries` is then empty. Every batch arrives before the result.
   */
  onEntries?: (entries: EntryToStore[]) => void;
  /**
   * Receives the release notes (when the request asks for them) as soon as the commits are
   * classified, before the first entry: storage writes them while the entries are made, not after.
   * The result then has no `releases`.
   */
  onReleases?: (releases: ReleaseToStore[]) => void;
}

/**
 * A streamed batch: up to 500 entries or about 256 kB of their JSON, small enough that storage
 * starts early and that what is left to write once the engine ends (a month's rollups run to tens
 * of kilobytes each) is little, large enough to cost few messages.
 */
const STREAM_BATCH = 500;
const STREAM_CHARS = 256 * 1024;

/** The engine's work for one request (its commits' changes parsed), in whichever thread calls it. */
export function runEngineRequest(
  input: EngineRequest & { commits: readonly CommitRecord[] },
  { onEntries, onReleases }: RunOptions = {},
): AnyResult {
  if (input.kind === 'pull-request') return previewPullRequest(input.pr, input.settings, input.repoUrl);
  const request = input.kind === 'release' ? narrowedTo(input) : input;
  // One reading of the graph for the periods (arrival) and the releases' dates (versions), from
  // every commit: release branches' tags label and make releases too.
  const releaseOnly = new Set(request.releaseOnly ?? []);
  const trunk = request.kind === 'generate' ? request.options.trunk : request.kind === 'release' ? request.trunk : undefined;
  const arrival = computeArrivals(request.commits, { trunk, releaseOnly });
  const versions = buildVersionIndex(request.commits, { arrival, releaseOnly });
  // Entries and rollups are the tracked branch's alone.
  const commits: readonly CommitRecord[] = request.commits;
  const tracked = releaseOnly.size ? commits.filter((c) => !releaseOnly.has(c.sha)) : commits;
  /** Every release note of the history, from the tracked branch's classified commits and the release branches' own. */
  const pullRequests = request.kind === 'compare' ? undefined : request.pullRequests;
  /** Problems release notes met (a release configuration that could not be read), reported with the run's. */
  const noteWarnings: string[] = [];
  const notesOf = (settings: GenerationSettings, prepared: readonly PreparedCommit[]) => {
    // Release branches' own commits, classified against the tracked branch's history (its path rules).
    const branchOnly = releaseOnly.size
      ? prepareCommits(
          commits.filter((c) => releaseOnly.has(c.sha)),
          settings,
          [],
          arrival,
          undefined,
          tracked,
        )
      : [];
    return generateReleases(request.commits, settings, {
      prepared: branchOnly.length ? [...prepared, ...branchOnly] : prepared,
      versions,
      ...(pullRequests ? { pullRequests, warnings: noteWarnings } : {}),
    });
  };
  if (request.kind === 'generate') {
    const { stored, touch, options } = request;
    const touched = touch ? touchedCommits(tracked, touch, arrival, versions) : null;
    let entries: EntryToStore[] = [];
    let chars = 0;
    const onEntry = (e: GeneratedEntry) => {
      const entry = entryToStore(e, stored?.get(e.key), e.commit_sha === null ? null : (arrival.get(e.commit_sha)?.at ?? null));
      entries.push(entry);
      chars += entry.record?.length ?? 0;
      if (onEntries && (entries.length >= STREAM_BATCH || chars >= STREAM_CHARS)) {
        onEntries(entries);
        entries = [];
        chars = 0;
      }
    };
    // The whole history's notes, from the commits generate() classifies (about 0.1 s for 178 notes over 11k commits).
    const wanted = request.releases;
    let releases: ReleaseToStore[] | undefined;
    const onPrepared = (prepared: readonly PreparedCommit[]) => {
      if (!wanted) return;
      releases = notesOf(request.settings, prepared).map((n) => releaseToStore(n, wanted.stored.get(n.key)));
      if (onReleases) {
        onReleases(releases);
        releases = undefined;
      }
    };
    const result = generate(tracked, request.settings, {
      ...options,
      ...(touched ? { touched: [...touched] } : {}),
      versions,
      arrival,
      onEntry,
      onPrepared,
    });
    if (onEntries && entries.length) {
      onEntries(entries);
      entries = [];
    }
    const reach = touched
      ? {
          touched: {
            commits: touched.size,
            keys: touchedKeys(tracked, touched, options.types ?? request.settings.entryTypes, request.settings.timeZone, arrival),
          },
        }
      : {};
    return { entries, ...(releases ? { releases } : {}), warnings: noteWarnings.length ? [...result.warnings, ...noteWarnings] : result.warnings, ...reach };
  }
  if (request.kind === 'release') {
    let fields: ReleaseNoteFields | null = null;
    const onPrepared = (prepared: readonly PreparedCommit[]) => {
      const note = notesOf(request.settings, prepared).find((n) => n.tag === request.tag);
      if (note) {
        const { tag, previous_tag, version, prerelease, title, content } = note;
        fields = { tag, previous_tag, version, prerelease, title, content, commits: note.commit_shas.length };
      }
    };
    // No entry types: the commits are classified (onPrepared) and nothing else is made.
    generate(tracked, request.settings, { types: [], versions, arrival, onPrepared });
    return fields;
  }
  const current = generate(tracked, request.current, { versions, arrival });
  const proposed = generate(tracked, request.proposed, { versions, arrival });
  return compareGenerations(current, proposed, request.proposed);
}

/** A release request's history up to its tip (and the release-branch SHAs among it). */
function narrowedTo(request: Extract<EngineRequest, { kind: 'release' }> & { commits: readonly CommitRecord[] }) {
  const commits = historyAt(request.commits, request.tip, request.tag);
  if (!request.releaseOnly?.length) return { ...request, commits };
  const reached = new Set(commits.map((c) => c.sha));
  return { ...request, commits, releaseOnly: request.releaseOnly.filter((sha) => reached.has(sha)) };
}

/** `tip` and every commit it reaches through their parents, in the given order; `tag` put on the tip. */
function historyAt(commits: readonly CommitRecord[], tip: string, tag: string | null): CommitRecord[] {
  const bySha = new Map(commits.map((c) => [c.sha, c]));
  const reached = new Set<string>([tip]);
  const stack = [tip];
  while (stack.length) {
    for (const parent of bySha.get(stack.pop()!)?.parents ?? []) {
      if (!reached.has(parent) && bySha.has(parent)) {
        reached.add(parent);
        stack.push(parent);
      }
    }
  }
  return commits.flatMap((c) => {
    if (!reached.has(c.sha)) return [];
    return c.sha === tip && tag !== null && !c.tags.includes(tag) ? [{ ...c, tags: [...c.tags, tag] }] : [c];
  });
}

/** How generation runs: in a worker thread (servers) or in the calling thread. */
export interface Engine {
  run<R extends EngineRequest>(request: R, options?: RunOptions): Promise<ResultOf<R>>;
  /** Ends idle worker threads (a running one ends with its run). */
  close(): Promise<void>;
}

/** A run that took longer than its budget: its thread was stopped. */
export class GenerationTimeout extends Error {
  constructor(readonly budgetMs: number) {
    super(`generation exceeded its time budget of ${budgetMs} ms (GENERATION_TIME_BUDGET_MS) and was stopped`);
    this.name = 'GenerationTimeout';
  }
}

/**
 * A larger young generation than V8's default for the engine's thread: a full run makes some 300 MB
 * of short-lived objects (classified commits, rendered Markdown, entry JSON), and with the default
 * nursery the scavenges and the objects they promote held a full generation of the prettier history
 * back by about 5% (measured with the generation benchmark, interleaved runs).
 */
const ENGINE_HEAP: ResourceLimits = { maxYoungGenerationSizeMb: 64 };

/** The engine in the calling thread. */
export const inlineEngine: Engine = {
  async run<R extends EngineRequest>(request: R, options: RunOptions = {}) {
    return runEngineRequest({ ...request, commits: toCommitRecords(request.commits) }, options) as ResultOf<R>;
  },
  async close() {},
};

/** Every generation thread is busy and the queue is full: try again shortly (a job retries by itself). */
export class GenerationBusy extends AppError {
  constructor() {
    super('unavailable', 'Changelog generation is busy on this server; try again in a moment');
  }
}

/**
 * The engine in worker threads: at most `maxThreads` runs at once (idle threads kept for the next
 * run), later runs wait in a queue of at most `maxQueued`, and past that a run fails at once with
 * GenerationBusy. Without the bound, each dashboard preview started a thread of its own: enough of
 * them starve the machine that the thread exists to protect. A run over `budgetMs` (counted from when
 * it starts, not while it waits) terminates its thread (the only way to stop synchronous code) and
 * fails with GenerationTimeout.
 */
export function createThreadEngine({
  budgetMs,
  maxThreads = Math.max(1, availableParallelism() - 1),
  maxQueued = 16,
}: {
  budgetMs: number;
  maxThreads?: number;
  maxQueued?: number;
}): Engine {
  const idle: Worker[] = [];
  const waiting: Array<() => void> = [];
  let running = 0;

  /** A slot to run in: now, or once a run before it ends. */
  const acquire = (): Promise<void> => {
    if (running < maxThreads) {
      running++;
      return Promise.resolve();
    }
    if (waiting.length >= maxQueued) return Promise.reject(new GenerationBusy());
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  return {
    async run<R extends EngineRequest>(request: R, options: RunOptions = {}) {
      await acquire();
      try {
        return await runInThread(request, options);
      } finally {
        release();
      }
    },
    async close() {
      await Promise.all(idle.splice(0).map((w) => w.terminate()));
    },
  };

  async function runInThread<R extends EngineRequest>(request: R, { onEntries, onReleases }: RunOptions): Promise<ResultOf<R>> {
    const wire: WireRequest = {
      ...request,
      commits: await packCommits(request.commits),
      stream: { entries: Boolean(onEntries), releases: Boolean(onReleases) },
    };
    const worker = idle.pop() ?? startModuleWorker(import.meta.url, 'engine-worker', ENGINE_HEAP);
    worker.ref();
    return new Promise<ResultOf<R>>((resolve, reject) => {
      const finish = (settle: () => void, keep: boolean) => {
        endRun(worker, timer, { message: onMessage, error: onError, exit: onExit }, keep, idle);
        settle();
      };
      const onMessage = (message: EngineResponse | StreamMessage) => {
        if ('entries' in message || 'releases' in message) {
          try {
            if ('entries' in message) onEntries!(message.entries);
            else onReleases!(message.releases);
          } catch (error) {
            // The caller cannot take the rest: the run is abandoned with its thread.
            finish(() => reject(error as Error), false);
          }
          return;
        }
        if (message.ok) finish(() => resolve(message.result as ResultOf<R>), true);
        else finish(() => reject(new Error(message.message)), true);
      };
      const onError = (error: Error) => finish(() => reject(error), false);
      const onExit = (code: number) => finish(() => reject(new Error(`the generation thread exited with code ${code}`)), false);
      const timer = setTimeout(() => finish(() => reject(new GenerationTimeout(budgetMs)), false), budgetMs);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(wire, [wire.commits.lengths.buffer as ArrayBuffer]);
    });
  }
}
