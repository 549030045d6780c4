/**
 * Release notes from tags: per tag series (versions.ts), the changes between a tag and the previous
 * tag of the same series, structured like a rollup (sections, headline items, components,
 * attribution), plus an "Unreleased" note for what no root release contains yet. Membership is
 * read from the graph, not from dates: a release holds what is reachable from its tag and not from
 * its previous tag, so a branch merged late lands in the release that shipped it.
 *
 * Previous tag: the highest lower version of the same series that the tag's history contains. A
 * final release goes back to the previous final release (its note covers its pre-releases: what a
 * reader of stable versions gets); a pre-release goes back to the previous tag, pre-release or not.
 * A change that a lower final release shipped first (a maintenance line merged into the branch of
 * the next minor's pre-releases) is announced there only, as conventional-changelog and git-cliff
 * do by taking the latest tag the history contains.
 *
 * Release branches (a maintained `5.x` beside the tracked branch, tracked by the link) add their tags:
 * each range stays within its own line. A tag's previous tag is looked for first among the tags of
 * its own line (the tracked branch, or the release branches) that its history contains, so `v5.12.1`
 * on `5.x` follows `v5.12.0` on `5.x`, never a tag of the tracked branch made meanwhile; the first tag
 * of a release branch follows the tag its history reaches (at or before where it forked). Unreleased
 * is the tracked branch's alone.
 *
 * A package's note holds the commits of that package's component; the root's holds every commit
 * except those that belong only to packages with tag series of their own.
 */
import { hash } from 'node:crypto';
import semver from 'semver';
import { buildSections, byArrival, cancelReverts, headlineItems, prepareCommits, type PreparedCommit } from './engine.js';
import { compareUrl, firstContributions, foldPullRequests, hostData, inPullRequest } from './pull-request-items.js';
import type { PullRequestInfo } from './pull-requests.js';
import { renderMarkdown } from './render.js';
import { sameChanges } from './same-change.js';
import { attribute } from './teams.js';
import type { CommitRecord } from '../../git/commit-record.js';
import type { GeneratedJson, GenerationSettings, NewContributor } from './types.js';
import { buildVersionIndex, ROOT_SERIES, type ReleaseTag, type VersionIndex } from './versions.js';

export const UNRELEASED_KEY = 'release:unreleased';

/** One release note, in the shape storage and the API can serve as they are (keys and fingerprints stable). */
export interface ReleaseNote {
  /** `release:<tag>`, or `release:unreleased`. */
  key: string;
  /** Null for the Unreleased note. */
  tag: string | null;
  /** The package the tag series belongs to; null for the root package. */
  package: string | null;
  version: string | null;
  prerelease: boolean;
  previous_tag: string | null;
  /** ISO 8601 UTC: when the tagged commit reached the tracked branch (`releaseTime`); null for Unreleased. */
  released_at: string | null;
  title: string;
  content: string;
  generated_json: GeneratedJson;
  team_attribution: string | null;
  component_tags: string[];
  /** The commits the note lists (hidden sections, skipped commits and cancelled revert pairs are not). */
  commit_shas: string[];
  fingerprint: string;
}

export interface ReleaseOptions {
  /** The commits already prepared by `generate()` (`result.commits`): classification is not repeated. */
  prepared?: readonly PreparedCommit[];
  /** A version index built from the same commits. */
  versions?: VersionIndex;
  /** Commits only release branches reach (when `versions` is not given). */
  releaseOnly?: ReadonlySet<string>;
  /**
   * The host's merged pull requests (GitHub's, cached by the github module). When given (even empty),
   * notes have one item per PR, labels and the maintainer's words decide (pull-request-items.ts), and
   * each note names its new contributors and its compare link. Absent: notes as before.
   */
  pullRequests?: readonly PullRequestInfo[];
  /** Problems that did not stop generation (a release configuration that could not be read). */
  warnings?: string[];
}

/** A release and every commit it brings (before filtering by package, skipping and visibility). */
export interface ReleaseMembers {
  release: ReleaseTag | null;
  previous: ReleaseTag | null;
  shas: string[];
}

/**
 * Which commits each release brings: reachable from its tag and not from its previous tag. Also
 * the Unreleased set (no root release contains it), with the newest root release as its previous tag.
 */
