import type { CliParts } from '../cli-kit/io.js';
import type { RepoLinkRow } from '../db/schema.js';
import { describeSummary, generationProgressBar } from '../generation/generation.cli.js';
import type { GenerationService } from '../generation/generation.service.js';
import type { IngestResult, IngestService } from './ingest.service.js';
import type { ReposService } from './repos.service.js';
import { describeSource, redactSourcesIn, redactSourceUrl } from '../git/source-name.js';

/** A link as the JSON output shows it: its source without the credentials a URL may carry. */
async function linkJson(link: RepoLinkRow) {
  const { presentLink } = await import('./repo-link.schemas.js');
  return { ...presentLink(link), sourceUrl: redactSourceUrl(link.source_url) };
}

/** `--release-branches "*.x, release/*"`: the patterns, comma-separated (`""` for none). */
const patternList = (value: string) => value.split(',').map((p) => p.trim()).filter(Boolean);

const describeLink = (link: RepoLinkRow) =>
  `${link.id}  ${link.status.padEnd(9)}  ${link.tracked_branch}  ${describeSource(link)}` +
  (link.release_branches.length ? `  release branches: ${link.release_branches.join(', ')}` : '') +
  `  ${link.last_ingested_sha ? `at ${link.last_ingested_sha.slice(0, 12)}` : 'not ingested yet'}` +
  (link.status === 'error' && link.last_error ? `\n    last error: ${redactSourcesIn(link.last_error)}` : '') +
  (link.status === 'active' && link.last_error ? `\n    warning: ${redactSourcesIn(link.last_error)}` : '');

