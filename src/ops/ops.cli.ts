import type { CliParts } from '../cli-kit/io.js';

/** `changelog backup|restore` of the embedded database. */
export function registerOpsCommands({ program, command, run, getConfig }: CliParts): void {
  command(program, 'backup', 'write the embedded database to a file (stop the server first; PostgreSQL: pg_dump)')
    .requiredOption('--out <file>', 'archive to write (gzip\'d tar)')
    .action(
      run(async (opts: { out: string }) => {
        const { backupEmbedded } = await import('./backup.js');
        const result = await backupEmbedded(getConfig(), opts.out);
        return { json: result, text: `Backed up ${result.dataDir} to ${result.file} (${result.bytes} bytes)` };
      }),
    );

  command(program, 'restore', 'replace the embedded database with a backup (refuses a non-empty one without --force)')
    .argument('<file>', 'archive written by `changelog backup`')
    .option('--force', 'replace an existing database (it is kept aside, renamed)')
    .action(
      run(async (file: string, opts: { force?: boolean }) => {
        const { restoreEmbedded } = await import('./backup.js');
        const result = await restoreEmbedded(getConfig(), file, { force: Boolean(opts.force) });
        const kept = result.previous ? `; the previous database is kept in ${result.previous}` : '';
        return { json: result, text: `Restored ${file} into ${result.dataDir} (schema version ${result.schemaVersion})${kept}` };
      }),
    );
}
