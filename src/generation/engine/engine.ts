/**
 * The generation engine: commits + settings → changelog entries. Pure and deterministic: the same
 * input gives the same entries, keys and fingerprints, so storing the result twice changes nothing.
 * Incremental use: pass `touched` (the new commits' SHAs) and the commits of the periods they fall
 * in (`touchedPeriods`); only those entries are produced.
 */
import { hash } from 'node:crypto';
import { computeArrivals, type ArrivalIndex } from './arrival.js';
import type { CommitRecord } from '../../git/commit-record.js';
import { Bumps, bumpOf } from './bumps.js';
import { classifyCommit, type ClassifiedCommit } from './classify.js';
import { componentSource, isJunkComponent } from './components.js';
import { headlineItems, NearDuplicates, titleKey } from './headlines.js';
import { mergeItems, type MergeItem } from './merges.js';
import { isoWeek, parseLocalDate, periodOf, type Period } from './periods.js';
import { renderMarkdown } from './render.js';
import { sameChanges } from './same-change.js';
import { docsAreWebsite, isKindScope, scopeRestates } from './rules.js';
import { attribute, createTeamResolver } from './teams.js';
import {
  SECTION_KEYS,
  type GeneratedEntry,
  type GeneratedEntryType,
  type GeneratedJson,
  type GenerationSettings,
  type RollupType,
  type Section,
  type SectionItem,
  type SectionKey,
} from './types.js';
import { buildVersionIndex, type VersionIndex } from './versions.js';

export { headlineItems } from './headlines.js';

export interface GenerateOptions {
  /** Entry types to produce; default: the settings' entry types. */
  types?: readonly GeneratedEntryType[];
  /** Only entries touched by these commits: their commit entries and the rollups of their periods. */
  touched?: readonly string[];
  /**
   * Version labels from the whole history. Incremental runs pass only some periods' commits, whose
   * ancestry is incomplete; storage then builds the index from all stored commits and tags.
   */
  versions?: VersionIndex;
  /**
   * When each commit reached the tracked branch (arrival.ts). It is read from the whole graph, so a
   * caller passing only part of the history passes the index built from all of it.
   */
  arrival?: ArrivalIndex;
  /** The tracked branches' names (arrival.ts reads `git pull` merges of them); default main, master, trunk. */
  trunk?: readonly string[];
  /**
   * Called with each entry as soon as it is made, so that storage can write the first ones while
   * the engine makes the rest: a commit's entry once the commit is classified (in the order the
   * commits are given), then the rollups. The entries are then not kept (the result's `entries` is
   * empty): a whole history's entries, held to the end, made the garbage collector copy them all.
   */
  onEntry?: (entry: GeneratedEntry) => void;
  /** Called with the classified commits (`result.commits`) before any entry is made: release notes need only them. */
  onPrepared?: (prepared: readonly PreparedCommit[]) => void;
}

/** One commit after classification, with what the entries need. */
export interface PreparedCommit {
  record: CommitRecord;
  classified: ClassifiedCommit;
  /** When it reached the tracked branch (a merged branch's commit: its merge's time); periods use this. */
  at: number;
  /** Its own committer date. */
  committedAt: number;
  components: string[];
  /** The item's component: the scope, else the only path component. */
  component: string | null;
  /** The component whose release series labels the commit: the one its scope names, else its first. */
  series: string | null;
  teams: string[];
}

export interface GenerationStats {
  commits: number;
  skipped: Record<string, number>;
  bySection: Record<SectionKey, number>;
  /** Revert pairs cancelled inside rollup periods (counted per rollup type). */
  cancelledReverts: Record<RollupType, number>;
  /** Visible commits left out of a rollup because a copy of the change reached the branch in an earlier period (same-change.ts). */
  listedBefore: Record<RollupType, number>;
  entries: Record<GeneratedEntryType, number>;
}

export interface GenerationResult {
  entries: GeneratedEntry[];
  commits: PreparedCommit[];
  stats: GenerationStats;
  /** Problems that did not stop generation (a CODEOWNERS line from the repository that was skipped). */
  warnings: string[];
}

const ROLLUPS: readonly RollupType[] = ['daily', 'weekly', 'monthly'];

