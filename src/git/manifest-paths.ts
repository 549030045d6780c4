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
