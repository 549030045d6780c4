/**
 * Shapes shared by the generation engine. Its input is `CommitRecord` (git/commit-record.ts), the one
 * commit shape ingestion stores and `changelog preview` reads; the engine is a pure function of
 * commits + settings.
 */
export type { Change } from '../../git/commit-record.js';

export const SECTION_KEYS = [
  'breaking',
  'feature',
  'fix',
  'performance',
  'security',
  'deprecation',
  'documentation',
  'refactor',
  'internal',
  'dependencies',
  'dev-dependencies',
  'build',
  'test',
  'chore',
  'website',
  'governance',
  'revert',
  'other',
] as const;

export type SectionKey = (typeof SECTION_KEYS)[number];

export const DEFAULT_SECTION_LABELS: Record<SectionKey, string> = {
  breaking: 'Breaking changes',
  feature: 'Features',
  fix: 'Bug fixes',
  performance: 'Performance',
  security: 'Security',
  deprecation: 'Deprecations',
  documentation: 'Documentation',
  refactor: 'Refactoring',
  internal: 'Internal refactoring',
  dependencies: 'Dependencies',
  'dev-dependencies': 'Development dependencies',
  build: 'Build and CI',
  test: 'Tests',
  chore: 'Maintenance',
  website: 'Website and blog',
  governance: 'Project governance',
  revert: 'Reverts',
  other: 'Other',
};

export const GENERATED_ENTRY_TYPES = ['commit', 'daily', 'weekly', 'monthly'] as const;
export type GeneratedEntryType = (typeof GENERATED_ENTRY_TYPES)[number];
export type RollupType = Exclude<GeneratedEntryType, 'commit'>;

export interface SectionSetting {
  key: SectionKey;
  label: string;
  visible: boolean;
}

/** A glob over repository paths and the component it names; `$1`… refer to the glob's `*` captures. */
export interface PathRule {
  glob: string;
  component: string;
}

/** A team and what makes a commit theirs: paths it touches (globs) or its authors (e-mail or name). */
export interface TeamMapping {
  team: string;
  paths?: string[];
  authors?: string[];
}

/** Everything a project can configure about generation; `resolveSettings` fills the defaults. */
export interface GenerationSettings {
  entryTypes: GeneratedEntryType[];
  /** In display order; sections not listed follow in the default order with their default visibility. */
  sections: SectionSetting[];
  /** IANA time zone for daily/weekly/monthly windows. */
  timeZone: string;
  /** Authors to skip (e-mail, name, or a `*` pattern, case-insensitive). */
  excludeAuthors: string[];
  /**
   * Skip commits by bots entirely. On by default: on five real histories, bots' commits were most of what
   * maintainers left out of their notes (docs/quality.md); a project whose bot's updates matter turns it off.
   */
  excludeBots: boolean;
  pathRules: PathRule[];
  teams: TeamMapping[];
  /** CODEOWNERS text found in the repository, if any. */
  codeowners: string | null;
  /** Turns a PR number into a link in Markdown, e.g. `https://github.com/o/r/pull/{number}`. */
  pullRequestUrl: string | null;
  /** How many headline items a rollup gets at most. */
  headlineLimit: number;
  /**
   * Publishing policy per entry type, applied by storage (the engine does not publish): `manual`
   * entries are drafts awaiting review, `auto` ones are published as generated.
   */
  publish: Record<PublishTarget, PublishPolicy>;
  /** Whether generation stores release notes (releases.ts) next to the entries; on by default (they are cheap). */
  releases: boolean;
  /**
   * What storage does with entries of history: changes that reached the branch before their
   * repository was linked (applied by storage, like `publish`; the engine does not read it).
   */
  history: HistoryPolicy;
  /** History before this instant (ISO 8601) is skipped whatever the policy; null: none. */
  historySince: string | null;
  /**
   * Release summaries by a language model (docs/summaries.md; the engine does not read it): `off`
   * (default), `review` (verified summaries wait for an editor in the release editor), `auto`
   * (accepted and, on a published note nobody edited, published as written).
   */
  summaries: SummaryPolicy;
}

export const SUMMARY_POLICIES = ['off', 'review', 'auto'] as const;
export type SummaryPolicy = (typeof SUMMARY_POLICIES)[number];

/** What a publishing policy is set for: each generated entry type, and release notes. */
export type PublishTarget = GeneratedEntryType | 'release';

export type PublishPolicy = 'manual' | 'auto';

/**
 * `publish`: published, dated when the change reached the branch (a rollup: its period's end);
 * `draft`: drafts for review; `skip`: not stored at all.
 */
export const HISTORY_POLICIES = ['publish', 'draft', 'skip'] as const;
export type HistoryPolicy = (typeof HISTORY_POLICIES)[number];

export interface HeadlineItem {
  section_type_key: string;
  title: string;
  body: string | null;
}

export interface SectionItem {
  text: string;
  component: string | null;
  /**
   * A merge's item: how many of the rollup's visible commits it brought, and the most important of
   * them. Outside the contract's SectionItem (text, component), so the public API does not serve
   * them; `content` shows them.
   */
  commits?: number;
  items?: SectionItem[];
}

export interface Section {
  section_type_key: string;
  label: string;
  items: SectionItem[];
}

/** The contract's GeneratedJson. */
export interface GeneratedJson {
  title: string;
  headline_items: HeadlineItem[];
  sections: Section[];
  component_tags: string[];
  team_attribution: string | null;
  /**
   * A release note's people whose first contribution it ships, and the host's compare page from the
   * previous tag; only when generation had the host's pull requests (pull-request-items.ts). Outside the
   * contract's GeneratedJson, like SectionItem's `commits`: the public API does not serve them; `content` shows them.
   */
  new_contributors?: NewContributor[];
  compare_url?: string;
}

/** Someone a release brings for the first time: `@login` (a PR's author) or a commit author's name, never an e-mail. */
export interface NewContributor {
  name: string;
  /** Their first PR, when it was one. */
  pr: number | null;
}

/** One entry as the engine produces it: the contract's ChangelogEntry fields it owns, plus a key. */
export interface GeneratedEntry {
  /** Stable identity for upserts: `commit:<sha>` or `<type>:<local period start date>`. */
  key: string;
  entry_type: GeneratedEntryType;
  title: string;
  content: string;
  generated_json: GeneratedJson;
  version_label: string | null;
  team_attribution: string | null;
  component_tags: string[];
  /** The commit an entry of type `commit` is about (storage maps it to `commit_id`). */
  commit_sha: string | null;
  commit_shas: string[];
  /** Inclusive, ISO 8601 UTC; null for commit entries. */
  period_start: string | null;
  /** Exclusive, ISO 8601 UTC; null for commit entries. */
  period_end: string | null;
  /** Hash of everything above except the key: storage updates an entry only when it changes. */
  fingerprint: string;
}