export function prepareCommits(
  commits: readonly CommitRecord[],
  settings: GenerationSettings,
  warnings: string[] = [],
  arrival: ArrivalIndex = computeArrivals(commits),
  onPrepared?: (p: PreparedCommit) => void,
  /**
   * The history these commits are part of (default: themselves): path rules are detected from its
   * paths and a merge's other parents looked up in it. Release branches' commits are prepared
   * against the tracked branch's history, so they get the components its entries get.
   */
  history: readonly CommitRecord[] = commits,
): PreparedCommit[] {
  const shas = new Set(history.map((c) => c.sha));
  if (history !== commits) for (const c of commits) shas.add(c.sha);
  const paths = allPaths(history);
  const source = componentSource(settings.pathRules, history, paths);
  const siteDocs = docsAreWebsite(paths);
  const teams = createTeamResolver(settings.teams, settings.codeowners, warnings);
  return commits.map((record) => {
    const classified = classifyCommit(record, {
      excludeAuthors: settings.excludeAuthors,
      excludeBots: settings.excludeBots,
      mergedCommitsPresent: record.parents.slice(1).some((p) => shas.has(p)),
      siteDocs,
    });
    const pathComponents = source.componentsOf(record.changes);
    const scope = classified.scope?.toLowerCase().trim() || null;
    // The package a scope names (`deps`, `docs`, `ci` name a kind of change, and anything else that is
    // not a known package is no component). The paths outrank it: it is a tag only when they name none.
    const named = scope && !isKindScope(scope) ? source.named(scope) : null;
    const components = pathComponents.length ? pathComponents : named ? [named] : [];
    // The item's label: the scope as written, unless the section or title already says it or it is junk
    // (`#4774`, `minor`, `signed-off-by`); else the only package the paths name.
    const shown = scope && !scopeRestates(scope, classified.section, classified.title) && !isJunkComponent(scope) ? scope : null;
    const committedAt = Date.parse(record.committer.date);
    const p: PreparedCommit = {
      record,
      classified,
      at: arrival.get(record.sha)?.at ?? committedAt,
      committedAt,
      components,
      component: shown ?? (pathComponents.length === 1 ? pathComponents[0]! : null),
      series: named && components.includes(named) ? named : (components[0] ?? null),
      teams: teams.teamsOf(classified, record.changes),
    };
    onPrepared?.(p);
    return p;
  });
}

/** Every changed path (an array: a generator's step per path cost more than the array). */
function allPaths(commits: readonly CommitRecord[]): string[] {
  const paths: string[] = [];
  for (const c of commits) for (const change of c.changes) paths.push(change[1]);
  return paths;
}

