/** Generation settings: defaults, and validation of what a project (or the CLI) asks for. */
import { isValidTimeZone } from './engine/periods.js';
import { parsePathRule } from './engine/components.js';
import { globProblem } from './engine/glob.js';
import { parseCodeowners } from './engine/teams.js';
import {
  DEFAULT_SECTION_LABELS,
  GENERATED_ENTRY_TYPES,
  HISTORY_POLICIES,
  SECTION_KEYS,
  SUMMARY_POLICIES,
  type GeneratedEntryType,
  type GenerationSettings,
  type PublishTarget,
  type HistoryPolicy,
  type PathRule,
  type SectionKey,
  type SectionSetting,
  type SummaryPolicy,
  type TeamMapping,
} from './engine/types.js';

/**
 * Sections a public changelog leaves out unless the project turns them on: among them updates of the
 * project's own development tools (devDependencies, read from its manifests), which maintainers leave
 * out of their notes (docs/quality.md), the website's and blog's content, governance and team documents, and
 * refactorings the project itself types as such (`refactor:`).
 */
export const HIDDEN_BY_DEFAULT: ReadonlySet<SectionKey> = new Set(['internal', 'dev-dependencies', 'build', 'test', 'chore', 'website', 'governance']);

export interface SettingsInput {
  entryTypes?: readonly string[];
  sections?: ReadonlyArray<{ key: string; label?: string; visible?: boolean }>;
  timeZone?: string;
  excludeAuthors?: readonly string[];
  excludeBots?: boolean;
  pathRules?: ReadonlyArray<PathRule | string>;
  teams?: readonly TeamMapping[];
  codeowners?: string | null;
  pullRequestUrl?: string | null;
  headlineLimit?: number;
  /** One policy for every type (and release notes), or one per type (`release` for release notes; those left out stay `manual`). */
  publish?: string | Partial<Record<string, string>>;
  /** Store release notes (per release tag, and Unreleased); default true. */
  releases?: boolean;
  /** What becomes of history (changes from before the link): publish (default), draft or skip. */
  history?: string;
  /** History before this date is skipped; an ISO 8601 date or instant, null for none. */
  historySince?: string | null;
  /** Release summaries by a language model: off (default), review or auto (docs/summaries.md). */
  summaries?: string;
}

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'SettingsError';
  }
}

/** What a publishing policy can be set for: the entry types, and release notes. */
export const PUBLISH_TARGETS: readonly PublishTarget[] = [...GENERATED_ENTRY_TYPES, 'release'];

export function defaultSections(): SectionSetting[] {
  return SECTION_KEYS.map((key) => ({ key, label: DEFAULT_SECTION_LABELS[key], visible: !HIDDEN_BY_DEFAULT.has(key) }));
}

