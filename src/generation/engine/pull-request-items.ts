/**
 * Release notes with the host's pull requests (PullRequestInfo): one item per merged PR, its branch
 * commits and its merge commit folded into it, told in the maintainer's words where they wrote some
 * (the description's "Release notes" section, a `Changelog:` trailer, a change fragment the PR adds)
 * and filed by its labels (the repository's `.github/release.yml` as the release's history held it,
 * else common labels), else by its commits' own classification. Also what only the host's data
 * makes worth saying per release: its new contributors and the compare link.
 *
 * Used only when the caller supplies pull requests (`ReleaseOptions.pullRequests`, even empty): without
 * them release notes are made exactly as before.
 */
import type { CommitRecord } from '../../git/commit-record.js';
import { classifyCommit } from './classify.js';
import type { PreparedCommit } from './engine.js';
import { bodySection, changelogTrailer, parseFragment, type Fragment, type MaintainerWords } from './fragments.js';
import { isBot, matchesAuthor } from './people.js';
import type { PullRequestInfo } from './pull-requests.js';
import { configVerdict, defaultLabelVerdict, parseReleaseConfig, SIGNIFICANCE, type LabelVerdict, type ReleaseConfig } from './release-config.js';
import type { GenerationSettings, NewContributor, SectionKey } from './types.js';
import type { VersionIndex } from './versions.js';
import type { ReleaseTag } from './versions.js';

/** The classification rules that read a type the author declared (classify.ts), not words guessed at. */
const DECLARED = /^(conventional|legacy-tag|gitmoji)/;


/** The host's data for one history, read once per run. */
export interface HostData {
  /** The PR a commit belongs to: its merge commit, a commit of its branch, or the number its message names. */
  prOf(sha: string, prNumber: number | null): PullRequestInfo | null;
  /** The release configuration in force at a release's tip (null: the repository has none there). */
  configAt(release: ReleaseTag | null): ReleaseConfig | null;
  /** The fragments a commit adds, parsed. */
  fragmentsOf(commit: CommitRecord): Fragment[];
}

export function hostData(pullRequests: readonly PullRequestInfo[], commits: readonly CommitRecord[], versions: VersionIndex, warnings: string[]): HostData {
  const bySha = new Map<string, PullRequestInfo>();
  const byNumber = new Map<number, PullRequestInfo>();
  // The PR's own commits first, then the commits of its repository that name it, its merge commit last:
  // a merge commit is the PR's whatever a branch says.
  for (const pr of pullRequests) for (const sha of pr.commitShas.slice(0, 250)) if (!bySha.has(sha)) bySha.set(sha, pr);
  for (const pr of pullRequests) {
    // By number alone only where the host could not say which commits name it (its own repository's).
    if (!pr.citedBy) {
      byNumber.set(pr.number, pr);
      continue;
    }
    for (const sha of pr.citedBy) if (!bySha.has(sha)) bySha.set(sha, pr);
  }
  for (const pr of pullRequests) if (pr.mergeCommitSha) bySha.set(pr.mergeCommitSha, pr);

  // Every change of the release configuration the history holds, latest first (a handful in any history).
  const graph = versions.graph;
  const changes: Array<{ index: number; at: number; text: string; tracked: boolean }> = [];
  for (const c of commits) {
    if (c.releaseConfig === undefined) continue;
    const index = graph.indexOf(c.sha);
    if (index !== undefined) changes.push({ index, at: Date.parse(c.committer.date), text: c.releaseConfig, tracked: !versions.releaseOnly.has(c.sha) });
  }
  // Descendants first (a higher generation), whatever their dates say: a later change of the file always
  // comes before the change it edits; then the newer date between parallel branches.
  changes.sort((a, b) => graph.generation[b.index]! - graph.generation[a.index]! || b.at - a.at || b.index - a.index);
  const parsed = new Map<string, ReleaseConfig | null>();
  const parse = (text: string) => {
    let config = parsed.get(text);
    if (config === undefined) parsed.set(text, (config = parseReleaseConfig(text, warnings)));
    return config;
  };

  const fragments = new Map<string, Fragment[]>();
  const configOfTip = new Map<number, ReleaseConfig | null>();
  return {
    prOf(sha, prNumber) {
      return bySha.get(sha) ?? (prNumber !== null ? (byNumber.get(prNumber) ?? null) : null);
    },
    configAt(release) {
      if (!changes.length) return null;
      // Unreleased: what the tracked branch holds now.
      if (!release) {
        const newest = changes.find((c) => c.tracked);
        return newest ? parse(newest.text) : null;
      }
      const tip = graph.indexOf(release.sha);
      if (tip === undefined) return null;
      // Once per tip (a commit can carry several tags: packages released together).
      const known = configOfTip.get(tip);
      if (known !== undefined) return known;
      // The newest change the tip's history holds: what the repository said then, never what it said later.
      const change = changes.find((c) => c.index === tip || graph.isAncestor(c.index, tip));
      const config = change ? parse(change.text) : null;
      configOfTip.set(tip, config);
      return config;
    },
    fragmentsOf(commit) {
      if (!commit.fragments?.length) return [];
      let list = fragments.get(commit.sha);
      if (!list) fragments.set(commit.sha, (list = commit.fragments.slice(0, 20).flatMap((f) => parseFragment(f) ?? [])));
      return list;
    },
  };
}

