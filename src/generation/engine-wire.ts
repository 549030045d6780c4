/**
 * What crosses between the HTTP process and the generation thread, in forms that cross cheaply.
 * Structured cloning 11k commit objects (and their 140k `[status, path]` pairs) costs far more than
 * the engine's own work on the main thread; one long string and an array of lengths copy in a few
 * milliseconds. Entries come back as the JSON storage writes, serialised in the thread.
 */
import type { Change, CoAuthor, CommitRecord, FragmentFile } from '../git/commit-record.js';
import type { DependencyChanges } from '../git/manifests.js';
import type { ReleaseNote } from './engine/releases.js';
import type { GeneratedEntry, GeneratedEntryType } from './engine/types.js';

/**
 * A commit as the engine is handed it. `changes` and `coAuthors` may still be the JSON text storage
 * holds: the HTTP process has no use for the 140k paths, and a crafted message's thousands of
 * co-author trailers are parsed in the thread like the rest of the untrusted text.
 */
export interface EngineCommit extends Omit<CommitRecord, 'changes' | 'coAuthors' | 'dependencies' | 'fragments'> {
  changes: Change[] | string;
  coAuthors: CoAuthor[] | string;
  /** As stored (JSON text, migrations/0036) or parsed; absent when ingest did not read the manifests. */
  dependencies?: DependencyChanges | string;
  /** As stored (JSON text, migrations/0041) or parsed; absent when the commit adds none. */
  fragments?: FragmentFile[] | string;
}

/** Nearly every commit has no co-author: its `[]` needs no parser. */
const parseCoAuthors = (json: string): CoAuthor[] => (json === '[]' ? [] : (JSON.parse(json) as CoAuthor[]));

const parseDependencies = (d: DependencyChanges | string): DependencyChanges => (typeof d === 'string' ? (JSON.parse(d) as DependencyChanges) : d);

const parseFragments = (f: FragmentFile[] | string): FragmentFile[] => (typeof f === 'string' ? (JSON.parse(f) as FragmentFile[]) : f);

/** The commits with their JSON fields parsed (the inline engine's step; the thread's is `unpackCommits`). */
export function toCommitRecords(commits: readonly EngineCommit[]): CommitRecord[] {
  return commits.map((c) => {
    if (typeof c.changes !== 'string' && typeof c.coAuthors !== 'string' && typeof c.dependencies !== 'string' && typeof c.fragments !== 'string')
      return c as CommitRecord;
    const { dependencies, fragments, ...rest } = c;
    return {
      ...rest,
      changes: typeof c.changes === 'string' ? (JSON.parse(c.changes) as Change[]) : c.changes,
      coAuthors: typeof c.coAuthors === 'string' ? parseCoAuthors(c.coAuthors) : c.coAuthors,
      ...(dependencies !== undefined ? { dependencies: parseDependencies(dependencies) } : {}),
      ...(fragments !== undefined ? { fragments: parseFragments(fragments) } : {}),
    };
  });
}

/**
 * Commits as one string of all their text fields (changes and co-authors as JSON) and the lengths
 * (and counts) that cut it up. The PR number rides in `lengths` too (0 for none: PR numbers start at 1).
 */
export interface PackedCommits {
  count: number;
  text: string;
  lengths: Uint32Array;
}

/** Appends one commit's strings to `parts` and its lengths and counts to `lengths`. */
function packOne(c: EngineCommit, parts: string[], lengths: number[]): void {
  const put = (s: string) => {
    parts.push(s);
    lengths.push(s.length);
  };
  put(c.sha);
  lengths.push(c.parents.length);
  for (const p of c.parents) put(p);
  put(c.author.name);
  put(c.author.email);
  put(c.author.date);
  put(c.committer.name);
  put(c.committer.email);
  put(c.committer.date);
  put(c.message);
  put(typeof c.changes === 'string' ? c.changes : JSON.stringify(c.changes));
  lengths.push(c.tags.length);
  for (const t of c.tags) put(t);
  put(typeof c.coAuthors === 'string' ? c.coAuthors : JSON.stringify(c.coAuthors));
  lengths.push(c.prNumber ?? 0);
  // '' for none: the JSON of a DependencyChanges is never empty.
  put(c.dependencies === undefined ? '' : typeof c.dependencies === 'string' ? c.dependencies : JSON.stringify(c.dependencies));
  // The release configuration: a flag (its '' means "deleted", not "absent"), then its text.
  lengths.push(c.releaseConfig === undefined ? 0 : 1);
  if (c.releaseConfig !== undefined) put(c.releaseConfig);
  // '' for none: the JSON of a fragment list is never empty.
  put(c.fragments === undefined ? '' : typeof c.fragments === 'string' ? c.fragments : JSON.stringify(c.fragments));
}

/** Commits packed at most this many, or this many characters, at a time, the event loop free in between. */
const PACK_SLICE = 2_000;
const PACK_SLICE_CHARS = 4 * 1024 * 1024;

/**
 * Packs the commits a slice at a time with a turn of the event loop between slices: packing 50,000
 * commits at once held the HTTP server's event loop for over 100 ms (a preview or a run from the
 * dashboard packs the project's whole history).
 */
