/**
 * What the two thread pools (generation's engine-thread.ts, Markdown's markdown-thread.ts) share:
 * starting a worker on a module that may be compiled or still TypeScript, and ending one run on a
 * pooled worker.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A worker on the module `name` beside `from` (the caller's `import.meta.url`): `name.js` in the
 * compiled dist, `name.ts` when running from source (tsx, vitest), where the thread needs tsx's
 * loader to import TypeScript (`--import tsx` in a worker's execArgv does not install it on Node 20).
 */
export function startModuleWorker(from: string, name: string, resourceLimits: ResourceLimits = {}, workerData?: unknown): Worker {
  const js = new URL(`./${name}.js`, from);
  if (existsSync(fileURLToPath(js))) return new Worker(js, { resourceLimits, workerData });
  const ts = new URL(`./${name}.ts`, from).href;
  return new Worker(`import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(ts)}, ${JSON.stringify(from)}))`, { eval: true, resourceLimits, workerData });
}

type Listener = Parameters<Worker['off']>[1];

/** The listeners a run put on its worker. */
export interface RunListeners {
  message: Listener;
  error: Listener;
  exit: Listener;
}

/**
 * Ends a run on a pooled worker: its timer and listeners removed, then the worker kept in `idle` for
 * the next run (no longer holding the process open) or, when it cannot be trusted again (timed out,
 * failed, exited), terminated.
 */
export function endRun(worker: Worker, timer: NodeJS.Timeout, listeners: RunListeners, keep: boolean, idle: Worker[]): void {
  clearTimeout(timer);
  worker.off('message', listeners.message).off('error', listeners.error).off('exit', listeners.exit);
  if (keep) {
    worker.unref();
    idle.push(worker);
  } else void worker.terminate();
}