export function generate(commits: readonly CommitRecord[], settings: GenerationSettings, options: GenerateOptions = {}): GenerationResult {
  const types = options.types ?? settings.entryTypes;
  const warnings: string[] = [];
  const arrival = options.arrival ?? computeArrivals(commits, { trunk: options.trunk });
  const versions = options.versions ?? buildVersionIndex(commits, { arrival });
  const visible = new Set(settings.sections.filter((s) => s.visible).map((s) => s.key));
  const touched = options.touched ? new Set(options.touched) : null;
  const entries: GeneratedEntry[] = [];
  const entryCounts: Record<GeneratedEntryType, number> = { commit: 0, daily: 0, weekly: 0, monthly: 0 };
  const onEntry = options.onEntry;
  const emit = (entry: GeneratedEntry) => {
    entryCounts[entry.entry_type]++;
    if (onEntry) onEntry(entry);
    else entries.push(entry);
  };
  const commitEntryOf = (p: PreparedCommit) => {
    if (p.classified.skip || !visible.has(p.classified.section)) return;
    if (touched && !touched.has(p.record.sha)) return;
    emit(commitEntry(p, settings, versions));
  };
  const withCommits = types.includes('commit');
  // Streamed, a commit's entry goes as soon as the commit is classified (in the commits' order):
  // storage starts writing while the rest are classified. Listed, they come in arrival order.
  const early = withCommits && onEntry !== undefined;
  const prepared = prepareCommits(commits, settings, warnings, arrival, early ? commitEntryOf : undefined).sort(byArrival);
  options.onPrepared?.(prepared);
  // Reverts cancel out only inside one release window (released in the same tag, or both unreleased).
  const releaseOf = (p: PreparedCommit) => versions.labelOf(p.record.sha);

  const stats: GenerationStats = {
    commits: prepared.length,
    skipped: {},
    bySection: Object.fromEntries(SECTION_KEYS.map((k) => [k, 0])) as Record<SectionKey, number>,
    cancelledReverts: { daily: 0, weekly: 0, monthly: 0 },
    listedBefore: { daily: 0, weekly: 0, monthly: 0 },
    entries: entryCounts,
  };
  const counted: PreparedCommit[] = [];
  const merges: PreparedCommit[] = [];
  for (const p of prepared) {
    if (p.classified.skip === 'merge') merges.push(p);
    if (p.classified.skip) stats.skipped[p.classified.skip] = (stats.skipped[p.classified.skip] ?? 0) + 1;
    else {
      stats.bySection[p.classified.section]++;
      counted.push(p);
    }
  }

  // A change whose copy reached the branch in an earlier period (a cherry-pick merged back with its
  // maintenance branch) is not news again: a rollup leaves it out. Both copies keep their commit entries.
  const copies = sameChanges(prepared);

  if (withCommits && !early) for (const p of counted) commitEntryOf(p);
  for (const type of ROLLUPS) {
    if (!types.includes(type)) continue;
    const groups = new Map<string, { period: Period; commits: PreparedCommit[]; merges: PreparedCommit[] }>();
    const groupOf = (p: PreparedCommit) => {
      const period = periodOf(p.at, type, settings.timeZone);
      let group = groups.get(period.key);
      if (!group) groups.set(period.key, (group = { period, commits: [], merges: [] }));
      return group;
    };
    for (const p of counted) groupOf(p).commits.push(p);
    for (const p of merges) groupOf(p).merges.push(p);
    for (const { period, commits: inPeriod, merges: mergesInPeriod } of groups.values()) {
      const isTouched = (p: PreparedCommit) => touched!.has(p.record.sha);
      if (touched && !inPeriod.some(isTouched) && !mergesInPeriod.some(isTouched)) continue;
      const { kept, cancelled } = cancelReverts(inPeriod, releaseOf);
      stats.cancelledReverts[type] += cancelled;
      const listedBefore = (p: PreparedCommit) => {
        const group = copies.get(p);
        return group !== undefined && group.some((q) => q.at < p.at && periodOf(q.at, type, settings.timeZone).key !== period.key);
      };
      const shown = kept.filter((p) => {
        if (!visible.has(p.classified.section)) return false;
        if (copies.size && listedBefore(p)) {
          stats.listedBefore[type]++;
          return false;
        }
        return true;
      });
      const items = mergeItems(mergesInPeriod, shown, arrival, visible, settings.headlineLimit);
      if (!shown.length && !items.length) continue;
      emit(rollupEntry(type, period, shown, settings, versions, items));
    }
  }
  return { entries, commits: prepared, stats, warnings };
}

/**
 * The rollup periods the given commits fall in: storage loads each period's commits and regenerates
 * it. A commit's period is that of its arrival (`arrival`, from the whole history) where known.
 */
export function touchedPeriods(
  commits: readonly Pick<CommitRecord, 'sha' | 'committer'>[],
  types: readonly GeneratedEntryType[],
  timeZone: string,
  arrival?: ArrivalIndex,
): Period[] {
  const out = new Map<string, Period>();
  for (const c of commits) {
    const at = arrival?.get(c.sha)?.at ?? Date.parse(c.committer.date);
    for (const type of ROLLUPS) {
      if (!types.includes(type)) continue;
      const period = periodOf(at, type, timeZone);
      out.set(period.key, period);
    }
  }
  return [...out.values()].sort((a, b) => a.start.getTime() - b.start.getTime() || cmp(a.key, b.key));
}

/**
 * A revert and the commit it reverts, both in the period, cancel out, when both fall in the same
 * release window (`windowOf`: the release that first contains them, null for unreleased): reverting
 * something already released is news. The target is found by SHA (`This reverts commit …`,
 * `Refs:`), else by its subject (SHAs change when history is rewritten).
 */
