/**
 * Components a commit touches: the workspace packages whose directories its paths are in (names from
 * their manifests, read at ingest), or path rules (`packages/*\/**` → `$1`) when configured or when the
 * manifests name none (common monorepo layouts are then detected from the paths themselves). A
 * conventional scope is a component only when it names one of those (ComponentSource.named); the
 * paths outrank it.
 */
import type { CommitRecord } from '../../git/commit-record.js';
import { isToolingManifest } from '../../git/manifest-paths.js';
import { compileGlob, globProblem } from './glob.js';
import { parseReleaseTag } from './versions.js';
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
const NOT_COMPONENTS = new Set([
  'src',
  'lib',
  'test',
  'tests',
  'bin',
  'scripts',
  'script',
  'tools',
  'docs',
  'doc',
  'website',
  'site',
  'examples',
  'example',
  'fixtures',
  'vendor',
  'vendors',
  'benchmark',
  'benchmarks',
  'bench',
  'dist',
  'build',
  'node_modules',
  'e2e',
  'integration',
  'playground',
]);
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

/**
 * Where a commit's components come from: the paths it changes (packages of the workspace, or path
 * rules), and the packages a conventional scope can name.
 */
export interface ComponentSource {
  /** Components of a list of changed paths, sorted, without duplicates. */
  componentsOf(changes: readonly Change[]): string[];
  /** The known component a scope names (case, an `@org/` prefix, `-`/`_` aside), or null: any other scope is no component. */
  named(scope: string): string | null;
}

const MAX_COMPONENT_LENGTH = 214;

/** A name's spelling for comparison: lower case, `_` as `-`, blanks trimmed. */
export function normaliseComponent(name: string): string {
  return name.trim().toLowerCase().replace(/_/g, '-');
}

/** `@org/name` → `name`; anything else unchanged. */
function bareName(name: string): string {
  if (!name.startsWith('@')) return name;
  const slash = name.indexOf('/');
  return slash > 1 ? name.slice(slash + 1) : name;
}

// Tokens that reach a scope position without naming a part of the product: release words, trailers
// (`Signed-off-by:` read as a type), verbs (`re-enable(x):`), issue and PR references.
const JUNK_WORDS = new Set([
  'major',
  'minor',
  'patch',
  'breaking',
  'release',
  'version',
  'wip',
  'todo',
  'temp',
  'tmp',
  'misc',
  'all',
  'root',
  'repo',
  'other',
  'various',
  'general',
  'add',
  'remove',
  'update',
  'fix',
  'enable',
  'disable',
  're-enable',
  're-add',
  're-apply',
  'revert',
  'refactor',
  'improve',
]);