/** Whether a release note takes this commit into its PR folding: a skipped commit (a merge) counts when it is a PR's. */
export function inPullRequest(host: HostData, p: PreparedCommit): boolean {
  return host.prOf(p.record.sha, p.record.prNumber) !== null;
}

export interface Folded {
  /** One per PR (its item), and the commits of no PR as they were (with a fragment's words, when they add one). */
  items: PreparedCommit[];
  /** Every commit an item stands for (a PR's branch and merge commit). */
  shasOf: Map<PreparedCommit, string[]>;
}

/**
 * The release's commits (arrival order, skipped merge commits of PRs included) with each PR's commits
 * folded into one item, and the items of PRs or commits that nothing should show left out. Visibility of
 * sections is the caller's.
 */
export function foldPullRequests(members: readonly PreparedCommit[], host: HostData, config: ReleaseConfig | null, settings: GenerationSettings): Folded {
  const groups = new Map<number, PreparedCommit[]>();
  const prs = new Map<number, PullRequestInfo>();
  const order: Array<PreparedCommit | number> = [];
  for (const p of members) {
    const pr = host.prOf(p.record.sha, p.record.prNumber);
    if (!pr) {
      if (!p.classified.skip) order.push(p);
      continue;
    }
    let group = groups.get(pr.number);
    if (!group) {
      groups.set(pr.number, (group = []));
      prs.set(pr.number, pr);
      order.push(pr.number);
    }
    group.push(p);
  }
  const items: PreparedCommit[] = [];
  const shasOf = new Map<PreparedCommit, string[]>();
  for (const entry of order) {
    if (typeof entry !== 'number') {
      const item = withFragments(entry, host.fragmentsOf(entry.record));
      if (item) items.push(item);
      continue;
    }
    const group = groups.get(entry)!;
    const item = pullRequestItem(prs.get(entry)!, group, host, config, settings);
    if (!item) continue;
    items.push(item);
    shasOf.set(
      item,
      group.map((p) => p.record.sha),
    );
  }
  // A PR stands where it reached the branch: with its merge, after its branch's commits.
  items.sort((a, b) => a.at - b.at || a.committedAt - b.committedAt);
  return { items, shasOf };
}

