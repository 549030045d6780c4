/**
 * Headline items and near-duplicates. A headline names the few most significant changes of an entry
 * or a release: breaking changes first, then features by reach (how many components the change
 * spreads over, how many files it changes, how often other commits mention it); a set with neither
 * leads with the fixes users notice (NOTICED_RANK). Never a dependency bump, never a change of
 * tests, CI or docs only, and never just the first few in time order. Items that differ only by a PR suffix or
 * trivially (`Update rolldown` / `Update rolldown (#279)`) are one item carrying both references.
 *
 * Reads prepared commits structurally (no import cycle with engine.ts).
 */
import { DEPENDENCY_SCOPES, isDependencyTitle, pathTopic } from './rules.js';
import type { Change, HeadlineItem, SectionKey } from './types.js';

export interface HeadlineCandidate {
  record: { sha: string; message: string; changes: readonly Change[] };
  classified: { section: SectionKey; title: string; breakingDescription: string | null; scope: string | null; pr: number | null };
  components: readonly string[];
}

// One `(#12)` or `(#12, #15)` group; a title may end in several (`(#12) (#15)`).
const PR_GROUP = /^\(#\d+(?:, ?#\d+)*\)$/;

/** Where a title's PR suffix starts (its length when it has none). Read from the end, without a regex scan of the whole title. */
function suffixStart(title: string): number {
  let end = title.length;
  while (end > 0 && title.charCodeAt(end - 1) === 32) end--;
  let start = end;
  while (end > 0 && title.charCodeAt(end - 1) === 41 /* ) */) {
    const open = title.lastIndexOf('(#', end - 1);
    if (open < 0 || !PR_GROUP.test(title.slice(open, end))) break;
    start = open;
    end = open;
    while (end > 0 && title.charCodeAt(end - 1) === 32) end--;
  }
  return start === title.length ? start : end;
}

// Characters a near-duplicate may add or drop at its end.
const TRAILING = new Set([32, 46, 33, 58, 59, 44]); // space . ! : ; ,
const QUOTES = /[`'"]/;
const QUOTES_ALL = /[`'"]/g;

/**
 * What two titles share when they differ only by PR references, case, quotes or trailing punctuation.
 * Runs for every item of every entry: titles are already whitespace-collapsed (cleanTitle).
 */
export function nearDuplicateKey(title: string): string {
  let key = title.endsWith(')') ? title.slice(0, suffixStart(title)) : title;
  if (QUOTES.test(key)) key = key.replace(QUOTES_ALL, '');
  let end = key.length;
  while (end > 0 && TRAILING.has(key.charCodeAt(end - 1))) end--;
  return (end < key.length ? key.slice(0, end) : key).toLowerCase();
}

// A commit's title is compared in its own entry, three rollups and a release note: keyed once.
const titleKeys = new WeakMap<object, string>();

/** `nearDuplicateKey` of a commit's title, remembered with its classification. */
export function titleKey(classified: { title: string }): string {
  let key = titleKeys.get(classified);
  if (key === undefined) titleKeys.set(classified, (key = nearDuplicateKey(classified.title)));
  return key;
}

/** The PR numbers a title's suffix cites, in order. */
export function prReferences(title: string): number[] {
  if (!title.endsWith(')')) return [];
  return [...title.slice(suffixStart(title)).matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
}

/** The title with its PR suffix replaced by the given references (`Update rolldown (#279, #281)`). */
export function withReferences(title: string, refs: readonly number[]): string {
  const base = title.slice(0, suffixStart(title)).trimEnd();
  return refs.length ? `${base} (${refs.map((n) => `#${n}`).join(', ')})` : base;
}

/** Merges near-duplicate items: the first one stays, its text carrying every reference the others add. */
export class NearDuplicates<T extends { text: string }> {
  private readonly groups = new Map<string, { item: T; refs: number[] | null }>();

  /**
   * Adds an item under `scope` (items of different scopes never merge); false when it joined an
   * earlier one. `key`: the item's `nearDuplicateKey` when the caller has it.
   */
  add(scope: string, item: T, key = nearDuplicateKey(item.text)): boolean {
    key = `${scope}\u0000${key}`;
    const group = this.groups.get(key);
    if (!group) {
      // References are read only when a duplicate comes (rare): most items are unique.
      this.groups.set(key, { item, refs: null });
      return true;
    }
    const refs = (group.refs ??= prReferences(group.item.text));
    const added = prReferences(item.text).filter((n) => !refs.includes(n));
    if (added.length) {
      refs.push(...added);
      group.item.text = withReferences(group.item.text, refs);
    }
    return false;
  }
}

const SECTION_RANK: Partial<Record<SectionKey, number>> = { breaking: 0, feature: 1 };
/**
 * When a set has no breaking change and no feature (a patch release), its headline is what users will
 * notice most: security fixes, then performance, then fixes, then deprecations; never a change of
 * tests, CI or docs only.
 */
const NOTICED_RANK: Partial<Record<SectionKey, number>> = { security: 2, performance: 3, fix: 4, deprecation: 5 };

// A commit is a candidate in its own entry and in three rollups and a release note: read it once.
const dependencyBump = new WeakMap<object, boolean>();
const citedPrs = new WeakMap<object, number[]>();

/** A dependency update is never a headline, even a breaking one (`feat(deps)!: update vite to v6`). */
function isDependencyBump(c: HeadlineCandidate): boolean {
  let known = dependencyBump.get(c.classified);
  if (known === undefined) {
    const scope = c.classified.scope?.toLowerCase() ?? '';
    dependencyBump.set(c.classified, (known = DEPENDENCY_SCOPES.has(scope) || isDependencyTitle(c.classified.title)));
  }
  return known;
}

// Whether a commit changes only tests, CI or docs: asked in each set the commit is a candidate in.
const topicOnly = new WeakMap<object, boolean>();

/**
 * A commit's rank among headline candidates, or undefined when it is none: a bump, or (unless breaking)
 * tests, CI or docs only. `strict` false (a note's last resort) takes whatever `ranks` names.
 */
function headlineRank(c: HeadlineCandidate, ranks: Partial<Record<SectionKey, number>>, strict = true): number | undefined {
  const rank = ranks[c.classified.section];
  if (rank === undefined || !strict) return rank;
  if (isDependencyBump(c)) return undefined;
  if (rank > 0) {
    let only = topicOnly.get(c.record);
    if (only === undefined) topicOnly.set(c.record, (only = pathTopic(c.record.changes) !== null));
    if (only) return undefined;
  }
  return rank;
}

/**
 * A release note's last resort, when it has no breaking change, feature or fix users notice: what it shows
 * (visible sections only), changes of the code first, documentation and dependencies last. A note with
 * items always has a headline.
 */
const LAST_RESORT_ORDER: readonly SectionKey[] = ['other', 'refactor', 'revert', 'documentation', 'dependencies'];

function lastResortRanks(visible: ReadonlySet<SectionKey>): Partial<Record<SectionKey, number>> {
  const ranks: Partial<Record<SectionKey, number>> = {};
  let next = 6;
  for (const key of LAST_RESORT_ORDER) if (visible.has(key)) ranks[key] = next++;
  for (const key of visible) ranks[key] ??= next++;
  return ranks;
}

/** The PR numbers a commit's message cites other than its own. */
function citations(c: HeadlineCandidate): number[] {
  let list = citedPrs.get(c.record);
  if (!list) {
    list = [];
    const own = c.classified.pr;
    if (c.record.message.includes('#')) {
      for (const m of c.record.message.matchAll(/#(\d{1,9})\b/g)) {
        const n = Number(m[1]);
        if (n !== own && !list.includes(n)) list.push(n);
      }
    }
    citedPrs.set(c.record, list);
  }
  return list;
}

/**
 * The `limit` most significant items. `lead` are items that speak for many (a merge with a message
 * of its own stands for its branch): they come first within their section.
 */
export function headlineItems(
  commits: readonly HeadlineCandidate[],
  limit: number,
  lead: ReadonlySet<HeadlineCandidate> = new Set(),
  /** A release note's visible sections: given, a note whose items none of the ranks name still gets one (lastResortRanks). */
  visible?: ReadonlySet<SectionKey>,
): HeadlineItem[] {
  if (limit <= 0) return [];
  if (commits.length === 1 && !visible) {
    // A commit's own entry (most calls): nothing to rank.
    const c = commits[0]!;
    const rank = SECTION_RANK[c.classified.section];
    if (rank === undefined || isDependencyBump(c)) return [];
    return [{ section_type_key: c.classified.section, title: c.classified.title, body: rank === 0 ? c.classified.breakingDescription : null }];
  }
  interface Ranked {
    first: HeadlineCandidate;
    rank: number;
    lead: boolean;
    components: number;
    files: number;
    mentions: number;
    refs: number[];
    order: number;
  }
  const groups = new Map<string, Ranked>();
  let order = 0;
  // Breaking changes and features lead; only a set without any falls back to what users notice, and a
  // release note without either to what it shows.
  const major = commits.some((c) => headlineRank(c, SECTION_RANK) !== undefined);
  let ranks = major ? SECTION_RANK : NOTICED_RANK;
  let strict = true;
  if (!major && visible && !commits.some((c) => headlineRank(c, NOTICED_RANK) !== undefined)) {
    ranks = lastResortRanks(visible);
    strict = false;
  }
  for (const c of commits) {
    const rank = headlineRank(c, ranks, strict);
    if (rank === undefined) continue;
    const key = titleKey(c.classified);
    const g = groups.get(key);
    if (!g) {
      groups.set(key, {
        first: c,
        rank,
        lead: lead.has(c),
        components: c.components.length,
        files: c.record.changes.length,
        mentions: 0,
        refs: prReferences(c.classified.title),
        order: order++,
      });
      continue;
    }
    // The same change landed twice: one headline, with both references and the larger reach.
    if (rank < g.rank) {
      g.rank = rank;
      g.first = c;
    }
    g.lead ||= lead.has(c);
    g.components = Math.max(g.components, c.components.length);
    g.files = Math.max(g.files, c.record.changes.length);
    g.mentions++;
    for (const n of prReferences(c.classified.title)) if (!g.refs.includes(n)) g.refs.push(n);
  }
  if (!groups.size) return [];
  const ranked = [...groups.values()];
  // Mentions: other commits of the set citing the change's PR (`follow-up to #12`, cherry-picks).
  const cited = new Map<number, Ranked[]>();
  for (const g of ranked) {
    for (const n of g.refs) {
      const list = cited.get(n);
      if (list) list.push(g);
      else cited.set(n, [g]);
    }
  }
  if (cited.size && ranked.length > 1) {
    for (const c of commits) for (const n of citations(c)) for (const g of cited.get(n) ?? []) g.mentions++;
  }
  ranked.sort(
    (a, b) =>
      a.rank - b.rank || Number(b.lead) - Number(a.lead) || b.components - a.components || b.files - a.files || b.mentions - a.mentions || a.order - b.order,
  );
  return ranked.slice(0, limit).map((g) => {
    const title = g.refs.length > prReferences(g.first.classified.title).length ? withReferences(g.first.classified.title, g.refs) : g.first.classified.title;
    const key: SectionKey = g.rank === 0 ? 'breaking' : g.rank === 1 ? 'feature' : g.first.classified.section;
    return { section_type_key: key, title, body: key === 'breaking' ? g.first.classified.breakingDescription : null };
  });
}
