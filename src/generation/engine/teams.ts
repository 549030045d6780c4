/**
 * Who a change is from: teams from the project's mapping (paths or authors → team), else from a
 * CODEOWNERS file, else the human authors and co-authors ("A, B and N others"). Bots never count.
 */
import type { ClassifiedCommit } from './classify.js';
import { compileGlobs, GlobError } from './glob.js';
import { formatNames, isBot, matchesAuthor, personKey, type Author } from './people.js';
import type { Change, TeamMapping } from './types.js';

interface OwnerRule {
  match: (path: string) => boolean;
  owners: string[];
}

const OWNER_HANDLE = /^@[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)?$/;

/**
 * `@user`, `@org/team` or an e-mail address. The e-mail test is done by hand: the regex
 * `[^@\s]+@[^@\s]+\.[^@\s]+$` retries its last part after every dot (quadratic on a long token).
 */
function isOwner(token: string): boolean {
  if (OWNER_HANDLE.test(token)) return true;
  const at = token.indexOf('@');
  if (at < 1 || token.indexOf('@', at + 1) !== -1) return false;
  const domain = token.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot !== -1 && dot < domain.length - 1;
}

/**
 * Parses CODEOWNERS (GitHub/GitLab syntax): the last matching pattern wins; owners without `@`.
 * Only teams (`@org/team`) are kept: a person or e-mail address there names a reviewer, not who made
 * the change (git-cliff's `* @orhun` would sign every entry of a project with many authors), so
 * entries those rules cover are attributed to their authors instead.
 * The file comes from the repository: a pattern the glob matcher refuses skips its line with a
 * warning (as GitHub skips lines it cannot parse) rather than failing the whole generation.
 */
export function parseCodeowners(text: string, warnings: string[] = []): OwnerRule[] {
  const rules: OwnerRule[] = [];
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n]!;
    // A comment starts at a `#` at the start or after whitespace (indexOf, not a regex: linear).
    const hash = raw.startsWith('#') ? 0 : raw.search(/\s#/);
    const line = (hash < 0 ? raw : raw.slice(0, hash)).trim();
    if (!line || line.startsWith('[') || line.startsWith('^[')) continue; // GitLab sections
    const [pattern, ...rest] = line.split(/\s+/);
    if (!pattern) continue;
    const owners = rest.filter((o) => isOwner(o) && isTeam(o)).map((o) => o.replace(/^@/, ''));
    try {
      rules.push({ match: codeownersMatcher(pattern), owners });
    } catch (error) {
      if (!(error instanceof GlobError)) throw error;
      warnings.push(`CODEOWNERS line ${n + 1} skipped: ${error.message}`);
    }
  }
  return rules;
}

function isTeam(owner: string): boolean {
  return owner.startsWith('@') && owner.includes('/');
}

function codeownersMatcher(pattern: string): (path: string) => boolean {
  let p = pattern;
  const anchored = p.startsWith('/') || p.slice(0, -1).includes('/');
  p = p.replace(/^\//, '');
  if (p.endsWith('/')) p += '**';
  const glob = anchored ? p : `**/${p}`;
  const globs = p.endsWith('**') ? [glob] : [glob, `${glob}/**`];
  return compileGlobs(globs);
}

export interface TeamResolver {
  /** Teams of one commit (sorted); empty when neither the mapping nor CODEOWNERS names one. */
  teamsOf(commit: ClassifiedCommit, changes: readonly Change[]): string[];
}

/** `warnings` receives the CODEOWNERS lines skipped. Team paths were checked with the settings. */
export function createTeamResolver(mappings: readonly TeamMapping[], codeowners: string | null, warnings: string[] = []): TeamResolver {
  const mapped = mappings.map((m) => ({
    team: m.team,
    authors: m.authors ?? [],
    paths: m.paths?.length ? compileGlobs(m.paths) : null,
  }));
  const ownerRules = codeowners ? parseCodeowners(codeowners, warnings) : [];
  const ownersCache = new Map<string, string[]>();
  const ownersOf = (path: string): string[] => {
    let hit = ownersCache.get(path);
    if (!hit) {
      hit = [];
      for (let i = ownerRules.length - 1; i >= 0; i--) {
        if (ownerRules[i]!.match(path)) {
          hit = ownerRules[i]!.owners;
          break;
        }
      }
      ownersCache.set(path, hit);
    }
    return hit;
  };
  return {
    teamsOf(commit, changes) {
      const teams = new Set<string>();
      const people = [commit.author, ...commit.coAuthors];
      for (const m of mapped) {
        if (people.some((p) => matchesAuthor(p, m.authors)) || (m.paths && changes.some(([, path]) => m.paths!(path)))) {
          teams.add(m.team);
        }
      }
      if (!teams.size && ownerRules.length) {
        for (const [, path] of changes) for (const owner of ownersOf(path)) teams.add(owner);
      }
      return [...teams].sort();
    },
  };
}

/**
 * Attribution for a set of commits: their teams when any has one, otherwise the people, most
 * commits first (ties by name), bots left out.
 */
export function attribute(commits: ReadonlyArray<{ commit: ClassifiedCommit; teams: readonly string[] }>): string | null {
  if (commits.length === 1) {
    // One commit (every commit entry): no counting needed.
    const { commit, teams } = commits[0]!;
    if (teams.length) return formatNames(teams);
    return formatNames(humans(commit).map((p) => p.name));
  }
  const teamCounts = new Map<string, number>();
  for (const { teams } of commits) for (const t of teams) teamCounts.set(t, (teamCounts.get(t) ?? 0) + 1);
  if (teamCounts.size) return formatNames(rank(teamCounts));

  const counts = new Map<string, number>();
  const names = new Map<string, string>();
  for (const { commit } of commits) {
    for (const { key, name } of keyedHumans(commit)) {
      if (!names.has(key)) names.set(key, name);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const byName = new Map<string, number>();
  for (const [key, n] of counts) {
    const name = names.get(key)!;
    byName.set(name, (byName.get(name) ?? 0) + n);
  }
  return formatNames(rank(byName));
}

/**
 * `humans` with each person's key, once per commit: a commit is counted in its daily, weekly and
 * monthly rollups and in its release notes, and the keys are what costs.
 */
const keyedCache = new WeakMap<ClassifiedCommit, ReadonlyArray<{ key: string; name: string }>>();
function keyedHumans(commit: ClassifiedCommit): ReadonlyArray<{ key: string; name: string }> {
  let keyed = keyedCache.get(commit);
  if (!keyed) keyedCache.set(commit, (keyed = humans(commit).map((p) => ({ key: personKey(p), name: p.name }))));
  return keyed;
}

/** The commit's author and co-authors who are people (not bots), each once, names trimmed. */
function humans(commit: ClassifiedCommit): Author[] {
  const out: Author[] = [];
  if (!commit.byBot && commit.author.name.trim()) out.push({ name: commit.author.name.trim(), email: commit.author.email });
  for (const person of commit.coAuthors) {
    if (isBot(person) || !person.name.trim()) continue;
    const key = personKey(person);
    if (out.some((p) => personKey(p) === key)) continue;
    out.push({ name: person.name.trim(), email: person.email });
  }
  return out;
}

function rank(counts: Map<string, number>): string[] {
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([name]) => name);
}
