/**
 * Rules for the commits that do not follow Conventional Commits, which is most real history:
 * legacy tag styles, gitmoji, dependency bots, leading verbs, and what the changed paths say.
 * Each rule returns a section or null; `classifyFreeText` tries them in order of confidence.
 */
import type { Change, SectionKey } from './types.js';

/** Conventional types and legacy tags (`Fix:`, `Update:`, `New:`, `Breaking:`, `Docs:`, `Upgrade:`, `Chore:`), lower case. */
export const TYPE_SECTIONS: Readonly<Record<string, SectionKey>> = {
  feat: 'feature',
  feature: 'feature',
  features: 'feature',
  new: 'feature',
  update: 'feature', // ESLint's legacy tag: a backwards-compatible enhancement
  add: 'feature',
  fix: 'fix',
  fixes: 'fix',
  bugfix: 'fix',
  hotfix: 'fix',
  bug: 'fix',
  perf: 'performance',
  performance: 'performance',
  security: 'security',
  sec: 'security',
  deprecate: 'deprecation',
  deprecation: 'deprecation',
  deprecated: 'deprecation',
  docs: 'documentation',
  doc: 'documentation',
  documentation: 'documentation',
  refactor: 'refactor',
  refactoring: 'refactor',
  deps: 'dependencies',
  dep: 'dependencies',
  dependencies: 'dependencies',
  upgrade: 'dependencies',
  bump: 'dependencies',
  build: 'build',
  ci: 'build',
  test: 'test',
  tests: 'test',
  testing: 'test',
  chore: 'chore',
  style: 'chore',
  release: 'chore',
  misc: 'chore',
  chores: 'chore',
  workflow: 'build',
  dx: 'feature',
  polish: 'refactor',
  wip: 'chore',
  imgbot: 'chore',
  revert: 'revert',
  breaking: 'breaking',
};

/** Scopes that mean "dependency update" when the type is a maintenance one (`chore(deps)`, `build(deps-dev)`). */
export const DEPENDENCY_SCOPES = new Set(['deps', 'dep', 'deps-dev', 'dev-deps', 'dependencies', 'dependency', 'deps-peer', 'devdeps', 'dev-dependencies']);
export const DEPENDENCY_SCOPED_TYPES = new Set(['chore', 'build', 'ci', 'fix', 'style', 'refactor', 'deps', 'dep', 'upgrade', 'bump']);

/**
 * Scopes that name a non-code area: the scope says more than the type (`fix(docs)` fixes the docs,
 * `fix(ci)` the pipeline). `build` is special-cased by the caller: in libraries that ship bundles,
 * `fix(build)` often changes library code, and then it is the library's fix.
 */
export const AREA_SCOPES: ReadonlyMap<string, SectionKey> = new Map<string, SectionKey>([
  ...['docs', 'doc', 'documentation', 'readme', 'typo', 'typos', 'guide', 'guides'].map((s) => [s, 'documentation'] as [string, SectionKey]),
  ...[
    'ci',
    'workflow',
    'workflows',
    'github-actions',
    'actions',
    'gha',
    'travis',
    'circleci',
    'appveyor',
    'build',
    'bundle',
    'bundling',
    'rollup',
    'webpack',
  ].map((s) => [s, 'build'] as [string, SectionKey]),
  ...['test', 'tests', 'testing', 'e2e', 'unit-tests', 'snapshots', 'spec', 'specs'].map((s) => [s, 'test'] as [string, SectionKey]),
]);

/**
 * Scopes that name a kind of change, not a part of the product (`chore(deps)`, `docs(docs)`, `fix(ci)`,
 * `test(e2e)`), with the section each names. They are never component tags (a reader filtering by
 * component wants code areas), and an item does not show one that only restates its section
 * (`**deps:** Bump …` under Dependencies); elsewhere it still says something (`**deps:**` on a fix).
 */
const KIND_SCOPES: ReadonlyMap<string, SectionKey> = new Map<string, SectionKey>([
  ...[...DEPENDENCY_SCOPES].map((s) => [s, 'dependencies'] as [string, SectionKey]),
  // Not `readme`: it names which document (`**readme:** Add a link` says where the link is).
  ...['docs', 'doc', 'documentation', 'typo', 'typos'].map((s) => [s, 'documentation'] as [string, SectionKey]),
  ...['ci', 'cd', 'build', 'builds', 'workflow', 'workflows', 'github-actions', 'actions', 'gha', 'travis', 'circleci', 'appveyor'].map(
    (s) => [s, 'build'] as [string, SectionKey],
  ),
  ...['test', 'tests', 'testing', 'unit-tests', 'e2e', 'snapshots', 'spec', 'specs'].map((s) => [s, 'test'] as [string, SectionKey]),
  ...['chore', 'chores', 'release', 'releases', 'misc', 'maintenance', 'housekeeping'].map((s) => [s, 'chore'] as [string, SectionKey]),
  ...['perf', 'performance'].map((s) => [s, 'performance'] as [string, SectionKey]),
  ...['security', 'sec'].map((s) => [s, 'security'] as [string, SectionKey]),
  ...['deprecate', 'deprecation', 'deprecations'].map((s) => [s, 'deprecation'] as [string, SectionKey]),
  ...['refactor', 'refactoring'].map((s) => [s, 'refactor'] as [string, SectionKey]),
  ...['feat', 'feature', 'features'].map((s) => [s, 'feature'] as [string, SectionKey]),
  ...['fix', 'fixes', 'bugfix', 'bug', 'bugs'].map((s) => [s, 'fix'] as [string, SectionKey]),
  ...['revert', 'reverts'].map((s) => [s, 'revert'] as [string, SectionKey]),
]);

// Package managers and update bots: real components in some projects (a project's npm wrapper), but
// under Dependencies `**npm:** Update yarn.lock` says nothing the section does not.
const DEPENDENCY_TOOL_SCOPES = new Set(['npm', 'yarn', 'pnpm', 'bun', 'cargo', 'pip', 'poetry', 'lockfile', 'lock', 'renovate', 'dependabot', 'greenkeeper']);

/** Whether a (lower-case) scope names a kind of change rather than a component: no component tag. */
export function isKindScope(scope: string): boolean {
  return KIND_SCOPES.has(scope);
}

/**
 * Whether showing `scope` as an item's component would only restate what the reader already sees:
 * the item's section (`**docs:**` under Documentation), or a dependency scope on a title that names
 * the update itself (`**deps:** Update dependency postcss to v8` under Security).
 */
