/**
 * The generation engine in a worker thread (engine-thread.ts starts it): classification, glob
 * matching and rendering run here, off the HTTP server's event loop.
 */
import { parentPort } from 'node:worker_threads';
import { runEngineRequest, type EngineResponse, type RunOptions, type StreamMessage, type WireRequest } from './engine-thread.js';
import { unpackCommits } from './engine-wire.js';

// A streamed run posts its output as it is made: the caller stores it while the rest is made.
const post = (message: StreamMessage) => parentPort!.postMessage(message);
const streamed = ({ stream }: WireRequest): RunOptions => ({
  ...(stream.entries ? { onEntries: (entries) => post({ entries }) } : {}),
  ...(stream.releases ? { onReleases: (releases) => post({ releases }) } : {}),
});

parentPort!.on('message', (request: WireRequest) => {
  let response: EngineResponse;
  try {
    response = { ok: true, result: runEngineRequest({ ...request, commits: unpackCommits(request.commits) }, streamed(request)) };
  } catch (error) {
    response = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response);
});
