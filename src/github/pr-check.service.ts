import { activeGitHubTarget, secondsUntil } from './link-target.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { GenerationTimeout } from '../generation/engine-thread.js';
import type { GenerationService } from '../generation/generation.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { JobQueue } from '../queue/queue.js';
import type { ReposService } from '../repos/repos.service.js';
import { GitHubWriteError, type GitHubCheckRun, type GitHubWrites } from './github.client.js';
import { githubRepository } from './github.repository.js';
import type { PullRequestPreview } from '../generation/pr-preview.js';
import { CHECKS_PERMISSION_HINT } from './publishing.service.js';
import { publishingRepository } from './publishing.repository.js';

/** The `pull_request` actions that change how the pull request reads (issue 25). */
export const PR_CHECK_ACTIONS: ReadonlySet<string> = new Set(['opened', 'synchronize', 'edited', 'labeled']);
export const CHECK_NAME = 'Changelog';

const escapeCell = (text: string) => text.replace(/[|\\]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');

/** The check run of a preview: neutral or success; failure on warnings only when the project asks. */
export function checkRunOf(preview: PullRequestPreview, headSha: string, number: number, mode: 'report' | 'blocking'): GitHubCheckRun {
  const { warnings } = preview;
  const conclusion = warnings.length === 0 ? 'success' : mode === 'blocking' ? 'failure' : 'neutral';
  const title = preview.section ? `${preview.section}: ${preview.text ?? ''}`.slice(0, 200) : 'Hidden from the release note';
  const table = preview.section
    ? `| Section | Component | Text |\n|---|---|---|\n| ${escapeCell(preview.section)} | ${escapeCell(preview.component ?? '—')} | ${escapeCell(preview.text ?? '')} |`
    : 'This pull request would not appear in the next release note.';
  const summary = [
    '**How this pull request will read in the next release note**',
    table,
    warnings.length ? `**Warnings**\n\n${warnings.map((w) => `- ${w}`).join('\n')}` : 'No warnings.',
  ].join('\n\n');
  const text = preview.markdown ? `As the release note will show it:\n\n${preview.markdown}` : undefined;
  return {
    name: CHECK_NAME,
    headSha,
    conclusion,
    title,
    summary: summary.slice(0, 60_000),
    ...(text ? { text: text.slice(0, 60_000) } : {}),
    externalId: `pr-${number}`,
  };
}

/**
 * Pull-request checks of GitHub links that opted in: a `pull_request` delivery (signature checked by the
 * webhook route) queues a `github-pr-check` job per link whose branch the pull request targets; the job
 * reads the pull request as it is now (title, description, files: a job that waited reports the newest),
 * previews it with the project's settings and reports a completed check run.
 */
export function createPrCheckService(deps: {
  db: Db;
  config: Config;
  github: GitHubWrites | null;
  repos: Pick<ReposService, 'link' | 'linksOfInstallations'>;
  projects: Pick<ProjectsService, 'byId'>;
  generation: Pick<GenerationService, 'previewPullRequest'>;
  jobs: JobQueue;
}) {
  const { db, config, repos, jobs } = deps;

  return {
    /** From a verified `pull_request` delivery: queues the check of each link that asks for it; what was done. */
    async queueFromWebhook(scmInstallationId: number, payload: Record<string, unknown>): Promise<string> {
      const action = String(payload.action);
      if (!PR_CHECK_ACTIONS.has(action)) return `ignored: pull_request ${action}`;
      const pr = payload.pull_request as { number?: unknown; base?: { ref?: unknown } } | undefined;
      const repository = payload.repository as { name?: unknown; owner?: { login?: unknown } } | undefined;
      const number = Number(pr?.number);
      const base = typeof pr?.base?.ref === 'string' ? pr.base.ref : null;
      const owner = typeof repository?.owner?.login === 'string' ? repository.owner.login.toLowerCase() : null;
      const name = typeof repository?.name === 'string' ? repository.name.toLowerCase() : null;
      if (!Number.isSafeInteger(number) || number < 1 || !base || !owner || !name) return 'ignored: not a pull request of a repository';
      const installation = await githubRepository.findInstallationByScmId(db, scmInstallationId);
      if (installation?.status !== 'active') return 'ignored: unknown or inactive installation';
      const links = (await repos.linksOfInstallations([installation.id])).filter(
        (l) => l.repo_owner?.toLowerCase() === owner && l.repo_name?.toLowerCase() === name && l.tracked_branch === base,
      );
      let queued = 0;
      for (const link of links) {
        const settings = await publishingRepository.settings(db, link.id);
        if (!settings || settings.pr_checks === 'off') continue;
        await jobs.send('github-pr-check', { linkId: link.id, number }, { key: `${link.id}:${number}` });
        queued++;
      }
      return queued ? `queued the check of pull request #${number} for ${queued} link(s)` : 'ignored: no link checks this pull request';
    },

    /** One run of a `github-pr-check` job; a rate limit sends it again for the reset, other failures are retried by the queue. */
    async report(data: { linkId: string; number: number }): Promise<{ conclusion: string | null; problem: string | null }> {
      const link = await repos.link(data.linkId);
      const settings = link ? await publishingRepository.settings(db, link.id) : undefined;
      const target = settings && settings.pr_checks !== 'off' && deps.github ? await activeGitHubTarget(db, link) : null;
      const project = target ? await deps.projects.byId(target.link.project_id) : undefined;
      if (!link || !target || !project || !settings || settings.pr_checks === 'off' || !deps.github) return { conclusion: null, problem: null };
      const { scmId, owner, name } = target;
      try {
        const pr = await deps.github.getPullRequest(scmId, owner, name, data.number);
        if (!pr || pr.state !== 'open') return { conclusion: null, problem: null };
        const preview = await deps.generation.previewPullRequest(project.id, pr, `${config.github.webUrl}/${owner}/${name}`);
        const run = checkRunOf(preview, pr.headSha, pr.number, settings.pr_checks);
        await deps.github.createCheckRun(scmId, owner, name, run);
        await publishingRepository.recordCheck(db, link.id, null);
        return { conclusion: run.conclusion, problem: null };
      } catch (error) {
        if (error instanceof GenerationTimeout) {
          // The same text would take as long again: said on the link, not retried.
          const message = `The pull request #${data.number} could not be previewed within the generation time budget`;
          await publishingRepository.recordCheck(db, link.id, message);
          return { conclusion: null, problem: message };
        }
        if (!(error instanceof GitHubWriteError)) throw error;
        if (error.kind === 'rate_limited' && error.retryAt) {
          await jobs.send('github-pr-check', data, { key: `${link.id}:${data.number}`, startAfterSeconds: secondsUntil(error.retryAt) });
          return { conclusion: null, problem: error.message };
        }
        if (error.kind === 'forbidden' || error.kind === 'not_found') {
          const message = `${error.message}. ${CHECKS_PERMISSION_HINT}`;
          await publishingRepository.recordCheck(db, link.id, message);
          return { conclusion: null, problem: message };
        }
        await publishingRepository.recordCheck(db, link.id, error.message);
        throw error;
      }
    },
  };
}

export type PrCheckService = ReturnType<typeof createPrCheckService>;
