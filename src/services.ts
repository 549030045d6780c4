import { createAutomationService } from './automation/automation.service.js';
import { loadConfig, type Config } from './config.js';
import { createCoreServices } from './core-services.js';
import type { Database } from './db/database.js';
import { createFeedsService } from './changelog/feeds/feeds.service.js';
import { createPublicPageService } from './changelog/page/public-page.service.js';
import { createThreadEngine } from './generation/engine-thread.js';
import { createGenerationService } from './generation/generation.service.js';
import { createSummarizer } from './generation/summaries/summarizer.js';
import { createGitHubClient, type GitHubClient } from './github/github.client.js';
import { createGitHubService } from './github/github.service.js';
import { createPublishingService } from './github/publishing.service.js';
import { createPrCheckService } from './github/pr-check.service.js';
import { createChangelogPrService } from './github/changelog-pr.service.js';
import { createPullRequestsService } from './github/pull-requests.service.js';
import { createReleasesService } from './changelog/releases.service.js';
import { setGitLimits } from './git/git.js';
import { createJobQueue, type JobQueueOptions } from './queue/queue.js';
import { createIngestService } from './repos/ingest.service.js';
import type { InstallationTokens } from './repos/installation-tokens.js';
import { createReposService } from './repos/repos.service.js';
import { createWebhooksService } from './webhooks/webhooks.service.js';
import { createMarkdownRenderer, type MarkdownRenderer } from './html/markdown-thread.js';
import type { Resolver } from './webhooks/ssrf.js';

/**
 * How long one ingest attempt may run before the queue gives it up and retries it: its fetch and
 * its `git log` each within a git budget (GIT_TIMEOUT_MS), plus ten minutes for everything else
 * (storing the commits). Every git step stops itself sooner; this only backs them up.
 */
export const ingestExpirySeconds = (config: Config) => Math.ceil((2 * config.git.timeoutMs) / 1000) + 600;

/** Every service, wired to one database. The HTTP app and the CLI both go through these. */
export function createServices(
  database: Database,
  config: Config = loadConfig({}),
  options: { github?: GitHubClient | null; jobs?: JobQueueOptions; resolve?: Resolver; markdown?: MarkdownRenderer } = {},
) {
  const db = database.db;
  const githubClient = options.github !== undefined ? options.github : createGitHubClient(config.github);
  // Every git process of this one (ingests, links, previews) runs under the configured limits.
  setGitLimits(config.git);
  const jobs = createJobQueue(database, {
    ...options.jobs,
    queues: {
      'webhook-deliver': { retryLimit: config.webhooks.retryLimit, retryDelaySeconds: config.webhooks.retryDelaySeconds },
      'repo-ingest': { expireInSeconds: ingestExpirySeconds(config) },
      ...options.jobs?.queues,
    },
    fair: {
      'repo-ingest': { slots: config.repoLinks.ingestConcurrency, perGroup: config.repoLinks.ingestConcurrencyPerTenant },
      // An endpoint that never answers costs WEBHOOK_TIMEOUT_MS a try: its tenant's slots, not everyone's.
      'webhook-deliver': { slots: config.webhooks.concurrency, perGroup: config.webhooks.concurrencyPerTenant },
      // Pull requests share the ingest's slots, grouped by GitHub installation (whose rate limit they share):
      // an installation whose GitHub stalls holds its share, never every GitHub link's generation.
      'github-pull-requests': { slots: config.repoLinks.ingestConcurrency, perGroup: config.repoLinks.ingestConcurrencyPerTenant },
      ...options.jobs?.fair,
    },
  });
  // Users, organizations, projects, keys, entries, accounts: what needs only the database and settings.
  const core = createCoreServices(database, config);
  const { projects, releases } = core;
  const publicPage = createPublicPageService(database.readDb);
  // Entry Markdown for pages, feeds and the dashboard: large sources render in worker threads.
  const markdown = options.markdown ?? createMarkdownRenderer({ timeLimitMs: config.markdownTimeLimitMs });
  // What the dashboard may link: the operator's directories, public addresses (as outbound webhooks).
  const repoPolicy = { pathsAllowed: config.repoLinks.pathsAllowed, ...(options.resolve ? { resolve: options.resolve } : {}) };
  // The GitHub App hands out fetch tokens; it is made below, after repos (it drives links through
  // them), and asked only once a link fetches, after start-up.
  const installationTokens: InstallationTokens = { installationToken: (installationId) => github.installationToken(installationId) };
  const repos = createReposService({ db, jobs, projects, policy: repoPolicy, installationTokens });
  // The GitHub App creates, stops and resumes links through the repos service.
  // The engine runs in worker threads for every caller (jobs, dashboard previews, the CLI, the automation API).
  // Merged pull requests of GitHub links, cached through the App; generation hands them to the engine.
  const pullRequests = createPullRequestsService({ db, github: githubClient, repos, jobs });
  const generation = createGenerationService(db, {
    engine: createThreadEngine({ budgetMs: config.generationTimeBudgetMs }),
    entries: core.entries,
    projects,
    pullRequests: (projectId, executor) => pullRequests.pullRequestsFor(projectId, executor),
  });
  const prChecks = createPrCheckService({ db, config, github: githubClient, repos, projects, generation, jobs });
  // Published notes to GitHub Releases, read from the primary (see createPublishingService).
  const primaryReleases = createReleasesService(db);
  const publishing = createPublishingService({ db, config, github: githubClient, repos, releases: primaryReleases, projects, jobs });
  const changelogPr = createChangelogPrService({ db, github: githubClient, repos, projects, releases: primaryReleases, jobs });
  const github = createGitHubService({ db, config, github: githubClient, repos, prChecks, publishing, projects });
  return {
    ...core,
    publicPage,
    releases,
    markdown,
    feeds: createFeedsService(publicPage, config.publicUrl, releases, markdown),
    jobs,
    githubClient,
    repos,
    github,
    publishing,
    changelogPr,
    pullRequests,
    ingest: createIngestService(db, {
      reposDir: config.reposDir,
      installationTokens,
      policy: repoPolicy,
    }),
    generation,
    /** Release summaries by the configured language model; null without one (docs/summaries.md). */
    summarizer: config.llm ? createSummarizer(db, { llm: config.llm, entries: core.entries, projects }) : null,
    /** The API for CI (keys with the `publish` scope): through the entries, repos and generation services. */
    automation: createAutomationService({ projects, entries: core.entries, repos, generation }),
    prChecks,
    webhooks: createWebhooksService({ db, config: config.webhooks, jobs, ...(options.resolve ? { resolve: options.resolve } : {}) }),
  };
}

export type Services = ReturnType<typeof createServices>;
