/**
 * Entry Markdown as HTML without stalling the HTTP server. markdown-it is linear, but crafted input
 * costs it about 1.7 µs of CPU a character (`![` repeated; ordinary Markdown about 0.2), and entry
 * content may hold 1,000,000 characters written by any project's managers, or generated from commit
 * messages without a cap: rendered on the event loop, one entry held every tenant's requests for
 * seconds. So each call renders only its first 16 KiB of sources in the calling thread (at most
 * ~30 ms, a few ms for ordinary Markdown); the rest goes to a small pool of worker threads with a
 * bounded queue and a time limit, and a source that exceeds it is shown as escaped text.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { endRun, startModuleWorker } from '../worker-threads.js';
import { LRUCache } from 'lru-cache';
import { trusted, type Html } from './html.js';
import { inlineAsText, markdownAsText, renderInlineMarkdown, renderMarkdown } from './markdown.js';
import type { WorkerAnswer, WorkerRequest } from './markdown-worker.js';

/** Characters of Markdown one call renders in the calling thread (worst case about 30 ms of CPU). */
export const INLINE_CHARS = 16 * 1024;

export interface RenderedMarkdown {
  /** One per source, in order: its HTML, its text escaped (too costly, or no thread free), or nothing (blank). */
  html: Html[];
  /**
   * A source is shown as text for a passing reason (every thread busy, its queue full): what is made
   * from this should not be kept (a cached page), since the next render may succeed. A source that
   * ran out of time or memory is not passing: it fails the same way each time.
   */
  transient: boolean;
}

export interface RenderOptions {
  /** Each source is one line of inline Markdown (a title, an item): no paragraphs or blocks, shown as escaped text if too costly. */
  inline?: boolean;
}

export interface MarkdownRenderer {
  render(sources: readonly (string | null | undefined)[], options?: RenderOptions): Promise<RenderedMarkdown>;
  /** Threads started, sources rendering in them, sources waiting for one, and sources shown as text so far (by reason). */
  stats(): MarkdownRendererStats;
  /** Ends idle threads (a running one ends with its render). */
  close(): Promise<void>;
}

export interface MarkdownRendererStats {
  threads: number;
  running: number;
  queued: number;
  shownAsText: { costly: number; busy: number };
}

export interface MarkdownRendererOptions {
  /** Longest one source may render in a thread, and longest it may wait to start, before it is shown as text. */
  timeLimitMs: number;
  inlineChars?: number;
  maxThreads?: number;
  /** Sources waiting for a thread; past that a source is shown as text at once. */
  maxQueued?: number;
  /** Heap limit of each thread: a source that needs more is shown as text. */
  threadHeapMb?: number;
}

type Outcome = { html: string } | { text: 'costly' | 'busy' };
const COSTLY: Outcome = { text: 'costly' };
const BUSY: Outcome = { text: 'busy' };
const NOTHING = trusted('');

interface Job {
  source: string;
  inline: boolean;
  settle: (outcome: Outcome) => void;
  waitTimer?: NodeJS.Timeout;
}

/**
 * Sources that fit a call's inline budget render at once; the others each take a thread (at most
 * `maxThreads` at once, idle ones kept for the next render) or wait in a queue of `maxQueued`. Sources
 * under INLINE_CHARS wait ahead of larger ones, so a tenant's huge entries delay another's ordinary
 * ones by at most the render running. A render over `timeLimitMs` (counted from its start in a ready
 * thread) or over the heap limit stops its thread (the only way to stop synchronous code); its source
 * is shown as text, and remembered (by digest, for 10 minutes) so that the next pages do not pay for it again.
 */
