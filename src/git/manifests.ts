/**
 * What a commit changes in the dependencies its package manifests declare, read at ingest from the
 * manifests before and after it: runtime requirements users install with the package (`dependencies`,
 * `peerDependencies`, `optionalDependencies`; Cargo's `[dependencies]`; `project.dependencies`; go.mod's
 * `require`) or the project's own development tools (`devDependencies`, `[dev-dependencies]`, dev groups,
 * and every dependency of a private package or of one under website/, scripts/, examples/…).
 *
 * Manifests come from whoever can push: each is read only up to MAX_MANIFEST_BYTES, with JSON.parse or
 * one pass over its lines (no regex that can backtrack over a line), and at most MAX_NAMES names are kept.
 */
import { isToolingManifest } from './manifest-paths.js';

export interface DependencyChanges {
  /** Packages whose runtime requirement was added, removed or changed. */
  runtime: string[];
  /** Packages whose development-only requirement was added, removed or changed. */
  dev: string[];
  /**
   * The manifests the commit changed, as `[directory, package name]` ('' for the root; the name null when
   * the manifest was deleted or declares none): the engine names a commit's components from these.
   * Tooling manifests (website/, e2e/, fixtures…) are left out; at most MAX_PACKAGES per commit.
   */
  packages?: Array<[dir: string, name: string | null]>;
}

type Kind = 'runtime' | 'dev';

/** One manifest's dependencies: name → kind and the requirement as written. */
export interface ManifestDependencies {
  /** The package's own name (`name` of package.json, `[package] name`, `module`), if any. */
  name: string | null;
  deps: Map<string, { kind: Kind; spec: string }>;
}

/** Larger manifests are not read (real ones are a few kB; the datasets keep up to 64 KiB). */
export const MAX_MANIFEST_BYTES = 256 * 1024;
/** Names kept per kind and commit: a lock-step update of a whole monorepo's tooling is still "dev". */
export const MAX_NAMES = 50;
const MAX_NAME_LENGTH = 214; // npm's limit
/** Manifests named per commit: a release bumping every package of a large monorepo stays bounded. */
export const MAX_PACKAGES = 500;

const MANIFEST_FILE = /(^|\/)(package\.json|Cargo\.toml|pyproject\.toml|go\.mod)$/;

/** Whether a path is a manifest whose dependencies this module reads. */
export function isManifestPath(path: string): boolean {
  return MANIFEST_FILE.test(path) && !path.includes('node_modules/');
}

/** The dependencies a manifest declares, or null when it is not one we read (or not readable). */
export function readManifest(path: string, text: string): ManifestDependencies | null {
  if (text.length > MAX_MANIFEST_BYTES) return null;
  const file = path.slice(path.lastIndexOf('/') + 1);
  const parsed =
    file === 'package.json'
      ? readPackageJson(text)
      : file === 'Cargo.toml'
        ? readCargo(text)
        : file === 'pyproject.toml'
          ? readPyproject(text)
          : file === 'go.mod'
            ? readGoMod(text)
            : null;
  // Manifests of the project's tooling rather than of what it ships: all their dependencies are dev.
  if (parsed && isToolingManifest(path)) for (const d of parsed.deps.values()) d.kind = 'dev';
  return parsed;
}

/**
 * Which dependencies changed between two versions of one manifest (null for a file added or deleted).
 * Requirements on `localNames` (the repository's own packages) and local specs (`workspace:`, `file:`,
 * `link:`, paths) are the project's own wiring, not dependencies: a release commit bumping them is not an update.
 */
export function dependencyDelta(
  before: ManifestDependencies | null,
  after: ManifestDependencies | null,
  localNames: ReadonlySet<string> = new Set(),
): DependencyChanges {
  const out: DependencyChanges = { runtime: [], dev: [] };
  const old = before?.deps ?? new Map<string, { kind: Kind; spec: string }>();
  const now = after?.deps ?? new Map<string, { kind: Kind; spec: string }>();
  // A package's requirement on its own name is its published version used as a tool (prettier formats
  // itself with the last release): a real dependency, not wiring.
  const own = (name: string) => name === before?.name || name === after?.name;
  const local = (name: string, spec: string) => (localNames.has(name) && !own(name)) || /^(workspace:|file:|link:|portal:|\.{0,2}\/)/.test(spec);
  for (const [name, d] of now) {
    const was = old.get(name);
    if (was && was.spec === d.spec && was.kind === d.kind) continue;
    if (local(name, d.spec)) continue;
    out[d.kind].push(name);
    // Moved from dependencies to devDependencies (or back): both kinds changed.
    if (was && was.kind !== d.kind) out[was.kind].push(name);
  }
  for (const [name, d] of old) if (!now.has(name) && !local(name, d.spec)) out[d.kind].push(name);
  return out;
}

