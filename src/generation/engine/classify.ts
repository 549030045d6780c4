/**
 * Classification of one commit into a section: Conventional Commits first, then the rules for
 * unconventional styles (rules.ts). Also reads the reverted commit, skip markers and exclusions; the PR
 * number and co-authors are the stored commit's (parsed once, at ingest). Pure: the caller says
 * whether a merge commit's branch commits are present.
 */
import { parseMessage } from './conventional.js';
import type { CommitRecord } from '../../git/commit-record.js';
import { isBot, matchesAuthor, type Author } from './people.js';
import { parseLooseHeader } from './conventional.js';
import {
  AREA_SCOPES,
  DEPENDENCY_SCOPED_TYPES,
  DEPENDENCY_SCOPES,
  TYPE_SECTIONS,
  classifyFreeText,
  isDependencyTitle,
  isHousekeeping,
  isReleaseSubject,
  isRuntimeSecurityUpdate,
  isSubmodulePointerOnly,
  libraryChanges,
  noiseClassOf,
  sectionOfNonLibraryChange,
  onlyChangelogFiles,
  pathTopic,
  raisesMinimumRuntime,
  stripGitmoji,
} from './rules.js';
import type { Change, SectionKey } from './types.js';

export type SkipReason = 'marker' | 'excluded-author' | 'bot' | 'merge' | 'empty';

export interface ClassifiedCommit {
  sha: string;
  section: SectionKey;
  /** From `!`, a BREAKING CHANGE footer, `Breaking:` or 💥. A breaking commit's section is `breaking`. */
  breaking: boolean;
  breakingDescription: string | null;
  /** Conventional scope, or the area prefix of `Area: subject`. */
  scope: string | null;
  /** Cleaned subject: prefix removed, an ordinary first word capitalised (identifiers keep their case), `(#123)` kept. */
  title: string;
  /** The stored commit's PR number (`CommitRecord.prNumber`). */
  pr: number | null;
  /** What this commit reverts, when it is a revert. */
  reverts: { shas: string[]; subject: string | null } | null;
  /** The subject as written (revert matching compares against it). */
  subject: string;
  /** Which rule decided (for tests and for explaining a classification). */
  rule: string;
  skip: SkipReason | null;
  author: Author;
  coAuthors: Author[];
  byBot: boolean;
}

export interface ClassifyOptions {
  excludeAuthors?: readonly string[];
  excludeBots?: boolean;
  /** For a merge commit: are the commits it brings in also in the history being generated? */
  mergedCommitsPresent?: boolean;
  /** The history's top-level docs/ folder is its website's content (rules.ts `docsAreWebsite`). */
  siteDocs?: boolean;
}