/** Fills defaults and checks every field, reporting all problems at once. */
export function resolveSettings(input: SettingsInput = {}): GenerationSettings {
  const problems: string[] = [];
  const entryTypes = (input.entryTypes ?? ['commit', 'weekly']).filter((t): t is GeneratedEntryType => {
    const ok = (GENERATED_ENTRY_TYPES as readonly string[]).includes(t);
    if (!ok) problems.push(`unknown entry type "${t}" (expected ${GENERATED_ENTRY_TYPES.join(', ')})`);
    return ok;
  });

  const sections: SectionSetting[] = [];
  const seen = new Set<string>();
  for (const s of input.sections ?? []) {
    if (!(SECTION_KEYS as readonly string[]).includes(s.key)) {
      problems.push(`unknown section "${s.key}" (expected ${SECTION_KEYS.join(', ')})`);
      continue;
    }
    if (seen.has(s.key)) {
      problems.push(`section "${s.key}" is listed twice`);
      continue;
    }
    seen.add(s.key);
    const key = s.key as SectionKey;
    sections.push({ key, label: s.label?.trim() || DEFAULT_SECTION_LABELS[key], visible: s.visible ?? true });
  }
  // Sections the project did not list keep their default place after the listed ones.
  for (const d of defaultSections()) if (!seen.has(d.key)) sections.push(d);

  const timeZone = input.timeZone ?? 'UTC';
  if (!isValidTimeZone(timeZone)) problems.push(`unknown time zone "${timeZone}" (expected an IANA name such as Europe/Berlin)`);

  const pathRules: PathRule[] = [];
  for (const r of input.pathRules ?? []) {
    try {
      const rule = typeof r === 'string' ? parsePathRule(r) : r;
      const problem = typeof r === 'string' ? null : globProblem(String(rule?.glob ?? ''));
      if (problem) problems.push(`path rule ${problem}`);
      else pathRules.push(rule);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  const teams: TeamMapping[] = [];
  for (const t of input.teams ?? []) {
    const team = typeof t?.team === 'string' ? t.team.trim() : '';
    const paths = (t?.paths ?? []).map((p) => String(p).trim()).filter(Boolean);
    const authors = (t?.authors ?? []).map((a) => String(a).trim()).filter(Boolean);
    // Patterns are refused here, with the pattern named, rather than matched slowly at generation.
    for (const p of paths) {
      const problem = globProblem(p);
      if (problem) problems.push(`team "${team}": ${problem}`);
    }
    if (!team) problems.push('a team mapping needs a team name');
    else if (!paths.length && !authors.length) problems.push(`team "${team}" needs at least one path or author`);
    else teams.push({ team, ...(paths.length ? { paths } : {}), ...(authors.length ? { authors } : {}) });
  }
  if (input.codeowners) {
    // The project's own CODEOWNERS text is refused like its team rules; the repository's file
    // (filled in at generation, after these checks) skips bad lines instead.
    const warnings: string[] = [];
    parseCodeowners(input.codeowners, warnings);
    problems.push(...warnings);
  }
  const headlineLimit = input.headlineLimit ?? 5;
  if (!Number.isInteger(headlineLimit) || headlineLimit < 0) problems.push('headline limit must be a whole number ≥ 0');
  if (input.pullRequestUrl && !/^https?:\/\/[^\s]+\{number\}/.test(input.pullRequestUrl)) {
    problems.push('pull request URL must be an http(s) URL containing {number}');
  }
  const publish = { commit: 'manual', daily: 'manual', weekly: 'manual', monthly: 'manual', release: 'manual' } as GenerationSettings['publish'];
  const policies: Array<[string, string | undefined]> =
    typeof input.publish === 'string' ? PUBLISH_TARGETS.map((t) => [t, input.publish as string]) : Object.entries(input.publish ?? {});
  for (const [type, policy] of policies) {
    if (!(PUBLISH_TARGETS as readonly string[]).includes(type)) problems.push(`publish policy for unknown entry type "${type}"`);
    else if (policy !== 'manual' && policy !== 'auto') problems.push(`publish policy must be manual or auto (got "${policy}" for ${type})`);
    else publish[type as PublishTarget] = policy;
  }
  if (input.releases !== undefined && typeof input.releases !== 'boolean') problems.push('releases must be true or false');
  const history = (input.history ?? 'publish') as HistoryPolicy;
  if (!HISTORY_POLICIES.includes(history)) problems.push(`history must be ${HISTORY_POLICIES.join(', ')} (got "${String(input.history)}")`);
  const historySince = parseSince(input.historySince, problems);
  const summaries = (input.summaries ?? 'off') as SummaryPolicy;
  if (!SUMMARY_POLICIES.includes(summaries)) problems.push(`summaries must be ${SUMMARY_POLICIES.join(', ')} (got "${String(input.summaries)}")`);
  if (problems.length) throw new SettingsError(problems);
  return {
    entryTypes: [...new Set(entryTypes)],
    sections,
    timeZone,
    excludeAuthors: [...(input.excludeAuthors ?? [])],
    excludeBots: input.excludeBots ?? true,
    pathRules,
    teams,
    codeowners: input.codeowners ?? null,
    pullRequestUrl: input.pullRequestUrl ?? null,
    headlineLimit,
    publish,
    releases: input.releases ?? true,
    history,
    historySince,
    summaries,
  };
}

/**
 * A start date for history: `YYYY-MM-DD` (midnight UTC) or a full ISO 8601 instant with its offset,
 * normalised to an ISO instant. Anything else is a problem, never a guess.
 */
function parseSince(value: string | null | undefined, problems: string[]): string | null {
  if (value === undefined || value === null || value === '') return null;
  const text = String(value).trim();
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text;
  const ok = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(iso);
  const at = ok ? Date.parse(iso) : NaN;
  if (!Number.isFinite(at)) {
    problems.push(`history start must be a date such as 2024-01-31 or an ISO 8601 instant (got "${text.slice(0, 100)}")`);
    return null;
  }
  return new Date(at).toISOString();
}

/**
 * Team mappings from `GLOB=TEAM` path rules and `AUTHOR=TEAM` author rules (the CLI's
 * `--team-rule`/`--team-author`, the dashboard's text areas): one mapping per team, in the order
 * teams first appear. Malformed rules are all reported at once.
 */
export function parseTeamRules(pathRules: readonly string[], authorRules: readonly string[]): TeamMapping[] {
  const problems: string[] = [];
  const byTeam = new Map<string, { paths: string[]; authors: string[] }>();
  const add = (rule: string, kind: 'paths' | 'authors') => {
    const at = rule.lastIndexOf('=');
    const what = at > 0 ? rule.slice(0, at).trim() : '';
    const team = at > 0 ? rule.slice(at + 1).trim() : '';
    if (!what || !team) {
      problems.push(
        `team ${kind === 'paths' ? 'rule' : 'author'} "${rule}" must look like ${kind === 'paths' ? 'GLOB=TEAM, e.g. packages/compiler/**=Compiler' : 'EMAIL_OR_NAME=TEAM, e.g. alice@example.com=Core'}`,
      );
      return;
    }
    let entry = byTeam.get(team);
    if (!entry) byTeam.set(team, (entry = { paths: [], authors: [] }));
    entry[kind].push(what);
  };
  for (const r of pathRules) add(r, 'paths');
  for (const r of authorRules) add(r, 'authors');
  if (problems.length) throw new SettingsError(problems);
  return [...byTeam].map(([team, { paths, authors }]) => ({ team, ...(paths.length ? { paths } : {}), ...(authors.length ? { authors } : {}) }));
}

/** The inverse of parseTeamRules: `[GLOB=TEAM…]` and `[AUTHOR=TEAM…]`. */
export function teamRules(teams: readonly TeamMapping[]): { paths: string[]; authors: string[] } {
  return {
    paths: teams.flatMap((t) => (t.paths ?? []).map((p) => `${p}=${t.team}`)),
    authors: teams.flatMap((t) => (t.authors ?? []).map((a) => `${a}=${t.team}`)),
  };
}

/**
 * `--history` and `--history-since` as a settings patch (`projects configure` and `repos link`);
 * values are checked with the other settings.
 */
export function historyPatch(opts: { history?: string; historySince?: string }): Partial<SettingsInput> {
  return {
    ...(opts.history !== undefined ? { history: opts.history } : {}),
    ...(opts.historySince !== undefined ? { historySince: opts.historySince === 'none' ? null : opts.historySince } : {}),
  };
}