/** Adds `more` into `into`, names once each, at most MAX_NAMES per kind. */
export function mergeChanges(into: DependencyChanges, more: DependencyChanges): DependencyChanges {
  for (const kind of ['runtime', 'dev'] as const) {
    for (const name of more[kind]) if (into[kind].length < MAX_NAMES && !into[kind].includes(name)) into[kind].push(name);
  }
  return into;
}

const RUNTIME_GROUPS = ['dependencies', 'peerDependencies', 'optionalDependencies'] as const;

function readPackageJson(text: string): ManifestDependencies | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const pkg = json as Record<string, unknown>;
  const deps = new Map<string, { kind: Kind; spec: string }>();
  // A private package is never installed by users: everything it depends on is the project's own tooling.
  const shipped = pkg.private !== true;
  const add = (group: unknown, kind: Kind) => {
    if (!group || typeof group !== 'object' || Array.isArray(group)) return;
    for (const [name, spec] of Object.entries(group as Record<string, unknown>)) {
      if (name.length > MAX_NAME_LENGTH) continue;
      // A name in both groups (a peer also installed for development) is runtime.
      if (kind === 'dev' && deps.has(name)) continue;
      deps.set(name, { kind, spec: typeof spec === 'string' ? spec.slice(0, 300) : JSON.stringify(spec ?? null).slice(0, 300) });
    }
  };
  for (const group of RUNTIME_GROUPS) add(pkg[group], shipped ? 'runtime' : 'dev');
  add(pkg.devDependencies, 'dev');
  return { name: typeof pkg.name === 'string' ? pkg.name.slice(0, MAX_NAME_LENGTH) : null, deps };
}

/** Lines with comments cut, one pass each. */
function* tomlLines(text: string): Generator<string> {
  let from = 0;
  while (from <= text.length) {
    let end = text.indexOf('\n', from);
    if (end < 0) end = text.length;
    let line = text.slice(from, end);
    from = end + 1;
    const hash = line.indexOf('#');
    if (hash >= 0 && !line.slice(0, hash).includes('"') && !line.slice(0, hash).includes("'")) line = line.slice(0, hash);
    yield line.trim();
  }
}