export function releaseMembers(versions: VersionIndex): ReleaseMembers[] {
  const graph = versions.graph;
  const out: ReleaseMembers[] = [];
  for (const list of versions.series.values()) {
    // Highest version first: a release's candidates for its previous tag are the ones after it.
    const byVersion = [...list].sort((a, b) => semver.rcompare(a.version, b.version) || a.at - b.at);
    for (const release of list) {
      const from = graph.indexOf(release.sha);
      if (from === undefined) continue;
      const previous = previousRelease(versions, byVersion, release);
      const reached = graph.between(previous ? graph.indexOf(previous.sha) : undefined, from);
      const shas: string[] = [];
      for (const i of reached) {
        const sha = graph.shas[i]!;
        // Already shipped by a lower final release its history contains (a maintenance line merged
        // into the next minor's branch: 3.4.27's fixes in 3.5.0-alpha.3): announced there, not again.
        const first = versions.firstRelease(sha, release.series);
        if (first && first !== release && first.version.prerelease.length === 0 && semver.lt(first.version, release.version)) continue;
        shas.push(sha);
      }
      out.push({ release, previous, shas });
    }
  }
  if (versions.rootSeries !== null) {
    const root = versions.series.get(versions.rootSeries) ?? [];
    const marks = new Uint32Array(graph.size);
    const stamp = 1;
    const releaseOnly = versions.releaseOnly;
    for (const r of root) {
      const i = graph.indexOf(r.sha);
      if (i !== undefined && marks[i] !== stamp) graph.mark(i, marks, stamp);
    }
    const shas: string[] = [];
    // What the tracked branch holds and no release contains: a release branch's own work is its line's.
    for (let i = 0; i < graph.size; i++) if (marks[i] !== stamp && !releaseOnly.has(graph.shas[i]!)) shas.push(graph.shas[i]!);
    // The newest root release of the tracked branch; tags on one commit (a pre-release and its final) give the highest version.
    let newest: ReleaseTag | null = null;
    for (const r of root) if (r.tracked && (!newest || r.at > newest.at || (r.at === newest.at && semver.gt(r.version, newest.version)))) newest = r;
    out.push({ release: null, previous: newest, shas });
  } else {
    out.push({ release: null, previous: null, shas: graph.shas.filter((sha) => !versions.releaseOnly.has(sha)) });
  }
  return out;
}

/**
 * The highest lower version of the series that the release's history contains (finals first for a
 * final), of the release's own line (tracked branch or release branches) first, then of any.
 */
function previousRelease(versions: VersionIndex, byVersion: readonly ReleaseTag[], release: ReleaseTag): ReleaseTag | null {
  const graph = versions.graph;
  const at = graph.indexOf(release.sha)!;
  let first = byVersion.indexOf(release) + 1;
  while (first < byVersion.length && semver.eq(byVersion[first]!.version, release.version)) first++;
  const lower = byVersion.slice(first);
  const contained = (r: ReleaseTag) => {
    const i = graph.indexOf(r.sha);
    return i !== undefined && graph.isAncestor(i, at);
  };
  const pick = (candidates: readonly ReleaseTag[]) => {
    if (release.version.prerelease.length === 0) {
      const final = candidates.find((r) => r.version.prerelease.length === 0 && contained(r));
      if (final) return final;
    }
    return candidates.find(contained) ?? null;
  };
  if (!versions.releaseOnly.size) return pick(lower);
  return pick(lower.filter((r) => r.tracked === release.tracked)) ?? pick(lower);
}

