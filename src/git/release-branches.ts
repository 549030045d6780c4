/**
 * Release-branch patterns of a repository link (`*.x`, `release/*`, `5.x`): which branches beside the
 * tracked one ingest reads for their tags. Patterns come from whoever configures the link and branch
 * names from whoever can push, so both are bounded: a pattern is a branch name with at most one `*`
 * (git's own refspec rule), matched by a prefix and a suffix check (linear in the name), and at most
 * MAX_RELEASE_BRANCHES matching branches are read.
 */
import { branchNameProblem } from './branch-name.js';

/** Patterns per link. */
export const MAX_RELEASE_PATTERNS = 10;
/** Characters per pattern. */
export const MAX_RELEASE_PATTERN_LENGTH = 100;
/**
 * Release branches read per link: the highest names (numbers compared as numbers, so `10.x` before
 * `9.x`) when more match; the link's status says so.
 */
export const MAX_RELEASE_BRANCHES = 20;

/** What is wrong with one pattern, or null. */
export function releasePatternProblem(pattern: string): string | null {
  if (pattern.length === 0) return 'must not be empty';
  if (pattern.length > MAX_RELEASE_PATTERN_LENGTH) return `must be at most ${MAX_RELEASE_PATTERN_LENGTH} characters`;
  if (!/^[A-Za-z0-9._/*+-]+$/.test(pattern)) return 'may hold only letters, digits, ".", "_", "-", "+", "/" and one "*"';
  const stars = pattern.split('*').length - 1;
  if (stars > 1) return 'may hold at most one "*"';
  if (pattern === '*') return 'must name more than "*" (that would read every branch)';
  if (/^refs\//i.test(pattern)) return 'names a branch (like "5.x" or "release/*"), not a ref: refs/ is implied';
  // With its `*` standing for a name part, it must be a name git takes for a branch (no "..", no leading "-").
  const problem = branchNameProblem(pattern.replace('*', 'x'));
  return problem;
}

/**
 * The link's patterns checked and normalised (trimmed, duplicates dropped, order kept); every problem,
 * each naming its pattern, when any.
 */
export function checkReleasePatterns(patterns: readonly unknown[]): { patterns: string[]; problems: string[] } {
  const problems: string[] = [];
  if (patterns.length > MAX_RELEASE_PATTERNS) problems.push(`at most ${MAX_RELEASE_PATTERNS} release-branch patterns (got ${patterns.length})`);
  const out: string[] = [];
  for (const raw of patterns.slice(0, MAX_RELEASE_PATTERNS)) {
    if (typeof raw !== 'string') {
      problems.push('each release-branch pattern must be a string');
      continue;
    }
    const pattern = raw.trim();
    const problem = releasePatternProblem(pattern);
    // A long pattern is named by its start only: the message must stay small whatever was sent.
    if (problem) problems.push(`release-branch pattern "${pattern.slice(0, 40)}${pattern.length > 40 ? '…' : ''}" ${problem}`);
    else if (!out.includes(pattern)) out.push(pattern);
  }
  return { patterns: out, problems };
}

/** Whether `branch` matches `pattern` (`*` stands for any run of characters, `/` included, as in git's refspecs). */
export function matchesReleasePattern(branch: string, pattern: string): boolean {
  const star = pattern.indexOf('*');
  if (star < 0) return branch === pattern;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  return branch.length >= prefix.length + suffix.length && branch.startsWith(prefix) && branch.endsWith(suffix);
}

const collator = new Intl.Collator('en', { numeric: true });

/** Highest names first (`10.x`, `9.x`, `5.x`): the newest lines when a link's patterns match too many. */
export const byNewestLine = (a: string, b: string) => collator.compare(b, a) || (a < b ? 1 : a > b ? -1 : 0);
