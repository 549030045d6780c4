// The `changelog` command run from the TypeScript sources, for tests that need a real process
// (signals, exit codes) without a build: `node --import tsx test/helpers/run-cli.ts serve`.
import { main } from '../../src/cli/main.js';

process.exitCode = await main(process.argv);
