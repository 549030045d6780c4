/**
 * Which manifests are the project's tooling rather than what it ships: ingest reads their dependencies
 * as dev (manifests.ts), and the engine never takes their packages as components. A leaf both may import
 * (the engine imports nothing else of git/ but the commit record).
 */
const TOOLING_DIR = /(^|\/)(website|docs?|site|scripts?|examples?|bench(marks?)?|playground|tools?|e2e|fixtures|__tests__|tests?|sandbox|demo|\.github)\//i;

/** Whether a manifest belongs to the project's tooling (website, examples, test fixtures), not to a package it ships. */
export function isToolingManifest(path: string): boolean {
  return TOOLING_DIR.test(path);
}

/** GitHub's release-notes configuration (`.github/release.yml`): ingest keeps its text, the engine reads it. */
export function isReleaseConfigPath(path: string): boolean {
  return path === '.github/release.yml' || path === '.github/release.yaml';
}

const CHANGESET = /^\.changeset\/([^/]+)\.md$/i;
const TOWNCRIER = /(^|\/)(changelog\.d|newsfragments)\/([^/]+)$|^(changes)\/([^/]+)$/;

/** The fragment types towncrier projects use (its defaults and common additions), lower case. */
export const TOWNCRIER_TYPES = [
  'feature',
  'features',
  'added',
  'bugfix',
  'bugfixes',
  'fix',
  'fixed',
  'doc',
  'docs',
  'documentation',
  'removal',
  'breaking',
  'deprecation',
  'deprecated',
  'security',
  'performance',
  'perf',
  'misc',
  'trivial',
  'internal',
  'chore',
  'changed',
  'change',
] as const;
const TYPES: ReadonlySet<string> = new Set(TOWNCRIER_TYPES);

/**
 * A change fragment: a changeset (`.changeset/<name>.md`, not its README) or a towncrier fragment
 * (`changelog.d/`, `newsfragments/` anywhere, `changes/` at the root) named `<id>.<type>[.<n>][.md|.rst|.txt]`.
 */
export function isFragmentPath(path: string): boolean {
  const changeset = CHANGESET.exec(path);
  if (changeset) return changeset[1]!.toLowerCase() !== 'readme';
  const towncrier = TOWNCRIER.exec(path);
  return towncrier !== null && towncrierType(towncrier[3] ?? towncrier[5]!) !== null;
}

/** The towncrier type of a fragment's path (`123.feature.md` → `feature`), or null when it is none. */
export function fragmentType(path: string): string | null {
  const towncrier = TOWNCRIER.exec(path);
  return towncrier ? towncrierType(towncrier[3] ?? towncrier[5]!) : null;
}

function towncrierType(name: string): string | null {
  const parts = name.toLowerCase().split('.', 8);
  if (parts.length < 2) return null;
  const ext = parts[parts.length - 1];
  if (parts.length > 2 && (ext === 'md' || ext === 'rst' || ext === 'txt')) parts.pop();
  // `<id>.<type>` or `<id>.<type>.<counter>`
  for (const candidate of [parts[parts.length - 1]!, parts[parts.length - 2] ?? '']) if (TYPES.has(candidate)) return candidate;
  return null;
}