export function cancelReverts(
  commits: readonly PreparedCommit[],
  windowOf: (p: PreparedCommit) => string | null = () => null,
): { kept: PreparedCommit[]; cancelled: number } {
  if (!commits.some((c) => c.classified.reverts)) return { kept: [...commits], cancelled: 0 };
  const gone = new Set<PreparedCommit>();
  let cancelled = 0;
  for (let i = 0; i < commits.length; i++) {
    const revert = commits[i]!;
    const target = revert.classified.reverts;
    if (!target || gone.has(revert)) continue;
    const window = windowOf(revert);
    const open = (candidate: PreparedCommit) => !gone.has(candidate) && windowOf(candidate) === window;
    let match: PreparedCommit | undefined;
    for (let j = i - 1; j >= 0 && !match; j--) {
      const candidate = commits[j]!;
      if (open(candidate) && target.shas.some((s) => candidate.record.sha.startsWith(s))) match = candidate;
    }
    for (let j = i - 1; j >= 0 && !match && target.subject; j--) {
      const candidate = commits[j]!;
      if (open(candidate) && candidate.classified.subject === target.subject) match = candidate;
    }
    if (match) {
      gone.add(match);
      gone.add(revert);
      cancelled++;
    }
  }
  return { kept: commits.filter((c) => !gone.has(c)), cancelled };
}

function commitEntry(p: PreparedCommit, settings: GenerationSettings, versions: VersionIndex): GeneratedEntry {
  const c = p.classified;
  const teamAttribution = attribute([{ commit: c, teams: p.teams }]);
  const json: GeneratedJson = {
    title: c.title,
    headline_items: headlineItems([p], settings.headlineLimit),
    sections: buildSections([p], settings),
    component_tags: p.components,
    team_attribution: teamAttribution,
  };
  return finish({
    key: `commit:${p.record.sha}`,
    entry_type: 'commit',
    title: c.title,
    content: renderMarkdown(json, settings),
    generated_json: json,
    version_label: versions.labelOf(p.record.sha, [p.series, ...p.components]),
    team_attribution: teamAttribution,
    component_tags: p.components,
    commit_sha: p.record.sha,
    commit_shas: [p.record.sha],
    period_start: null,
    period_end: null,
    fingerprint: '',
  });
}

function rollupEntry(
  type: RollupType,
  period: Period,
  commits: PreparedCommit[],
  settings: GenerationSettings,
  versions: VersionIndex,
  merges: readonly MergeItem<PreparedCommit>[] = [],
): GeneratedEntry {
  const listed = merges.length ? [...commits, ...merges.map((m) => m.merge)].sort(byArrival) : commits;
  const tags = [...new Set(listed.flatMap((p) => p.components))].sort();
  const teamAttribution = attribute(commits.map((p) => ({ commit: p.classified, teams: p.teams })));
  const title = periodTitle(type, period);
  // A merge with a message of its own (`feat!: version 2`, a PR title) speaks for its branch, so it
  // heads the rollup before its commits; a bare "Merge branch 'x'" is no headline.
  const headed = merges.filter((m) => m.meaningful).map((m) => m.merge);
  // Such a merge's branch is told by it: its commits are no headlines of their own (a breaking one still is).
  const told = new Set(merges.flatMap((m) => (m.meaningful ? m.brought.filter((p) => p.classified.section !== 'breaking') : m.replaces)));
  const json: GeneratedJson = {
    title,
    headline_items: headlineItems(headed.length ? [...headed, ...commits.filter((p) => !told.has(p))] : commits, settings.headlineLimit, new Set(headed)),
    sections: buildSections(commits, settings, merges),
    component_tags: tags,
    team_attribution: teamAttribution,
  };
  return finish({
    key: period.key,
    entry_type: type,
    title,
    content: renderMarkdown(json, settings),
    generated_json: json,
    version_label: versions.highestIn(period.start, period.end),
    team_attribution: teamAttribution,
    component_tags: tags,
    commit_sha: null,
    commit_shas: listed.map((p) => p.record.sha),
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    fingerprint: '',
  });
}

