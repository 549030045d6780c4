/**
 * Dependency changes of every commit that touches a package manifest, and the release files maintainers
 * write (`.github/release.yml`, change fragments), from ONE `git log -p` limited to those paths with whole-file context: each diff then holds the file before (context and `-` lines)
 * and after (context and `+` lines), so no git process runs per commit or per blob, and no stdin is
 * needed. Streamed line by line under a time budget; a file past MAX_MANIFEST_BYTES is skipped.
 * Read from the same range as the commits, so `--diff-merges=first-parent` matches their changed paths.
 */
import { MAX_FRAGMENTS, MAX_FRAGMENT_BYTES, MAX_RELEASE_CONFIG_BYTES, type CommitRecord, type FragmentFile } from './commit-record.js';
import { isFragmentPath, isReleaseConfigPath, isToolingManifest } from './manifest-paths.js';
import { streamGitTokens, type GitOptions } from './git.js';
import {
  dependencyDelta,
  isManifestPath,
  MAX_MANIFEST_BYTES,
  MAX_PACKAGES,
  mergeChanges,
  readManifest,
  type DependencyChanges,
  type ManifestDependencies,
} from './manifests.js';

/** Context lines asked for: more than any manifest this reads has (MAX_MANIFEST_BYTES of lines). */
const WHOLE_FILE = MAX_MANIFEST_BYTES;
/** The read's own budget: a slow disk must not hold generation up; without it the engine falls back to words. */
export const MANIFEST_LOG_BUDGET_MS = 120_000;
const COMMIT = '\x1eC';

/**
 * The files read, as git pathspecs: the manifests, GitHub's release-notes configuration and the change
 * fragments `isFragmentPath` takes (towncrier's `changes/` only at the root: elsewhere it names code too).
 */
export const MANIFEST_PATHSPECS = [
  ':(glob)**/package.json',
  ':(glob)**/Cargo.toml',
  ':(glob)**/pyproject.toml',
  ':(glob)**/go.mod',
  '.github/release.yml',
  '.github/release.yaml',
  ':(glob).changeset/*.md',
  ':(glob)**/changelog.d/*',
  ':(glob)**/newsfragments/*',
  ':(glob)changes/*',
];

/** What ingest stores on a commit from this read (each field absent when the commit changes no such file). */
export type CommitFacts = Pick<CommitRecord, 'dependencies' | 'releaseConfig' | 'fragments'>;

export function manifestLogArgs(range: string[]): string[] {
  return [
    // --full-history: a merge the paths do not change must not hide its branch's manifest changes.
    'log',
    '-p',
    '--full-history',
    '--no-ext-diff',
    '--no-color',
    '--no-renames',
    '--diff-merges=first-parent',
    '--no-abbrev',
    `-U${WHOLE_FILE}`,
    `--format=${COMMIT}%H`,
    ...range,
    '--',
    ...MANIFEST_PATHSPECS,
  ];
}

interface FileDiff {
  path: string | null;
  added: boolean;
  deleted: boolean;
  before: string[];
  after: string[];
  bytes: number;
  tooLarge: boolean;
}

/** Manifest paths whose last version read is kept for the next (older) change of that path (at most 256 KiB each). */
const MANIFEST_MEMO = 64;

/** At most this much text of release configurations and fragments is kept from one read of a history (about 16 MB). */
const MAX_FACT_CHARS_PER_READ = 8 * 1024 * 1024;

/**
 * sha → the dependencies its manifest changes touch. Requirements on the repository's own packages
 * (any `name` its manifests declared, in the history read) are left out: releases bump those.
 * Also the release configuration as the commit left it ('' when deleted) and the fragments it adds, each capped.
 */