/** `changelog repos link|list` and `changelog sync`. */
export function registerReposCommands({ program, command, run, withServices, io }: CliParts<{ repos: ReposService; ingest: IngestService; generation: GenerationService }>): void {
  const repos = program.command('repos').description('link repositories to projects');
  command(repos, 'link', 'link a repository the server reaches directly (a local path or any git URL)')
    .requiredOption('--project <slug>', 'project slug')
    .requiredOption('--path <dirOrUrl>', 'repository directory or git URL')
    .option('--branch <branch>', "branch to track (default: the repository's default branch, its HEAD)")
    .option('--history <policy>', "the project's changes from before the link: publish (default; dated when each reached the branch), draft or skip")
    .option('--history-since <date>', 'skip history before this date, e.g. 2024-01-01')
    .option('--release-branches <patterns>', 'branches whose tags make release notes too, comma-separated (e.g. "*.x,release/*"; one * each)')
    .action(
      run(async (opts: { project: string; path: string; branch?: string; history?: string; historySince?: string; releaseBranches?: string }) =>
        withServices(async (services) => {
          // Stored before the link exists, so that a worker backfilling it at once already follows it.
          const { historyPatch } = await import('../generation/settings.js');
          const history = historyPatch(opts);
          if (Object.keys(history).length) await services.generation.configure(opts.project, history);
          // A new link is queued for a running worker to backfill; `changelog sync` does it now.
          const { link, created } = await services.repos.linkLocalRepo({
            projectSlug: opts.project,
            source: opts.path,
            ...(opts.branch !== undefined ? { branch: opts.branch } : {}),
            ...(opts.releaseBranches !== undefined ? { releaseBranches: patternList(opts.releaseBranches) } : {}),
          });
          return {
            json: { ...(await linkJson(link)), created },
            text: `${created ? 'Linked' : 'Already linked'} ${describeSource(link)} (${link.tracked_branch}) to ${opts.project}: ${link.id}\n` +
              // The link's ingest is queued: telling the user to run it by hand misled them into a
              // second sync beside the server's.
              `A running server (or "changelog worker") syncs it in the background; "changelog sync --project ${opts.project}" syncs it now, with progress.`,
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
            json: { links: await Promise.all(links.map(linkJson)), count: links.length },
            text: links.length ? links.map(describeLink).join('\n') : `No repositories linked to ${opts.project}`,
          };
        }),
      ),
    );

  command(repos, 'unlink', "remove a repository link; its commits and the project's entries stay unless --purge")
    .argument('<id>', 'link id (see `changelog repos list`)')
    .option('--purge', "also delete the link's commits, and archive the entries made only from them")
    .action(
      run(async (id: string, opts: { purge?: boolean }) =>
        withServices(async (services) => {
          const { link, purgedCommits } = await services.repos.unlink(id, { purge: opts.purge === true });
          return {
            json: { id: link.id, unlinked: true, purgedCommits },
            text: `Unlinked ${describeSource(link)} (${link.tracked_branch})` +
              (opts.purge ? `; deleted ${purgedCommits} commits (their entries are archived by the next generation)` : '; its commits and entries stay'),
          };
        }),
      ),
    );

  command(repos, 'set-branch', 'track another branch of a linked repository (re-ingests it)')
    .argument('<id>', 'link id (see `changelog repos list`)')
    .argument('<branch>', 'branch to track')
    .action(
      run(async (id: string, branch: string) =>
        withServices(async (services) => {
          const link = await services.repos.setBranch(id, branch);
          return {
            json: await linkJson(link),
            text: `${describeSource(link)} now tracks ${link.tracked_branch}; a running worker re-ingests it (or run "changelog sync")`,
          };
        }),
      ),
    );

  command(repos, 'release-branches', 'set the branches whose tags make release notes beside the tracked branch (re-ingests it)')
    .argument('<id>', 'link id (see `changelog repos list`)')
    .argument('<patterns>', 'comma-separated patterns, one * each (e.g. "*.x,release/*"); "" for none')
    .action(
      run(async (id: string, patterns: string) =>
        withServices(async (services) => {
          const link = await services.repos.setReleaseBranches(id, patternList(patterns));
          return {
            json: await linkJson(link),
            text: link.release_branches.length
              ? `${describeSource(link)} reads release branches ${link.release_branches.join(', ')} too; a running worker re-ingests it (or run "changelog sync")`
              : `${describeSource(link)} reads no release branches`,
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
          // A link that fails is reported and the others still sync.
          const failed: { linkId: string; source: string; error: string }[] = [];
          // Progress bars on a terminal only, and never with --json.
          const terminal = opts.json ? undefined : io.progress;
          const { SingleBar } = terminal ? await import('cli-progress') : { SingleBar: undefined };
          for (const link of links) {
            const bar = terminal && SingleBar
              ? new SingleBar({ stream: terminal, format: `${link.tracked_branch} [{bar}] {value}/{total} commits`, hideCursor: true })
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
            } catch (error) {
              failed.push({ linkId: link.id, source: describeSource(link), error: redactSourcesIn(error instanceof Error ? error.message : String(error)) });
            } finally {
              bar?.stop();
            }
          }
          const counts = await services.repos.commitCounts(project.id);
          const added = results.reduce((sum, r) => sum + r.added, 0);
          const unreachable = results.reduce((sum, r) => sum + r.unreachable, 0);
          const returned = results.reduce((sum, r) => sum + r.returned, 0);
          // Generation reads the whole history (seconds for thousands of commits): only when an ingest
          // changed something it reads (commits, tags, CODEOWNERS), as the worker's polls do.
          const changed = results.some((r) => r.changed);
          // A force-push can empty any period, and one undone brings back commits stored long ago: either
          // regenerates everything; otherwise only what is new.
          let generated = null;
          if (changed) {
            const progress = await generationProgressBar(terminal);
            try {
              generated = await services.generation.generate(project.slug, {
                ...(unreachable || returned ? {} : { storedSince: startedAt, retagged: results.some((r) => r.retagged > 0) }),
                ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
              });
            } finally {
              progress.stop();
            }
          }
          return {
            json: { project: project.slug, links: results, failed, added, unreachable, commits: counts.total, reachable: counts.reachable, generated },
            text: links.length
              ? `${project.slug}: ${added} new commits (${counts.total} stored${unreachable ? `, ${unreachable} made unreachable by a force-push` : ''})\n` +
                (generated ? describeSummary(generated) : 'Nothing changed since the last sync: the entries stay as they are')
              : `No repositories linked to ${project.slug}`,
            // The other links synced (and their entries were generated), but a script must not take this for success.
            ...(failed.length
              ? {
                  failure: {
                    message: `${failed.length} of ${links.length} linked repositories of ${project.slug} failed to sync`,
                    code: 'sync_failed',
                    details: failed.map((f) => ({ message: `${f.source} (link ${f.linkId}): ${f.error}` })),
                  },
                }
              : {}),
          };
        }),
      ),
    );
}
