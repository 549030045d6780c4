import { readFile } from 'node:fs/promises';
import type { CliParts } from '../cli/io.js';
import type { EntryRow } from '../db/schema.js';
import { AppError } from '../errors.js';

const presentEntryState = (e: EntryRow) => ({ id: e.id, status: e.status, published_at: e.published_at, updated_at: e.updated_at });

/** `changelog entries import|publish|unpublish|archive|releases|publish-release|unpublish-release|archive-release`. */
export function registerEntriesCommands({ program, command, run, withServices }: CliParts): void {
  const entries = program.command('entries').description('manage changelog entries');
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
  // Release notes, by project and tag (`unreleased`: the Unreleased note): reviewed and published
  // here when the project's release policy is manual.
  command(entries, 'releases', "list a project's release notes in every status, newest first")
    .requiredOption('--project <slug>', 'project slug')
    .action(
      run(async (opts: { project: string }) =>
        withServices(async (services) => {
          const notes = await services.entries.listReleases(opts.project);
          return {
            json: { releases: notes.map((n) => ({ tag: n.tag, status: n.status, released_at: n.released_at, previous_tag: n.previous_tag, title: n.title })) },
            text: notes.length
              ? notes.map((n) => `${(n.tag ?? 'unreleased').padEnd(24)} ${n.status.padEnd(9)} ${n.released_at?.toISOString().slice(0, 10) ?? '-'}`).join('\n')
              : `${opts.project} has no release notes`,
          };
        }),
      ),
    );
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
