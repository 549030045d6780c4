import { Option } from 'commander';
import type { CliParts } from '../cli-kit/io.js';
import { parseDate, parseInteger, splitList } from '../cli-kit/options.js';

/** `changelog preview`: a local repository's changelog, without a database. */
export function registerPreviewCommand({ program, command, run }: CliParts): void {
  command(program, 'preview', 'print the changelog a local git repository would get, storing nothing')
    .requiredOption('--path <dir>', 'a git checkout (or bare repository)')
    .option('--type <type>', 'entry type: commit, daily, weekly or monthly, or release for release notes (several: comma-separated)', 'weekly')
    .addOption(new Option('--format <format>', 'output format').choices(['md', 'json']).default('md'))
    .option('--timezone <tz>', 'IANA time zone of daily/weekly/monthly windows', 'UTC')
    .option('--rev <rev>', 'branch, tag or commit to read', 'HEAD')
    .option('--since <date>', 'only commits from this ISO 8601 date on')
    .option('--limit <n>', 'only the newest N entries')
    .option('--exclude-authors <list>', 'skip commits by these e-mails, names or * patterns (comma-separated)')
    .option('--path-rule <rule...>', 'GLOB=COMPONENT, e.g. "packages/*/**=$1" (default: detected monorepo layout)')
    .option('--all-sections', 'also show build, test and maintenance sections')
    .action(
      run(async (opts: {
        path: string; type: string; format: string; timezone: string; rev: string; since?: string; limit?: string;
        excludeAuthors?: string; pathRule?: string[]; allSections?: boolean; json?: boolean;
      }) => {
        // The reader and the engine alone: no database, no services.
        const { preview } = await import('./preview.js');
        return preview({
          path: opts.path,
          type: opts.type,
          format: opts.json ? 'json' : opts.format,
          timeZone: opts.timezone,
          rev: opts.rev,
          since: opts.since ? parseDate(opts.since, '--since') : undefined,
          limit: opts.limit ? parseInteger(opts.limit, '--limit') : undefined,
          excludeAuthors: splitList(opts.excludeAuthors),
          pathRules: opts.pathRule,
          allSections: opts.allSections,
        });
      }),
    );
}
