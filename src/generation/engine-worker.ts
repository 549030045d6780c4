/**
 * The generation engine in a worker thread (engine-thread.ts starts it): classification, glob
 * matching and rendering run here, off the HTTP server's event loop.
 */
import { parentPort } from 'node:worker_threads';
import { runEngineRequest, type EngineResponse, type WireRequest } from './engine-thread.js';
import { unpackCommits } from './engine-wire.js';

parentPort!.on('message', (request: WireRequest) => {
  let response: EngineResponse;
  try {
    response = { ok: true, result: runEngineRequest({ ...request, commits: unpackCommits(request.commits) }) };
  } catch (error) {
    response = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response);
});
