import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { registerExportCommand } from '../changelog/export.cli.js';
import { registerEntriesCommands } from '../entries/entries.cli.js';
import { registerReleasesCommands } from '../entries/releases.cli.js';
import { AppError } from '../errors.js';
import { registerGenerationCommands } from '../generation/generation.cli.js';
import { registerPreviewCommand } from '../generation/preview.cli.js';
import { registerKeysCommands } from '../keys/keys.cli.js';
import { registerOpsCommands } from '../ops/ops.cli.js';
import { registerOrgsCommands } from '../orgs/orgs.cli.js';
import { registerProjectsCommands } from '../projects/projects.cli.js';
import { registerWorkerCommand } from '../jobs/worker.cli.js';
import { registerReposCommands } from '../repos/repos.cli.js';
import type { CoreServices } from '../core-services.js';
import type { Database } from '../db/database.js';
import type { EmbeddedStart } from '../db/embedded-start.js';
import type { Services } from '../services.js';
import { registerUsersCommands } from '../auth/users.cli.js';
import { command, outputRunner, type CliIo, type CliParts } from '../cli-kit/io.js';

/** The package's version (package.json sits two levels up from both src/cli and dist/cli). */
export const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  ...(process.stdout.isTTY && process.stderr.isTTY ? { progress: process.stderr } : {}),
};

/**
 * Runs the `changelog` command line and returns the exit code. Every command accepts `--json`
 * and then prints exactly one JSON object on stdout; errors go to stderr with a non-zero code.
 *
 * Start-up loads only commander and the commands' declarations: the database, the services and the
 * server are imported when a command that needs them runs, so `--help` or `preview` does not pay
 * for the whole application (about a second of module loading on a small machine).
 */
/**
 * Locks DATA_DIR and starts the embedded database's thread, or nothing when another process (a server)
 * holds it: openDatabase then finds the lock again and goes through that process's socket, or says why not.
 */
async function startEmbeddedEarly(dataDir: string): Promise<EmbeddedStart | undefined> {
  const { startEmbeddedThread } = await import('../db/embedded-start.js');
  try {
    return startEmbeddedThread(dataDir);
  } catch {
    return undefined;
  }
}

