/**
 * Components a commit touches: its conventional scope, plus path rules (`packages/*\/**` → `$1`,
 * the package name). Without rules, common monorepo layouts are detected from the paths themselves.
 */
import { compileGlob, globProblem } from './glob.js';
import type { Change, PathRule } from './types.js';

export interface ComponentMatcher {
  /** Components of a list of changed paths, sorted, without duplicates. */
  componentsOf(changes: readonly Change[]): string[];
  rules: readonly PathRule[];
}

export function compilePathRules(rules: readonly PathRule[]): ComponentMatcher {
  // The literal start of a glob (`packages/` of `packages/*/**`) rules most paths out without the regex.
  const compiled = rules.map((rule) => ({
    rule,
    glob: compileGlob(rule.glob),
  }));
  const cache = new Map<string, string | null>();
  const componentOfPath = (path: string): string | null => {
    // Most paths match no rule's literal prefix: answer those without touching the cache.
    if (!compiled.some((c) => c.glob.prefixes.some((prefix) => path.startsWith(prefix)))) return null;
    let hit = cache.get(path);
    if (hit !== undefined) return hit;
    hit = null;
    for (const { rule, glob } of compiled) {
      const m = glob.exec(path);
      if (!m) continue;
      // `$1`, `$2`… are the glob's captures; an empty component means the first capture.
      const template = rule.component || '$1';
      const name = template.replace(/\$(\d)/g, (_, i: string) => m[Number(i)] ?? '').trim();
      if (name) {
        hit = name;
        break;
      }
    }
    cache.set(path, hit);
    return hit;
  };
  return {
    rules,
    componentsOf(changes) {
      if (!compiled.length) return [];
      const out = new Set<string>();
      for (const [, path] of changes) {
        const c = componentOfPath(path);
        if (c) out.add(c);
      }
      return [...out].sort();
    },
  };
}

/** Parses `GLOB=COMPONENT` (the CLI's `--path-rule`); the component may be left out (`packages/*\/**`). */
export function parsePathRule(text: string): PathRule {
  const at = text.lastIndexOf('=');
  const glob = (at >= 0 ? text.slice(0, at) : text).trim();
  const component = (at >= 0 ? text.slice(at + 1) : '').trim();
  if (!glob) throw new Error(`Path rule "${text}" has no glob`);
  const problem = globProblem(glob);
  if (problem) throw new Error(`Path rule "${text}": ${problem}`);
  if (!component && !/(^|[^*])\*([^*]|$)/.test(glob)) throw new Error(`Path rule "${text}" names no component and has no * to take one from`);
  return { glob, component };
}

const MONOREPO_ROOTS = ['packages', 'apps', 'libs', 'crates', 'services', 'plugins', 'extensions', 'modules'];
// Folders that hold a manifest for tooling, tests or a website rather than being a product component.
const NOT_COMPONENTS = new Set(['src', 'lib', 'test', 'tests', 'bin', 'scripts', 'script', 'tools', 'docs', 'doc', 'website', 'site', 'examples', 'example', 'fixtures', 'vendor', 'vendors', 'benchmark', 'benchmarks', 'bench', 'dist', 'build', 'node_modules', 'e2e', 'integration', 'playground']);
const MANIFEST = /^([^/]+)\/(package\.json|Cargo\.toml|go\.mod|pyproject\.toml|setup\.py|pom\.xml|build\.gradle(\.kts)?|composer\.json|mix\.exs)$/;

/**
 * Path rules for common layouts: `packages/<name>/…` (and apps, libs, crates…) with at least two
 * members, and top-level folders that hold their own manifest (a Cargo or npm workspace at the root).
 */
export function detectPathRules(paths: Iterable<string>): PathRule[] {
  const members = new Map<string, Set<string>>();
  const manifestDirs = new Set<string>();
  for (const path of paths) {
    const slash = path.indexOf('/');
    if (slash < 0) continue;
    const top = path.slice(0, slash);
    if (MONOREPO_ROOTS.includes(top)) {
      const next = path.indexOf('/', slash + 1);
      if (next > slash + 1) {
        let set = members.get(top);
        if (!set) members.set(top, (set = new Set()));
        set.add(path.slice(slash + 1, next));
      }
    }
    if (path.indexOf('/', slash + 1) !== -1) continue; // manifests one level down only
    const manifest = MANIFEST.exec(path);
    if (manifest && !MONOREPO_ROOTS.includes(top) && !NOT_COMPONENTS.has(top.toLowerCase()) && !top.startsWith('.')) manifestDirs.add(top);
  }
  const rules: PathRule[] = [];
  for (const root of MONOREPO_ROOTS) {
    if ((members.get(root)?.size ?? 0) >= 2) rules.push({ glob: `${root}/*/**`, component: '$1' });
  }
  if (manifestDirs.size >= 2) {
    for (const dir of [...manifestDirs].sort()) rules.push({ glob: `${dir}/**`, component: dir });
  }
  return rules;
}
