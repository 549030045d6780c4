import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Db } from '../db/database.js';
import type { RepoLinkRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { CommitRecord } from '../git/commit-record.js';
import type { CommitFacts } from '../git/manifest-log.js';
import { commitsRepository } from './commits.repository.js';
import { linksRepository } from './links.repository.js';
import { readCommits } from '../git/git-log.js';
import { GitError, redactGitOutput } from '../git/git.js';
import { redactSourcesIn } from '../git/source-name.js';
import type { InstallationTokens } from './installation-tokens.js';
import { createLinkLock, LinkLockAborted } from './link-lock.js';
import { ensurePrivateDir } from '../private-dir.js';
import { checkRestrictedSource, STORED_LINK, type SourcePolicy } from './source-policy.js';
import {
  branchTips,
  countCommits,
  isAncestor,
  MAX_TAGS,
  mirrorRefs,
  reachableShas,
  codeownersRequest,
  codeownersText,
  readTipFiles,
  type TipFile,
  readMirrorCommitFacts,
  releaseBranches,
  revList,
  syncMirror,
  type GitSource,
  type ReleaseBranches,
} from '../git/mirror.js';
import { MAX_RELEASE_BRANCHES } from '../git/release-branches.js';
import { calibrate, CHANGELOG_PATHS } from '../generation/calibration.js';

/**
 * The tags of a mirror (commit → names, each list sorted), as one digest: equal digests, equal tags.
 * Names cannot hold a newline or a space (git check-ref-format), so the text is unambiguous.
 */
function tagsDigest(tags: Map<string, string[]>): string {
  const lines = [...tags].map(([sha, names]) => `${sha} ${names.join(' ')}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** The commits of an empty range, without a git process. */
async function* noCommits(): AsyncGenerator<CommitRecord> {}

/** Rows per INSERT: large enough to amortise round trips, small enough to keep memory flat. */
const BATCH_SIZE = 1000;

/** The link's status after an ingest that read only the newest MAX_TAGS tags. */
export const TAGS_CUT_WARNING = `The repository has more than ${MAX_TAGS.toLocaleString('en')} tags: only the newest ${MAX_TAGS.toLocaleString('en')} were read, so older ones make no release notes`;

/** The link's status after an ingest whose release-branch patterns matched more branches than it reads. */
export const releaseBranchesCutWarning = (matched: number) =>
  `The release-branch patterns match ${matched.toLocaleString('en')} branches: only the newest ${MAX_RELEASE_BRANCHES} (by name) were read`;

/** An ingest stopped between two batches because the process is shutting down. */
export class IngestInterrupted extends Error {
  constructor(readonly stored: number) {
    super(`ingest interrupted by shutdown after ${stored} new commits; it resumes at the next start`);
  }
}

export interface IngestProgress {
  /** Commits read from git so far in this run. */
  done: number;
  /** Commits this run walks (new since the last ingest, or the whole branch). */
  total: number;
}

export interface IngestOptions {
  onProgress?: (progress: IngestProgress) => void;
  /**
   * Called after each stored batch. Tests throw from it to stop an ingest half-way, like a
   * crash between two batches would.
   */
  afterBatch?: (stored: number) => void;
  /**
   * Aborted when the process is shutting down: the ingest ends after the batch being stored and
   * throws `IngestInterrupted`, leaving the link "ingesting" so the next start resumes it.
   */
  signal?: AbortSignal;
  /**
   * Runs once everything is stored, before the link's sync goes back to idle: the ingest job queues
   * generation here, so that a page reloading while either is pending never sees neither.
   */
  beforeIdle?: (result: IngestResult) => Promise<void>;
}

export interface IngestResult {
  linkId: string;
  projectId: string;
  status: 'active' | 'skipped';
  /** Commits stored by this run. */
  added: number;
  /** Commits walked by this run. */
  walked: number;
  /** Commits that a force-push made unreachable in this run. */
  unreachable: number;
  /**
   * Commits a force-push had dropped that are back on the branch: stored long ago, so generation
   * must read them again in full (a run of what this ingest stored would not touch them).
   */
  returned: number;
  /** Commits stored before whose tags this run added, moved or removed. */
  retagged: number;
  tip: string | null;
  /**
   * Whether the run changed anything generation reads: commits stored, dropped or back on the
   * branch, tags added, moved or removed, the CODEOWNERS file. A poll that finds nothing new leaves
   * generation alone (a run reads the whole history: about a second of CPU for 10k commits).
   */
  changed: boolean;
}

export interface IngestDeps {
  reposDir: string;
  /** Tokens for GitHub links; absent (null) where GitHub is not configured. */
  installationTokens: InstallationTokens | null;
  /** Seconds a link's ingest lease lasts unless renewed (link-lock.ts); tests shorten it. */
  leaseSeconds?: number;
  /** What links made from the dashboard may reach, checked again before each of their fetches. */
  policy?: SourcePolicy;
}

/**
 * What the range's commits change in their manifests' dependencies, or nothing when that read fails
 * or runs out of its budget: the commits are stored without it and the engine goes by words and paths.
 */
function dependencyChangesOf(dir: string, source: GitSource, range: string[]): Promise<Map<string, CommitFacts>> {
  return readMirrorCommitFacts(dir, source, range).catch(() => new Map<string, CommitFacts>());
}

/** The commit with what the read found of its manifests' dependencies, release configuration and change fragments. */
function withDependencies(commit: CommitRecord, facts: ReadonlyMap<string, CommitFacts>): CommitRecord {
  const f = facts.get(commit.sha);
  if (f?.dependencies) commit.dependencies = f.dependencies;
  if (f?.releaseConfig !== undefined) commit.releaseConfig = f.releaseConfig;
  if (f?.fragments) commit.fragments = f.fragments;
  return commit;
}

/**
 * Brings a link's stored commits in line with its tracked branch: fetch into the mirror, store
 * the commits not stored yet (in batches, each one statement, so a crash leaves whole commits
 * only and the next run skips them), mark commits a force-push dropped as unreachable, and sync
 * tags. The link's `last_ingested_sha` moves only after everything is stored.
 */
export function createIngestService(db: Db, deps: IngestDeps) {
  const mirrorDir = (link: RepoLinkRow) => join(deps.reposDir, `${link.id}.git`);

  async function sourceOf(link: RepoLinkRow): Promise<GitSource | null> {
    if (link.kind === 'local') {
      if (!link.restricted) return { url: link.source_url };
      // Linked from the dashboard: the path may have become a symlink out, the name may resolve
      // elsewhere now; the fetch connects to the address checked here, or reads the path only after
      // checking it again (mirror.ts, GitSource.confine).
      return (await checkRestrictedSource(link.source_url, deps.policy ?? { pathsAllowed: [] }, STORED_LINK)).git;
    }
    if (!link.installation_id) return null;
    if (!deps.installationTokens) throw new AppError('unavailable', 'GitHub is not configured on this server');
    const token = await deps.installationTokens.installationToken(link.installation_id);
    return token === null ? null : { url: link.source_url, token };
  }

  // Ingests of one link run one after the other: in this process they queue here, and every
  // process takes the link's lease (they share the mirror).
  const running = new Map<string, Promise<unknown>>();
  const withLinkLock = createLinkLock(db, deps.leaseSeconds !== undefined ? { leaseSeconds: deps.leaseSeconds } : {});

  async function ingestLink(linkId: string, options: IngestOptions = {}): Promise<IngestResult> {
    const previous = running.get(linkId) ?? Promise.resolve();
    const run = previous
      // Ignored: the previous ingest's failure is its own caller's; this one only waits its turn.
      .catch(() => {})
      .then(() =>
        // Losing the lease stops the ingest at its next batch, as a shutdown does (retried later).
        withLinkLock(
          linkId,
          (leaseLost) => ingestUnlocked(linkId, { ...options, signal: options.signal ? AbortSignal.any([options.signal, leaseLost]) : leaseLost }),
          options.signal,
        ).catch((error: unknown) => {
          // Stopping while another process ingests the link: nothing was done, the job is retried.
          throw error instanceof LinkLockAborted ? new IngestInterrupted(0) : error;
        }),
      );
    running.set(linkId, run);
    try {
      return await run;
    } finally {
      if (running.get(linkId) === run) running.delete(linkId);
    }
  }

  async function ingestUnlocked(linkId: string, options: IngestOptions): Promise<IngestResult> {
    const link = await linksRepository.findLink(db, linkId);
    if (!link) throw new AppError('not_found', 'Repository link not found');
    const skipped: IngestResult = {
      linkId,
      projectId: link.project_id,
      status: 'skipped',
      added: 0,
      walked: 0,
      unreachable: 0,
      returned: 0,
      retagged: 0,
      tip: link.last_ingested_sha,
      changed: false,
    };
    if (link.status === 'suspended') {
      await linksRepository.setSyncState(db, link.id, { state: 'idle' });
      return skipped;
    }
    let source: GitSource | null;
    try {
      source = await sourceOf(link);
    } catch (error) {
      await recordFailure(link, error);
      throw error;
    }
    if (!source) {
      await linksRepository.setLinkStatus(db, link.id, 'suspended');
      await linksRepository.setSyncState(db, link.id, { state: 'idle' });
      return skipped;
    }

    await linksRepository.startIngest(db, link.id);
    // Progress is written for the project page at most once a second (and at the end).
    let progressWritten = 0;
    const onProgress = (progress: IngestProgress) => {
      options.onProgress?.(progress);
      const now = Date.now();
      if (now - progressWritten < 1000 && progress.done < progress.total) return;
      progressWritten = now;
      // Ignored: progress is advisory and rewritten a second later; the final state below is written and awaited.
      void linksRepository.setProgress(db, link.id, progress.done, progress.total).catch(() => {});
    };
    try {
      const dir = mirrorDir(link);
      // A mirror's config keeps its URL, with any token in it: REPOS_DIR is the service user's alone.
      await ensurePrivateDir(deps.reposDir);
      // Release branches (`*.x`, `release/*`): which of the remote's branches match, then fetched with the tracked one.
      const release: ReleaseBranches = link.release_branches.length
        ? await releaseBranches(source, link.release_branches, link.tracked_branch)
        : { branches: [], matched: 0 };
      await syncMirror(dir, source, link.tracked_branch, release.branches);
      const { tip, tags, tagsCut } = await mirrorRefs(dir, link.tracked_branch);
      // The branch where the last ingest left it (most polls): no commit to walk, nor git to ask.
      const unmoved = link.last_ingested_sha === tip;
      const fastForward = unmoved || (link.last_ingested_sha !== null && (await isAncestor(dir, link.last_ingested_sha, tip)));
      const range = fastForward ? [`${link.last_ingested_sha}..${tip}`] : [tip];
      // CODEOWNERS needs only the tip: read while the commits are counted and stored.
      // CHANGELOG.md too, for calibration (generation/calibration.ts): one ls-tree for both, a blob read only when it changed.
      const tipFilesRead = readTipFiles(dir, source, tip, {
        codeowners: codeownersRequest(link.codeowners),
        changelog: { paths: CHANGELOG_PATHS, maxBytes: CHANGELOG_MAX_BYTES, known: (blob) => blob === link.changelog_blob },
      });
      const codeownersRead = tipFilesRead.then((files) => codeownersText(files.codeowners, link.codeowners));
      // Surfaced where it is awaited (after the commits); meanwhile not an unhandled rejection.
      codeownersRead.catch(() => {});
      const dependenciesRead = unmoved ? Promise.resolve(new Map<string, CommitFacts>()) : dependencyChangesOf(dir, source, range);

      let total = 0;
      let done = 0;
      let added = 0;
      // Commits back on the branch that a force-push had dropped (a force-push undone).
      let returned = 0;
      // A fast-forward walks only `last..tip`: a commit of it stored before was dropped by a force-push
      // since, and is live again (the rewrite's own path below finds those with a walk of the branch).
      const revive = fastForward && !unmoved;
      // Commits stored as only a release branch's that the tracked branch now reaches (a release branch merged into it).
      const releaseOnly = new Set(await commitsRepository.releaseOnlyShas(db, link.id));
      const nowTracked: string[] = [];
      // git log starts while git counts the commits (the count is for progress only).
      const log = (unmoved ? noCommits() : readCommits(dir, range, tags))[Symbol.asyncIterator]();
      const first = log.next();
      // Surfaced by `await first` below; meanwhile not an unhandled rejection.
      first.catch(() => {});
      try {
        total = unmoved ? 0 : await countCommits(dir, range);
        // Needed before the first batch is stored: a stored commit keeps what it was stored with.
        const dependencies = await dependenciesRead;
        let batch: CommitRecord[] = [];
        // One batch is stored while git produces the next.
        let inFlight: Promise<void> = Promise.resolve();
        const flush = async (commits: CommitRecord[]) => {
          await inFlight;
          inFlight = (async () => {
            added += await commitsRepository.insertBatch(db, link.project_id, link.id, commits);
            if (revive)
              returned += await commitsRepository.revive(
                db,
                link.id,
                commits.map((c) => c.sha),
              );
            options.afterBatch?.(added);
          })();
          // Surfaced by the next flush's `await inFlight` (or the last one's); meanwhile not an unhandled rejection.
          inFlight.catch(() => {});
        };
        if (!unmoved) onProgress({ done, total });
        for (let next = await first; !next.done; next = await log.next()) {
          withDependencies(next.value, dependencies);
          batch.push(next.value);
          if (releaseOnly.size && releaseOnly.has(next.value.sha)) nowTracked.push(next.value.sha);
          done++;
          if (batch.length >= BATCH_SIZE) {
            await flush(batch);
            batch = [];
            onProgress({ done, total });
            if (options.signal?.aborted) {
              await inFlight;
              throw new IngestInterrupted(added);
            }
          }
        }
        await flush(batch);
        await inFlight;
      } finally {
        // Stops git when storing ended early (a failed batch, a shutdown, a failed count).
        // Ignored: this only stops git; the reason storing ended (thrown or not) is what the caller needs.
        await log.return(undefined).catch(() => {});
      }
      // The final state below says the same for a run that walked nothing.
      if (!unmoved) onProgress({ done, total });

      let unreachable = 0;
      if (!fastForward && link.last_ingested_sha !== null) {
        // Not a fast-forward: the branch was rewritten. Commits no longer on it are marked, and
        // commits back on it (a force-push undone) are live again.
        const live = await reachableShas(dir, tip);
        for (const sha of releaseOnly) if (live.has(sha)) nowTracked.push(sha);
        const gone = (await commitsRepository.reachableShas(db, link.id, true)).filter((sha) => !live.has(sha));
        const back = (await commitsRepository.reachableShas(db, link.id, false)).filter((sha) => live.has(sha));
        await commitsRepository.setReachable(db, link.id, gone, false);
        await commitsRepository.setReachable(db, link.id, back, true);
        unreachable = gone.length;
        returned += back.length;
      }
      const moved = await commitsRepository.setOnTrackedBranch(db, link.id, nowTracked);
      const fromReleases = await ingestReleaseBranches(link, dir, source, tip, release, tags, releaseOnly.size > 0, options.signal);
      added += fromReleases.added;
      done += fromReleases.added;
      // The same tags as the last complete ingest stored (most polls): they match already.
      const digest = tagsDigest(tags);
      const retagged = digest === link.tags_digest ? 0 : await commitsRepository.syncTags(db, link.id, tags);
      const codeowners = await codeownersRead;
      const changelog = changelogUpdate(link, (await tipFilesRead).changelog);
      const changed =
        added > 0 ||
        unreachable > 0 ||
        returned > 0 ||
        retagged > 0 ||
        moved > 0 ||
        fromReleases.changed > 0 ||
        (codeowners !== undefined && codeowners !== link.codeowners);
      // On an active link, what the ingest left out (shown as a warning, not an error).
      const warnings = [
        ...(tagsCut ? [TAGS_CUT_WARNING] : []),
        ...(release.matched > release.branches.length ? [releaseBranchesCutWarning(release.matched)] : []),
      ];
      await linksRepository.setLinkStatus(db, link.id, 'active', {
        lastIngestedSha: tip,
        lastError: warnings.length ? warnings.join('. ') : null,
        ...(codeowners !== undefined ? { codeowners } : {}),
        ...(changelog ? { changelog } : {}),
        tagsDigest: digest,
      });
      const result: IngestResult = { linkId, projectId: link.project_id, status: 'active', added, walked: done, unreachable, returned, retagged, tip, changed };
      await options.beforeIdle?.(result);
      await linksRepository.setSyncState(db, link.id, { state: 'idle', done, total, finished: true, added });
      return result;
    } catch (error) {
      // Still "ingesting": resumeUnfinished() queues it again when a process starts.
      if (error instanceof IngestInterrupted) {
        // Ignored: the interruption is rethrown; a failed write leaves the link 'ingesting', which is resumed the same way.
        await linksRepository.setSyncState(db, link.id, { state: 'queued' }).catch(() => {});
        throw error;
      }
      await recordFailure(link, error);
      throw error;
    }
  }

  /**
   * Stores what the link's release branches reach and the tracked branch does not, as release-only
   * commits (their tags make release notes; no entry reads them), reading only what is new since the
   * heads of the last ingest, and makes the stored release-only set match: commits no release branch
   * reaches any more are marked unreachable. `hadReleaseOnly`: the link has such commits stored (its
   * patterns may have been removed since).
   */
  async function ingestReleaseBranches(
    link: RepoLinkRow,
    dir: string,
    source: GitSource,
    tip: string,
    release: ReleaseBranches,
    tags: Map<string, string[]>,
    hadReleaseOnly: boolean,
    signal: AbortSignal | undefined,
  ): Promise<{ added: number; changed: number }> {
    const tips = await branchTips(dir, release.branches);
    const heads = [...new Set(tips.values())];
    if (!heads.length && !hadReleaseOnly) return { added: 0, changed: 0 };
    let added = 0;
    if (heads.length) {
      const store = async (exclude: readonly string[]) => {
        const range = [...heads, '--not', tip, ...exclude];
        const dependencies = await dependencyChangesOf(dir, source, range);
        let batch: CommitRecord[] = [];
        for await (const commit of readCommits(dir, range, tags)) {
          batch.push(withDependencies(commit, dependencies));
          if (batch.length >= BATCH_SIZE) {
            added += await commitsRepository.insertBatch(db, link.project_id, link.id, batch, false);
            batch = [];
            if (signal?.aborted) throw new IngestInterrupted(added);
          }
        }
        added += await commitsRepository.insertBatch(db, link.project_id, link.id, batch, false);
      };
      // What the last ingest's heads reach is stored already: only what is new is read.
      const previous = Object.values(link.release_heads ?? {})
        .filter((sha) => /^[0-9a-f]{40,64}$/.test(sha))
        .slice(0, MAX_RELEASE_BRANCHES);
      try {
        await store(previous);
      } catch (error) {
        // A head gone from the mirror (a force-push, then gc): read everything again (stored commits are skipped).
        if (!(error instanceof GitError) || !previous.length) throw error;
        await store([]);
      }
    }
    const reached = await revList(dir, heads, [tip]);
    const changed = await commitsRepository.syncReleaseOnly(db, link.id, [...reached]);
    await linksRepository.setReleaseHeads(db, link.id, Object.fromEntries(tips));
    return { added, changed: changed + added };
  }

  /** The link's last error, for the project page: never a credential (URLs with user information are redacted). */
  async function recordFailure(link: RepoLinkRow, error: unknown): Promise<void> {
    const message = redactSourcesIn(redactGitOutput(error instanceof Error ? error.message : String(error)));
    // Ignored (both): the ingest's own error is rethrown and reported by the caller; the database may be what failed.
    await linksRepository.setLinkStatus(db, link.id, 'error', { lastError: message }).catch(() => {});
    await linksRepository.setSyncState(db, link.id, { state: 'idle', finished: true }).catch(() => {});
  }

  return { ingestLink, mirrorDir };
}

export type IngestService = ReturnType<typeof createIngestService>;

/** A changelog larger than this is not read: calibration reads only its newest releases anyway. */
const CHANGELOG_MAX_BYTES = 4 * 1024 * 1024;

/**
 * What to store of the tip's CHANGELOG.md: its blob and calibration when the file is new or changed,
 * nulls when it is gone, nothing (undefined) when it is the one read before or could not be read.
 */
function changelogUpdate(link: RepoLinkRow, file: TipFile | null | undefined): { blob: string | null; calibration: object | null } | undefined {
  if (file === undefined) return undefined;
  if (file === null) return link.changelog_blob === null ? undefined : { blob: null, calibration: null };
  if (file.blob === link.changelog_blob) return undefined;
  // Larger than read (text absent): remembered by its blob, with nothing learned from it.
  return { blob: file.blob, calibration: file.text === undefined ? null : calibrate(file.text, file.path) };
}
