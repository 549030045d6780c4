// Runs the CLI from the TypeScript sources in a child process (tests that kill it mid-way).
import { main } from '../../src/cli/main.js';

process.exitCode = await main(process.argv);
