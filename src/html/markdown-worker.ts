/**
 * Markdown rendering in a worker thread (markdown-thread.ts starts it): one source at a time, off the
 * HTTP server's event loop. It says `ready` once loaded, so that its start-up is not counted in a
 * render's time limit.
 */
import { parentPort } from 'node:worker_threads';
import { renderMarkdown } from './markdown.js';

export type WorkerAnswer = 'ready' | { html: string } | { error: string };

const port = parentPort!;
port.on('message', (source: string) => {
  let answer: WorkerAnswer;
  try {
    answer = { html: renderMarkdown(source).value };
  } catch (error) {
    answer = { error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
port.postMessage('ready' satisfies WorkerAnswer);