export function generateReleases(commits: readonly CommitRecord[], settings: GenerationSettings, options: ReleaseOptions = {}): ReleaseNote[] {
  const versions = options.versions ?? buildVersionIndex(commits, { releaseOnly: options.releaseOnly });
  const list = options.prepared ?? prepareCommits(commits, settings);
  const prepared = new Map<string, PreparedCommit>();
  for (const p of list) prepared.set(p.record.sha, p);
  const visible = new Set(settings.sections.filter((s) => s.visible).map((s) => s.key));

  // Components that have a tag series of their own: their commits are that package's, not the root's.
  const packageOf = (component: string) => {
    const series = versions.seriesOfComponent(component);
    return series !== null && series !== versions.rootSeries ? series : null;
  };
  const belongs = (p: PreparedCommit, series: string): boolean => {
    if (series === versions.rootSeries) return !p.components.length || p.components.some((c) => packageOf(c) === null);
    return p.components.some((c) => packageOf(c) === series);
  };

  const memberships = releaseMembers(versions);
  const shipped = shippedCopies(memberships, prepared, sameChanges(list));
  const host = options.pullRequests ? hostData(options.pullRequests, commits, versions, options.warnings ?? []) : null;
  const firsts = host ? firstContributions(list, host, settings) : null;

  const notes: ReleaseNote[] = [];
  for (const { release, previous, shas } of memberships) {
    const series = release ? release.series : versions.rootSeries;
    const members: PreparedCommit[] = [];
    for (const sha of shas) {
      const p = prepared.get(sha);
      // A PR's merge commit (skipped as a merge) is folded into the PR's item.
      if (!p || (p.classified.skip && !(host && inPullRequest(host, p)))) continue;
      if (series !== null && versions.series.size > 1 && !belongs(p, series)) continue;
      // A change whose copy (a cherry-pick onto a maintenance branch) an earlier release already shipped.
      if (shipped.size && shipped.get(p)?.some((r) => shippedBefore(r, release, series))) continue;
      members.push(p);
    }
    // Arrival order, a merged branch's commits in the order they were made: the last of several updates
    // of one dependency is the version the release ships.
    members.sort(byArrival);
    // A change and its revert inside one release cancel out; a revert of something already released stays.
    let kept = cancelReverts(members).kept;
    // Sections first, then visibility: a guessed feature of a patch release is shown or hidden as the fix it is
    // (before pull requests fold: a label is the maintainers' word and stands, like a declared type).
    if (isPatchStep(previous?.version ?? null, release?.version ?? null)) kept = kept.map(asPatchFix);
    let extras: NoteExtras | undefined;
    let listed = kept;
    if (host) {
      const folded = foldPullRequests(kept, host, host.configAt(release), settings);
      listed = folded.items;
      const newContributors = members.flatMap((p) => firsts!.get(p.record.sha) ?? []);
      const compare = compareUrl(settings, previous?.tag ?? null, release?.tag ?? null);
      extras = { shasOf: folded.shasOf, newContributors, compareUrl: compare };
    }
    const shown = listed.filter((p) => visible.has(p.classified.section));
    if (!release && !shown.length) continue;
    notes.push(releaseNote(release, previous, shown, settings, versions, extras));
  }
  // Newest first, Unreleased on top.
  return notes.sort((a, b) => (b.released_at ?? '\uffff').localeCompare(a.released_at ?? '\uffff') || a.key.localeCompare(b.key));
}

/**
 * A patch release (x.y.Z over x.y.z, both final) ships no features by the project's own semver: a change
 * guessed to be a feature from its words or its diff (`Sort manual chunks by execution order`,
 * `Support @__PURE__ when nested after new`) is a fix there, as its maintainers file it. A type the project
 * declared (`feat:`, a gitmoji, `[feature]`) stands.
 */
export function isPatchStep(previous: semver.SemVer | null, version: semver.SemVer | null): boolean {
  if (!previous || !version || previous.prerelease.length || version.prerelease.length) return false;
  return previous.major === version.major && previous.minor === version.minor && version.patch > previous.patch;
}

// A PR's labels or a fragment's type are declared too (pull-request-items.ts); a PR filed by its title is not.
const DECLARED_RULES = /^(conventional|legacy-tag|gitmoji|fragment|pull-request:[a-z]+\+(labels|fragment|declared))/;

/** The commit as a patch release's note lists it (see isPatchStep). */
export function asPatchFix(p: PreparedCommit): PreparedCommit {
  if (p.classified.section !== 'feature' || DECLARED_RULES.test(p.classified.rule)) return p;
  return { ...p, classified: { ...p.classified, section: 'fix' } };
}

/**
 * For each commit that is one change with others (same-change.ts): the releases whose notes list one
 * of those others. Read once for the whole history; most commits are in no such group.
 */