const SKIP_MARKER = /\[(skip[ _-]?changelog|changelog[ _-]?skip|no[ _-]?changelog|skip[ _-]?release[ _-]?notes|ignore[ _-]?changelog)\]/i;
// No `\s*` around it: a leading `\s*` rescans a run of spaces from every position in it (quadratic);
// every use collapses whitespace afterwards anyway.
const CI_MARKERS = /\[(skip[ -]ci|ci[ -]skip|skip actions|actions skip|no ci)\]/gi;
// Labels bots append to a title (Renovate's `[security]`, `[bot]`, `[auto]`): the section already says
// it, so a reader never sees them. Only as a word of their own (`a[bot]` in code stays); no quantifier
// reaches past the brackets, so this is linear on any input.
const BOT_LABELS = /(^| )\[(security|bot|auto|autofix|renovate|dependabot)\](?= |$)/gi;
const MERGE_ANY = /^Merge (branch|remote-tracking branch|tag|pull request|commit|'[^']*'|"[^"]*")/i;
// `[fix] …`, `[JSX] …`, `[typescript, flow]: …`, `[3.9.x] …`: a tag or an area in brackets.
const BRACKET_TAG = /^\[([^\][\r\n]{1,40})\] {0,3}:? {0,3}/;
// `SCSS/LESS: …`, `Language Server: …`: an area the strict header does not read (it has `/` or spaces).
const AREA_PREFIX = /^([A-Z][\w.+/-]{0,20}(?: [A-Z][\w.+/-]{0,20}){0,2}): (\S.*)$/;
// `(Babylon) Allow …`: an area in parentheses.
const PAREN_AREA = /^\(([A-Za-z][\w .+/-]{0,24})\):? (\S.*)$/;
// Maintenance types whose description can say what kind of maintenance it is (`chore: upgrade foo to 2`).
const MAINTENANCE_TYPES = new Set(['chore', 'chores', 'build', 'ci', 'style', 'misc', 'wip', 'release', 'workflow', 'polish']);
const REVERT_SUBJECT = /^Revert "(.+)"\s*(\(#\d+\))?$/;
const REVERTS_SHA = /This reverts commit ([0-9a-f]{7,40})/gi;

export function classifyCommit(commit: CommitRecord, options: ClassifyOptions = {}): ClassifiedCommit {
  const parsed = parseMessage(commit.message);
  const author: Author = { name: commit.author.name, email: commit.author.email };
  const byBot = isBot(author);

  let skip: SkipReason | null = null;
  if (SKIP_MARKER.test(commit.message)) skip = 'marker';
  else if (matchesAuthor(author, options.excludeAuthors ?? [])) skip = 'excluded-author';
  else if (byBot && options.excludeBots) skip = 'bot';

  let subject = parsed.subject;
  let footerSource = parsed;

  if (commit.parents.length > 1) {
    if (options.mergedCommitsPresent !== false) skip ??= 'merge';
    // A merge whose branch is not in the history stands for its pull request: its title is the
    // first body line ("Merge pull request #4 from x/y" + "feat: the PR title").
    if (MERGE_ANY.test(subject)) {
      // Everything after the merge line, footers included, is the pull request's own message.
      const prMessage = commit.message.replace(/\r\n?/g, '\n').trim().split('\n').slice(1).join('\n').trim();
      if (prMessage) {
        footerSource = parseMessage(prMessage);
        subject = footerSource.subject;
      }
    }
  }
  if (!subject.trim()) skip ??= 'empty';

  subject = subject.replace(CI_MARKERS, ' ').replace(SKIP_MARKER, '').replace(/\s+/g, ' ').trim();

  const reverts = readReverts(commit.message, subject, footerSource.header?.type, footerSource.header?.description);
  let section: SectionKey;
  let scope: string | null = null;
  let breaking = footerSource.breaking;
  let text = subject;
  let rule: string;
  /** The conventional type or legacy tag that decided, lower case. */
  let typeName: string | null = null;

  const header = footerSource.header;
  const typeSection = header ? TYPE_SECTIONS[header.type.toLowerCase()] : undefined;
  if (header && typeSection) {
    // Conventional Commits (and legacy `Fix:`/`Update:`/`New:`… tags, which share the shape).
    scope = header.scope;
    text = header.description;
    const type = header.type.toLowerCase();
    section = sectionOfType(type, scope, text, commit.changes, byBot);
    rule = `conventional:${type}`;
    typeName = type;
  } else {
    let rest = subject;
    const emoji = stripGitmoji(rest);
    rest = emoji.rest;
    let tagType: string | null = null;
    const bracket = BRACKET_TAG.exec(rest);
    if (bracket) {
      // `[fix] …` is a legacy tag; `[JSX] …` names an area, which becomes the scope; `[WIP] feat: x`
      // is the commit after the marker.
      const tag = bracket[1]!.trim();
      const after = rest.slice(bracket[0].length);
      const inner = parseLooseHeader(after);
      const marker = /^(wip|draft|rfc|in progress)$/i.test(tag);
      const recognised = (inner && TYPE_SECTIONS[inner.type.toLowerCase()]) || classifyFreeText(after, commit.changes, byBot).section !== 'other';
      if (marker && recognised) rest = after;
      // `[Security] Bump acorn from …`: Dependabot's flag on a dependency update, judged below like Renovate's.
      else if (/^security$/i.test(tag) && isDependencyTitle(after)) rest = after;
      else if (TYPE_SECTIONS[tag.toLowerCase()]) {
        tagType = tag.toLowerCase();
        rest = after;
      } else if (marker) {
        rest = after;
      } else {
        if (!/^v?\d+(\.[\dx]+)*$|^\d+$/.test(tag)) scope = tag;
        rest = after;
      }
    }
    // `Fix(x):  two spaces`, `Fix (deps): …`, `fix - …`, `FIX: …`, `Fix:no space`: near-conventional.
    const loose = tagType ? null : parseLooseHeader(rest);
    if (loose && TYPE_SECTIONS[loose.type.toLowerCase()]) {
      tagType = loose.type.toLowerCase();
      scope = loose.scope ?? scope;
      breaking ||= loose.breaking;
      rest = loose.description;
    } else if (!tagType && header && !scope) {
      // `TypeScript: print modifiers` — an area prefix, not a type: the area becomes the scope.
      scope = header.scope ? `${header.type}(${header.scope})` : header.type;
      rest = header.description;
    } else if (!tagType && !scope) {
      const area = AREA_PREFIX.exec(rest) ?? PAREN_AREA.exec(rest);
      if (area && TYPE_SECTIONS[area[1]!.toLowerCase()]) {
        tagType = area[1]!.toLowerCase();
        rest = area[2]!;
      } else if (area) {
        scope = area[1]!;
        rest = area[2]!;
      }
    }
    text = rest;
    if (emoji.section) {
      section = emoji.section;
      rule = 'gitmoji';
    } else if (tagType) {
      section = sectionOfType(tagType, scope, rest, commit.changes, byBot);
      rule = 'legacy-tag';
      typeName = tagType;
    } else {
      const free = classifyFreeText(rest, commit.changes, byBot);
      section = free.section;
      rule = free.rule;
    }
  }
  if (section === 'breaking') breaking = true;
  section = dependencySection(section, typeName, scope, text, commit);
  if (NOISE_CANDIDATES.has(section)) section = noiseClassOf(text, commit.changes, options.siteDocs) ?? section;
  // A feature or fix that changes only the website, tests, docs or CI is not one for users (issue 24).
  if ((section === 'feature' || section === 'fix') && !breaking) section = sectionOfNonLibraryChange(commit.changes, typeName !== null, options.siteDocs) ?? section;
  // Renovate marks updates that fix a vulnerability: they belong with security fixes.
  // (Only for dependencies users run: a lock-file-only or dev-tool update stays a dependency update.)
  const dependencyUpdate =
    section === 'dependencies' || (section === 'fix' && isRuntimeDependencyFix(typeName ?? undefined, scope?.toLowerCase().trim() ?? ''));
  if (dependencyUpdate && /\[security\]/i.test(subject) && isRuntimeSecurityUpdate(subject, commit.changes)) section = 'security';
  // `fix: Revert "fix(x): …"`, `fix(build): revert "build: …"`: a revert whatever its type says.
  if (reverts && section !== 'revert' && (/^revert\b/i.test(subject) || /^revert:? "/i.test(text))) section = 'revert';
  // The project's own word that nothing changes for users (`refactor:`, `[refactor]`): internal, hidden by
  // default as conventional-changelog does. A refactoring guessed from free words (`Inline …`, `Use …`) stays
  // Refactoring: maintainers who write such subjects list them (docs/quality.md).
  if (section === 'refactor' && typeName !== null && TYPE_SECTIONS[typeName] === 'refactor') section = 'internal';
  if (breaking) section = 'breaking';

  // One literal with every field (no spread): V8 keeps it a fast object, and this runs per commit.
  return {
    sha: commit.sha,
    section,
    breaking,
    breakingDescription: footerSource.breakingDescription,
    scope,
    title: section === 'revert' ? revertTitle(text) : cleanTitle(text),
    pr: commit.prNumber,
    reverts,
    subject: parsed.subject,
    rule,
    skip,
    author,
    coAuthors: commit.coAuthors,
    byBot,
  };
}

function readReverts(message: string, subject: string, type: string | undefined, description: string | undefined): ClassifiedCommit['reverts'] {
  const shas = [...message.matchAll(REVERTS_SHA)].map((m) => m[1]!.toLowerCase());
  const quoted = REVERT_SUBJECT.exec(subject);
  if (quoted) return { shas, subject: quoted[1]! };
  if (type?.toLowerCase() === 'revert') {
    const refs = /^Refs:\s*(.+)$/im.exec(message)?.[1]?.match(/[0-9a-f]{7,40}/gi) ?? [];
    return { shas: [...shas, ...refs.map((s) => s.toLowerCase())], subject: description ?? null };
  }
  if (shas.length) return { shas, subject: null };
  return null;
}

/**
 * The section of a typed commit (conventional or legacy tag), where the scope or the description can
 * say more than the type: `fix(docs)` is documentation, `chore: upgrade foo to 2` a dependency update.
 */
function sectionOfType(type: string, scope: string | null, description: string, changes: readonly Change[], byBot: boolean): SectionKey {
  const section = TYPE_SECTIONS[type]!;
  if (section === 'breaking' || section === 'revert' || section === 'security') return section;
  // `docs: fix typo in CHANGELOG-3.3.md`, `chore: update changelog`: release housekeeping, whatever the type.
  if (onlyChangelogFiles(changes)) return 'chore';
  const scopeKey = scope?.toLowerCase().trim() ?? '';
  // Renovate writes `fix(deps)` for runtime dependencies (and `chore(deps)` for the rest) precisely so
  // that release notes list the update as a fix: conventional-changelog files it under Bug Fixes.
  if (isRuntimeDependencyFix(type, scopeKey)) return 'fix';
  if (scopeKey && DEPENDENCY_SCOPED_TYPES.has(type) && DEPENDENCY_SCOPES.has(scopeKey)) return 'dependencies';
  if (section !== 'feature' && isHousekeeping(description, byBot, changes)) return 'chore';
  if (section !== 'test' && section !== 'documentation' && type !== 'ci' && raisesMinimumRuntime(description, changes)) return 'breaking';
  // `fix(docker): …` touching only the image's workflow: the pipeline's fix, whatever the scope.
  // `fix: flaky timer test`, `fix(fixtures): update expected changelog date` touching only tests: the tests' fix.
  if (['fix', 'refactor', 'perf'].includes(type) && !scopeKey.startsWith('dep')) {
    const topic = pathTopic(changes);
    if (topic === 'build' || topic === 'test') return topic;
  }
  const maintenance = MAINTENANCE_TYPES.has(type) || section === 'chore';
  if (maintenance && (isDependencyTitle(description) || isSubmodulePointerOnly(changes))) return 'dependencies';
  const area = AREA_SCOPES.get(scopeKey);
  // `build` names the build tooling, but a `fix(build)` that changes library code fixes what users get.
  if (area && !(area === 'build' && /^(build|bundle|bundling|rollup|webpack)$/.test(scopeKey) && libraryChanges(changes).touched > 0)) return area;
  if (maintenance && isReleaseSubject(description)) return 'chore';
  return section;
}

// Sections whose commits may be one of the noise classes (website, governance): never a feature or breaking change.
// (Maintenance is hidden already: `chore: update sponsors` stays maintenance.)
const NOISE_CANDIDATES: ReadonlySet<SectionKey> = new Set<SectionKey>(['documentation', 'fix', 'refactor', 'other']);

// Sections a dependency change is filed under by its words when they say nothing more: what it changes decides.
const MAINTENANCE_SECTIONS: ReadonlySet<SectionKey> = new Set<SectionKey>(['chore', 'build', 'refactor', 'other']);
const CI_DEPENDENCY_PATH = /^\.github\/(workflows|actions)\/|^\.circleci\/|^\.gitlab-ci\.yml$|^azure-pipelines\.yml$/;

/**
 * A dependency update is runtime, dev or CI by what it changes, whatever its commit type says:
 *
 * - a GitHub Actions (or other CI) update, only CI files changed: Build and CI (hidden by default);
 * - with the manifests read at ingest (`commit.dependencies`): a change of what users install
 *   (`dependencies`, `peerDependencies`…) is listed under Dependencies, even as `fix(deps)` or `chore`
 *   (`chore: replace \`methods\` dependency with standard library` names the package it drops); one that
 *   changes only the project's development tools (`devDependencies`, a private package, website/) is a
 *   development dependency (hidden by default).
 *
 * Without manifest facts (not read) the words decide as before.
 */
function dependencySection(section: SectionKey, typeName: string | null, scope: string | null, text: string, commit: CommitRecord): SectionKey {
  if (section === 'breaking' || section === 'security' || section === 'revert') return section;
  const scopeKey = scope?.toLowerCase().trim() ?? '';
  const typed = section === 'dependencies' || isRuntimeDependencyFix(typeName ?? undefined, scopeKey);
  // A fix or feature is moved by no title (`fix(x): remove package dependency cycle` changes code); the
  // title is read only for maintenance (its patterns are for short subjects, not 100 kB of spaces after `fix:`).
  const update = typed || (MAINTENANCE_SECTIONS.has(section) && isDependencyTitle(text));
  if (update && commit.changes.length && commit.changes.every(([, p]) => CI_DEPENDENCY_PATH.test(p))) return 'build';
  // Only lock files (`Run yarn`, `Deduplicate yarn.lock`, lock file maintenance): the lock file pins the
  // project's own installs; users of a package resolve its declared ranges themselves.
  if (update && pathTopic(commit.changes) === 'dependencies') return 'dev-dependencies';
  const deps = commit.dependencies;
  if (!deps) return section;
  if (update) {
    if (deps.runtime.length) return 'dependencies';
    // Only development tools, or no declared dependency at all (the package manager itself, a local package).
    return 'dev-dependencies';
  }
  // Hidden maintenance that names a runtime package it changes: users install the change (a refactoring stays one).
  if (deps.runtime.length && section !== 'refactor' && MAINTENANCE_SECTIONS.has(section) && namesAny(text, deps.runtime)) return 'dependencies';
  return section;
}

/** Whether the subject names one of the packages (as a word: `qs`, `\`methods\``, `@babel/core`). */
function namesAny(text: string, names: readonly string[]): boolean {
  const words = new Set(
    text
      .toLowerCase()
      .split(/[\s`'"(),:;]+/)
      .filter(Boolean),
  );
  return names.some((n) => words.has(n.toLowerCase()));
}

const RUNTIME_DEPENDENCY_SCOPES = new Set(['deps', 'dep', 'dependency', 'dependencies']);

/** `fix(deps): update dependency foo to ^1.2`: a runtime dependency update that the project ships as a fix. */
function isRuntimeDependencyFix(type: string | undefined, scopeKey: string): boolean {
  return type === 'fix' && RUNTIME_DEPENDENCY_SCOPES.has(scopeKey);
}

// A conventional prefix repeated inside the description (`feat(types): feat(types): add x`,
// `fix(devtools): perf: use …`): never shown. Needs the space after the colon, so `update:modelValue` stays.
const INNER_PREFIX = /^([A-Za-z]{2,12})(\([^()]{0,40}\))?!?: (?=\S)|^\[([A-Za-z]{2,12})\] ?(?=\S)/;

function stripInnerPrefix(text: string): string {
  const m = INNER_PREFIX.exec(text);
  return m && TYPE_SECTIONS[(m[1] ?? m[3]!).toLowerCase()] ? text.slice(m[0].length) : text;
}

/** `Revert "feat: add cache" (#7)` → `Revert "Add cache" (#7)`; `revert: fix(x): y` → `Revert "Y"`. */
function revertTitle(text: string): string {
  text = stripInnerPrefix(text.trim());
  const quoted = /^revert:? "(.+)"(\s*\(#\d+\))?$/i.exec(text);
  if (quoted) {
    const inner = stripInnerPrefix(quoted[1]!);
    return `Revert "${/^revert\b/i.test(inner) ? revertTitle(inner) : cleanTitle(inner)}"${quoted[2] ?? ''}`;
  }
  if (/^revert\b/i.test(text)) return cleanTitle(text);
  const unquoted = /^"(.+)"(\s*\(#\d+\))?$/.exec(text);
  const inner = unquoted ? `${unquoted[1]}${unquoted[2] ?? ''}` : text;
  return `Revert "${cleanTitle(inner.replace(/(\s*\(#\d+\))$/, ''))}"${/(\s*\(#\d+\))$/.exec(inner)?.[1] ?? ''}`;
}

// An identifier, package name or version as the first word: its case is part of its meaning.
// (`-`, `_`, `.`, `@`, `/`, `()`, `:`, `#`, `$`, `<`, backticks, capitals after the first letter, digits.)
const ORDINARY_WORD = /^[a-z][a-z']*[,;!?]?$/;

/**
 * Whitespace collapsed, a trailing period dropped, a repeated conventional prefix removed; the first
 * letter capitalised only when the first word is an ordinary lowercase word (`no-unused-vars`,
 * `lodash@^4`, `parseQuery()`, `v2.3.1`, `eslint 8` keep their case). `(#123)` stays.
 */
export function cleanTitle(text: string): string {
  let title = text.replace(CI_MARKERS, ' ').replace(SKIP_MARKER, ' ').replace(/\s+/g, ' ').trim();
  if (title.includes('[')) title = title.replace(BOT_LABELS, '$1').replace(/ {2,}/g, ' ').trim();
  title = stripInnerPrefix(title);
  title = title.replace(/\.(\s*\(#\d+\))?$/, '$1');
  const space = title.indexOf(' ');
  const first = space < 0 ? title : title.slice(0, space);
  if (!ORDINARY_WORD.test(first)) return title;
  // A package followed by its version (`eslint 8.57`, `react to v19`) is a name, not a word.
  const next = space < 0 ? '' : title.slice(space + 1);
  if (
    /^(to\s+|from\s+)?[v^~]?\d+\.\d/.test(next) &&
    !/^(add|fix|update|upgrade|bump|drop|remove|support|use|require|release|prepare|publish|version)$/i.test(first)
  )
    return title;
  return title.charAt(0).toUpperCase() + title.slice(1);
}
