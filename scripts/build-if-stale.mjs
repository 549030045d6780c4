// `npm start`'s prestart and the `prepare` script: compiles src/ into dist/ only when the build is
// missing or older than a source (any src/**/*.ts but tests, the tsconfig files, package.json). A
// current build starts in well under a second instead of recompiling (tens of seconds on a small
// machine). `prepare` also runs when the first `npx changelog` in a checkout installs this package
// into npx's cache: an unconditional tsc there made a newcomer's first CLI command take about a minute.
// FORCE_BUILD=1 always builds; `npm run build` is the unconditional (and type-checked) build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
// Written by every build (tsc emits every output each time): the build's age.
const marker = join(root, 'dist', 'cli', 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const inputs = Math.max(
  newestSource(join(root, 'src')),
  ...['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => statSync(join(root, f)).mtimeMs),
);
const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
if (process.env.FORCE_BUILD !== '1' && built > inputs) process.exit(0);

console.error('Building (the compiled server in dist/ is missing or older than src/)…');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
// Emit only: the type check is `npm run typecheck` (CI runs it over src/ and the tests together), and
// checking here again cost a clean install (npm ci, then CI) about 20 s of CPU for the same answer.
// `npm run build` still checks as it emits.
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--noCheck'], { stdio: 'inherit' });
if (result.status !== 0) {
  // tsc writes its outputs even when it reports errors: do not let them pass for a current build.
  rmSync(marker, { force: true });
  process.exit(result.status ?? 1);
}