/** A commit of no PR that adds a fragment: told in the fragment's words and filed by its type. */
function withFragments(p: PreparedCommit, fragments: readonly Fragment[]): PreparedCommit | null {
  if (!fragments.length) return p;
  if (fragments.every((f) => f.hidden)) return null;
  const fragment = fragments.find((f) => f.text) ?? fragments[0]!;
  const section = fragment.section ?? p.classified.section;
  const packages = fragments.flatMap((f) => f.packages);
  return {
    ...p,
    classified: { ...p.classified, section, breaking: section === 'breaking', title: fragment.text || p.classified.title, rule: 'fragment' },
    components: packages.length ? [...new Set([...packages, ...p.components])] : p.components,
    component: packages[0] ?? p.component,
  };
}

function pullRequestItem(
  pr: PullRequestInfo,
  group: readonly PreparedCommit[],
  host: HostData,
  config: ReleaseConfig | null,
  settings: GenerationSettings,
): PreparedCommit | null {
  const base = group.find((p) => p.record.sha === pr.mergeCommitSha) ?? group[group.length - 1]!;
  const login = pr.author?.login ?? null;
  if (pr.author) {
    if (pr.author.isBot && settings.excludeBots) return null;
    if (matchesAuthor({ name: pr.author.login, email: '' }, settings.excludeAuthors)) return null;
  } else {
    // A deleted account's PR: its commits' authors decide.
    const authored = group.filter((p) => p.classified.skip !== 'merge');
    if (authored.length && authored.every((p) => p.classified.skip === 'bot' || p.classified.skip === 'excluded-author')) return null;
  }
  // `[skip changelog]` in the squash or merge message (the PR's title) leaves the PR out.
  if (base.classified.skip === 'marker') return null;

  // Labels: the repository's configuration when it has one, else the common labels.
  let verdict: LabelVerdict | null = config ? configVerdict(config, pr.labels, login) : defaultLabelVerdict(pr.labels);
  if (config && verdict === null) {
    const fallback = defaultLabelVerdict(pr.labels);
    verdict = fallback === 'hidden' ? null : fallback;
  }
  if (verdict === 'hidden') return null;

  // Words: the description's section, a trailer, a fragment the PR adds, else the title.
  const fragments = group.flatMap((p) => host.fragmentsOf(p.record));
  const messages = [base, ...group.filter((p) => p !== base)].map((p) => p.record.message);
  let words: MaintainerWords = bodySection(pr.body);
  let rule = 'pull-request:body';
  if (!words) {
    words = changelogTrailer([pr.body, ...messages]);
    rule = 'pull-request:trailer';
  }
  if (words && 'hidden' in words) return null;
  if (fragments.length && fragments.every((f) => f.hidden) && !words) return null;
  const fragment = fragments.find((f) => f.text);
  if (!words && fragment) {
    words = { text: fragment.text };
    rule = 'pull-request:fragment';
  }
  const titled = classifyTitle(pr, base.record);
  const text = words ? words.text : titled.title;
  if (!words) rule = 'pull-request:title';

  const own = group.filter((p) => !p.classified.skip);
  let section: SectionKey;
  const declared = fragments.find((f) => f.section)?.section ?? null;
  if (verdict) {
    section = verdict;
    rule += '+labels';
  } else if (declared) {
    section = declared;
    rule += '+fragment';
  } else {
    // Else the commits' own classification, the title's too when it declares a type (`feat: …`).
    const sections = own.map((p) => p.classified.section);
    section = mostSignificant(titled.declared || !own.length ? [...sections, titled.section] : sections);
    // Declared by a type (`feat:`) rather than guessed from words: a patch release keeps it (releases.ts asPatchFix).
    if ((titled.declared && titled.section === section) || own.some((p) => p.classified.section === section && DECLARED.test(p.classified.rule)))
      rule += '+declared';
  }

  const packages = fragments.flatMap((f) => f.packages);
  const components = [...new Set([...packages, ...group.flatMap((p) => p.components)])];
  const at = Math.max(...group.map((p) => p.at));
  const committedAt = Math.max(...group.map((p) => p.committedAt));
  const breaking = own.find((p) => p.classified.breaking);
  return {
    ...base,
    at,
    committedAt,
    classified: {
      ...base.classified,
      section,
      breaking: section === 'breaking',
      breakingDescription: section === 'breaking' ? (breaking?.classified.breakingDescription ?? null) : null,
      title: withNumber(text, pr.number),
      pr: pr.number,
      rule,
      skip: null,
      byBot: pr.author?.isBot ?? base.classified.byBot,
    },
    components,
    component: packages[0] ?? base.component ?? (own.length === 1 ? own[0]!.component : null),
  };
}

