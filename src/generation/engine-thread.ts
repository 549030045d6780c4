/**
 * Runs the generation engine (pure CPU over untrusted commit text) in a worker thread with a time
 * budget, so that a repository crafted to be slow costs a thread for at most the budget and never
 * the event loop that answers HTTP.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { AppError } from '../errors.js';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { computeArrivals } from './arrival.js';
import { compareGenerations, type SettingsComparison } from './compare.js';
import { generate, type GenerateOptions } from './engine.js';
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
import { generateReleases } from './releases.js';
import type { CommitRecord } from '../git/commit-record.js';
import type { GenerationSettings } from './types.js';
import { buildVersionIndex } from './versions.js';

/**
 * What the engine is asked: the commits, the settings and plain options. The version and arrival
 * indexes hold functions, so the thread builds its own. `stored` (key → fingerprint of the stored
 * entries) lets the engine leave out the JSON of entries storage holds unchanged.
 */
export type EngineRequest =
  | {
      kind: 'generate';
      commits: readonly EngineCommit[];
      settings: GenerationSettings;
      options: Omit<GenerateOptions, 'versions' | 'arrival'>;
      stored?: ReadonlyMap<string, string>;
      /**
       * Release notes too, from the same classified commits (releases.ts), with the stored notes'
       * fingerprints (key → fingerprint) so that unchanged ones come back without their JSON.
       */
      releases?: { stored: ReadonlyMap<string, string> };
    }
  | { kind: 'compare'; commits: readonly EngineCommit[]; current: GenerationSettings; proposed: GenerationSettings };

/** A request as it crosses to the thread: the commits packed (engine-wire.ts). */
export type WireRequest = DistributiveOmit<EngineRequest, 'commits'> & { commits: PackedCommits };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Entries in the form storage writes (only entries and warnings come back, not the prepared commits). */
export interface EngineResult {
  entries: EntryToStore[];
  /** Every release note of the history, when the request asked for them. */
  releases?: ReleaseToStore[];
  warnings: string[];
}
type ResultOf<R extends EngineRequest> = R extends { kind: 'generate' } ? EngineResult : SettingsComparison;
export type EngineResponse = { ok: true; result: EngineResult | SettingsComparison } | { ok: false; message: string };

/** The engine's work for one request (its commits' changes parsed), in whichever thread calls it. */
export function runEngineRequest(request: EngineRequest & { commits: readonly CommitRecord[] }): EngineResult | SettingsComparison {
  // One reading of the graph for the periods (arrival) and the releases' dates (versions).
  const arrival = computeArrivals(request.commits, { trunk: request.kind === 'generate' ? request.options.trunk : undefined });
  const versions = buildVersionIndex(request.commits, { arrival });
  if (request.kind === 'generate') {
    const result = generate(request.commits, request.settings, { ...request.options, versions, arrival });
    const stored = request.stored;
    const entries = result.entries.map((e) => entryToStore(e, stored?.get(e.key)));
    if (!request.releases) return { entries, warnings: result.warnings };
    // The whole history's notes, from the commits generate() just classified (about 0.1 s for 178 notes over 11k commits).
    const storedReleases = request.releases.stored;
    const releases = generateReleases(request.commits, request.settings, { prepared: result.commits, versions }).map((n) =>
      releaseToStore(n, storedReleases.get(n.key)),
    );
    return { entries, releases, warnings: result.warnings };
  }
  const current = generate(request.commits, request.current, { versions, arrival });
  const proposed = generate(request.commits, request.proposed, { versions, arrival });
  return compareGenerations(current, proposed, request.proposed);
}

/** How generation runs: in a worker thread (servers) or in the calling thread. */
export interface Engine {
  run<R extends EngineRequest>(request: R): Promise<ResultOf<R>>;
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

/** The engine in the calling thread. */
export const inlineEngine: Engine = {
  async run<R extends EngineRequest>(request: R) {
    return runEngineRequest({ ...request, commits: toCommitRecords(request.commits) }) as ResultOf<R>;
  },
  async close() {},
};

/**
 * The worker's module next to this one: `.js` in the compiled dist, `.ts` when running from source
 * (tsx, vitest), where the thread needs tsx's loader to import TypeScript.
 */
function startWorker(): Worker {
  const js = new URL('./engine-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(js))) return new Worker(js);
  // From source: tsx's API imports the TypeScript module in the thread (`--import tsx` in a
  // worker's execArgv does not install its loader on Node 20).
  const ts = new URL('./engine-worker.ts', import.meta.url).href;
  return new Worker(`import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(ts)}, ${JSON.stringify(import.meta.url)}))`, { eval: true });
}

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
    async run<R extends EngineRequest>(request: R) {
      await acquire();
      try {
        return await runInThread(request);
      } finally {
        release();
      }
    },
    async close() {
      await Promise.all(idle.splice(0).map((w) => w.terminate()));
    },
  };

  function runInThread<R extends EngineRequest>(request: R): Promise<ResultOf<R>> {
    const wire: WireRequest = { ...request, commits: packCommits(request.commits) };
    const worker = idle.pop() ?? startWorker();
    worker.ref();
    return new Promise<ResultOf<R>>((resolve, reject) => {
      const finish = (settle: () => void, keep: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (keep) {
          worker.unref();
          idle.push(worker);
        } else void worker.terminate();
        settle();
      };
      const onMessage = (response: EngineResponse) =>
        response.ok
          ? finish(() => resolve(response.result as ResultOf<R>), true)
          : finish(() => reject(new Error(response.message)), true);
      const onError = (error: Error) => finish(() => reject(error), false);
      const onExit = (code: number) => finish(() => reject(new Error(`the generation thread exited with code ${code}`)), false);
      const timer = setTimeout(() => finish(() => reject(new GenerationTimeout(budgetMs)), false), budgetMs);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(wire, [wire.commits.lengths.buffer as ArrayBuffer]);
    });
  }
}