export function createMarkdownRenderer({
  timeLimitMs,
  inlineChars = INLINE_CHARS,
  maxThreads = Math.max(1, availableParallelism() - 1),
  maxQueued = 256,
  threadHeapMb = 512,
}: MarkdownRendererOptions): MarkdownRenderer {
  const idle: Worker[] = [];
  const ordinary: Job[] = [];
  const large: Job[] = [];
  let threads = 0;
  let running = 0;
  const shownAsText = { costly: 0, busy: 0 };
  // For a while only: a busy machine can push an ordinary large source past the limit, and it then gets
  // another chance (pages showing it are kept at most the response cache's TTL, 5 minutes, too).
  const tooCostly = new LRUCache<string, true>({ max: 1024, ttl: 10 * 60_000 });

  function submit(source: string, inline: boolean): Promise<Outcome> {
    return new Promise((settle) => {
      const job: Job = { source, inline, settle };
      if (running < maxThreads) return start(job);
      if (ordinary.length + large.length >= maxQueued) return settle(BUSY);
      const lane = source.length <= INLINE_CHARS ? ordinary : large;
      lane.push(job);
      job.waitTimer = setTimeout(() => {
        lane.splice(lane.indexOf(job), 1);
        settle(BUSY);
      }, timeLimitMs);
    });
  }

  function next(): void {
    while (running < maxThreads) {
      const job = ordinary.shift() ?? large.shift();
      if (!job) return;
      clearTimeout(job.waitTimer);
      start(job);
    }
  }

  function start(job: Job): void {
    running++;
    const settle = (outcome: Outcome) => {
      running--;
      job.settle(outcome);
      next();
    };
    void thread().then((worker) => (worker ? run(worker, job.inline ? { inline: job.source } : job.source, settle) : settle(BUSY)));
  }

  /** An idle thread, or a new one once it has loaded (null if it could not start). */
  function thread(): Promise<Worker | null> {
    const ready = idle.pop();
    if (ready) return Promise.resolve(ready);
    const worker = startModuleWorker(import.meta.url, 'markdown-worker', { maxOldGenerationSizeMb: threadHeapMb });
    threads++;
    // An error always ends the thread ('exit' follows); without a listener it would end the process.
    worker.on('error', () => {});
    worker.once('exit', () => {
      threads--;
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
    });
    return new Promise((resolve) => {
      const onMessage = (answer: WorkerAnswer) => {
        if (answer !== 'ready') return;
        worker.off('message', onMessage).off('exit', onExit);
        resolve(worker);
      };
      const onExit = () => {
        worker.off('message', onMessage);
        resolve(null);
      };
      worker.on('message', onMessage).once('exit', onExit);
    });
  }

  function run(worker: Worker, source: WorkerRequest, settle: (outcome: Outcome) => void): void {
    worker.ref();
    const finish = (outcome: Outcome, keep: boolean) => {
      endRun(worker, timer, { message: onMessage, error: onError, exit: onExit }, keep, idle);
      settle(outcome);
    };
    // markdown-it throwing is as deterministic as running out of time: the source is shown as text.
    const onMessage = (answer: WorkerAnswer) => finish(typeof answer === 'object' && 'html' in answer ? { html: answer.html } : COSTLY, true);
    const onError = (error: Error & { code?: string }) => finish(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? COSTLY : BUSY, false);
    const onExit = () => finish(BUSY, false);
    const timer = setTimeout(() => finish(COSTLY, false), timeLimitMs);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(source);
  }

  return {
    async render(sources, options = {}) {
      const inlineMode = options.inline === true;
      const asHtml = inlineMode ? renderInlineMarkdown : renderMarkdown;
      const asText = inlineMode ? inlineAsText : markdownAsText;
      const html: Html[] = new Array<Html>(sources.length).fill(NOTHING);
      let transient = false;
      let budget = inlineChars;
      const inline: number[] = [];
      const threaded: Promise<void>[] = [];
      sources.forEach((source, i) => {
        if (!source?.trim()) return;
        if (source.length <= budget) {
          budget -= source.length;
          inline.push(i);
          return;
        }
        const digest = createHash('sha256').update(inlineMode ? 'inline\n' : 'block\n').update(source).digest('base64');
        if (tooCostly.has(digest)) {
          shownAsText.costly++;
          html[i] = asText(source);
          return;
        }
        threaded.push(
          submit(source, inlineMode).then((outcome) => {
            if ('html' in outcome) html[i] = trusted(outcome.html);
            else {
              html[i] = asText(source);
              shownAsText[outcome.text]++;
              if (outcome.text === 'costly') tooCostly.set(digest, true);
              else transient = true;
            }
          }),
        );
      });
      // The threads start on the larger sources while this one renders the small ones.
      for (const i of inline) html[i] = asHtml(sources[i]!);
      await Promise.all(threaded);
      return { html, transient };
    },
    stats: () => ({ threads, running, queued: ordinary.length + large.length, shownAsText: { ...shownAsText } }),
    async close() {
      await Promise.all(idle.splice(0).map((w) => w.terminate()));
    },
  };
}