/** The PR's title cleaned as a commit subject is (`feat(x): …` → its section and `…`). */
function classifyTitle(pr: PullRequestInfo, base: CommitRecord): { title: string; section: SectionKey; declared: boolean } {
  const title = pr.title.slice(0, 1_000).replace(/\s+/g, ' ').trim();
  const classified = classifyCommit({ ...base, parents: base.parents.slice(0, 1), message: title || `#${pr.number}`, changes: base.changes });
  return { title: classified.title, section: classified.section, declared: DECLARED.test(classified.rule) };
}

function mostSignificant(sections: readonly SectionKey[]): SectionKey {
  let best: SectionKey = 'other';
  for (const s of sections) if (SIGNIFICANCE.indexOf(s) < SIGNIFICANCE.indexOf(best)) best = s;
  return best;
}

/** `text (#12)`, unless it names the PR already. */
function withNumber(text: string, number: number): string {
  let clean = text.trimEnd();
  // A trailing `(#123)` of its own (a squash title) is dropped by scanning back, not by a pattern.
  if (clean.endsWith(')')) {
    const open = clean.lastIndexOf('(#');
    if (open >= 0 && /^\d+$/.test(clean.slice(open + 2, -1))) clean = clean.slice(0, open).trimEnd();
  }
  return `${clean} (#${number})`;
}

/**
 * Who each release brings for the first time: the author of each commit (the PR's author for a PR's
 * commits) at their first commit in arrival order. Never bots, nor authors the settings exclude, nor an
 * e-mail address (a commit without a name names no one).
 */
export function firstContributions(prepared: readonly PreparedCommit[], host: HostData, settings: GenerationSettings): Map<string, NewContributor> {
  const seen = new Set<string>();
  const out = new Map<string, NewContributor>();
  const ordered = [...prepared].sort((a, b) => a.at - b.at || a.committedAt - b.committedAt);
  for (const p of ordered) {
    const pr = host.prOf(p.record.sha, p.record.prNumber);
    let key: string;
    let name: string;
    if (pr) {
      if (!pr.author || pr.author.isBot) continue;
      if (matchesAuthor({ name: pr.author.login, email: '' }, settings.excludeAuthors)) continue;
      key = `@${pr.author.login.toLowerCase()}`;
      name = `@${pr.author.login}`;
    } else {
      if (p.classified.skip) continue;
      const author = p.record.author;
      name = author.name.replace(/\s+/g, ' ').trim();
      if (!name || name.includes('@') || isBot(author) || p.classified.byBot) continue;
      if (matchesAuthor(author, settings.excludeAuthors)) continue;
      key = name.toLowerCase();
    }
    if (seen.has(key)) continue;
    seen.add(key);
    out.set(p.record.sha, { name: name.slice(0, 100), pr: pr?.number ?? null });
  }
  return out;
}

/**
 * The repository's compare page between two tags, when the settings know its web address (from the
 * pull-request link: `https://github.com/o/r/pull/{number}` → `https://github.com/o/r`).
 */
export function compareUrl(settings: GenerationSettings, previous: string | null, tag: string | null): string | null {
  if (!previous || !settings.pullRequestUrl) return null;
  const m = /^(https?:\/\/[^\s()<>]+?)\/pulls?\/\{number\}\/?$/.exec(settings.pullRequestUrl);
  if (!m) return null;
  const ref = (t: string) => encodeURIComponent(t).replace(/[()'*!~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${m[1]}/compare/${ref(previous)}...${tag ? ref(tag) : 'HEAD'}`;
}
