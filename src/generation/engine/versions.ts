/**
 * Tags → version labels. A release tag is one whose name ends in a semantic version (`v1.2.3`,
 * `1.2.3-rc.1`, `pkg@1.2.3`). Tags form one series per package: `v1.2.3` and bare `1.2.3` (and
 * `release-1.2.3`) are the root package's, `name@1.2.3`, `name/v1.2.3` and `name-v1.2.3` are package
 * `name`'s. Commit entries get the first release of their own component's series (else the root's)
 * whose history contains the commit; rollups get the root package's release in their window when
 * there is one. A final release is never hidden by a pre-release of the same version.
 */
import semver from 'semver';
import { computeArrivals, type ArrivalIndex } from './arrival.js';
import { buildCommitGraph, type CommitGraph } from './graph.js';
import type { CommitRecord } from '../../git/commit-record.js';

const RELEASE_TAG = /^(?:(.*?)[@/_-])?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;

/** Prefixes that say "this is a release" rather than name a package: `release-1.2.3` is the root's. */
const ROOT_PREFIXES = new Set(['release', 'releases', 'version', 'versions', 'rel', 'tag', 'tags', 'stable', 'v']);

const MAX_TAG_LENGTH = 300;

/** The series key of the root package (`v*` and bare versions). */
export const ROOT_SERIES = '';

/** The package a tag belongs to (ROOT_SERIES for the root) and the version it names, or null. */
export function parseReleaseTag(tag: string): { series: string; version: semver.SemVer } | null {
  // The regex retries its version part after every separator: quadratic on a long tag name. No
  // release tag is this long (semver itself refuses versions over 256 characters).
  if (tag.length > MAX_TAG_LENGTH) return null;
  const m = RELEASE_TAG.exec(tag.trim());
  const version = m ? semver.parse(m[2]!) : null;
  if (!m || !version) return null;
  const prefix = m[1] ?? '';
  return { series: !prefix || ROOT_PREFIXES.has(prefix.toLowerCase()) ? ROOT_SERIES : prefix, version };
}

/** The semantic version a tag names, or null when the tag is not a release tag. */
export function tagVersion(tag: string): semver.SemVer | null {
  return parseReleaseTag(tag)?.version ?? null;
}

/**
 * When a tagged commit was released: when it reached the tracked branch (arrival.ts). A tag made on
 * a release branch's commit ships with the merge that brings it, not at its own committer date
 * (lightweight tags carry no date of their own). Without arrivals, the committer date.
 */
export function releaseTime(commit: Pick<CommitRecord, 'sha' | 'committer'>, arrival?: ArrivalIndex): number {
  return arrival?.get(commit.sha)?.at ?? Date.parse(commit.committer.date);
}

export interface ReleaseTag {
  tag: string;
  version: semver.SemVer;
  /** ROOT_SERIES for the root package, else the package name as the tag spells it. */
  series: string;
  sha: string;
  /** When the release reached the tracked branch (`releaseTime` of the tagged commit); on a release branch, its own branch. */
  at: number;
  /** Whether the tagged commit is on the tracked branch (not only on a release branch such as `5.x`). */
  tracked: boolean;
}

export interface VersionIndex {
  /**
   * First release containing the commit in the series of the first of `components` that has one,
   * else in the root's; null until released. A pre-release's commits carry the final release of the
   * same version once that final contains them.
   */
  labelOf(sha: string, components?: readonly (string | null)[]): string | null;
  /**
   * The root package's best release tagged in [start, end) on the tracked branch, else any package's:
   * finals before pre-releases, then the highest. Rollups are the tracked branch's: a maintenance
   * release of the same week on `5.x` does not label them.
   */
  highestIn(start: Date, end: Date): string | null;
  /** Every release tag, earliest first. */
  releases: readonly ReleaseTag[];
  /** Release tags per series, earliest first. */
  series: ReadonlyMap<string, readonly ReleaseTag[]>;
  /** The series that stands for the whole repository: the root's, else the only one; null when there is none. */
  rootSeries: string | null;
  /** The series of a component (`create-app` for `create-app@1.0.0` or `@org/create-app@1.0.0`), if it has tags. */
  seriesOfComponent(component: string): string | null;
  /**
   * The earliest release of `series` (by release time) whose history contains the commit: the release
   * that shipped it first, before any moving of pre-releases' commits to their final. Null when none.
   */
  firstRelease(sha: string, series: string): ReleaseTag | null;
  /** Commits only release branches reach (empty when the link tracks none). */
  releaseOnly: ReadonlySet<string>;
  graph: CommitGraph;
}