export async function readCommitFacts(range: string[], options: GitOptions): Promise<Map<string, CommitFacts>> {
  const files = new Map<string, { releaseConfig?: string; fragments?: FragmentFile[] }>();
  const filesOf = (commit: string) => {
    let f = files.get(commit);
    if (!f) files.set(commit, (f = {}));
    return f;
  };
  const perCommit = new Map<string, Array<[ManifestDependencies | null, ManifestDependencies | null]>>();
  const packagesOf = new Map<string, Array<[string, string | null]>>();
  const localNames = new Set<string>();
  let sha: string | null = null;
  let file: FileDiff | null = null;
  let inHunk = false;
  // What one read keeps of release configurations and fragments, all commits together: git stores a file
  // repeated in 10,000 commits once, so the caps per commit alone would let a small repository fill gigabytes.
  let kept = 0;
  const spend = (chars: number) => (kept += chars) <= MAX_FACT_CHARS_PER_READ;

  // Newest first, a manifest's version before one commit is its version after the previous change of that
  // path: each path's last `before` is kept (the newest MANIFEST_MEMO paths), so most versions parse once.
  // Results are only read (dependencyDelta), so one object may serve two commits.
  const memo = new Map<string, { text: string; manifest: ManifestDependencies | null }>();
  const parsed = (path: string, text: string, remember = false): ManifestDependencies | null => {
    const known = memo.get(path);
    const manifest = known && known.text === text ? known.manifest : readManifest(path, text);
    if (remember) {
      memo.delete(path);
      memo.set(path, { text, manifest });
      if (memo.size > MANIFEST_MEMO) memo.delete(memo.keys().next().value!);
    }
    return manifest;
  };

  const finishFile = () => {
    if (!file || !sha || !file.path) return;
    if (isReleaseConfigPath(file.path)) {
      // Too large to read: as if unchanged (the configuration before stays in force; '' would mean deleted).
      if (file.tooLarge) return;
      const text = file.deleted ? '' : file.after.join('\n').slice(0, MAX_RELEASE_CONFIG_BYTES);
      if (!spend(text.length)) return;
      filesOf(sha).releaseConfig = text;
      return;
    }
    if (isFragmentPath(file.path)) {
      // Only a fragment the commit adds speaks for it (a release deletes the fragments it consumed).
      const f = filesOf(sha);
      if (file.added && !file.tooLarge && (f.fragments ??= []).length < MAX_FRAGMENTS) {
        const text = file.after.join('\n').slice(0, MAX_FRAGMENT_BYTES);
        if (spend(text.length)) f.fragments.push({ path: file.path, text });
      }
      return;
    }
    if (file.tooLarge || !isManifestPath(file.path)) return;
    const after = file.deleted ? null : parsed(file.path, file.after.join('\n'));
    const before = file.added ? null : parsed(file.path, file.before.join('\n'), true);
    for (const m of [before, after]) if (m?.name) localNames.add(m.name);
    if (!isToolingManifest(file.path)) {
      let named = packagesOf.get(sha);
      if (!named) packagesOf.set(sha, (named = []));
      const slash = file.path.lastIndexOf('/');
      if (named.length < MAX_PACKAGES) named.push([slash < 0 ? '' : file.path.slice(0, slash), after?.name ?? null]);
    }
    let list = perCommit.get(sha);
    if (!list) perCommit.set(sha, (list = []));
    list.push([before, after]);
  };

  const tokens = streamGitTokens(manifestLogArgs(range), {
    ...options,
    separator: 10,
    maxTokenBytes: 64 * 1024,
    timeoutMs: Math.min(options.timeoutMs ?? Infinity, MANIFEST_LOG_BUDGET_MS),
  });
  for await (const batch of tokens) {
    for (const line of batch) {
      if (line.startsWith(COMMIT)) {
        finishFile();
        file = null;
        inHunk = false;
        sha = line.slice(COMMIT.length).trim();
        continue;
      }
      if (line.startsWith('diff --git ')) {
        finishFile();
        file = { path: null, added: false, deleted: false, before: [], after: [], bytes: 0, tooLarge: false };
        inHunk = false;
        continue;
      }
      if (!file) continue;
      if (!inHunk) {
        if (line.startsWith('new file mode')) file.added = true;
        else if (line.startsWith('deleted file mode')) file.deleted = true;
        else if (line.startsWith('--- a/') && !file.path) file.path = line.slice(6);
        else if (line.startsWith('+++ b/')) file.path = line.slice(6);
        else if (line.startsWith('@@')) inHunk = true;
        continue;
      }
      if (line.startsWith('@@')) continue;
      if (file.tooLarge) continue;
      file.bytes += line.length + 1;
      if (file.bytes > 2 * MAX_MANIFEST_BYTES) {
        file.tooLarge = true;
        file.before = file.after = [];
        continue;
      }
      const mark = line.charCodeAt(0);
      const text = line.slice(1);
      if (mark === 32 /* ' ' */) {
        file.before.push(text);
        file.after.push(text);
      } else if (mark === 45 /* - */) file.before.push(text);
      else if (mark === 43 /* + */) file.after.push(text);
      // `\ No newline at end of file` and anything else: not file content.
    }
  }
  finishFile();

  const out = new Map<string, CommitFacts>();
  for (const [commit, manifests] of perCommit) {
    const changes: DependencyChanges = { runtime: [], dev: [] };
    for (const [before, after] of manifests) mergeChanges(changes, dependencyDelta(before, after, localNames));
    const named = packagesOf.get(commit);
    if (named?.length) changes.packages = named;
    out.set(commit, { dependencies: changes });
  }
  for (const [commit, f] of files) {
    if (f.releaseConfig === undefined && !f.fragments?.length) continue;
    const facts = out.get(commit) ?? {};
    if (f.releaseConfig !== undefined) facts.releaseConfig = f.releaseConfig;
    if (f.fragments?.length) facts.fragments = f.fragments;
    out.set(commit, facts);
  }
  return out;
}
