/**
 * Tags → version labels. A release tag is one whose name ends in a semantic version (`v1.2.3`,
 * `1.2.3-rc.1`, `pkg@1.2.3`). Commit entries get the first release tag whose history contains the
 * commit; rollups get the highest version tagged inside their window.
 */
import semver from 'semver';
import type { CommitRecord } from './types.js';

const VERSION_AT_END = /^(?:.*?[@/_-])?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;

const MAX_TAG_LENGTH = 300;

/** The semantic version a tag names, or null when the tag is not a release tag. */
export function tagVersion(tag: string): semver.SemVer | null {
  // The regex retries its version part after every separator: quadratic on a long tag name. No
  // release tag is this long (semver itself refuses versions over 256 characters).
  if (tag.length > MAX_TAG_LENGTH) return null;
  const m = VERSION_AT_END.exec(tag.trim());
  return m ? semver.parse(m[1]!) : null;
}

export interface ReleaseTag {
  tag: string;
  version: semver.SemVer;
  sha: string;
  /** When the tag was made: the tagged commit's committer date (lightweight tags carry no date of their own). */
  at: number;
}

export interface VersionIndex {
  /** First release tag containing the commit, if any. */
  labelOf(sha: string): string | null;
  /** Highest semver release tag created in [start, end). */
  highestIn(start: Date, end: Date): string | null;
  releases: readonly ReleaseTag[];
}

/** What the index reads of a commit (the service passes commits whose changes are still JSON text). */
type VersionedCommit = Pick<CommitRecord, 'sha' | 'parents' | 'tags' | 'committer'>;

export function buildVersionIndex(commits: readonly VersionedCommit[]): VersionIndex {
  const bySha = new Map<string, VersionedCommit>();
  for (const c of commits) bySha.set(c.sha, c);

  const releases: ReleaseTag[] = [];
  for (const c of commits) {
    for (const tag of c.tags) {
      const version = tagVersion(tag);
      if (version) releases.push({ tag, version, sha: c.sha, at: Date.parse(c.committer.date) });
    }
  }
  // Earliest release first; on one commit a final release beats its pre-releases, then the lower version.
  releases.sort(
    (a, b) =>
      a.at - b.at ||
      Number(a.version.prerelease.length > 0) - Number(b.version.prerelease.length > 0) ||
      semver.compare(a.version, b.version) ||
      a.tag.localeCompare(b.tag),
  );

  const label = new Map<string, string>();
  for (const release of releases) {
    // Everything reachable from this tag and not yet labelled belongs to it. A labelled commit's
    // ancestors are labelled too (by that earlier tag or before), so the walk stops there.
    const stack = [release.sha];
    while (stack.length) {
      const sha = stack.pop()!;
      if (label.has(sha)) continue;
      const commit = bySha.get(sha);
      if (!commit) continue;
      label.set(sha, release.tag);
      for (const p of commit.parents) if (!label.has(p)) stack.push(p);
    }
  }

  return {
    labelOf: (sha) => label.get(sha) ?? null,
    highestIn(start, end) {
      // Releases are sorted by time: find the first one in the window, then walk to its end.
      const from = start.getTime();
      const to = end.getTime();
      let lo = 0;
      let hi = releases.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (releases[mid]!.at < from) lo = mid + 1;
        else hi = mid;
      }
      let best: ReleaseTag | null = null;
      for (let i = lo; i < releases.length && releases[i]!.at < to; i++) {
        const r = releases[i]!;
        if (!best || semver.compare(r.version, best.version) > 0) best = r;
      }
      return best?.tag ?? null;
    },
    releases,
  };
}
