/**
 * Pull requests' labels → sections, the way GitHub's generated release notes read them: the
 * repository's `.github/release.yml` when it has one (its `changelog.exclude` and `categories`), else a
 * default map of the labels projects commonly use. A category is one of our sections when its title
 * or its labels say which (`Exciting New Features 🎉` → feature); a category that says none (`Other
 * Changes`, a `*` catch-all) leaves the section to the commits' own classification.
 *
 * The file is the repository's (untrusted): at most MAX_CONFIG_CHARS are parsed, with aliases
 * bounded, and a file that is not the expected shape is ignored with a warning.
 */
import { parse } from 'yaml';
import type { SectionKey } from './types.js';
import { wildcardMatch } from './glob.js';

/** Labels read per pull request: `PullRequestInfo` promises at most 50; more is ignored, not scanned. */
export const MAX_LABELS = 50;
const MAX_CONFIG_CHARS = 64 * 1024;
/** Categories and list entries kept from a configuration: GitHub shows a handful. */
const MAX_CATEGORIES = 50;
const MAX_LIST = 200;
const MAX_LABEL_CHARS = 100;

/** What a label (or a category's title) decides: a section, or that the pull request is left out. */
export type LabelVerdict = SectionKey | 'hidden';

export interface ReleaseCategory {
  title: string;
  /** Normalised labels (`normalizeLabel`); `*` matches every pull request. */
  labels: string[];
  excludeLabels: string[];
  excludeAuthors: string[];
  /** The section its title or labels name; null: the commits' own classification decides. */
  section: SectionKey | null;
}

export interface ReleaseConfig {
  excludeLabels: string[];
  excludeAuthors: string[];
  categories: ReleaseCategory[];
}

/** Lower case, `-`/`_`/spaces as one space, trimmed: `Type: Feature`, `type:feature` and `type-feature` meet. */
export function normalizeLabel(label: string): string {
  return label
    .slice(0, MAX_LABEL_CHARS)
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .replace(/ ?: ?/g, ': ')
    .trim();
}

/** The labels projects commonly use, normalised, and what each decides. */
const DEFAULT_LABELS: ReadonlyMap<string, LabelVerdict> = new Map<string, LabelVerdict>([
  ...(
    [
      'skip changelog',
      'no changelog',
      'changelog: skip',
      'changelog: none',
      'ignore for release',
      'skip release notes',
      'no release notes',
      'internal',
      'invalid',
      'duplicate',
      'wontfix',
    ] as const
  ).map((l) => [l, 'hidden'] as const),
  ...(['breaking', 'breaking change', 'breaking changes', 'semver major', 'semver: major', 'type: breaking', 'major'] as const).map(
    (l) => [l, 'breaking'] as const,
  ),
  ...(['security', 'type: security'] as const).map((l) => [l, 'security'] as const),
  ...(
    [
      'feature',
      'features',
      'enhancement',
      'new feature',
      'type: feature',
      'type: enhancement',
      'kind: feature',
      'feat',
      'semver minor',
      'semver: minor',
    ] as const
  ).map((l) => [l, 'feature'] as const),
  ...(['bug', 'fix', 'bugfix', 'bug fix', 'type: bug', 'type: fix', 'kind: bug', 'regression', 'semver patch', 'semver: patch'] as const).map(
    (l) => [l, 'fix'] as const,
  ),
  ...(['performance', 'perf', 'type: performance'] as const).map((l) => [l, 'performance'] as const),
  ...(['deprecation', 'deprecated', 'type: deprecation'] as const).map((l) => [l, 'deprecation'] as const),
  ...(['documentation', 'docs', 'type: docs', 'type: documentation'] as const).map((l) => [l, 'documentation'] as const),
  ...(['dependencies', 'deps', 'dependency', 'type: dependencies'] as const).map((l) => [l, 'dependencies'] as const),
  ...(['chore', 'maintenance', 'type: chore', 'type: maintenance'] as const).map((l) => [l, 'chore'] as const),
  ...(['refactor', 'refactoring', 'type: refactor'] as const).map((l) => [l, 'refactor'] as const),
  ...(['ci', 'build', 'github actions', 'type: ci', 'type: build'] as const).map((l) => [l, 'build'] as const),
  ...(['test', 'tests', 'testing', 'type: test'] as const).map((l) => [l, 'test'] as const),
]);

/** Sections from the most significant to the least: which a pull request takes when its labels or commits name several. */
export const SIGNIFICANCE: readonly SectionKey[] = [
  'breaking',
  'security',
  'feature',
  'deprecation',
  'performance',
  'fix',
  'dependencies',
  'documentation',
  'revert',
  'refactor',
  'internal',
  'website',
  'governance',
  'build',
  'test',
  'chore',
  'dev-dependencies',
  'other',
];

/** When labels name several sections, the most significant (and leaving out beats any). */
const PRIORITY: readonly (LabelVerdict | SectionKey)[] = ['hidden', ...SIGNIFICANCE];

/** What the default map makes of a pull request's labels; null when no label says anything. */
export function defaultLabelVerdict(labels: readonly string[]): LabelVerdict | null {
  let best: LabelVerdict | null = null;
  for (const raw of labels.slice(0, MAX_LABELS)) {
    const verdict = verdictOfLabel(normalizeLabel(raw));
    if (verdict && (best === null || PRIORITY.indexOf(verdict) < PRIORITY.indexOf(best))) best = verdict;
  }
  return best;
}