export function buildSections(commits: readonly PreparedCommit[], settings: GenerationSettings, merges: readonly MergeItem<PreparedCommit>[] = []): Section[] {
  // A commit entry (one commit, no merge): nothing to group or fold, and ten thousand of them per
  // history made the maps below a good share of the engine's garbage.
  if (commits.length === 1 && !merges.length) {
    const p = commits[0]!;
    const s = settings.sections.find((x) => x.key === p.classified.section);
    return s?.visible ? [{ section_type_key: s.key, label: s.label, items: [{ text: p.classified.title, component: p.component }] }] : [];
  }
  const bySection = new Map<SectionKey, Section['items']>();
  // The same change picked onto two branches (or re-landed) is one line for a reader.
  const seen = new NearDuplicates<SectionItem>();
  const bumps = new Bumps<SectionItem>();
  const mergeOf = new Map(merges.map((m) => [m.merge, m]));
  // A PR merge's item stands for its commit of the same title: one line, not two.
  const replaced = new Set(merges.flatMap((m) => m.replaces));
  for (const p of merges.length ? [...commits, ...mergeOf.keys()].sort(byArrival) : commits) {
    if (replaced.has(p)) continue;
    const merge = mergeOf.get(p);
    if (merge) {
      let items = bySection.get(merge.section);
      if (!items) bySection.set(merge.section, (items = []));
      items.push({
        text: merge.text,
        component: p.component,
        commits: merge.brought.length,
        items: merge.highlights.map((h) => ({ text: h.classified.title, component: h.component })),
      });
      continue;
    }
    // Also the same change with and without its PR suffix (`Update rolldown` / `Update rolldown (#279)`):
    // one item carrying both references. Repeated updates of one dependency are one item too, naming
    // the version last reached.
    const item: SectionItem = { text: p.classified.title, component: p.component };
    if (commits.length > 1) {
      const bump = bumpOf(p.classified);
      if (bump ? !bumps.add(p.classified.section, item, bump) : !seen.add(p.classified.section, item, titleKey(p.classified))) continue;
    }
    let items = bySection.get(p.classified.section);
    if (!items) bySection.set(p.classified.section, (items = []));
    items.push(item);
  }
  const sections: Section[] = [];
  for (const s of settings.sections) {
    const items = s.visible ? bySection.get(s.key) : undefined;
    if (items) sections.push({ section_type_key: s.key, label: s.label, items });
  }
  return sections;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function periodTitle(type: RollupType, period: Period): string {
  const start = parseLocalDate(period.localStart);
  if (type === 'monthly') return `${MONTHS[start.month - 1]} ${start.year}`;
  if (type === 'daily') return `${start.day} ${MONTHS[start.month - 1]} ${start.year}`;
  const last = new Date(Date.UTC(start.year, start.month - 1, start.day + 6));
  const end = { year: last.getUTCFullYear(), month: last.getUTCMonth() + 1, day: last.getUTCDate() };
  const week = isoWeek(start);
  const range =
    start.month === end.month
      ? `${start.day}–${end.day} ${MONTHS[end.month - 1]} ${end.year}`
      : start.year === end.year
        ? `${start.day} ${MONTHS[start.month - 1]} – ${end.day} ${MONTHS[end.month - 1]} ${end.year}`
        : `${start.day} ${MONTHS[start.month - 1]} ${start.year} – ${end.day} ${MONTHS[end.month - 1]} ${end.year}`;
  return `Week ${week.year}-W${String(week.week).padStart(2, '0')} (${range})`;
}

/**
 * The fingerprint covers everything stored except the key. `content` is rendered from the
 * sections, components and attribution, so hashing it stands for them; the headline is added
 * because it is the one part of generated_json that content does not show in full.
 */
function finish(entry: GeneratedEntry): GeneratedEntry {
  const parts = [
    entry.entry_type,
    entry.title,
    entry.content,
    JSON.stringify(entry.generated_json.headline_items),
    JSON.stringify(entry.generated_json.sections.map((s) => [s.section_type_key, s.label, s.items.length])),
    entry.version_label ?? '',
    entry.team_attribution ?? '',
    entry.component_tags.join(','),
    entry.commit_sha ?? '',
    entry.commit_shas.join(','),
    entry.period_start ?? '',
    entry.period_end ?? '',
  ];
  // One-shot hashing: a Hash object per entry cost more than the digest of its few hundred bytes.
  entry.fingerprint = hash('sha256', parts.join('\u0000'), 'hex').slice(0, 32);
  return entry;
}

/** Arrival order; a merged branch's commits (one arrival) in their own order, its merge after them. */
export function byArrival(a: PreparedCommit, b: PreparedCommit): number {
  return a.at - b.at || a.committedAt - b.committedAt || cmp(a.record.sha, b.record.sha);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