export async function packCommits(commits: readonly EngineCommit[]): Promise<PackedCommits> {
  const texts: string[] = [];
  const lengths: number[] = [];
  let i = 0;
  while (i < commits.length) {
    if (i) await new Promise((resolve) => setImmediate(resolve));
    const parts: string[] = [];
    const end = Math.min(commits.length, i + PACK_SLICE);
    // A slice also ends after about 4 MB of text: a few commits can carry messages of tens of megabytes.
    for (let chars = 0; i < end && chars < PACK_SLICE_CHARS; i++) {
      const from = parts.length;
      packOne(commits[i]!, parts, lengths);
      for (let p = from; p < parts.length; p++) chars += parts[p]!.length;
    }
    texts.push(parts.join(''));
  }
  return { count: commits.length, text: texts.join(''), lengths: Uint32Array.from(lengths) };
}

export function unpackCommits({ count, text, lengths }: PackedCommits): CommitRecord[] {
  let at = 0;
  let li = 0;
  const next = () => {
    const end = at + lengths[li++]!;
    const s = text.slice(at, end);
    at = end;
    return s;
  };
  const commits: CommitRecord[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const sha = next();
    const parents: string[] = new Array(lengths[li++]!);
    for (let j = 0; j < parents.length; j++) parents[j] = next();
    const author = { name: next(), email: next(), date: next() };
    const committer = { name: next(), email: next(), date: next() };
    const message = next();
    const changes = JSON.parse(next()) as Change[];
    const tags: string[] = new Array(lengths[li++]!);
    for (let j = 0; j < tags.length; j++) tags[j] = next();
    const coAuthors = parseCoAuthors(next());
    const prNumber = lengths[li++]! || null;
    const dependencies = next();
    const releaseConfig = lengths[li++]! ? next() : undefined;
    const fragments = next();
    const commit: CommitRecord = { sha, parents, author, committer, message, changes, tags, coAuthors, prNumber };
    if (dependencies) commit.dependencies = JSON.parse(dependencies) as DependencyChanges;
    if (releaseConfig !== undefined) commit.releaseConfig = releaseConfig;
    if (fragments) commit.fragments = JSON.parse(fragments) as FragmentFile[];
    commits[i] = commit;
  }
  if (at !== text.length || li !== lengths.length) throw new Error('packed commits do not match their lengths');
  return commits;
}

/** An entry as storage needs it: what it compares, and the columns it writes as one JSON object. */
export interface EntryToStore {
  key: string;
  entry_type: GeneratedEntryType;
  fingerprint: string;
  commit_sha: string | null;
  /** A rollup's period end (exclusive, ISO 8601 UTC); null for commit entries. */
  period_end: string | null;
  /**
   * The commits of an entry storage does not hold yet (whether it is history is decided from
   * them); null for a stored one, which keeps its status.
   */
  commit_shas: string[] | null;
  /**
   * When a commit entry's commit reached the tracked branch (epoch ms, engine/arrival.ts), which tells
   * storage whether a new entry is history (history.ts); null for rollups.
   */
  arrived_at: number | null;
  /**
   * The generated columns as a JSON object (the record `jsonb_to_recordset` reads, without the
   * row's commit id, status or entry id); null when the stored entry has this fingerprint already.
   */
  record: string | null;
}

/**
 * The entry for storage; `storedFingerprint` is what storage holds under its key, if anything;
 * `arrivedAt` when its commit reached the tracked branch (commit entries).
 */
export function entryToStore(entry: GeneratedEntry, storedFingerprint: string | undefined, arrivedAt: number | null = null): EntryToStore {
  return {
    key: entry.key,
    entry_type: entry.entry_type,
    fingerprint: entry.fingerprint,
    commit_sha: entry.commit_sha,
    period_end: entry.period_end,
    commit_shas: storedFingerprint === undefined ? entry.commit_shas : null,
    arrived_at: arrivedAt,
    record:
      storedFingerprint === entry.fingerprint
        ? null
        : JSON.stringify({
            generation_key: entry.key,
            entry_type: entry.entry_type,
            title: entry.title,
            content: entry.content,
            generated_json: entry.generated_json,
            version_label: entry.version_label,
            team_attribution: entry.team_attribution,
            component_tags: entry.component_tags,
            commit_shas: entry.commit_shas,
            period_start: entry.period_start,
            period_end: entry.period_end,
            fingerprint: entry.fingerprint,
          }),
  };
}

/** A release note as storage needs it: its key and fingerprint, and the columns to write as one JSON object. */
export interface ReleaseToStore {
  key: string;
  fingerprint: string;
  /** The release tag (null: Unreleased) and when it reached the branch (epoch ms): whether the note is history (history.ts). */
  tag: string | null;
  releasedAt: number | null;
  /** The note's columns as a JSON object (`jsonb_to_recordset`'s record); null when storage holds this fingerprint. */
  record: string | null;
}

export function releaseToStore(note: ReleaseNote, storedFingerprint: string | undefined): ReleaseToStore {
  return {
    key: note.key,
    fingerprint: note.fingerprint,
    tag: note.tag,
    releasedAt: note.released_at === null ? null : Date.parse(note.released_at),
    record:
      storedFingerprint === note.fingerprint
        ? null
        : JSON.stringify({
            key: note.key,
            tag: note.tag,
            package: note.package,
            version: note.version,
            prerelease: note.prerelease,
            previous_tag: note.previous_tag,
            released_at: note.released_at,
            title: note.title,
            content: note.content,
            generated_json: note.generated_json,
            team_attribution: note.team_attribution,
            component_tags: note.component_tags,
            commit_shas: note.commit_shas,
            fingerprint: note.fingerprint,
          }),
  };
}
