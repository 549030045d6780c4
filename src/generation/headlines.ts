/**
 * Headline items and near-duplicates. A headline names the few most significant changes of an entry
 * or a release: breaking changes first, then features by reach (how many components the change
 * spreads over, how many files it changes, how often other commits mention it), never a dependency
 * bump and never just the first few in time order. Items that differ only by a PR suffix or
 * trivially (`Update rolldown` / `Update rolldown (#279)`) are one item carrying both references.
 *
 * Reads prepared commits structurally (no import cycle with engine.ts).
 */
import { DEPENDENCY_SCOPES, isDependencyTitle } from './rules.js';
import type { Change, HeadlineItem, SectionKey } from './types.js';

export interface HeadlineCandidate {
  record: { sha: string; message: string; changes: readonly Change[] };
  classified: { section: SectionKey; title: string; breakingDescription: string | null; scope: string | null; pr: number | null };
  components: readonly string[];
}

// `(#12)`, `(#12) (#15)`, `(#12, #15)` at the end of a title.
const PR_SUFFIX = /(?:\s*\(#\d+(?:,\s*#\d+)*\))+\s*$/;

/** What two titles share when they differ only by PR references, case, quotes or trailing punctuation. */
export function nearDuplicateKey(title: string): string {
  return title.replace(PR_SUFFIX, '').replace(/[`'"]/g, '').replace(/[\s.!:;,]+$/, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The PR numbers a title's suffix cites, in order. */
export function prReferences(title: string): number[] {
  const suffix = PR_SUFFIX.exec(title)?.[0] ?? '';
  return [...suffix.matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
}

/** The title with its PR suffix replaced by the given references (`Update rolldown (#279, #281)`). */
export function withReferences(title: string, refs: readonly number[]): string {
  const base = title.replace(PR_SUFFIX, '').trimEnd();
  return refs.length ? `${base} (${refs.map((n) => `#${n}`).join(', ')})` : base;
}

/** Merges near-duplicate items: the first one stays, its text carrying every reference the others add. */
export class NearDuplicates<T extends { text: string }> {
  private readonly groups = new Map<string, { item: T; refs: number[] }>();

  /** Adds an item under `scope` (items of different scopes never merge); false when it joined an earlier one. */
  add(scope: string, item: T): boolean {
    const key = `${scope}\u0000${nearDuplicateKey(item.text)}`;
    const group = this.groups.get(key);
    if (!group) {
      this.groups.set(key, { item, refs: prReferences(item.text) });
      return true;
    }
    const added = prReferences(item.text).filter((n) => !group.refs.includes(n));
    if (added.length) {
      group.refs.push(...added);
      group.item.text = withReferences(group.item.text, group.refs);
    }
    return false;
  }
}

const SECTION_RANK: Partial<Record<SectionKey, number>> = { breaking: 0, feature: 1 };

/** A dependency update is never a headline, even a breaking one (`feat(deps)!: update vite to v6`). */
function isDependencyBump(c: HeadlineCandidate): boolean {
  const scope = c.classified.scope?.toLowerCase() ?? '';
  return DEPENDENCY_SCOPES.has(scope) || isDependencyTitle(c.classified.title);
}

/**
 * The `limit` most significant items. `lead` are items that speak for many (a merge with a message
 * of its own stands for its branch): they come first within their section.
 */
export function headlineItems(commits: readonly HeadlineCandidate[], limit: number, lead: ReadonlySet<HeadlineCandidate> = new Set()): HeadlineItem[] {
  if (limit <= 0) return [];
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
  for (const c of commits) {
    const rank = SECTION_RANK[c.classified.section];
    if (rank === undefined || isDependencyBump(c)) continue;
    const key = nearDuplicateKey(c.classified.title);
    const g = groups.get(key);
    if (!g) {
      groups.set(key, { first: c, rank, lead: lead.has(c), components: c.components.length, files: c.record.changes.length, mentions: 0, refs: prReferences(c.classified.title), order: order++ });
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
    for (const c of commits) {
      const own = c.classified.pr;
      for (const m of c.record.message.matchAll(/#(\d{1,9})\b/g)) {
        const n = Number(m[1]);
        if (n === own) continue;
        for (const g of cited.get(n) ?? []) g.mentions++;
      }
    }
  }
  ranked.sort((a, b) => a.rank - b.rank || Number(b.lead) - Number(a.lead) || b.components - a.components || b.files - a.files || b.mentions - a.mentions || a.order - b.order);
  return ranked.slice(0, limit).map((g) => {
    const title = g.refs.length > prReferences(g.first.classified.title).length ? withReferences(g.first.classified.title, g.refs) : g.first.classified.title;
    const key: SectionKey = g.rank === 0 ? 'breaking' : 'feature';
    return { section_type_key: key, title, body: key === 'breaking' ? g.first.classified.breakingDescription : null };
  });
}