/** Whether a name cannot be a component: an issue or PR reference, a trailer, a release word, a verb, prose. */
export function isJunkComponent(name: string): boolean {
  const n = normaliseComponent(name);
  if (!n || n.length > MAX_COMPONENT_LENGTH) return true;
  if (/^#?\d+$/.test(n) || /^gh-\d+$/.test(n)) return true;
  if (/\s/.test(n) || n.endsWith('-by')) return true;
  return JUNK_WORDS.has(n);
}

// Folders whose manifests are test fixtures, examples or templates rather than packages the project ships
// (`tests_integration/cli/…/package.json`, a playground's `src/download/template/package.json`); checked per
// folder name, beside manifests.ts's tooling folders.
const NOT_PACKAGE_FOLDER =
  /^(?:__[\w-]+__|src|lib|tests?|tests?[_-]integration|integration[_-]tests?|e2e|fixtures?|examples?|templates?|playgrounds?|node_modules)$/i;

// A top-level folder of tests by any name (`tests_config/`, `integration_tests/`); under packages/, `runtime-test` is a package.
const TEST_ROOT = /^(?:tests?[_-][\w.-]*|[\w.-]*[_-]tests?)$/i;

function isPackageDir(dir: string): boolean {
  if (isToolingManifest(`${dir}/`)) return false;
  const slash = dir.indexOf('/');
  if (TEST_ROOT.test(slash < 0 ? dir : dir.slice(0, slash))) return false;
  for (const folder of dir.split('/')) if (NOT_PACKAGE_FOLDER.test(folder)) return false;
  return true;
}

/**
 * The workspace's packages by directory ('' excluded: the root package is the project itself), from the
 * manifests the commits changed (`dependencies.packages`, read at ingest): each directory's latest name.
 */
export function workspacePackages(history: readonly CommitRecord[]): Map<string, string> {
  const latest = new Map<string, { name: string; at: number }>();
  for (const c of history) {
    const packages = c.dependencies?.packages;
    if (!packages) continue;
    const at = Date.parse(c.committer.date) || 0;
    for (const [dir, name] of packages) {
      // A deleted manifest keeps its last name: older commits were changes of that package.
      if (!dir || !name || name.length > MAX_COMPONENT_LENGTH || /\s/.test(name) || !isPackageDir(dir)) continue;
      const seen = latest.get(dir);
      if (!seen || at >= seen.at) latest.set(dir, { name, at });
    }
  }
  return new Map([...latest].map(([dir, { name }]) => [dir, name]));
}

interface DirNode {
  name: string | null;
  children: Map<string, DirNode>;
}

/**
 * Components from the workspace's packages: a path belongs to the package whose directory most
 * closely encloses it. One walk over the path's segments down a tree of directories: linear in the path.
 */
export function packageSource(packages: ReadonlyMap<string, string>): ComponentSource {
  const root: DirNode = { name: null, children: new Map() };
  for (const [dir, name] of packages) {
    let node = root;
    for (const segment of dir.split('/')) {
      let next = node.children.get(segment);
      if (!next) node.children.set(segment, (next = { name: null, children: new Map() }));
      node = next;
    }
    node.name = name;
  }
  const packageOf = (path: string): string | null => {
    let node = root;
    let found: string | null = null;
    let from = 0;
    for (;;) {
      const slash = path.indexOf('/', from);
      if (slash < 0) return found; // the last segment is the file itself
      const next = node.children.get(path.slice(from, slash));
      if (!next) return found;
      node = next;
      if (node.name) found = node.name;
      from = slash + 1;
    }
  };
  const sorted = [...packages].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return {
    componentsOf(changes) {
      if (!packages.size) return [];
      const out = new Set<string>();
      for (const [, path] of changes) {
        const p = packageOf(path);
        if (p) out.add(p);
      }
      return [...out].sort();
    },
    named: namesIndex(sorted.map(([dir, name]) => [name, dir.slice(dir.lastIndexOf('/') + 1)])),
  };
}

/**
 * A lookup of spellings → names: the full name, the name without its `@org/`, and the folder's name
 * each find it. Full names are entered first, so a bare spelling never hides another package's full name.
 */
function namesIndex(entries: ReadonlyArray<[name: string, folder: string]>): (scope: string) => string | null {
  const keys = new Map<string, string>();
  const add = (key: string, name: string) => {
    const k = normaliseComponent(key);
    if (k && !keys.has(k)) keys.set(k, name);
  };
  for (const [name] of entries) add(name, name);
  for (const [name] of entries) add(bareName(name), name);
  for (const [name, folder] of entries) add(folder, name);
  return (scope) => {
    if (scope.length > MAX_COMPONENT_LENGTH) return null;
    const k = normaliseComponent(scope);
    return keys.get(k) ?? keys.get(bareName(k)) ?? null;
  };
}

/**
 * Components from path rules (configured, or detected when the manifests name no packages): the names
 * the rules give the history's paths are the known ones a scope may name.
 */
export function ruleSource(matcher: ComponentMatcher, paths: readonly string[]): ComponentSource {
  const seen = new Set<string>();
  if (matcher.rules.length) for (const c of matcher.componentsOf(paths.map((p) => ['M', p] as Change))) seen.add(c);
  const names = [...seen].filter((c) => !isJunkComponent(c)).sort();
  return {
    componentsOf: (changes) => matcher.componentsOf(changes),
    named: namesIndex(names.map((n) => [n, n])),
  };
}

/**
 * The component source of a history: configured path rules first (the project's own word), else the
 * workspace packages its manifests declare, else path rules detected from common layouts. A scope may
 * also name a package the project tags releases of (`pkg@2.0.0`): its own tags say it is one.
 */
export function componentSource(pathRules: readonly PathRule[], history: readonly CommitRecord[], paths: readonly string[]): ComponentSource {
  const packages = pathRules.length ? null : workspacePackages(history);
  const source = pathRules.length
    ? ruleSource(compilePathRules(pathRules), paths)
    : packages!.size
      ? packageSource(packages!)
      : ruleSource(compilePathRules(detectPathRules(paths)), paths);
  const series = new Set<string>();
  for (const c of history) {
    for (const tag of c.tags) {
      const name = parseReleaseTag(tag)?.series;
      if (name && !isJunkComponent(name)) series.add(name);
    }
  }
  if (!series.size) return source;
  const tagged = namesIndex([...series].sort().map((n) => [n, n]));
  return { componentsOf: source.componentsOf, named: (scope) => source.named(scope) ?? tagged(scope) };
}
