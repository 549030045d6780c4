import { activeGitHubTarget, secondsUntil } from './link-target.js';
import type { Db, Executor } from '../db/database.js';
import type { RepoLinkRow } from '../db/schema.js';
import type { PullRequestInfo } from '../generation/engine/pull-requests.js';
import type { JobPayloads, JobQueue } from '../queue/queue.js';
import type { ReposService } from '../repos/repos.service.js';
import { GitHubWriteError, PULL_REQUEST_LIMITS, type GitHubPullRequestReads } from './github.client.js';
import { pullRequestsRepository } from './pull-requests.repository.js';

/** Pages of merged pull requests one job reads before it queues the rest as a job of its own (a fresh link's history). */
export const PR_PAGES_PER_JOB = 10;
/**
 * GraphQL points left to the installation below which a fetch stops until the budget resets: the
 * installation's other links (a push to each) still find some, and GitHub never has to refuse.
 */
export const PR_RATE_LIMIT_RESERVE = 200;

type GeneratePayload = JobPayloads['generate'];

/** How one run of a link's fetch ended. */
export interface PrSyncOutcome {
  status: 'skipped' | 'complete' | 'more' | 'rate_limited' | 'refused';
  /** Pages read from GitHub. */
  pages: number;
  /** Pull requests new or changed in the cache. */
  changed: number;
  /** When the job runs again, for a rate limit. */
  retryAt: Date | null;
  problem: string | null;
}

/** What a run hands generation: the payload to queue, or null. */
function generationAfter(carried: GeneratePayload | undefined, projectId: string, needsFull: boolean, pending: boolean): GeneratePayload | null {
  if (carried) return needsFull && !carried.full ? { projectId: carried.projectId, full: true } : carried;
  return pending ? { projectId, full: true } : null;
}

/**
 * The merged pull requests of GitHub links (issue 24), read through the App's GraphQL API into a
 * cache generation reads. A link's ingest hands its generation to a `github-pull-requests` job
 * (queueAfterIngest), which reads the newest updated pull requests down to the ones it has seen
 * (the watermark), then queues the generation, so the new commits' entries and notes are made with
 * their pull requests. A fresh link reads its whole list in jobs of PR_PAGES_PER_JOB pages.
 *
 * GitHub never holds generation back: a rate limit, a missing permission or a failure queues the
 * generation that was waiting at once, and the fetch goes on later (after the reset, or the queue's
 * back-off); pull requests that arrive then queue a generation of their own.
 */
