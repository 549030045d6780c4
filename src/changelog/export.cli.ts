import type { CliParts, Output } from '../cli-kit/io.js';
import { AppError } from '../errors.js';
import type { ExportFormat, ReleasesService } from './releases.service.js';

type Services = { releases: ReleasesService };

const FORMATS: readonly ExportFormat[] = ['keep-a-changelog', 'markdown', 'json'];

/**
 * `changelog export --project SLUG [--format …] [--since TAG]`: the published release notes as one
 * document, read through the same service as `GET /v1/changelog/{slug}/changelog.md` (every note, no cap).
 */
export function registerExportCommand({ program, command, run, withServices }: CliParts<Services>): void {
  command(program, 'export', "a project's published release notes as one CHANGELOG.md (Keep a Changelog), newest first")
    .requiredOption('--project <slug>', 'project slug')
    .option('--format <format>', `${FORMATS.join(', ')} (markdown: the notes as published, with their own section names)`, 'keep-a-changelog')
    .option('--since <tag>', 'only the releases after this published tag (and Unreleased)')
    .action(
      run(async (opts: { project: string; format: string; since?: string }): Promise<Output> => {
        if (!FORMATS.includes(opts.format as ExportFormat)) {
          throw new AppError('invalid_request', `--format must be one of ${FORMATS.join(', ')}`);
        }
        const format = opts.format as ExportFormat;
        return withServices(async (services) => {
          const doc = await services.releases.document(opts.project, format, opts.since !== undefined ? { since: opts.since } : {});
          return {
            json: format === 'json' ? JSON.parse(doc.body) : { project: doc.project.slug, format, releases: doc.releases.length, document: doc.body },
            text: doc.body.trimEnd(),
          };
        });
      }),
    );
}