function verdictOfLabel(label: string): LabelVerdict | null {
  const direct = DEFAULT_LABELS.get(label);
  if (direct) return direct;
  // `kind/bug`, `area: x / type: bug`: what follows the last `/` or `: `. After a space only when what
  // precedes is no word (`🐛 bug`): `needs docs` or `no tests` say nothing of the change.
  const cut = Math.max(label.lastIndexOf('/'), label.lastIndexOf(': ') + 1);
  if (cut > 0) return DEFAULT_LABELS.get(label.slice(cut + 1).trim()) ?? null;
  const space = label.indexOf(' ');
  if (space > 0 && !/\p{L}/u.test(label.slice(0, space))) return DEFAULT_LABELS.get(label.slice(space + 1).trim()) ?? null;
  return null;
}

/** Words in a category title and the section they name, first match wins (order matters: "Breaking" before "Feature"). */
const TITLE_WORDS: ReadonlyArray<[RegExp, SectionKey]> = [
  [/\bbreaking\b|\bmajor\b/i, 'breaking'],
  [/\bsecurity\b|\bvulnerab/i, 'security'],
  [/\bdeprecat/i, 'deprecation'],
  [/\bperformance\b|\bperf\b|\bfaster\b/i, 'performance'],
  [/\bfeature|\benhancement|\bnew\b|\badded\b/i, 'feature'],
  [/\bbug|\bfix/i, 'fix'],
  [/\bdocumentation\b|\bdocs?\b/i, 'documentation'],
  [/\bdependenc|\bdeps\b|\bbumps?\b/i, 'dependencies'],
  [/\binternal\b|\brefactor/i, 'internal'],
  [/\bchores?\b|\bmaintenance\b|\bhousekeeping\b/i, 'chore'],
];

function sectionOfTitle(title: string): SectionKey | null {
  for (const [words, section] of TITLE_WORDS) if (words.test(title)) return section;
  return null;
}

/**
 * The configuration in `text` (`.github/release.yml`), or null, with a warning, when it cannot be read
 * as one. A file without `changelog` is no configuration (null, no warning needed for an empty file).
 */
export function parseReleaseConfig(text: string, warnings: string[] = []): ReleaseConfig | null {
  if (!text.trim()) return null;
  let doc: unknown;
  try {
    doc = parse(text.slice(0, MAX_CONFIG_CHARS), { maxAliasCount: 50, prettyErrors: false, uniqueKeys: false });
  } catch (error) {
    warnings.push(`.github/release.yml is not valid YAML and was ignored: ${(error as Error).message.split('\n', 1)[0]!.slice(0, 200)}`);
    return null;
  }
  const changelog = record(record(doc)?.changelog);
  if (!changelog) {
    warnings.push('.github/release.yml has no `changelog` mapping and was ignored');
    return null;
  }
  const exclude = record(changelog.exclude);
  const categories: ReleaseCategory[] = [];
  const list = Array.isArray(changelog.categories) ? (changelog.categories as unknown[]).slice(0, MAX_CATEGORIES) : [];
  for (const raw of list) {
    const c = record(raw);
    if (!c || typeof c.title !== 'string') continue;
    const labels = strings(c.labels).map(normalizeLabel);
    const own = record(c.exclude);
    const title = c.title.slice(0, 200);
    let section = sectionOfTitle(title);
    if (!section) {
      // A title of no known word (`🎉 Goodies`): its labels may still say (`enhancement`).
      const verdict = defaultLabelVerdict(labels.filter((l) => l !== '*'));
      section = verdict && verdict !== 'hidden' ? verdict : null;
    }
    categories.push({ title, labels, excludeLabels: strings(own?.labels).map(normalizeLabel), excludeAuthors: strings(own?.authors), section });
  }
  return { excludeLabels: strings(exclude?.labels).map(normalizeLabel), excludeAuthors: strings(exclude?.authors), categories };
}

/** What the repository's configuration makes of a pull request: GitHub's order (exclusions, then the first category it fits). */
export function configVerdict(config: ReleaseConfig, labels: readonly string[], login: string | null): LabelVerdict | null {
  const own = labels.slice(0, MAX_LABELS).map(normalizeLabel);
  // Pull requests of one bot or one set of labels are many: each verdict is worked out once per configuration.
  let memo = verdicts.get(config);
  if (!memo) verdicts.set(config, (memo = new Map()));
  const key = `${login ?? ''}\u0000${own.join('\u0000')}`;
  if (memo.has(key)) return memo.get(key)!;
  const verdict = verdictOf(config, own, login);
  memo.set(key, verdict);
  return verdict;
}

const verdicts = new WeakMap<ReleaseConfig, Map<string, LabelVerdict | null>>();

function verdictOf(config: ReleaseConfig, own: readonly string[], login: string | null): LabelVerdict | null {
  const excludedBy = (excludeLabels: readonly string[], excludeAuthors: readonly string[]) =>
    own.some((l) => excludeLabels.includes(l)) || (login !== null && excludeAuthors.some((a) => authorMatches(a, login)));
  if (excludedBy(config.excludeLabels, config.excludeAuthors)) return 'hidden';
  for (const category of config.categories) {
    if (excludedBy(category.excludeLabels, category.excludeAuthors)) continue;
    if (category.labels.includes('*') || own.some((l) => category.labels.includes(l))) return category.section;
  }
  // In no category: GitHub lists it under "Other Changes"; the commits' classification places it here.
  return null;
}

function authorMatches(pattern: string, login: string): boolean {
  const p = pattern.trim().toLowerCase();
  const l = login.toLowerCase();
  return p.includes('*') ? wildcardMatch(p, l) : p === l;
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const v of value.slice(0, MAX_LIST)) if (typeof v === 'string' || typeof v === 'number') out.push(String(v).slice(0, MAX_LABEL_CHARS));
  return out;
}