export function createPullRequestsService(deps: {
  db: Db;
  github: GitHubPullRequestReads | null;
  repos: Pick<ReposService, 'link'>;
  jobs: JobQueue;
  /** Tests shorten it. */
  pagesPerJob?: number;
}) {
  const { db, jobs } = deps;
  const pagesPerJob = deps.pagesPerJob ?? PR_PAGES_PER_JOB;

  /** The GitHub coordinates of a link whose pull requests can be read, or null (not GitHub, installation gone or inactive). */
  const targetOf = async (link: RepoLinkRow | undefined) => (deps.github ? activeGitHubTarget(db, link) : null);

  const sendGenerate = (payload: GeneratePayload) => jobs.send('generate', payload, { key: payload.projectId });

  const service = {
    /**
     * After a link's ingest: for a GitHub link, queues its fetch of pull requests carrying the
     * generation to queue once they are read (none when the ingest changed nothing), and returns
     * whether it took the generation over; false for any other link
     * (and while the link's fetch waits for GitHub's rate limit, or already waits in the queue), so
     * that the caller queues the generation itself.
     */
    async queueAfterIngest(linkId: string, generate: GeneratePayload | null): Promise<boolean> {
      const target = await targetOf(await deps.repos.link(linkId));
      if (!target) return false;
      const state = await pullRequestsRepository.syncState(db, linkId);
      // The job waits for the rate limit's reset: it reads this push's pull requests then, from the top
      // (the walk it resumes may be past the top already, as for a pending job below).
      if (state?.retry_at && state.retry_at.getTime() > Date.now()) {
        await pullRequestsRepository.saveSyncState(db, linkId, { rewalk: true });
        return false;
      }
      // A waiting job of the same key would swallow this one, and the generation it carries with it;
      // the walk under way may be past the top already, so it starts another once it ends.
      if (await jobs.pending('github-pull-requests', linkId)) {
        await pullRequestsRepository.saveSyncState(db, linkId, { rewalk: true });
        return false;
      }
      await jobs.send('github-pull-requests', generate ? { linkId, generate } : { linkId }, { key: linkId, group: target.installationId });
      // With nothing to generate (an ingest that found nothing new), the fetch only refreshes the cache.
      return generate !== null;
    },

    /**
     * One run of a link's `github-pull-requests` job: pages newest updated first, each stored with
     * the link's place in one transaction, until the watermark, the end of the list, PR_PAGES_PER_JOB
     * pages (the rest queued at once) or the installation's budget (PR_RATE_LIMIT_RESERVE; the job is
     * queued again for the reset). A rate limit GitHub reports is handled alike; a refusal (the App
     * lacks `pull_requests: read`, or lost the repository) is recorded and waits for the next push;
     * any other failure is recorded and thrown, for the queue's back-off. Every call to GitHub is
     * under GITHUB_TIMEOUT_MS.
     */
    async sync(data: { linkId: string; generate?: GeneratePayload }, signal?: AbortSignal): Promise<PrSyncOutcome> {
      const { linkId, generate: carried } = data;
      const outcome: PrSyncOutcome = { status: 'skipped', pages: 0, changed: 0, retryAt: null, problem: null };
      const link = await deps.repos.link(linkId);
      const target = await targetOf(link);
      if (!target) {
        if (carried) await sendGenerate(carried);
        return outcome;
      }
      const github = deps.github!;
      const projectId = target.link.project_id;
      /** The link's next run: after `at` (a rate limit's reset), or at once. Grouped by installation for the fair queue. */
      const again = (at: Date | null) =>
        jobs.send('github-pull-requests', { linkId }, { key: linkId, group: target.installationId, ...(at ? { startAfterSeconds: secondsUntil(at) } : {}) });
      const state = await pullRequestsRepository.syncState(db, linkId);
      const pendingBefore = state?.generate_pending ?? false;
      let needsFull = pendingBefore;
      /** Generation is queued on the way out, whatever happened (the walk's own changes once it ends). */
      const finish = async (pending: boolean) => {
        const payload = generationAfter(carried, projectId, needsFull, pending);
        if (!payload) return;
        await sendGenerate(payload);
        await pullRequestsRepository.saveSyncState(db, linkId, { generatePending: false });
      };

      // Held back by GitHub's rate limit: no call before the reset, whoever queued this run.
      if (state?.retry_at && state.retry_at.getTime() > Date.now()) {
        await again(state.retry_at);
        await finish(pendingBefore);
        return { ...outcome, status: 'rate_limited', retryAt: state.retry_at };
      }

      const watermark = state?.watermark ?? null;
      let cursor = state?.walk_cursor ?? null;
      let top = state?.walk_top ?? null;
      let pending = pendingBefore;
      try {
        for (;;) {
          if (signal?.aborted) throw new Error('The worker is stopping: the fetch of pull requests goes on from where it stopped');
          const page = await github.mergedPullRequests(target.scmId, target.owner, target.name, { after: cursor, first: PULL_REQUEST_LIMITS.pageSize });
          outcome.pages++;
          // The newest updatedAt of a walk becomes the watermark once the walk reaches the old one.
          if (cursor === null) top = page.pullRequests[0] ? new Date(page.pullRequests[0].updatedAt) : watermark;
          const fresh = watermark ? page.pullRequests.filter((pr) => Date.parse(pr.updatedAt) >= watermark.getTime()) : page.pullRequests;
          const done = fresh.length < page.pullRequests.length || !page.hasNextPage;
          const lowBudget = page.rateLimit.remaining < PR_RATE_LIMIT_RESERVE;
          const more = !done && (lowBudget || outcome.pages >= pagesPerJob);
          const now = new Date();
          const startsWalk = cursor === null;
          const changedNumbers = await db.transaction().execute(async (tx) => {
            const changed = await pullRequestsRepository.upsert(tx, linkId, fresh);
            if (changed.length) pending = true;
            await pullRequestsRepository.saveSyncState(tx, linkId, {
              watermark: done ? top : watermark,
              walkCursor: done ? null : page.endCursor,
              walkTop: done ? null : top,
              generatePending: pending,
              retryAt: !done && lowBudget ? page.rateLimit.resetAt : null,
              lastError: null,
              ...(done ? { lastSyncedAt: now } : {}),
              // A walk from the top reads what any earlier push asked for.
              ...(startsWalk ? { rewalk: false } : {}),
            });
            return changed;
          });
          outcome.changed += changedNumbers.length;
          if (carried?.storedSince && !carried.full && changedNumbers.length && !needsFull) {
            // A pull request of commits stored before this ingest (its labels edited, say) is outside an incremental run.
            const changedSet = new Set(changedNumbers);
            const shas = fresh.filter((pr) => changedSet.has(pr.number)).flatMap((pr) => [...(pr.mergeCommitSha ? [pr.mergeCommitSha] : []), ...pr.commitShas]);
            needsFull = await pullRequestsRepository.anyStoredBefore(db, projectId, shas, new Date(carried.storedSince));
          }
          if (done) {
            outcome.status = 'complete';
            await finish(pending);
            // A push came during the walk: one more, from the top (usually one page).
            if ((await pullRequestsRepository.syncState(db, linkId))?.rewalk) {
              await pullRequestsRepository.saveSyncState(db, linkId, { rewalk: false });
              await again(null);
            }
            return outcome;
          }
          cursor = page.endCursor;
          if (lowBudget) {
            outcome.status = 'rate_limited';
            outcome.retryAt = page.rateLimit.resetAt;
            await again(page.rateLimit.resetAt);
            await finish(pending);
            return outcome;
          }
          if (more) {
            outcome.status = 'more';
            // The generation that waited goes now; what the rest of the walk changes queues its own at the end.
            if (carried) await finish(pending);
            await again(null);
            return outcome;
          }
        }
      } catch (error) {
        if (!(error instanceof GitHubWriteError)) {
          // A worker that stops is no failure of the link's: the next process goes on from the place stored.
          if (!signal?.aborted) await pullRequestsRepository.saveSyncState(db, linkId, { lastError: 'The fetch of pull requests failed inside the service; it is retried' });
          await finish(pending);
          throw error;
        }
        if (error.kind === 'rate_limited' && error.retryAt) {
          await pullRequestsRepository.saveSyncState(db, linkId, { retryAt: error.retryAt, lastError: error.message });
          await again(error.retryAt);
          await finish(pending);
          return { ...outcome, status: 'rate_limited', retryAt: error.retryAt, problem: error.message };
        }
        if (error.kind === 'forbidden' || error.kind === 'not_found') {
          const problem = `${error.message}. Pull requests are read with the App's "Pull requests: read" and "Metadata: read" permissions`;
          await pullRequestsRepository.saveSyncState(db, linkId, { lastError: problem });
          await finish(pending);
          return { ...outcome, status: 'refused', problem };
        }
        await pullRequestsRepository.saveSyncState(db, linkId, { lastError: error.message });
        await finish(pending);
        throw error;
      }
    },

    /**
     * The cached pull requests generation hands the engine for a project: those of its own GitHub
     * links that its reachable history holds (by merge commit, or by number). Nothing for a project
     * without GitHub links.
     */
    async pullRequestsFor(projectId: string, executor: Executor = db): Promise<PullRequestInfo[]> {
      return pullRequestsRepository.forProject(executor, projectId);
    },

    /** Where a link's fetch stands (the dashboard, tests). */
    async state(linkId: string) {
      return pullRequestsRepository.syncState(db, linkId);
    },
  };
  return service;
}

export type PullRequestsService = ReturnType<typeof createPullRequestsService>;