export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  let exitCode = 0;
  let config: Config | undefined;
  const getConfig = () => (config ??= loadConfig(io.env));

  /**
   * Opens the configured database (applying pending migrations unless told not to), runs `fn` on it
   * with what `load` loads meanwhile, and closes it. The embedded database starts in a thread of its
   * own (most of a command's time without a server): that thread starts before anything heavy is
   * imported (embedded-start.ts), and the query builder and the command's modules load meanwhile.
   */
  const withDatabase = async <M, T>(
    load: () => Promise<M>,
    fn: (database: Database, loaded: M) => Promise<T>,
    options: { migrate?: boolean } = {},
  ): Promise<T> => {
    const config = getConfig().database;
    const started = config.kind === 'pglite' ? await startEmbeddedEarly(config.dataDir) : undefined;
    let opening: Promise<Database>;
    try {
      const { openDatabase } = await import('../db/database.js');
      opening = openDatabase(config, started ? { started } : {});
    } catch (error) {
      // The thread started but nothing took it over.
      await started?.thread.terminate();
      started?.unlock();
      throw error;
    }
    const modules = Promise.all([import('../db/migrate.js'), load()]);
    modules.catch(() => {}); // awaited below, once the database is open
    const database = await opening;
    try {
      const [{ migrate }, loaded] = await modules;
      if (options.migrate !== false) await migrate(database);
      return await fn(database, loaded);
    } finally {
      await database.close();
    }
  };

  /** Every service (the job queue, GitHub, the generation engine…), for the commands that need them. */
  const withServices = <T>(fn: (services: Services) => Promise<T>): Promise<T> =>
    withDatabase(
      () => import('../services.js'),
      async (database, { createServices }) => {
        const services = createServices(database, getConfig());
        try {
          return await fn(services);
        } finally {
          await services.jobs.stop();
        }
      },
    );

  /** Users, organizations, projects, keys, entries, accounts: what most commands need, a third quicker to load. */
  const withCoreServices = <T>(fn: (services: CoreServices) => Promise<T>): Promise<T> =>
    withDatabase(
      () => import('../core-services.js'),
      (database, { createCoreServices }) => fn(createCoreServices(database, getConfig())),
    );

  const wantsJson = argv.includes('--json');
  const program = new Command('changelog')
    .description('Changelog service: server and administration')
    .version(VERSION, '-V, --version', 'print the version')
    .exitOverride()
    // With --json, stderr carries one JSON error object instead of commander's text and help.
    .configureOutput({ writeOut: io.stdout, writeErr: wantsJson ? () => {} : io.stderr })
    .showHelpAfterError(!wantsJson);

  const run = outputRunner(io, (code) => (exitCode = code));

  command(program, 'serve', 'start the HTTP server (applies pending migrations first)')
    .option('--no-migrate', 'do not apply pending migrations')
    .action(async (opts: { migrate: boolean }) => {
      const { startServer } = await import('../server.js');
      await startServer(getConfig(), { migrate: opts.migrate });
      // The server keeps the process alive; close-with-grace ends it on SIGTERM/SIGINT.
      await new Promise(() => {});
    });

  command(program, 'migrate', 'apply pending database migrations').action(
    run(async () =>
      withDatabase(
        () => import('../db/migrate.js'),
        async (database, { migrate }) => {
          const result = await migrate(database);
          const text = result.applied.length
            ? `Applied ${result.applied.map((m) => `${m.version}_${m.name}`).join(', ')}; schema at version ${result.current}`
            : `Nothing to apply; schema at version ${result.current}`;
          return { json: { applied: result.applied, version: result.current }, text };
        },
        { migrate: false },
      ),
    ),
  );

  // Each domain adds its own commands; the order is the order of `changelog --help`. Those whose
  // commands only read and write rows get the core services.
  const parts: CliParts<Services> = { program, command, run, withServices, getConfig, io };
  const core: CliParts<CoreServices> = { ...parts, withServices: withCoreServices };
  registerUsersCommands(core);
  registerOrgsCommands(core);
  registerProjectsCommands(core);
  registerKeysCommands(core);
  registerEntriesCommands(core);
  registerReleasesCommands(core);
  registerExportCommand(core);
  registerReposCommands(parts);
  registerWorkerCommand(parts);
  registerGenerationCommands(parts);
  registerOpsCommands(parts);
  registerPreviewCommand(parts);

  try {
    await program.parseAsync(argv);
  } catch (error) {
    exitCode = reportError(error, wantsJson, io);
  }
  return exitCode;
}

function reportError(error: unknown, json: boolean, io: CliIo): number {
  if (error instanceof CommanderError) {
    // Asked-for help is not a failure; help shown because a subcommand is missing is (exit code 1).
    if (error.exitCode === 0) return 0;
    if (json) {
      const message = error.code === 'commander.help' ? 'missing subcommand' : error.message.replace(/^error: /, '');
      io.stderr(`${JSON.stringify({ error: message, code: 'usage' })}\n`);
    }
    return 2;
  }
  let message: string;
  let body: Record<string, unknown>;
  if (error instanceof AppError) {
    message = error.message + (error.details?.length ? `\n${error.details.map((d) => `  - ${d.parameter ?? ''} ${d.message}`.trimEnd()).join('\n')}` : '');
    body = { error: error.message, code: error.code, ...(error.details ? { details: error.details } : {}) };
  } else if (error instanceof ConfigError) {
    message = error.message;
    body = { error: 'Invalid configuration', code: 'config', details: error.problems.map((p) => ({ message: p })) };
  } else {
    message = (error as Error)?.message ?? String(error);
    body = { error: message, code: 'internal' };
  }
  io.stderr(json ? `${JSON.stringify(body)}\n` : `error: ${message}\n`);
  return 1;
}

// `tsx src/cli/main.ts …` (npm run dev) runs the CLI directly; bin/changelog.js imports it instead.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv);
}
