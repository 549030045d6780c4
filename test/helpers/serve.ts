// Starts one real server process (used by multi-process tests): configuration from the
// environment, PORT=0 for any free port; prints {"port": N} once it listens. `--no-migrate` for a
// database another process has migrated already.
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';

const app = await startServer(loadConfig(process.env), { migrate: !process.argv.includes('--no-migrate') });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : null })}\n`);
