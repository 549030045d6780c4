import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import type { CliIo, Output } from '../cli/io.js';
import type { Config } from '../config.js';
import type { RepoLinkRow } from '../db/schema.js';
import type { Services } from '../services.js';
import { describeSummary, generationProgressBar } from '../generation/generation.cli.js';
import type { IngestResult } from './ingest.service.js';
import { presentLink } from './repo-link.schemas.js';

interface CliParts {
  program: Command;
  command: (parent: Command, name: string, description: string) => Command;
  run: <A extends unknown[]>(fn: (...args: A) => Promise<Output>) => (...args: A) => Promise<void>;
  withServices: <T>(fn: (services: Services) => Promise<T>) => Promise<T>;
  getConfig: () => Config;
  io: CliIo;
}

const describeLink = (link: RepoLinkRow) =>
  `${link.id}  ${link.status.padEnd(9)}  ${link.tracked_branch}  ${link.kind === 'github' ? `github:${link.repo_owner}/${link.repo_name}` : link.source_url}` +
  `  ${link.last_ingested_sha ? `at ${link.last_ingested_sha.slice(0, 12)}` : 'not ingested yet'}`;

/** `changelog repos link|list` and `changelog sync`. */
export function registerReposCommands({ program, command, run, withServices, io }: CliParts): void {
  const repos = program.command('repos').description('link repositories to projects');
  command(repos, 'link', 'link a repository the server reaches directly (a local path or any git URL)')
    .requiredOption('--project <slug>', 'project slug')
    .requiredOption('--path <dirOrUrl>', 'repository directory or git URL')
    .option('--branch <branch>', 'branch to track', 'main')
    .action(
      run(async (opts: { project: string; path: string; branch: string }) =>
        withServices(async (services) => {
          const { link, created } = await services.repos.linkLocalRepo({ projectSlug: opts.project, source: opts.path, branch: opts.branch });
          // A running worker backfills it; `changelog sync` does it now.
          if (created) await services.repos.enqueueIngest(link.id);
          return {
            json: { ...presentLink(link), sourceUrl: link.source_url, created },
            text: `${created ? 'Linked' : 'Already linked'} ${link.source_url} (${link.tracked_branch}) to ${opts.project}: ${link.id}\n` +
              `Run "changelog sync --project ${opts.project}" to ingest it now.`,
          };
        }),
      ),
    );

  command(repos, 'list', 'list the repositories linked to a project')
    .requiredOption('--project <slug>', 'project slug')
    .action(
      run(async (opts: { project: string }) =>
        withServices(async (services) => {
          const { links } = await services.repos.listLinks(opts.project);
          return {
            json: { links: links.map((l) => ({ ...presentLink(l), sourceUrl: l.source_url })), count: links.length },
            text: links.length ? links.map(describeLink).join('\n') : `No repositories linked to ${opts.project}`,
          };
        }),
      ),
    );

  command(program, 'sync', 'fetch the linked repositories of a project, store their new commits, and generate their entries now')
    .requiredOption('--project <slug>', 'project slug')
    .action(
      run(async (opts: { project: string; json?: boolean }) =>
        withServices(async (services) => {
          const { project, links } = await services.repos.listLinks(opts.project);
          // Generation covers the commits stored from here on (slack for the database's clock).
          const startedAt = new Date(Date.now() - 60_000);
          const results: IngestResult[] = [];
          for (const link of links) {
            const bar = io.progress && !opts.json
              ? new SingleBar({ stream: io.progress, format: `${link.tracked_branch} [{bar}] {value}/{total} commits`, hideCursor: true })
              : null;
            let started = false;
            try {
              results.push(
                await services.ingest.ingestLink(link.id, {
                  onProgress: ({ done, total }) => {
                    if (!bar) return;
                    if (!started) bar.start(total, done);
                    started = true;
                    bar.update(done);
                  },
                }),
              );
            } finally {
              bar?.stop();
            }
          }
          const counts = await services.repos.commitCounts(project.id);
          const added = results.reduce((sum, r) => sum + r.added, 0);
          const unreachable = results.reduce((sum, r) => sum + r.unreachable, 0);
          // A force-push can empty any period, so it regenerates everything; otherwise only what is new.
          let generated = null;
          if (links.length) {
            const progress = generationProgressBar(opts.json ? undefined : io.progress);
            try {
              generated = await services.generation.generate(project.slug, {
                ...(unreachable ? {} : { storedSince: startedAt }),
                ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
              });
            } finally {
              progress.stop();
            }
          }
          return {
            json: { project: project.slug, links: results, added, unreachable, commits: counts.total, reachable: counts.reachable, generated },
            text: links.length
              ? `${project.slug}: ${added} new commits (${counts.total} stored${unreachable ? `, ${unreachable} made unreachable by a force-push` : ''})\n` +
                describeSummary(generated!)
              : `No repositories linked to ${project.slug}`,
          };
        }),
      ),
    );
}
