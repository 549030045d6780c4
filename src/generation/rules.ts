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
export const DEPENDENCY_SCOPES = new Set(['deps', 'dep', 'deps-dev', 'dev-deps', 'dependencies', 'dependency', 'deps-peer']);
export const DEPENDENCY_SCOPED_TYPES = new Set(['chore', 'build', 'ci', 'fix']);

// Gitmoji (https://gitmoji.dev): the emoji and its `:shortcode:`. Variation selectors are stripped before lookup.
const GITMOJI: ReadonlyArray<[string[], SectionKey]> = [
  [['💥', ':boom:'], 'breaking'],
  [['✨', ':sparkles:', '🎉', ':tada:', '💄', ':lipstick:', '🌐', ':globe_with_meridians:', '♿', ':wheelchair:', '💫', ':dizzy:', '🚸', ':children_crossing:'], 'feature'],
  [['🐛', ':bug:', '🚑', ':ambulance:', '🩹', ':adhesive_bandage:', '🥅', ':goal_net:'], 'fix'],
  [['⚡', ':zap:'], 'performance'],
  [['🔒', ':lock:', '🔐', ':closed_lock_with_key:', '🛂', ':passport_control:'], 'security'],
  [['🗑', ':wastebasket:'], 'deprecation'],
  [['📝', ':memo:', '✏', ':pencil2:', '💡', ':bulb:', '📄', ':page_facing_up:'], 'documentation'],
  [['♻', ':recycle:', '🏗', ':building_construction:', '🚚', ':truck:', '⚰', ':coffin:', '🔥', ':fire:'], 'refactor'],
  [['⬆', ':arrow_up:', '⬇', ':arrow_down:', '📌', ':pushpin:', '➕', ':heavy_plus_sign:', '➖', ':heavy_minus_sign:'], 'dependencies'],
  [['👷', ':construction_worker:', '💚', ':green_heart:', '📦', ':package:', '🚀', ':rocket:', '🧱', ':bricks:'], 'build'],
  [['✅', ':white_check_mark:', '🧪', ':test_tube:', '📸', ':camera_flash:'], 'test'],
  [['🎨', ':art:', '🔧', ':wrench:', '🔨', ':hammer:', '🚨', ':rotating_light:', '🔖', ':bookmark:', '🙈', ':see_no_evil:', '🚧', ':construction:', '👽', ':alien:', '🍱', ':bento:', '🧹', ':broom:'], 'chore'],
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
  /^(update|upgrade|pin|bump)\s+(dependency|dependencies|devdependency|devdependencies|deps|dev-deps)\b/i,
  /^update\s+\S+\s+(monorepo|packages?)\b/i,
  /^update\s+(all\s+)?(non-major|major|minor|patch)\s+dependencies\b/i,
  /^lock\s*file\s+maintenance\b/i,
  /^(update|upgrade|bump)\s+`?(@?[\w./-]+)`?\s+(dependency\s+)?to\s+`?v?\d+(\.[\dx]+)*\b/i,
  /^\[snyk\]/i,
  /^(upgrade|downgrade|pin)\s+\S/i,
];

export function isDependencyTitle(text: string): boolean {
  return DEPENDENCY_TITLES.some((re) => re.test(text));
}

type Topic = 'documentation' | 'test' | 'build' | 'dependencies';

const TOPIC_WORDS: ReadonlyArray<[RegExp, Topic]> = [
  [/\b(readme|docs|documentation|changelog|changelog_unreleased|contributing|typos?|license|blog( post)?|\w+\.md)\b/i, 'documentation'],
  [/\b(tests?|snapshots?|jsfmt\.spec|specs?|fixtures?|test cases?)\b/i, 'test'],
  [/\b(ci|travis|appveyor|circleci|github actions|workflows?|azure pipelines|codecov|pipeline)\b/i, 'build'],
  [/\b(dependency|dependencies|deps|lockfile|yarn\.lock|package-lock(\.json)?)\b/i, 'dependencies'],
];

function topicOf(text: string): Topic | null {
  for (const [re, topic] of TOPIC_WORDS) if (re.test(text)) return topic;
  return null;
}

const DOC_PATH = /(^|\/)(docs?|documentation)\/|\.(md|mdx|markdown|rst|adoc|txt)$|(^|\/)(README|LICENSE|AUTHORS|CONTRIBUTING)[^/]*$/i;
const TEST_PATH = /(^|\/)(tests?|__tests__|__snapshots__|spec|specs|fixtures|testdata)\/|\.(test|spec)\.[a-z0-9]+$|\.snap$|_test\.(go|py|rs)$/i;
const CI_PATH = /^(\.github\/workflows\/|\.github\/actions\/|\.circleci\/|\.travis\.yml$|appveyor\.yml$|\.appveyor\.yml$|azure-pipelines\.yml$|\.gitlab-ci\.yml$|Jenkinsfile$|\.buildkite\/)/;
const LOCK_PATH = /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|Gemfile\.lock|poetry\.lock|composer\.lock|bun\.lockb?)$/;

/** The one kind every changed path shares (docs, tests, CI, lock files), or null. */
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

const VERBS: ReadonlyArray<[RegExp, SectionKey | 'ambiguous']> = [
  [/^(deprecate[sd]?|deprecating)\b/i, 'deprecation'],
  [/^(revert(s|ed)?)\b/i, 'revert'],
  [/^(optimi[sz]e[sd]?|optimi[sz]ing|speed(s|ed)? up|make .*\bfaster\b|improve[sd]? (the )?(performance|speed)|perf)\b/i, 'performance'],
  [/^(bump(s|ed)?|upgrade[sd]?|downgrade[sd]?|pin(s|ned)?)\b/i, 'dependencies'],
  [/^(document(s|ed)?|docs?)\b/i, 'documentation'],
  [/^(add(s|ed|ing)?|implement(s|ed)?|introduce[sd]?|support(s|ed)?|allow(s|ed)?|enable[sd]?|create[sd]?|provide[sd]?|expose[sd]?|new|improve[sd]?|enhance[sd]?|extend(s|ed)?|teach|let|show|better|nicer|initial (support|implementation)|recogni[sz]e[sd]?|accept(s|ed)?|ability|auto(matically)?|warn(s|ed)?|export(s|ed)?)\b/i, 'feature'],
  [/^(fix(es|ed|ing)?|bugfix|hotfix|resolve[sd]?|correct(s|ed)?|prevent(s|ed)?|avoid(s|ed)?|repair(s|ed)?|patch(es|ed)?|handle[sd]?|workaround|work around|don'?t|do not|doesn'?t|stop(s|ped)?|preserve[sd]?|keep(s)?|ignore[sd]?|respect(s|ed)?|restore[sd]?|guard|ensure[sd]?|properly|correctly|consistently|always|never|only|tweak(s|ed)?|skip(s|ped)?|exclude[sd]?|validate[sd]?|throw(s)?|escape[sd]?|normali[sz]e[sd]?|stabili[sz]e[sd]?|treat(s|ed)?|consistent|proper|disallow(s|ed)?|stricter|require[sd]?)\b/i, 'fix'],
  [/^(refactor(s|ed|ing)?|rename[sd]?|move[sd]?|extract(s|ed)?|simplif(y|ies|ied)|clean(s|ed)?(\s*up)?|cleanup|restructure[sd]?|reorgani[sz]e[sd]?|split(s)?|rewr(ite|ote|itten)|reduce[sd]?|replace[sd]?|use[sd]?|switch(es|ed)?|convert(s|ed)?|migrate[sd]?|unify|dedupe|dry|consolidate[sd]?|inline[sd]?|tidy|reuse[sd]?|get rid of)\b/i, 'refactor'],
  [/^(test(s|ed)?|regenerate[sd]? snapshots?)\b/i, 'test'],
  [/^(initial commit|release[sd]?|prepare (for )?release|v?\d+\.\d+\.\d+$|version\b|run\b|format(ted)?\s+(the\s+)?(code|codebase|files|everything)|lint|linting|forbid|enforce[sd]?|categori[sz]e[sd]?|bump version|git blame ignore|minor|wip|merge|\[wip\]|\[imgbot\])\b/i, 'chore'],
  [/^(bundle[sd]?|minif(y|ies|ied))\b/i, 'build'],
  [/^(mention(s|ed)?|spell ?check(ing)?)\b/i, 'documentation'],
  [/^(update[sd]?|change[sd]?|remove[sd]?|delete[sd]?|drop(s|ped)?|make|set|tweak|adjust|disable[sd]?|include[sd]?|regenerate[sd]?|apply|turn|try)\b/i, 'ambiguous'],
];

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
  if (byBot && /^(update|bump|upgrade|pin|lock)\b/i.test(text)) return { section: 'dependencies', rule: 'dependency-bot' };
  if (/\b(security|vulnerabilit(y|ies)|cve-\d{4}-\d+|xss|csrf|injection)\b/i.test(text)) return { section: 'security', rule: 'security-words' };
  if (/\bdeprecat(e|es|ed|ion)\b/i.test(text)) return { section: 'deprecation', rule: 'deprecation-words' };

  let byPathCache: Topic | null | undefined;
  const byPath = () => (byPathCache === undefined ? (byPathCache = pathTopic(changes)) : byPathCache);
  for (const [re, verbSection] of VERBS) {
    if (!re.test(text)) continue;
    if (verbSection === 'ambiguous' || verbSection === 'feature' || verbSection === 'fix' || verbSection === 'refactor') {
      // "Add tests", "Fix readme", "Update snapshots": the object of the verb decides.
      // Clear verbs take their topic only from the words right after them ("Fix readme", not
      // "Fix a crash when the readme option is set"); ambiguous ones from the whole subject.
      const object = text.replace(re, '').trim();
      const near = verbSection === 'ambiguous' ? object : object.split(/\s+/).slice(0, 3).join(' ');
      const topic = topicOf(near) ?? byPath();
      if (topic && !(topic === 'dependencies' && verbSection !== 'ambiguous')) return { section: topic, rule: `verb+topic` };
      if (verbSection === 'ambiguous') return { section: AMBIGUOUS_DEFAULT, rule: 'verb-ambiguous' };
    }
    return { section: verbSection, rule: 'verb' };
  }
  const topic = byPath();
  if (topic) return { section: topic, rule: 'paths' };
  return { section: 'other', rule: 'none' };
}
