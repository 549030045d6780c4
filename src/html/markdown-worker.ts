/**
 * Markdown rendering in a worker thread (markdown-thread.ts starts it): one source at a time, off the
 * HTTP server's event loop. It says `ready` once loaded, so that its start-up is not counted in a
 * render's time limit.
 */
import { parentPort } from 'node:worker_threads';
import { renderInlineMarkdown, renderMarkdown } from './markdown.js';

export type WorkerAnswer = 'ready' | { html: string } | { error: string };
/** A block of Markdown (a string), or one line of inline Markdown. */
export type WorkerRequest = string | { inline: string };

const port = parentPort!;
port.on('message', (request: WorkerRequest) => {
  let answer: WorkerAnswer;
  try {
    answer = { html: typeof request === 'string' ? renderMarkdown(request).value : renderInlineMarkdown(request.inline).value };
  } catch (error) {
    answer = { error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
port.postMessage('ready' satisfies WorkerAnswer);
