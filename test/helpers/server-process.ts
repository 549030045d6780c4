// Runs the real server in its own process for multi-process tests; prints {"port": N} when ready.
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';

const app = await startServer(loadConfig(process.env), { migrate: false });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as AddressInfo).port })}\n`);