export function scopeRestates(scope: string, section: SectionKey, title: string): boolean {
  const kind = KIND_SCOPES.get(scope);
  if (kind === section) return true;
  if (kind === 'dependencies' || DEPENDENCY_TOOL_SCOPES.has(scope)) return section === 'dependencies' || isDependencyTitle(title);
  return false;
}

// Gitmoji (https://gitmoji.dev): the emoji and its `:shortcode:`. Variation selectors are stripped before lookup.
const GITMOJI: ReadonlyArray<[string[], SectionKey]> = [
  [['💥', ':boom:'], 'breaking'],
  [
    [
      '✨',
      ':sparkles:',
      '🎉',
      ':tada:',
      '💄',
      ':lipstick:',
      '🌐',
      ':globe_with_meridians:',
      '♿',
      ':wheelchair:',
      '💫',
      ':dizzy:',
      '🚸',
      ':children_crossing:',
    ],
    'feature',
  ],
  [['🐛', ':bug:', '🚑', ':ambulance:', '🩹', ':adhesive_bandage:', '🥅', ':goal_net:'], 'fix'],
  [['⚡', ':zap:'], 'performance'],
  [['🔒', ':lock:', '🔐', ':closed_lock_with_key:', '🛂', ':passport_control:'], 'security'],
  [['🗑', ':wastebasket:'], 'deprecation'],
  [['📝', ':memo:', '✏', ':pencil2:', '💡', ':bulb:', '📄', ':page_facing_up:'], 'documentation'],
  [['♻', ':recycle:', '🏗', ':building_construction:', '🚚', ':truck:', '⚰', ':coffin:', '🔥', ':fire:'], 'refactor'],
  [['⬆', ':arrow_up:', '⬇', ':arrow_down:', '📌', ':pushpin:', '➕', ':heavy_plus_sign:', '➖', ':heavy_minus_sign:'], 'dependencies'],
  [['👷', ':construction_worker:', '💚', ':green_heart:', '📦', ':package:', '🚀', ':rocket:', '🧱', ':bricks:'], 'build'],
  [['✅', ':white_check_mark:', '🧪', ':test_tube:', '📸', ':camera_flash:'], 'test'],
  [
    [
      '🎨',
      ':art:',
      '🔧',
      ':wrench:',
      '🔨',
      ':hammer:',
      '🚨',
      ':rotating_light:',
      '🔖',
      ':bookmark:',
      '🙈',
      ':see_no_evil:',
      '🚧',
      ':construction:',
      '👽',
      ':alien:',
      '🍱',
      ':bento:',
      '🧹',
      ':broom:',
    ],
    'chore',
  ],
  [['⏪', ':rewind:'], 'revert'],
];
const GITMOJI_LOOKUP = new Map<string, SectionKey>(GITMOJI.flatMap(([codes, section]) => codes.map((c) => [c, section] as const)));
const LEADING_SHORTCODE = /^:([a-z0-9_+-]+):\s*/;
// One pictographic emoji (with optional variation selector / ZWJ sequence) at the start.
const LEADING_EMOJI = /^(\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic})*)\uFE0F?\s*/u;

/** Removes a leading gitmoji and says which section it implies (null when the emoji is unknown or absent). */
export function stripGitmoji(subject: string): { rest: string; section: SectionKey | null; found: boolean } {
  const code = LEADING_SHORTCODE.exec(subject);
  if (code) {
    return { rest: subject.slice(code[0].length), section: GITMOJI_LOOKUP.get(`:${code[1]}:`) ?? null, found: true };
  }
  const emoji = LEADING_EMOJI.exec(subject);
  if (emoji) {
    const symbol = emoji[1]!.replace(/\uFE0F/g, '');
    return { rest: subject.slice(emoji[0].length), section: GITMOJI_LOOKUP.get(symbol) ?? null, found: true };
  }
  return { rest: subject, section: null, found: false };
}

/** Dependency bots' titles (Dependabot, Renovate, Greenkeeper) and the same phrasing by people. */
const DEPENDENCY_TITLES = [
  /^(chore|build|fix)?(\([^)]*\))?:?\s*bump\s+\S+(\s+and\s+\S+)?\s+from\s+\S+\s+to\s+\S+/i,
  /^bump\s+the\s+\S+\s+group\b/i,
  /^(update|upgrade|pin|bump)\s+(the\s+)?(dev\s+|development\s+|all\s+|some\s+)?(dependency|dependencies|devdependency|devdependencies|deps|dev-deps)\b/i,
  /^(update[sd]?|regenerate[sd]?|refresh(ed)?|bump(ed)?|sync(ed)?)\s+(the\s+)?(yarn\.lock|package-lock(\.json)?|pnpm-lock(\.yaml)?|Cargo\.lock|go\.sum|lock\s?files?)\b/i,
  /^update\s+\S+\s+(monorepo|packages?)\b/i,
  /^update\s+(all\s+)?(non-major|major|minor|patch)\s+dependencies\b/i,
  /^lock\s*file\s+maintenance\b/i,
  /^(update[sd]?|upgrade[sd]?|bump(s|ed)?)\s+`?(@?[\w./-]+)`?\s+(dependency\s+|package\s+)?to\s+`?[\^~]?v?\d+(\.[\dx]+)*\b/i,
  /^(update[sd]?|upgrade[sd]?)\s+`?@?[\w./-]+`?\s+from\s+`?v?\d\S*\s+to\s+`?v?\d/i,
  /^\[snyk\]/i,
  /^(upgrade[sd]?|downgrade[sd]?|pin(s|ned)?)\s+\S/i,
  // `Added "chalk" dep`, `Remove lodash dependency`, `add foo as a dev dependency`
  /^(add(s|ed)?|remove[sd]?|drop(s|ped)?|install(s|ed)?)\s+(the\s+)?["'`]?@?[\w./-]+["'`]?\s+(as\s+an?\s+)?(dev[- ]?|peer[- ]?|runtime\s+)?(dep|deps|dependency|dependencies|devdependency)\b/i,
  // `Updated X submodule`, `Update submodule X`, `Bump the docs submodule`
  /^(update[sd]?|bump(s|ed)?|sync(s|ed)?|upgrade[sd]?|move[sd]?|point)\b.{0,60}\bsubmodules?\b/i,
];

// `lodash@^4.17.21`, `@babel/core@7.1.0`, `typescript@next`: a package and its version.
const NAME_AT_VERSION = /^`?@?[\w.-]+(\/[\w.-]+)?@([\^~]|>=?|<=?)?(v?\d[\w.+-]*|next|latest|canary|beta|rc)`?,?$/i;

