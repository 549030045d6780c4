import { readFile } from 'node:fs/promises';
import type { CliParts } from '../cli/io.js';
import type { EntryRow } from '../db/schema.js';
import { AppError } from '../errors.js';

const presentEntryState = (e: EntryRow) => ({ id: e.id, status: e.status, published_at: e.published_at, updated_at: e.updated_at });

/** `changelog entries import|publish|unpublish|archive`. */
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
}