/** What the index reads of a commit (the service passes commits whose changes are still JSON text). */
type VersionedCommit = Pick<CommitRecord, 'sha' | 'parents' | 'tags' | 'committer' | 'message'>;

export interface VersionIndexOptions {
  graph?: CommitGraph;
  /** Arrivals read from the same commits (the engine's); computed here when absent. */
  arrival?: ArrivalIndex;
  /** The tracked branch names, for computing arrivals. */
  trunk?: readonly string[] | undefined;
  /** Commits only release branches reach: their tags make releases, but label no rollup. */
  releaseOnly?: ReadonlySet<string> | undefined;
}

const isFinal = (r: ReleaseTag) => r.version.prerelease.length === 0;

/** Earliest first; on one commit a final release beats its pre-releases, then the lower version. */
function byTime(a: ReleaseTag, b: ReleaseTag): number {
  return a.at - b.at || Number(!isFinal(a)) - Number(!isFinal(b)) || semver.compare(a.version, b.version) || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);
}

export function buildVersionIndex(commits: readonly VersionedCommit[], options: VersionIndexOptions = {}): VersionIndex {
  const graph = options.graph ?? buildCommitGraph(commits);
  const releases: ReleaseTag[] = [];
  const releaseOnly = options.releaseOnly ?? new Set<string>();
  let arrival = options.arrival;
  for (const c of commits) {
    for (const tag of c.tags) {
      const parsed = parseReleaseTag(tag);
      if (!parsed) continue;
      arrival ??= computeArrivals(commits, { trunk: options.trunk, releaseOnly });
      releases.push({ tag, version: parsed.version, series: parsed.series, sha: c.sha, at: releaseTime(c, arrival), tracked: !releaseOnly.has(c.sha) });
    }
  }
  releases.sort(byTime);
  const series = new Map<string, ReleaseTag[]>();
  for (const r of releases) {
    let list = series.get(r.series);
    if (!list) series.set(r.series, (list = []));
    list.push(r);
  }
  const trackedSeries = new Map<string, ReleaseTag[]>();
  const trackedReleases = releaseOnly.size ? releases.filter((r) => r.tracked) : releases;
  if (releaseOnly.size) {
    for (const r of trackedReleases) {
      let list = trackedSeries.get(r.series);
      if (!list) trackedSeries.set(r.series, (list = []));
      list.push(r);
    }
  }
  const rootSeries = series.has(ROOT_SERIES) ? ROOT_SERIES : series.size === 1 ? [...series.keys()][0]! : null;

  const byComponent = new Map<string, string>();
  for (const key of series.keys()) {
    if (key === ROOT_SERIES) continue;
    const name = key.toLowerCase();
    byComponent.set(name, key);
    // `@org/pkg` is the `pkg` folder's package; the full name wins if both are tagged.
    const bare = name.replace(/^@[^/]+\//, '');
    if (!byComponent.has(bare)) byComponent.set(bare, key);
  }

  // A component named by its manifest (`@vitejs/plugin-legacy`) finds the series its tags spell without the org (`plugin-legacy@2.1.0`).
  const seriesOf = (component: string): string | undefined => {
    const name = component.toLowerCase();
    return byComponent.get(name) ?? (name.startsWith('@') ? byComponent.get(name.slice(name.indexOf('/') + 1)) : undefined);
  };

  const labels = new Map<string | null, SeriesLabels>();
  /** Labels of one series (null: all series together), computed on first use. */
  const seriesLabels = (key: string | null): SeriesLabels => {
    let found = labels.get(key);
    if (!found) labels.set(key, (found = labelSeries(graph, key === null ? releases : (series.get(key) ?? []))));
    return found;
  };
  const labelsOf = (key: string | null): Map<string, string> => seriesLabels(key).labels;

  return {
    labelOf(sha, components = []) {
      for (const c of components) {
        const key = c ? seriesOf(c) : undefined;
        if (key !== undefined) return labelsOf(key).get(sha) ?? null;
      }
      return labelsOf(rootSeries).get(sha) ?? null;
    },
    highestIn(start, end) {
      const from = start.getTime();
      const to = end.getTime();
      const root = rootSeries === null ? undefined : (releaseOnly.size ? trackedSeries : series).get(rootSeries);
      return ((root ? bestIn(root, from, to) : null) ?? bestIn(trackedReleases, from, to))?.tag ?? null;
    },
    releases,
    series,
    rootSeries,
    seriesOfComponent: (component) => seriesOf(component) ?? null,
    firstRelease(sha, key) {
      if (!series.has(key)) return null;
      const { owner, releases: list } = seriesLabels(key);
      const i = graph.indexOf(sha);
      const r = i === undefined ? -1 : owner[i]!;
      return r === -1 ? null : list[r]!;
    },
    releaseOnly,
    graph,
  };

  function bestIn(list: readonly ReleaseTag[], from: number, to: number): ReleaseTag | null {
    // Sorted by time: find the first one in the window, then walk to its end.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.at < from) lo = mid + 1;
      else hi = mid;
    }
    let best: ReleaseTag | null = null;
    for (let i = lo; i < list.length && list[i]!.at < to; i++) {
      const r = list[i]!;
      if (!best || Number(isFinal(r)) - Number(isFinal(best)) > 0 || (isFinal(r) === isFinal(best) && semver.compare(r.version, best.version) > 0)) best = r;
    }
    return best;
  }
}

