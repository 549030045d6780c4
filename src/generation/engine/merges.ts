/**
 * Merges as rollup items. A merge's commits are listed in their own sections; the merge itself is
 * dropped unless it says something of its own or groups a branch: a long-lived branch merged with
 * `feat!: new major` is the period's headline, and a branch of many commits reads better with a
 * line that names it. Such a merge gets an item with "N commits" and the branch's most important
 * items under it.
 */
import { broughtBy, type ArrivalIndex } from './arrival.js';
import { cleanTitle, type ClassifiedCommit } from './classify.js';
import { SECTION_KEYS, type SectionKey } from './types.js';

/** What this reads of a prepared commit (the engine's PreparedCommit). */
export interface MergeCandidate {
  record: { sha: string };
  classified: Pick<ClassifiedCommit, 'section' | 'title' | 'subject' | 'skip'>;
}

export interface MergeItem<PreparedCommit extends MergeCandidate = MergeCandidate> {
  merge: PreparedCommit;
  /** The item's text: its title, or its merge line when the body is only git's conflict note. */
  text: string;
  section: SectionKey;
  /** Its own message (a PR title, `feat!: …`), not a bare "Merge branch 'x'": it may head the rollup. */
  meaningful: boolean;
  /** The visible commits of the rollup that it brought, in commit order. */
  brought: PreparedCommit[];
  /** The most important of them, for the lines under the item. */
  highlights: PreparedCommit[];
  /** Brought commits the item stands for: the PR's own commit of the same title, in the same section. */
  replaces: PreparedCommit[];
}

/** A PR merge with a title of its own that brings fewer than this many commits, one of them of its title, gets no item. */
export const MERGE_ITEM_MIN_COMMITS = 2;

/**
 * A bare merge ("Merge branch 'x'") gets an item only when its branch is one of many commits: its line
 * says nothing but the branch name, and under a handful of commits it only repeats, next to them, the
 * commits already listed in their sections.
 */
export const BARE_MERGE_ITEM_MIN_COMMITS = 5;

// The words git, GitHub, GitLab and Bitbucket write for a merge; what follows names a branch or PR.
const BARE_MERGE = /^Merged?(?:\s+(?:(?:remote-tracking\s+)?branch(?:es)?|tag|pull request|PR|commit|changes|in|from)\b|\s+['"#]|\s*$)/i;
// What git writes under a merge it had to resolve by hand: no title of a change.
const CONFLICTS_NOTE = /^#?\s*Conflicts:?\s*$/i;
// Bors and similar merge queues: "merge #186 #187" batches independent PRs, it is not a branch.
const BATCH_MERGE = /^(?:chore\(pull\):\s*)?merge(?:\s+#\d+)+\s*$/i;
// A maintenance line merged back into the trunk (`Merge branch 'v3.9.x'`, `patch-release`, `release/1.2`):
// it brings what was released from it, listed in its sections and in that release's note already; a
// line naming the branch is no news. ('/' is outside `[\w.-]`, so the remote prefix cannot backtrack.)
const RELEASE_LINE_MERGE = /^Merge (?:remote-tracking )?branch '(?:[\w.-]+\/)*(?:v?\d+(?:\.(?:\d+|x))*|(?:patch|minor|major|hotfix)[-_]releases?|releases?(?:[-/_]v?\d[\w.-]*)?|stable|maint(?:enance)?(?:[-/_][\w.-]*)?|[\w.-]*-stable)'/i;
const SIGNIFICANCE = new Map<string, number>(SECTION_KEYS.map((k, i) => [k, i]));
const PR_SUFFIX = /\s*(?:\(#\d+\)\s*)+$/;

const sameText = (a: string, b: string) => a.replace(PR_SUFFIX, '').toLowerCase() === b.replace(PR_SUFFIX, '').toLowerCase();

/**
 * The items of a rollup's merges. `merges` are the period's merge commits that classification
 * skipped because their branch is in the history; `shown` are the rollup's visible commits.
 */
export function mergeItems<PreparedCommit extends MergeCandidate>(
  merges: readonly PreparedCommit[],
  shown: readonly PreparedCommit[],
  arrivals: ArrivalIndex,
  visible: ReadonlySet<SectionKey>,
  highlightLimit: number,
): MergeItem<PreparedCommit>[] {
  if (!merges.length) return [];
  const byMerge = broughtBy(shown, (p) => p.record.sha, arrivals);
  const items: MergeItem<PreparedCommit>[] = [];
  for (const merge of merges) {
    const c = merge.classified;
    // A `git pull` or trunk-into-feature merge names the branch it came from, not what it brought.
    if (c.skip !== 'merge' || arrivals.swapped.has(merge.record.sha)) continue;
    const brought = byMerge.get(merge.record.sha) ?? [];
    const meaningful = !BARE_MERGE.test(c.title) && !CONFLICTS_NOTE.test(c.title) && !BATCH_MERGE.test(c.subject);
    if (!meaningful && RELEASE_LINE_MERGE.test(c.subject)) continue;
    let section: SectionKey | null = null;
    if (meaningful && visible.has(c.section)) {
      // A one-commit PR whose title is its commit's says nothing the commit does not.
      if (brought.length < MERGE_ITEM_MIN_COMMITS && brought.some((p) => sameText(p.classified.title, c.title))) continue;
      // A PR title the rules cannot place ("Custom Errors") goes where its most important commit does.
      section = c.section === 'other' && brought.length ? mostSignificant(brought) : c.section;
    } else if (brought.length >= BARE_MERGE_ITEM_MIN_COMMITS && !BATCH_MERGE.test(c.subject)) {
      section = mostSignificant(brought);
    }
    if (!section) continue;
    const highlights = [...brought]
      .filter((p) => !sameText(p.classified.title, c.title))
      .sort((a, b) => SIGNIFICANCE.get(a.classified.section)! - SIGNIFICANCE.get(b.classified.section)!)
      .slice(0, highlightLimit);
    const replaces = brought.filter((p) => p.classified.section === section && sameText(p.classified.title, c.title));
    const text = CONFLICTS_NOTE.test(c.title) ? cleanTitle(c.subject) : c.title;
    items.push({ merge, text, section, meaningful: meaningful && section === c.section, brought, highlights, replaces });
  }
  return items;
}

function mostSignificant(commits: readonly MergeCandidate[]): SectionKey {
  let best = commits[0]!.classified.section;
  for (const p of commits) if (SIGNIFICANCE.get(p.classified.section)! < SIGNIFICANCE.get(best)!) best = p.classified.section;
  return best;
}
