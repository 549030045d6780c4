import { readFile } from 'node:fs/promises';
import type { CliParts } from '../cli-kit/io.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { EntryRow } from '../db/schema.js';
import { AppError, notFound } from '../errors.js';
import type { ReviewRow } from './entries.repository.js';
import type { EntriesService, ReviewCounts } from './entries.service.js';
import { parseReviewFilter, REVIEW_PAGE_MAX } from './review-filter.js';

const presentEntryState = (e: EntryRow) => ({ id: e.id, status: e.status, published_at: e.published_at, updated_at: e.updated_at });

const presentReviewRow = (e: ReviewRow) => ({
  id: e.id,
  entry_type: e.entry_type,
  status: e.status,
  title: e.title,
  version_label: e.version_label,
  date: e.occurred_at.toISOString(),
  published_at: e.published_at?.toISOString() ?? null,
  updated_at: e.updated_at.toISOString(),
  edited: e.edited_at !== null,
  pending_regeneration: e.pending_regeneration,
});

const counted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n.toLocaleString('en')}`)
    .join(', ') || 'none';

function listText(slug: string, rows: ReviewRow[], counts: ReviewCounts, next: string | null): string {
  const head = `${counts.total.toLocaleString('en')} matching in ${slug} (by status: ${counted(counts.byStatus)}; by type: ${counted(counts.byType)})`;
  if (!rows.length) return `${head}\nNo entries`;
  const lines = rows.map(
    (e) =>
      `${e.occurred_at.toISOString().slice(0, 10)}  ${e.entry_type.padEnd(7)}  ${e.status.padEnd(9)}  ${e.id}  ${e.title ?? '(untitled)'}${
        e.pending_regeneration ? '  [newer commits]' : ''
      }`,
  );
  return [head, ...lines, ...(next ? [`More: add --after ${next}`] : [])].join('\n');
}

/** `changelog entries list|import|publish|unpublish|archive|publish-release|unpublish-release|archive-release` (`entries releases`: releases.cli.ts). */
export function registerEntriesCommands({ program, command, run, withServices }: CliParts<{ projects: ProjectsService; entries: EntriesService }>): void {
  const entries = program.command('entries').description('manage changelog entries');
  command(entries, 'list', "a project's entries newest first by their own date (period start or commit date), as the review queue shows them")
    .requiredOption('--project <slug>', 'project slug')
    .option('--status <status>', 'draft, published, archived or all', 'all')
    .option('--type <type>', 'commit, daily, weekly or monthly')
    .option('--section <key>', 'only entries with a section of this key (feature, fix, …)')
    .option('--since <date>', 'entries dated on or after this date (YYYY-MM-DD) or instant')
    .option('--until <date>', 'entries dated on or before this date (the whole day) or before this instant')
    .option('--pending', 'only edited entries whose commits changed since')
    .option('--limit <n>', `entries per page (1 to ${REVIEW_PAGE_MAX})`, '50')
    .option('--after <cursor>', 'continue after the page that printed this cursor')
    .action(
      run(async (opts: { project: string; status: string; type?: string; section?: string; since?: string; until?: string; pending?: boolean; limit: string; after?: string }) => {
        const limit = Number(opts.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > REVIEW_PAGE_MAX) {
          throw new AppError('invalid_request', `--limit must be a whole number from 1 to ${REVIEW_PAGE_MAX}`);
        }
        const filter = parseReviewFilter(opts);
        return withServices(async (services) => {
          const project = await services.projects.findBySlug(opts.project);
          if (!project) throw notFound(`Project ${opts.project}`);
          const page = await services.entries.review(project.id, filter, { limit, ...(opts.after ? { after: opts.after } : {}) });
          const counts = await services.entries.reviewCounts(project.id, filter);
          return {
            json: { project: project.slug, counts, entries: page.entries.map(presentReviewRow), next: page.next },
            text: listText(project.slug, page.entries, counts, page.next),
          };
        });
      }),
    );

  command(entries, 'import', 'import entries from a JSON array (all or nothing)')
    .requiredOption('--project <slug>', 'project slug')
    .argument('<file>', 'JSON file: an array of entries in the API field names')
    .action(
      run(async (file: string, opts: { project: string }) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(await readFile(file, 'utf8'));
        } catch (error) {
          throw new AppError('invalid_request', `Cannot read ${file} as JSON: ${(error as Error).message}`);
        }
        return withServices(async (services) => {
          const result = await services.entries.import(opts.project, parsed);
          return { json: result, text: `Imported ${result.imported} entries into ${opts.project}` };
        });
      }),
    );

  for (const [name, verb] of [
    ['publish', 'publish'],
    ['unpublish', 'unpublish'],
    ['archive', 'archive'],
  ] as const) {
    command(entries, name, `${verb} an entry`)
      .argument('<id>', 'entry id')
      .action(
        run(async (id: string) =>
          withServices(async (services) => {
            const entry = await services.entries[name](id);
            return { json: presentEntryState(entry), text: `Entry ${entry.id} is now ${entry.status}` };
          }),
        ),
      );
  }
  // Release notes, one by one by project and tag (`unreleased`: the Unreleased note). Listing them
  // (`entries releases`) and bulk changes are `changelog releases` (releases.cli.ts).
  for (const [name, method] of [
    ['publish-release', 'publishRelease'],
    ['unpublish-release', 'unpublishRelease'],
    ['archive-release', 'archiveRelease'],
  ] as const) {
    command(entries, name, `${name.replace('-release', '')} a release note`)
      .requiredOption('--project <slug>', 'project slug')
      .argument('<tag>', 'release tag, or "unreleased"')
      .action(
        run(async (tag: string, opts: { project: string }) =>
          withServices(async (services) => {
            const note = await services.entries[method](opts.project, tag);
            return { json: { tag: note.tag, status: note.status, published_at: note.published_at }, text: `Release ${note.tag ?? 'unreleased'} is now ${note.status}` };
          }),
        ),
      );
  }
}