/**
 * sha → tag: everything reachable from a release and not from an earlier one belongs to it. A
 * labelled commit's ancestors are labelled too (by that earlier tag or before), so each walk stops
 * there and the whole labelling is one pass over the history. Then the commits of a pre-release
 * move to the final release of the same version when the final contains the pre-release.
 */
interface SeriesLabels {
  /** sha → the tag that labels it (a pre-release's commits: its final's once the final contains them). */
  labels: Map<string, string>;
  /** Commit index → index in `releases` of the earliest release containing it, -1 for none. */
  owner: Int32Array;
  releases: readonly ReleaseTag[];
}

function labelSeries(graph: CommitGraph, releases: readonly ReleaseTag[]): SeriesLabels {
  const owner = new Int32Array(graph.size).fill(-1);
  releases.forEach((release, r) => {
    const from = graph.indexOf(release.sha);
    if (from === undefined || owner[from] !== -1) return;
    for (const i of graph.walk(from, (i) => owner[i] !== -1)) owner[i] = r;
  });
  const finalOf = releases.map((release) => {
    if (isFinal(release)) return release.tag;
    const core = `${release.version.major}.${release.version.minor}.${release.version.patch}`;
    const pre = graph.indexOf(release.sha);
    const final = releases.find(
      (f) => f.series === release.series && isFinal(f) && f.version.version === core && pre !== undefined && graph.isAncestor(pre, graph.indexOf(f.sha)!),
    );
    return final?.tag ?? release.tag;
  });
  const out = new Map<string, string>();
  for (let i = 0; i < graph.size; i++) if (owner[i] !== -1) out.set(graph.shas[i]!, finalOf[owner[i]!]!);
  return { labels: out, owner, releases };
}