/** `[a.b."c"]` → its dotted key, quotes removed; null when the line is not a table header. */
function tableHeader(line: string): string | null {
  if (!line.startsWith('[') || !line.endsWith(']')) return null;
  return line
    .replace(/^\[+|\]+$/g, '')
    .replace(/["']/g, '')
    .trim();
}

/** `name = value` → [name, value]; null otherwise. */
function keyValue(line: string): [string, string] | null {
  const eq = line.indexOf('=');
  if (eq <= 0) return null;
  const key = line
    .slice(0, eq)
    .trim()
    .replace(/^["']|["']$/g, '');
  if (!key || key.length > MAX_NAME_LENGTH || /\s/.test(key)) return null;
  return [key, line.slice(eq + 1).trim()];
}

function readCargo(text: string): ManifestDependencies {
  const deps = new Map<string, { kind: Kind; spec: string }>();
  let name: string | null = null;
  let table = '';
  /** `[dependencies.foo]`: the dependency a table of its own describes. */
  let own: { name: string; kind: Kind } | null = null;
  const kindOf = (t: string): Kind | null => {
    const last = t.split('.').slice(-1)[0] ?? '';
    if (/^(dev-dependencies|build-dependencies)$/.test(last)) return 'dev';
    if (last === 'dependencies') return 'runtime';
    return null;
  };
  for (const line of tomlLines(text)) {
    const header = tableHeader(line);
    if (header !== null) {
      table = header;
      own = null;
      const parts = header.split('.');
      if (parts.length >= 2) {
        const kind = kindOf(parts.slice(0, -1).join('.'));
        if (kind) {
          own = { name: parts[parts.length - 1]!, kind };
          deps.set(own.name, { kind, spec: '' });
        }
      }
      continue;
    }
    const kv = keyValue(line);
    if (!kv) continue;
    if (table === 'package' && kv[0] === 'name') name = kv[1].replace(/^["']|["']$/g, '');
    else if (own) {
      const d = deps.get(own.name)!;
      d.spec = `${d.spec}${kv[0]}=${kv[1]};`.slice(0, 300);
    } else {
      const kind = kindOf(table);
      if (kind) deps.set(kv[0], { kind, spec: kv[1].slice(0, 300) });
    }
  }
  return { name, deps };
}

const DEV_GROUP = /^(dev|develop|development|test|tests|testing|docs?|lint|linting|typing|types|mypy|format|style|bench|ci)$/i;

/** A requirement string (`requests>=2.0`, `black[jupyter]==24.1`) → its package name and the rest. */
function pep508(item: string): [string, string] | null {
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]{0,200})(.*)$/.exec(item.trim());
  return m ? [m[1]!.toLowerCase().replace(/[._]+/g, '-'), m[2]!.trim()] : null;
}

function readPyproject(text: string): ManifestDependencies {
  const deps = new Map<string, { kind: Kind; spec: string }>();
  let name: string | null = null;
  let table = '';
  /** Inside a multi-line array of requirements: the kind its items get. */
  let array: Kind | null = null;
  const addItems = (line: string, kind: Kind) => {
    // Quoted items of one line (`"a>=1", "b"`): a scan for quotes, no backtracking.
    let i = 0;
    while (i < line.length) {
      const q = line[i];
      if (q !== '"' && q !== "'") {
        i++;
        continue;
      }
      const end = line.indexOf(q, i + 1);
      if (end < 0) break;
      const req = pep508(line.slice(i + 1, end));
      if (req && !(kind === 'dev' && deps.has(req[0]))) deps.set(req[0], { kind, spec: req[1].slice(0, 300) });
      i = end + 1;
    }
  };
  const arrayKind = (key: string): Kind | null => {
    if (table === 'project' && key === 'dependencies') return 'runtime';
    if (table === 'project.optional-dependencies') return DEV_GROUP.test(key) ? 'dev' : 'runtime';
    if (table === 'dependency-groups') return 'dev';
    return null;
  };
  for (const line of tomlLines(text)) {
    if (array) {
      addItems(line, array);
      if (line.includes(']')) array = null;
      continue;
    }
    const header = tableHeader(line);
    if (header !== null) {
      table = header;
      continue;
    }
    const kv = keyValue(line);
    if (!kv) continue;
    if ((table === 'project' || table === 'tool.poetry') && kv[0] === 'name') name = kv[1].replace(/^["']|["']$/g, '');
    const kind = arrayKind(kv[0]);
    if (kind && kv[1].startsWith('[')) {
      addItems(kv[1], kind);
      if (!kv[1].includes(']')) array = kind;
      continue;
    }
    // Poetry: `[tool.poetry.dependencies]` is runtime, its dev and group tables development.
    if (table === 'tool.poetry.dependencies' && kv[0] !== 'python') deps.set(kv[0].toLowerCase(), { kind: 'runtime', spec: kv[1].slice(0, 300) });
    else if (table === 'tool.poetry.dev-dependencies' || /^tool\.poetry\.group\.[^.]+\.dependencies$/.test(table)) {
      if (!deps.has(kv[0].toLowerCase())) deps.set(kv[0].toLowerCase(), { kind: 'dev', spec: kv[1].slice(0, 300) });
    }
  }
  return { name, deps };
}

function readGoMod(text: string): ManifestDependencies {
  const deps = new Map<string, { kind: Kind; spec: string }>();
  let name: string | null = null;
  let block: 'require' | 'tool' | null = null;
  for (const raw of tomlLines(text.replace(/\/\/[^\n]*/g, ''))) {
    const line = raw;
    if (block) {
      if (line === ')') block = null;
      else addGo(line, block);
      continue;
    }
    const words = line.split(/\s+/);
    if (words[0] === 'module') name = words[1] ?? null;
    else if ((words[0] === 'require' || words[0] === 'tool') && words[1] === '(') block = words[0];
    else if (words[0] === 'require' || words[0] === 'tool') addGo(words.slice(1).join(' '), words[0]);
  }
  return { name, deps };

  function addGo(line: string, what: 'require' | 'tool') {
    const [path, version] = line.split(/\s+/);
    if (!path || path.length > MAX_NAME_LENGTH) return;
    if (what === 'tool') {
      const d = deps.get(path);
      if (d) d.kind = 'dev';
      else deps.set(path, { kind: 'dev', spec: '' });
    } else deps.set(path, { kind: deps.get(path)?.kind ?? 'runtime', spec: version ?? '' });
  }
}