function shippedCopies(
  memberships: readonly ReleaseMembers[],
  prepared: ReadonlyMap<string, PreparedCommit>,
  groups: ReadonlyMap<PreparedCommit, readonly PreparedCommit[]>,
): Map<PreparedCommit, ReleaseTag[]> {
  const out = new Map<PreparedCommit, ReleaseTag[]>();
  if (!groups.size) return out;
  const releasesOf = new Map<PreparedCommit, ReleaseTag[]>();
  for (const { release, shas } of memberships) {
    if (!release) continue;
    for (const sha of shas) {
      const p = prepared.get(sha);
      if (!p || !groups.has(p)) continue;
      const list = releasesOf.get(p);
      if (list) list.push(release);
      else releasesOf.set(p, [release]);
    }
  }
  for (const [p, group] of groups) {
    const releases = group.flatMap((q) => (q === p ? [] : (releasesOf.get(q) ?? [])));
    if (releases.length) out.set(p, releases);
  }
  return out;
}

/**
 * Whether `earlier` shipped before `release` for its readers: a lower version of the same series,
 * released no later, and a final release for a final's note (which covers its own pre-releases). For
 * Unreleased (`release` null), any release of the series.
 */
function shippedBefore(earlier: ReleaseTag, release: ReleaseTag | null, series: string | null): boolean {
  if (series !== null && earlier.series !== series) return false;
  if (!release) return true;
  if (earlier === release || earlier.at > release.at || semver.gte(earlier.version, release.version)) return false;
  return release.version.prerelease.length > 0 || earlier.version.prerelease.length === 0;
}

/** What a note made with the host's pull requests adds (pull-request-items.ts). */
interface NoteExtras {
  /** The commits a PR's item stands for. */
  shasOf: ReadonlyMap<PreparedCommit, readonly string[]>;
  newContributors: NewContributor[];
  compareUrl: string | null;
}

function releaseNote(
  release: ReleaseTag | null,
  previous: ReleaseTag | null,
  commits: PreparedCommit[],
  settings: GenerationSettings,
  versions: VersionIndex,
  extras?: NoteExtras,
): ReleaseNote {
  const tags = [...new Set(commits.flatMap((p) => p.components))].sort();
  const teamAttribution = attribute(commits.map((p) => ({ commit: p.classified, teams: p.teams })));
  const title = release ? release.tag : 'Unreleased';
  const json: GeneratedJson = {
    title,
    headline_items: headlineItems(commits, settings.headlineLimit, undefined, new Set(settings.sections.filter((s) => s.visible).map((s) => s.key))),
    sections: buildSections(commits, settings),
    component_tags: tags,
    team_attribution: teamAttribution,
  };
  if (extras?.newContributors.length) json.new_contributors = extras.newContributors;
  if (extras?.compareUrl) json.compare_url = extras.compareUrl;
  const tagged = release ? versions.graph.indexOf(release.sha) : undefined;
  const note: ReleaseNote = {
    key: release ? `release:${release.tag}` : UNRELEASED_KEY,
    tag: release?.tag ?? null,
    package: release && release.series !== ROOT_SERIES ? release.series : null,
    version: release?.version.version ?? null,
    prerelease: release ? release.version.prerelease.length > 0 : false,
    previous_tag: previous?.tag ?? null,
    released_at: release && tagged !== undefined ? new Date(release.at).toISOString() : null,
    title,
    content: json.sections.length ? renderMarkdown(json, settings) : '',
    generated_json: json,
    team_attribution: teamAttribution,
    component_tags: tags,
    commit_shas: extras ? commits.flatMap((p) => extras.shasOf.get(p) ?? [p.record.sha]) : commits.map((p) => p.record.sha),
    fingerprint: '',
  };
  // Like an entry's: content stands for the sections, components and attribution it renders.
  const parts = [
    note.key,
    note.version ?? '',
    note.previous_tag ?? '',
    note.released_at ?? '',
    title,
    note.content,
    JSON.stringify(json.headline_items),
    note.commit_shas.join(','),
  ];
  note.fingerprint = hash('sha256', parts.join('\u0000'), 'hex').slice(0, 32);
  return note;
}
