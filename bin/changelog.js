#!/usr/bin/env node
// The published entry point runs the compiled CLI; `npm ci` builds it (the `prepare` script).
import { existsSync } from 'node:fs';
import { main } from '../dist/cli/main.js';

// Variables already in the environment win over the file.
if (existsSync('.env')) process.loadEnvFile('.env');
process.exitCode = await main(process.argv);