/** A subject that is only packages at versions, with at most a verb: `lodash@^4.17.21`, `Update to foo@2`, `foo@1 and bar@2 update`. */
export function isNameAtVersionSubject(text: string): boolean {
  const words = text
    .replace(/\s*\(#\d+\)\s*$/, '')
    .split(/\s+/)
    .filter((w) => w && !/^(and|&)$/i.test(w));
  while (words.length && /^(update[sd]?|upgrade[sd]?|bump(s|ed)?|use[sd]?|pin(s|ned)?|to|install(s|ed)?)$/i.test(words[0]!)) words.shift();
  while (words.length && /^(update[sd]?|upgrade[sd]?|bump(s|ed)?)$/i.test(words[words.length - 1]!)) words.pop();
  return words.length > 0 && words.length <= 8 && words.every((w) => NAME_AT_VERSION.test(w));
}

export function isDependencyTitle(text: string): boolean {
  return DEPENDENCY_TITLES.some((re) => re.test(text)) || isNameAtVersionSubject(text);
}

// What every status-only diff of a submodule pointer looks like: `M vendor/libfoo` (a path without an
// extension that is not one of the usual extension-less files), optionally with `.gitmodules`.
const PLAIN_FILES =
  /(^|\/)(Makefile|GNUmakefile|Dockerfile|Containerfile|Jenkinsfile|Procfile|Gemfile|Rakefile|Brewfile|Vagrantfile|Justfile|Caddyfile|LICEN[CS]E|COPYING|NOTICE|AUTHORS|CONTRIBUTORS|CODEOWNERS|OWNERS|README|CHANGELOG|VERSION|PATENTS|Pipfile|BUILD|WORKSPACE|configure|gradlew|mvnw)$/i;
export function isSubmodulePointerOnly(changes: readonly Change[]): boolean {
  let pointers = 0;
  for (const [status, path] of changes) {
    if (path === '.gitmodules') continue;
    const last = path.slice(path.lastIndexOf('/') + 1);
    if (
      status !== 'M' ||
      last.includes('.') ||
      /^[_.]/.test(last) ||
      PLAIN_FILES.test(path) ||
      /(^|\/)(bin|scripts?|hooks|\.husky|website|static|public|assets|docs?)\//.test(path)
    )
      return false;
    pointers++;
  }
  return pointers > 0;
}

type Topic = 'documentation' | 'test' | 'build' | 'dependencies';

const TOPIC_WORDS: ReadonlyArray<[RegExp, Topic]> = [
  [/\b(readme|docs|documentation|changelog|changelog_unreleased|contributing|typos?|license|blog( post)?|guides?|\w+\.md)\b/i, 'documentation'],
  [/\b(tests?|snapshots?|jsfmt\.spec|specs?|fixtures?|test cases?)\b/i, 'test'],
  [
    /\b(ci|travis|appveyor|circleci|github actions|workflows?|azure pipelines|codecov|pipeline|build scripts?|build process|bundler|renovate|dependabot|codeql)\b/i,
    'build',
  ],
  [/\b(dependency|dependencies|deps|lockfile|yarn\.lock|package-lock(\.json)?)\b/i, 'dependencies'],
];

function topicOf(text: string): Topic | null {
  for (const [re, topic] of TOPIC_WORDS) if (re.test(text)) return topic;
  return null;
}

const DOC_PATH =
  /(^|\/)(docs?|documentation|examples?|changelog_unreleased)\/|\.(md|mdx|markdown|rst|adoc)$|(^|\/)(README|LICEN[CS]E|AUTHORS|CONTRIBUTING|CHANGELOG|CODE_OF_CONDUCT|NOTICE)[^/]*$/i;
const TEST_PATH =
  /(^|\/)(tests?|__tests__|__snapshots__|__fixtures__|spec|specs|fixtures|testdata|tests_integration|test-utils|e2e)\/|(^|\/)test-dts\/|\.(test|spec)\.[a-z0-9]+$|\.test-d\.[a-z]+$|\.snap$|_test\.(go|py|rs)$|(^|\/)jsfmt\.spec\.js$/i;
// CI configuration and the build's own files: both land in "Build and CI".
// Everything under `.github/` but its prose (`contributing.md`, `SECURITY.md`) is the repository's own
// configuration: bots (`renovate.json5`, `dependabot.yml`), CodeQL, issue and pull-request templates.
const CI_PATH =
  /^(\.github\/(?!(?:[\w.-]+\/)*(?:fixtures|tests?|__tests__|testdata)\/|.*\.md$)|\.github\/(ISSUE_TEMPLATE|PULL_REQUEST_TEMPLATE|DISCUSSION_TEMPLATE)(\/|\.md$)|\.github\/pull_request_template\.md$|\.github\/issue_template\.md$|\.mergify\.yml$|\.?codecov\.ya?ml$|\.circleci\/|\.travis\.yml$|\.?appveyor\.yml$|azure-pipelines\.yml$|\.gitlab-ci\.yml$|Jenkinsfile$|\.buildkite\/|renovate\.json5?$|\.renovaterc(\.json)?$|\.nvmrc$|\.node-version$|\.tool-versions$)|(^|\/)(Makefile|Dockerfile|Containerfile|\.dockerignore|docker-compose\.ya?ml|(rollup|webpack|vite|esbuild|tsup|babel|jest|vitest|karma|lerna|turbo|nx|gulpfile|Gruntfile|api-extractor)(\.config)?\.[cm]?[jt]s(on)?|tsconfig(\.[\w-]+)?\.json|\.npmignore|\.gitattributes|\.gitignore|\.eslintrc(\.\w+)?|eslint\.config\.[cm]?js|\.prettierrc(\.\w+)?|\.prettierignore|\.editorconfig|\.babelrc|\.browserslistrc)$|(^|\/)\.eslintignore$|^(scripts|build)\//;
const LOCK_PATH =
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|npm-shrinkwrap\.json|Cargo\.lock|go\.sum|Gemfile\.lock|poetry\.lock|composer\.lock|bun\.lockb?|\.yarn\/(cache|releases)\/.*)$/;
const MANIFEST_PATH =
  /(^|\/)(package\.json|lerna\.json|Cargo\.toml|pyproject\.toml|setup\.py|setup\.cfg|version\.(txt|ts|js|py|rb)|VERSION|_version\.py|\w+\.gemspec|composer\.json|jsr\.json|deno\.json|manifest\.json|pnpm-workspace\.yaml)$/;

/** The one kind every changed path shares (docs, tests, CI and build files, lock files), or null. */
export function pathTopic(changes: readonly Change[]): Topic | null {
  if (!changes.length) return null;
  const kinds: Array<[RegExp, Topic]> = [
    [LOCK_PATH, 'dependencies'],
    [CI_PATH, 'build'],
    [TEST_PATH, 'test'],
    [DOC_PATH, 'documentation'],
  ];
  for (const [re, topic] of kinds) if (changes.every(([, path]) => re.test(path))) return topic;
  return null;
}

/** Only manifests, changelogs and lock files: what a release commit or a version bump touches. */
export function onlyVersionFiles(changes: readonly Change[]): boolean {
  return (
    changes.length > 0 && changes.every(([, p]) => MANIFEST_PATH.test(p) || LOCK_PATH.test(p) || /(^|\/)CHANGELOG[^/]*$|(^|\/)changelog_unreleased\//i.test(p))
  );
}

const CHANGELOG_ENTRY = /(^|\/)(changelog_unreleased|\.changeset|changelog\.d|changes)\/|(^|\/)CHANGELOG[^/]*$/i;
// The changelog itself (not `changes/`, which some projects use for code): what release housekeeping edits.
// A document (`CHANGELOG.md`, `CHANGELOG-3.3.md`, `CHANGELOG.unreleased.md`, `HISTORY.rst`), never code
// that happens to be named so (git-cliff's `changelog.rs`).
const CHANGELOG_FILE =
  /(^|\/)(changelog_unreleased|\.changeset|changelog\.d|changelogs)\/|(^|\/)(CHANGELOG|CHANGES|HISTORY|NEWS|RELEASE[-_]?NOTES)([-_.][\w.-]*)?\.(md|markdown|mdx|rst|txt|adoc)$|(^|\/)(CHANGELOG|CHANGES)$/i;

/**
 * Only the changelog changes: writing, cleaning or fixing the notes of releases (`Update changelog`,
 * `Clean changelog_unreleased`, `docs: fix typo in CHANGELOG-3.3.md`). Release housekeeping, not
 * documentation a reader of the next release needs.
 */
export function onlyChangelogFiles(changes: readonly Change[]): boolean {
  return changes.length > 0 && changes.every(([, p]) => CHANGELOG_FILE.test(p));
}

/**
 * The changelog and the release tooling that writes it (`Clean changelog_unreleased` with its release
 * step). A new changelog entry beside a build script announces a change users see: not housekeeping.
 */
function changelogAndTooling(changes: readonly Change[]): boolean {
  let changelog = false;
  let tooling = false;
  let added = false;
  for (const [status, p] of changes) {
    if (CHANGELOG_FILE.test(p)) {
      changelog = true;
      if (status === 'A') added = true;
    } else if (CI_PATH.test(p)) tooling = true;
    else return false;
  }
  return changelog && !(tooling && added);
}
const CODE_FILE = /\.(js|jsx|ts|tsx|mjs|cjs|mts|cts|vue|svelte|py|rb|go|rs|java|kt|swift|c|cc|cpp|h|hpp|cs|php|scala|ex|exs|clj|lua|dart|zig)$/i;
const NOT_LIBRARY =
  /(^|\/)(website|docs?|examples?|scripts?|bench(marks?)?|playground|tools?|\.github|\.circleci|e2e|fixtures|__tests__|__mocks__|tests?|tests_integration|spec|specs|sandbox|demo|coverage)\//i;

/** Library code among the changes: source files outside tests, docs, tooling and the website. */
export function libraryChanges(changes: readonly Change[]): { touched: number; added: number } {
  let touched = 0;
  let added = 0;
  for (const [status, path] of changes) {
    if (!CODE_FILE.test(path) || NOT_LIBRARY.test(path) || TEST_PATH.test(path) || CI_PATH.test(path)) continue;
    touched++;
    if (status === 'A') added++;
  }
  return { touched, added };
}

// A release commit: `1.2.0`, `v4.0.0-rc1`, `0.2.0-dev`, `Release 1.2.0-beta.1`, `Prepare 2.0`, `Bump version to 3.1.4`, `-> v0.47.2`.
const RELEASE_SUBJECT =
  /^(release[sd]?:?\s+|->\s*|→\s*|releasing\s+|publish(ed)?\s+|prepare\s+(for\s+)?(release\s+)?|bump(ed)?\s+(the\s+)?version\s+(to\s+)?|version:?\s+|tag(ged)?\s+)?(v|version\s?)?\d+\.\d+(\.\d+)?([-.+]?[a-z][\w.-]*|[-.]\d+)*(\s(release|hotfix|final))?(\s?\(#\d+\))?$|^(v|version\s?)?\d+\.\d+\.\d+\S*\s(--|—|-)\s|^(bump(ed)?\s+(the\s+)?(package\s+)?version|(new|next)\s+version|(prepare|preparing)\s+(for\s+)?(the\s+)?(next\s+)?release)\b|^chore\(release\)/i;

// `use ast-types 0.9.4`, `bump eslint to v9`, `upgrade to babel 7.1` anywhere in the subject (the version field itself excluded).
const PACKAGE_TO_VERSION = /\b(use[sd]?|update[sd]?|upgrade[sd]?|bump(s|ed)?|pin(s|ned)?)\s(to\s)?`?(?!versions?\b)@?[a-z][\w./-]*`?\s(to\s)?[v^~]?\d+\.\d+/i;

const VERSION_FIELD =
  /^(bump(s|ed)?|update[sd]?|set|change[sd]?|increase[sd]?|sync(ed)?|prepare[sd]?|correct(ed)?|fix(ed)?)\s(the\s)?(package\s|project\s|own\s|release\s)?(versions?|version numbers?)\b/i;

export function isReleaseSubject(text: string): boolean {
  return RELEASE_SUBJECT.test(text);
}

// Bots and scripts that keep README sections in sync: sponsors, backers, contributors.
const HOUSEKEEPING =
  /^(update[sd]?|sync(ed|s)?|regenerate[sd]?|refresh(ed)?|generate[sd]?)\s+(the\s+)?(readme\s+)?(sponsors?|backers?|contributors?|supporters)(\s+(list|image|table|section|svg|in readme))?\b|^(\[bot\]|\[auto\])|\ball[- ]contributors\b/i;

export function isHousekeeping(text: string, byBot: boolean, changes: readonly Change[]): boolean {
  if (HOUSEKEEPING.test(text)) return true;
  return byBot && /\b(sponsors?|backers?|contributors?|readme)\b/i.test(text) && changes.every(([, p]) => DOC_PATH.test(p) || /sponsors?|backers/i.test(p));
}

// Real security fixes only: not SECURITY.md, not a "security" word in a policy or a headline.
const SECURITY_WORDS =
  /\b(cve-\d{4}-\d+|ghsa(-[a-z0-9]{4}){3}|vulnerabilit(y|ies)|vulnerable|xss|cross[- ]site[- ](scripting|request)|csrf|(sql|command|code|html|script|header|prototype|shell|template|ldap|xml|crlf|argument)[- ]injection|prototype pollution|open redirect|redos|path traversal|directory traversal|security (fix|issue|bug|vulnerabilit(y|ies)|problem|patch|advisory|hole|flaw|release|update)|(fix(es|ed)?|patch(es|ed)?)\s(a\s)?security)\b/i;

export function isSecurityFix(text: string, changes: readonly Change[]): boolean {
  if (!SECURITY_WORDS.test(text) || /\bsecurity\.md\b|security polic(y|ies)/i.test(text)) return false;
  return !changes.length || !changes.every(([, p]) => DOC_PATH.test(p) || /(^|\/)SECURITY\.md$/i.test(p));
}

/**
 * A security-flagged dependency update counts as a security fix only for a dependency users run:
 * not when only lock files move (dev tooling, transitive pins), nor in the website, scripts or
 * examples, nor for well-known build and test tools.
 */
const DEV_TOOLS =
  /^(vite|vitest|webpack|webpack-dev-server|jest|eslint|rollup|esbuild|babel|@babel\/[\w-]+|typescript|mocha|karma|prettier|lerna|nx|turbo|tsup|ts-node|nodemon|husky|lint-staged|puppeteer|playwright|cypress|storybook|@storybook\/[\w-]+|docusaurus|vuepress|vitepress|gatsby|next|@angular\/compiler)$/i;
export function isRuntimeSecurityUpdate(text: string, changes: readonly Change[]): boolean {
  if (/\b(deps-dev|dev-deps|devdependenc(y|ies)|dev dependenc(y|ies))\b/i.test(text)) return false;
  if (/\bin \/(website|docs?|scripts?|examples?|playground|bench\w*)\b/i.test(text)) return false;
  if (changes.length && changes.every(([, p]) => LOCK_PATH.test(p))) return false;
  if (changes.length && changes.every(([, p]) => NOT_LIBRARY.test(p))) return false;
  const name = /\b(?:bump|update|upgrade)\s+(?:dependency\s+)?`?(@?[\w./-]+)/i.exec(text)?.[1];
  return !(name && DEV_TOOLS.test(name));
}

// Raising the minimum runtime: `Drop support for Node 14`, `Require Node.js >= 18`, `Bump minimum Python to 3.9`.
const RUNTIMES = '(node(\\.?js)?|nodejs|ie|internet explorer|python|ruby|php|go|golang|java|jdk|deno|bun|electron|rust|msrv)';
const MIN_RUNTIME = [
  new RegExp(
    `\\b(drop(s|ped|ping)?|remove[sd]?|end(s|ed)?|discontinue[sd]?|no longer support)\\s(official\\s)?(support\\s(for\\s)?|supports?\\s)?(for\\s)?(the\\s)?(old(er)?\\s)?${RUNTIMES}\\s?(v|version\\s?)?\\d+`,
    'i',
  ),
  new RegExp(
    `\\b(require[sd]?|minimum|min\\.?|at least|raise[sd]?\\s(the\\s)?minimum|bump(s|ed)?\\s(the\\s)?minimum|minimal)\\b[^.]{0,40}?\\b${RUNTIMES}\\s?(version\\s?)?(>=?\\s?|to\\s|v)?\\d+`,
    'i',
  ),
  new RegExp(`\\b${RUNTIMES}\\s?(v|version\\s?)?\\d+(\\.\\d+)*\\s?(\\+|or (later|newer|higher|above)|is (now )?(the )?(required|minimum))`, 'i'),
  /\b(update[sd]?|bump(s|ed)?|raise[sd]?|increase[sd]?|set)\s(the\s)?(msrv|minimum supported (rust|node(\.js)?|python|go) version|engines?( field)?|node engines?)\s(to\s)?[v^>=~\s]{0,3}\d/i,
];
const CI_ONLY_WORDS =
  /\b(ci|matrix|travis|appveyor|workflows?|github actions|\.nvmrc|in tests?|for tests?|dev(elopment)? (environment|only)|contributors?|docker image|playground|website|development|dev build|dev)\b/i;

export function raisesMinimumRuntime(text: string, changes: readonly Change[]): boolean {
  if (!MIN_RUNTIME.some((re) => re.test(text)) || CI_ONLY_WORDS.test(text)) return false;
  // Only CI, docs or tests: the project's own pipeline, not what users need.
  if (changes.length && changes.every(([, p]) => CI_PATH.test(p) || TEST_PATH.test(p))) return false;
  return true;
}

// `Removed app.foo(callback)`, "Delete `x` as a magic string", `Remove --flow-parser option`, `Drop the deprecated foo API`.
const REMOVAL =
  /^(remove[sd]?|delete[sd]?|drop(s|ped)?|kill(s|ed)?|get rid of)\s(the\s|deprecated\s|support\sfor\s|public\s|legacy\s|old\s){0,3}(?<object>`[^`]{1,80}`|[\w$]+(\.[\w$]+)+(\([^)]{0,40}\))?|[\w$]+\([^)]{0,40}\)|--?[a-z][\w-]*)/i;
const NOT_PUBLIC =
  /\b(unused|dead|internal|private|debug(ger|ging)?|console|leftover|redundant|duplicated?|obsolete|stale|todo|comments?|workaround|hack|typo|tests?|snapshots?|eslint-disable|ts-ignore|ts-expect-error|lint|imports?|dependency|dependencies|devdependenc(y|ies)|files?|folder|directory|scripts?|readme|docs|changelog|ci|log|logs|logging|warning|semicolons?|whitespace|extra|useless|unnecessary|unneeded)\b/i;
const API_WORDS =
  /\b(option|flag|api|method|function|argument|parameter|export|property|hook|command|setting|alias|class|prop|event|support for|magic string|global)\b/i;

// Where a project tells its users about a change: docs, changelog entries, type declarations.
const DOCUMENTED_PATH = /(^|\/)(docs?|changelog_unreleased|\.changeset)\/|(^|\/)(CHANGELOG|README)[^/]*$|\.d\.[cm]?ts$/i;

/**
 * A removal of something users call or pass, and so a breaking change: a member or call
 * (`app.foo(callback)`), a CLI flag, a magic value or "support for" something; or a named
 * option/API/code span when the commit also documents it (docs, changelog entry, type declarations).
 * Internal helpers removed in passing are refactoring, not breaking.
 */
export function removesPublicApi(text: string, changes: readonly Change[]): boolean {
  const m = REMOVAL.exec(text);
  if (!m || NOT_PUBLIC.test(text) || pathTopic(changes) || /\b(package|in favou?r of)\b/i.test(text)) return false;
  if (changes.length && libraryChanges(changes).touched === 0) return false;
  const written = m.groups!.object!;
  const object = written.replace(/^`|`$/g, '');
  // A file (`fuzzer.js`, `.flowconfig`, `FUNDING.yml`) is not an API.
  if (/^\.|\/$|\.(js|ts|json|ya?ml|md|lock|config|txt|sh|toml|swp|cjs|mjs)$/i.test(object) || /\bfrom\s`?[\w.-]+\.(json|ya?ml|md|js)\b/i.test(text))
    return false;
  if (/^[\w$]+(\.[\w$]+)+\(|^--?[a-z]/i.test(object) || /\b(magic (string|value)|support for)\b/i.test(text)) return true;
  const documented = !changes.length || changes.some(([, p]) => DOCUMENTED_PATH.test(p));
  return documented && (written.startsWith('`') || /[(.]/.test(object) || API_WORDS.test(text));
}

/** `Remove lodash`, `Drop the \`resolve\` dependency` with package.json changed: a dependency change. */
export function removesDependency(text: string, changes: readonly Change[]): boolean {
  if (!changes.some(([, p]) => /(^|\/)package\.json$|(^|\/)Cargo\.toml$|(^|\/)go\.mod$|(^|\/)requirements[\w-]*\.txt$|(^|\/)pyproject\.toml$/.test(p)))
    return false;
  return /^(remove[sd]?|drop(s|ped)?|get rid of|uninstall(s|ed)?)\s(the\s)?`?@?[\w.-]+(\/[\w.-]+)?`?(\s(package|dependency|dep|module))?(\s\(#\d+\))?$/i.test(
    text,
  );
}

const MISC_REFACTOR =
  /^(misc(ellaneous)?|minor|small|some|more|little|tiny|further|various|general|code|quick|light|internal)\s(refactor(s|ing)?|clean-?ups?|tidy(ing)?)\b/i;
const FIX_WORDS =
  /\b(should(n'?t| not)?|no longer|incorrect(ly)?|wrong(ly)?|broken|crash(es|ing)?|bugs?|regression|fix(es|ed)?\s#\d+|closes\s#\d+|correctly|properly|errors?|missing|unexpected(ly)?|invalid|edge case|hotfix|workaround|instead of|not working|doesn'?t|don'?t|can'?t|cannot|fail(s|ing|ure)?|bail|keep(s)?|preserve[sd]?|fix(es|ed)?|account(s|ed)? for|throw(s|ing)?|faulty|on windows|paren(s|thesis|theses)?)\b/i;

const VERBS: ReadonlyArray<[RegExp, SectionKey | 'ambiguous']> = [
  [/^(deprecate[sd]?|deprecating)\b/i, 'deprecation'],
  [/^(revert(s|ed)?)\b/i, 'revert'],
  [/^(optimi[sz]e[sd]?|optimi[sz]ing|speed(s|ed)? up|make .*\bfaster\b|improve[sd]? (the )?(performance|speed)|perf)\b/i, 'performance'],
  [/^(bump(s|ed)?|upgrade[sd]?|downgrade[sd]?|pin(s|ned)?)\b/i, 'dependencies'],
  [/^(document(s|ed)?|docs?)\b/i, 'documentation'],
  [
    /^(add(s|ed|ing)?|implement(s|ed)?|introduce[sd]?|support(s|ed)?|allow(s|ed)?|enable[sd]?|create[sd]?|provide[sd]?|expose[sd]?|new|improve[sd]?|enhance[sd]?|extend(s|ed)?|teach|let|show|better|nicer|initial (support|implementation)|recogni[sz]e[sd]?|accept(s|ed)?|ability|auto(matically)?|warn(s|ed)?|export(s|ed)?)\b/i,
    'feature',
  ],
  [
    /^(fix(es|ed|ing)?|bugfix|hotfix|resolve[sd]?|correct(s|ed)?|prevent(s|ed)?|avoid(s|ed)?|repair(s|ed)?|patch(es|ed)?|handle[sd]?|workaround|work around|don'?t|do not|doesn'?t|stop(s|ped)?|preserve[sd]?|keep(s)?|ignore[sd]?|respect(s|ed)?|restore[sd]?|guard|ensure[sd]?|properly|correctly|consistently|always|never|only|tweak(s|ed)?|skip(s|ped)?|exclude[sd]?|validate[sd]?|throw(s)?|escape[sd]?|normali[sz]e[sd]?|stabili[sz]e[sd]?|treat(s|ed)?|consistent|proper|disallow(s|ed)?|stricter|require[sd]?)\b/i,
    'fix',
  ],
  [
    /^(refactor(s|ed|ing)?|rename[sd]?|move[sd]?|extract(s|ed)?|simplif(y|ies|ied)|clean(s|ed)?(\s*up)?|cleanup|restructure[sd]?|reorgani[sz]e[sd]?|split(s)?|rewr(ite|ote|itten)|reduce[sd]?|replace[sd]?|use[sd]?|switch(es|ed)?|convert(s|ed)?|migrate[sd]?|unify|dedupe|dry|consolidate[sd]?|inline[sd]?|tidy|reuse[sd]?|get rid of)\b/i,
    'refactor',
  ],
  [/^(test(s|ed)?|regenerate[sd]? snapshots?)\b/i, 'test'],
  [
    /^(initial commit|release[sd]?|prepare (for )?release|v?\d+\.\d+\.\d+$|version\b|run\b|format(ted)?\s+(the\s+)?(code|codebase|files|everything)|lint|linting|forbid|enforce[sd]?|categori[sz]e[sd]?|bump version|git blame ignore|minor|wip|merge|\[wip\]|\[imgbot\])\b/i,
    'chore',
  ],
  [/^(bundle[sd]?|minif(y|ies|ied))\b/i, 'build'],
  [/^(mention(s|ed)?|spell ?check(ing)?)\b/i, 'documentation'],
  [
    /^(update[sd]?|change[sd]?|remove[sd]?|delete[sd]?|drop(s|ped)?|make|set|tweak|adjust|disable[sd]?|include[sd]?|regenerate[sd]?|apply|turn|try)\b/i,
    'ambiguous',
  ],
];

// What an ambiguous verb's object says when it brings something new rather than adjusting what exists.
const NEW_BEHAVIOUR = /\b(support(s|ed)?|new|option|options|ability|allow(s|ed)?|available)\b/i;

/** Ambiguous verbs (`Update`, `Remove`, `Change`) lean on what they talk about, then default to maintenance. */
const AMBIGUOUS_DEFAULT: SectionKey = 'chore';

export interface FreeTextResult {
  section: SectionKey;
  rule: string;
}

/**
 * Classifies a subject without a conventional prefix. `text` has gitmoji and legacy tags removed;
 * `changes` lets a docs-only or tests-only commit say what it is when its words do not.
 */
export function classifyFreeText(text: string, changes: readonly Change[], byBot: boolean): FreeTextResult {
  if (/^revert\b/i.test(text)) return { section: 'revert', rule: 'revert' };
  if (isDependencyTitle(text)) return { section: 'dependencies', rule: 'dependency-title' };
  if (byBot && /^(update|bump|upgrade|pin|lock)\b/i.test(text) && !isHousekeeping(text, byBot, changes))
    return { section: 'dependencies', rule: 'dependency-bot' };
  if (isSubmodulePointerOnly(changes)) return { section: 'dependencies', rule: 'submodule' };
  // `Update \`browserslist\`` with the lock file moving: a package, not a feature of ours.
  if (
    /^(update[sd]?|upgrade[sd]?|bump(s|ed)?|refresh(ed)?)\s`@?[\w./-]+`(\s(package|dependency|version))?(\s\(#\d+\))?$/i.test(text) &&
    changes.some(([, p]) => LOCK_PATH.test(p) || MANIFEST_PATH.test(p))
  ) {
    return { section: 'dependencies', rule: 'dependency-title' };
  }
  if (isHousekeeping(text, byBot, changes)) return { section: 'chore', rule: 'housekeeping' };
  if (changelogAndTooling(changes)) return { section: 'chore', rule: 'changelog' };
  if (isReleaseSubject(text)) return { section: 'chore', rule: 'release' };
  // A version field and nothing else: `Bump version`, `Update versions` touching package.json only.
  if (onlyVersionFiles(changes) && VERSION_FIELD.test(text)) return { section: 'chore', rule: 'release' };
  // `Update package.json, use ast-types 0.9.4`: a package moved to a version, and only manifests changed.
  if (onlyVersionFiles(changes) && PACKAGE_TO_VERSION.test(text)) return { section: 'dependencies', rule: 'dependency-manifest' };
  if (isSecurityFix(text, changes)) return { section: 'security', rule: 'security-words' };
  if (/\bdeprecat(e|es|ed|ion)\b/i.test(text)) return { section: 'deprecation', rule: 'deprecation-words' };
  if (raisesMinimumRuntime(text, changes)) return { section: 'breaking', rule: 'minimum-runtime' };
  if (removesDependency(text, changes)) return { section: 'dependencies', rule: 'dependency-removal' };
  if (removesPublicApi(text, changes)) return { section: 'breaking', rule: 'api-removal' };
  if (MISC_REFACTOR.test(text)) return { section: 'refactor', rule: 'misc-refactor' };

  let byPathCache: Topic | null | undefined;
  const byPath = () => (byPathCache === undefined ? (byPathCache = pathTopic(changes)) : byPathCache);
  // Only lock files move (`Fix lock file`, `Dedupe yarn.lock`): a dependency change, whatever the verb.
  if (byPath() === 'dependencies') return { section: 'dependencies', rule: 'paths:lock' };
  for (const [re, verbSection] of VERBS) {
    if (!re.test(text)) continue;
    if (verbSection === 'ambiguous' || verbSection === 'feature' || verbSection === 'fix' || verbSection === 'refactor') {
      // "Add tests", "Fix readme", "Update snapshots": the object of the verb decides.
      // Clear verbs take their topic only from the words right after them ("Fix readme", not
      // "Fix a crash when the readme option is set"); ambiguous ones from the whole subject.
      const object = text.replace(re, '').trim();
      const near = verbSection === 'ambiguous' ? object : object.split(/\s+/).slice(0, 3).join(' ');
      let topic = topicOf(near) ?? byPath();
      // "Remove sentence for copying from CHANGELOG" in a release script, "Simplify production tests" in a
      // workflow: the words name what the change is about, the paths (all CI and build files) what it changes.
      if ((topic === 'documentation' || topic === 'test') && byPath() === 'build') topic = 'build';
      // "Support github-actions-workflow files" in a library change is the library's subject matter, not CI;
      // "Add supertype tests and add TSAbstractClassProperty", "Do not break long it/test calls" change
      // the library too: a word naming tests does not make the commit only a test change.
      // (The test word must share the subject with something else: a second clause, or a name such as
      // `it/test`. "Fix css tests" or "Add tests for X" with the fix beside them stays a test change.)
      const testsAndMore = / and |, |[\w`]\/(tests?|specs?)\b|\b(tests?|specs?)[/`]\w/i.test(object);
      // "Update `isSCSS` test regex" changes library code and no test: "test" is not the test suite there.
      const noTests = topic === 'test' && !changes.some(([, p]) => TEST_PATH.test(p));
      if (
        !byPath() &&
        libraryChanges(changes).touched > 0 &&
        ((topic === 'build' && verbSection !== 'ambiguous') || (topic === 'test' && (testsAndMore || noTests)))
      )
        topic = null;
      if (topic && !(topic === 'dependencies' && verbSection !== 'ambiguous')) return { section: topic, rule: `verb+topic` };
      if (verbSection === 'ambiguous') {
        // `Remove faulty check that throws`, "Remove \`getDocParts\`": in library code a defect's words make
        // a fix and a removed identifier a refactoring; otherwise maintenance.
        const library = libraryChanges(changes).touched > 0;
        const entry = changes.some(([, p]) => CHANGELOG_ENTRY.test(p));
        if (library || entry) {
          if (FIX_WORDS.test(object)) return { section: 'fix', rule: 'verb-ambiguous+fix-words' };
          if (library && /^(remove[sd]?|delete[sd]?|drop(s|ped)?)\s`[^`]+`/i.test(text)) return { section: 'refactor', rule: 'verb-ambiguous+identifier' };
          // The project tests the change (tests move with the library code) or announces it (a changelog
          // entry): behaviour users see. `Remove space in empty object type`, `Make X support two modes`.
          if (entry || changes.some(([, p]) => TEST_PATH.test(p))) {
            return { section: NEW_BEHAVIOUR.test(object) || /^include[sd]?\b/i.test(text) ? 'feature' : 'fix', rule: 'verb-ambiguous+behaviour' };
          }
          // Library code alone, no test or announcement: the code changed, the behaviour did not say so.
          return { section: 'refactor', rule: 'verb-ambiguous+library' };
        }
        return { section: AMBIGUOUS_DEFAULT, rule: 'verb-ambiguous' };
      }
    }
    return { section: verbSection, rule: 'verb' };
  }
  const topic = byPath();
  if (topic) return { section: topic, rule: 'paths' };
  // No verb we know, but the diff adds to the library: a behaviour change. Words of a defect make it a
  // fix ("Numeric literal callees should keep parens"); otherwise it adds behaviour ("Persistent cookies").
  // "Adds code" is read from the statuses: a new library file, or library code changed with its tests
  // or with a changelog entry for it.
  const library = libraryChanges(changes);
  if (!byBot && library.touched > 0 && (library.added > 0 || changes.some(([, p]) => TEST_PATH.test(p) || CHANGELOG_ENTRY.test(p)))) {
    // "Custom Errors" adding error.rs names what it adds; an error word is a defect only when nothing new is added.
    if (FIX_WORDS.test(library.added > 0 ? text.replace(/\berrors?\b/gi, '') : text)) return { section: 'fix', rule: 'paths:library+fix-words' };
    return { section: 'feature', rule: 'paths:library' };
  }
  return { section: 'other', rule: 'none' };
}

// Where a project keeps its website and blog: content for its site, not a change of what it ships.
const WEBSITE_PATH = /^(website|site|www|blog|homepage)\/|^docs\/(\.vitepress|\.vuepress|blog)\/|(^|\/)docusaurus\.config\.[cm]?[jt]s$/i;
// How a project governs itself: conduct, security policy, funding, ownership, support and team documents.
const GOVERNANCE_PATH =
  /(^|\/)(CODE_OF_CONDUCT|GOVERNANCE|MAINTAINERS|MAINTAINING|SECURITY|SUPPORT|FUNDING|BACKERS|SPONSORS|TEAM|OWNERS|CODEOWNERS)(\.[a-z]+)?$|^\.github\/(ISSUE_TEMPLATE|DISCUSSION_TEMPLATE)\/|^\.github\/(pull_request_template|issue_template)\.md$/i;
const GOVERNANCE_WORDS =
  /\b(sponsors?|sponsorship|backers?|captains?|triage|triagers?|maintainers? list|team members?|core team|code of conduct|governance|security researchers?|open ?collective|funding)\b/i;

export type NoiseClass = 'website' | 'governance';

/**
 * The noise classes maintainers leave out of their notes, each with a section of its own (hidden by
 * default, one setting shows it): website and blog content, governance and team documents. Only for
 * commits that change no library code. (Typo fixes were measured as a third class and dropped: on
 * prettier they cost 0.65 pt of coverage for 0.1 pt of precision; docs/quality.md.)
 */
export function noiseClassOf(text: string, changes: readonly Change[], siteDocs = false): NoiseClass | null {
  if (!changes.length || libraryChanges(changes).touched > 0) return null;
  if (changes.every(([, p]) => WEBSITE_PATH.test(p))) return 'website';
  if (changes.every(([, p]) => GOVERNANCE_PATH.test(p))) return 'governance';
  const docsOnly = changes.every(([, p]) => DOC_PATH.test(p) || WEBSITE_PATH.test(p));
  if (docsOnly && GOVERNANCE_WORDS.test(text)) return 'governance';
  if (siteDocs && changes.every(([, p]) => p.startsWith('docs/') || WEBSITE_PATH.test(p))) return 'website';
  return null;
}

/**
 * What a feature or fix that changes nothing a user runs is about, by its paths: all of them the website,
 * tests, docs or CI and build files. A manifest, a lock file or any other file may change what users get
 * (a fix that pins a compiled dependency in `Cargo.lock` ships in the binary), so then, as for a mixture
 * of kinds, null: the words decide. When the project declared the type (`feat:`, `fix:`), only the
 * website and tests overrule it: its examples may ship (git-cliff builds its `examples/` templates into
 * the binary) and `feat(docker):` is how it distributes itself.
 */
export function sectionOfNonLibraryChange(changes: readonly Change[], declared = false, siteDocs = false): SectionKey | null {
  if (!changes.length) return null;
  const kinds = new Set<SectionKey>();
  for (const [, p] of changes) {
    // The site's docs are its website, unless the project declared a feature or fix (a feature is never noise).
    if (WEBSITE_PATH.test(p) || (siteDocs && !declared && p.startsWith('docs/'))) kinds.add('website');
    else if (TEST_PATH.test(p)) kinds.add('test');
    else if (declared) return null;
    else if (CI_PATH.test(p) && !MANIFEST_PATH.test(p)) kinds.add('build');
    else if (DOC_PATH.test(p) && !CHANGELOG_ENTRY.test(p)) kinds.add('documentation');
    else return null;
  }
  if (kinds.size === 1) return [...kinds][0]!;
  // The site and its docs: the website.
  return kinds.size === 2 && kinds.has('website') && kinds.has('documentation') ? 'website' : null;
}

// A site generator whose configuration says the top-level docs/ folder is built into the project's site:
// VitePress, VuePress or Docusaurus inside docs/, MkDocs (docs_dir defaults to docs/), Docusaurus 1
// (website/siteConfig.js, which reads ../docs by convention).
const SITE_DOCS_MARKER = /^docs\/\.(vitepress|vuepress)\/|^docs\/docusaurus\.config\.[cm]?[jt]s$|^mkdocs\.ya?ml$|^website\/siteConfig\.js$/;
const WEBSITE_DOCUSAURUS = /^website\/docusaurus\.config\.[cm]?[jt]s$/;

/**
 * Whether the history says its top-level docs/ folder is its website's content: a site generator's
 * configuration that builds it, or a Docusaurus site in website/ that never had docs of its own (it reads
 * ../docs). Read from the paths the history changed, once per run.
 */
export function docsAreWebsite(paths: Iterable<string>): boolean {
  let docusaurus = false;
  let ownDocs = false;
  for (const p of paths) {
    if (SITE_DOCS_MARKER.test(p)) return true;
    if (WEBSITE_DOCUSAURUS.test(p)) docusaurus = true;
    else if (p.startsWith('website/docs/')) ownDocs = true;
  }
  return docusaurus && !ownDocs;
}
