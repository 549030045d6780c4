import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { parseContextRef } from '../context.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import type { EntryRow, OrganizationRow, ProjectRow, UserRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import { preview } from '../generation/preview.js';
import type { KeyView } from '../keys/keys.service.js';
import { backupEmbedded, restoreEmbedded } from '../ops/backup.js';
import { createServices, type Services } from '../services.js';
import { setupUrl, startServer } from '../server.js';
import { registerGenerationCommands } from '../generation/generation.cli.js';
import { registerWorkerCommand } from '../jobs/worker.cli.js';
import { registerReposCommands } from '../repos/repos.cli.js';
import type { CliIo, Output } from './io.js';

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  ...(process.stdout.isTTY && process.stderr.isTTY ? { progress: process.stderr } : {}),
};


// Presenters name every field they show: a key's hash can never slip into output.
const presentUser = (u: UserRow) => ({ id: u.id, email: u.email, name: u.name, created_at: u.created_at });
const presentOrg = (o: OrganizationRow) => ({ id: o.id, slug: o.slug, name: o.name, created_at: o.created_at });
const presentProject = (p: ProjectRow) => ({
  id: p.id,
  name: p.name,
  slug: p.slug,
  owner_type: p.owner_type,
  owner_id: p.owner_user_id ?? p.owner_org_id,
  created_at: p.created_at,
});
const keyStatus = (k: KeyView) =>
  k.revoked_at ? 'revoked' : k.expires_at && k.expires_at.getTime() <= Date.now() ? 'expired' : 'active';
const presentKey = (k: KeyView) => ({
  id: k.id,
  name: k.name,
  display_prefix: k.display_prefix,
  context: { type: k.context_type, id: k.user_id ?? k.org_id },
  scope: k.scope,
  projects: k.projects,
  status: keyStatus(k),
  created_at: k.created_at,
  last_used_at: k.last_used_at,
  expires_at: k.expires_at,
  revoked_at: k.revoked_at,
  previous_secret_expires_at: k.previous_expires_at,
});
const presentEntryState = (e: EntryRow) => ({ id: e.id, status: e.status, published_at: e.published_at, updated_at: e.updated_at });

function splitList(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((s) => s.trim()).filter(Boolean);
}

function parseDate(value: string, option: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new AppError('invalid_request', `${option} must be an ISO 8601 date (got "${value}")`);
  return date;
}

function parseInteger(value: string, option: string): number {
  if (!/^\d+$/.test(value)) throw new AppError('invalid_request', `${option} must be a whole number (got "${value}")`);
  return Number(value);
}

/**
 * Runs the `changelog` command line and returns the exit code. Every command accepts `--json`
 * and then prints exactly one JSON object on stdout; errors go to stderr with a non-zero code.
 */
export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  let exitCode = 0;
  let config: Config | undefined;
  const getConfig = () => (config ??= loadConfig(io.env));

  const print = (output: Output, json: boolean) => {
    io.stdout(json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
  };

  /** Opens the configured database (applying pending migrations), runs `fn`, and closes it. */
  const withServices = async <T>(fn: (services: Services) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> => {
    const database = await openDatabase(getConfig().database);
    try {
      if (options.migrate !== false) await migrate(database);
      const services = createServices(database, getConfig());
      try {
        return await fn(services);
      } finally {
        await services.jobs.stop();
      }
    } finally {
      await database.close();
    }
  };

  const wantsJson = argv.includes('--json');
  const program = new Command('changelog')
    .description('Changelog service: server and administration')
    .exitOverride()
    // With --json, stderr carries one JSON error object instead of commander's text and help.
    .configureOutput({ writeOut: io.stdout, writeErr: wantsJson ? () => {} : io.stderr })
    .showHelpAfterError(!wantsJson);

  /** Declares a subcommand whose action returns an Output, printed as text or JSON. */
  const command = (parent: Command, name: string, description: string) =>
    parent.command(name).description(description).option('--json', 'print one JSON object instead of text');

  const run =
    <A extends unknown[]>(fn: (...args: A) => Promise<Output>) =>
    async (...args: A) => {
      const cmd = args[args.length - 1] as Command;
      print(await fn(...args), Boolean(cmd.opts().json));
    };

  command(program, 'serve', 'start the HTTP server (applies pending migrations first)')
    .option('--no-migrate', 'do not apply pending migrations')
    .action(async (opts: { migrate: boolean }) => {
      await startServer(getConfig(), { migrate: opts.migrate });
      // The server keeps the process alive; close-with-grace ends it on SIGTERM/SIGINT.
      await new Promise(() => {});
    });

  command(program, 'migrate', 'apply pending database migrations').action(
    run(async () =>
      withServices(
        async (services) => {
          const result = await migrate(services.database);
          const text = result.applied.length
            ? `Applied ${result.applied.map((m) => `${m.version}_${m.name}`).join(', ')}; schema at version ${result.current}`
            : `Nothing to apply; schema at version ${result.current}`;
          return { json: { applied: result.applied, version: result.current }, text };
        },
        { migrate: false },
      ),
    ),
  );

  const users = program.command('users').description('manage users');
  command(users, 'create', 'create a user')
    .requiredOption('--email <email>', 'e-mail address')
    .requiredOption('--name <name>', 'display name')
    .action(
      run(async (opts: { email: string; name: string }) =>
        withServices(async (services) => {
          const user = await services.users.create({ email: opts.email, name: opts.name });
          return { json: presentUser(user), text: `Created user ${user.email} (${user.id})` };
        }),
      ),
    );

  command(users, 'invite', 'print a single-use link (valid 72 hours) that sets the password of the user with this e-mail, creating the user if needed')
    .argument('<email>', 'e-mail address')
    .option('--name <name>', 'display name of a new user (default: the part before @)')
    .action(
      run(async (email: string, opts: { name?: string }) =>
        withServices(async (services) => {
          const existing = await services.users.findByEmail(email);
          const user = existing ?? (await services.users.create({ email, name: opts.name ?? email.trim().split('@')[0] ?? '' }));
          const { token, expiresAt } = await services.accounts.userSetupLink(user.id);
          const link = setupUrl(getConfig().publicUrl, token);
          return {
            json: { user: presentUser(user), created: !existing, setup_link: link, expires_at: expiresAt },
            text: `${existing ? '' : `Created user ${user.email} (${user.id})\n`}Setup link for ${user.email} (works once, until ${expiresAt.toISOString()}):\n${link}`,
          };
        }),
      ),
    );

  const orgs = program.command('orgs').description('manage organizations');
  command(orgs, 'create', 'create an organization owned by a user')
    .requiredOption('--slug <slug>', 'organization slug')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--owner <email>', 'e-mail of the owning user')
    .action(
      run(async (opts: { slug: string; name: string; owner: string }) =>
        withServices(async (services) => {
          const org = await services.orgs.create({ slug: opts.slug, name: opts.name, ownerEmail: opts.owner });
          return { json: { ...presentOrg(org), owner: opts.owner.toLowerCase() }, text: `Created organization ${org.slug} (${org.id})` };
        }),
      ),
    );

  const projects = program.command('projects').description('manage projects');
  command(projects, 'create', 'create a project')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--slug <slug>', 'public slug: lowercase letters, digits and single hyphens, 2-64 characters')
    .requiredOption('--owner <owner>', 'user:EMAIL or org:SLUG')
    .action(
      run(async (opts: { name: string; slug: string; owner: string }) =>
        withServices(async (services) => {
          const project = await services.projects.create({ name: opts.name, slug: opts.slug, owner: parseContextRef(opts.owner, '--owner') });
          return { json: presentProject(project), text: `Created project ${project.slug} (${project.id})` };
        }),
      ),
    );

  const keys = program.command('keys').description('manage API keys');
  command(keys, 'create', 'create an API key; its secret is printed this once')
    .requiredOption('--name <name>', 'name shown in lists')
    .requiredOption('--context <context>', 'user:EMAIL or org:SLUG')
    .option('--projects <slugs>', 'limit the key to these projects (comma-separated); default: all projects of the context')
    .option('--expires-at <date>', 'ISO 8601 date after which the key stops working')
    .action(
      run(async (opts: { name: string; context: string; projects?: string; expiresAt?: string }) =>
        withServices(async (services) => {
          const { key, secret } = await services.keys.create({
            name: opts.name,
            context: parseContextRef(opts.context, '--context'),
            projectSlugs: splitList(opts.projects),
            expiresAt: opts.expiresAt ? parseDate(opts.expiresAt, '--expires-at') : null,
          });
          return {
            json: { ...presentKey(key), key: secret },
            text: `Created API key "${key.name}" (${key.id})\nSecret, shown this once — store it now:\n${secret}`,
          };
        }),
      ),
    );

  command(keys, 'list', 'list API keys (never their secrets)')
    .option('--context <context>', 'only keys of user:EMAIL or org:SLUG')
    .action(
      run(async (opts: { context?: string }) =>
        withServices(async (services) => {
          const list = await services.keys.list(opts.context ? parseContextRef(opts.context, '--context') : undefined);
          const text = list.length
            ? list
                .map((k) => `${k.id}  ${k.display_prefix}…  ${keyStatus(k).padEnd(7)}  ${k.scope === 'all' ? 'all projects' : k.projects.join(',')}  ${k.name}`)
                .join('\n')
            : 'No API keys';
          return { json: { keys: list.map(presentKey), count: list.length }, text };
        }),
      ),
    );

  command(keys, 'rename', 'rename an API key')
    .argument('<id>', 'key id')
    .requiredOption('--name <name>', 'new name')
    .action(
      run(async (id: string, opts: { name: string }) =>
        withServices(async (services) => {
          const key = await services.keys.rename(id, opts.name);
          return { json: presentKey(key), text: `Renamed ${key.id} to "${key.name}"` };
        }),
      ),
    );

  command(keys, 'rotate', 'replace the secret of an API key; the old one stops working at once')
    .argument('<id>', 'key id')
    .addOption(new Option('--grace <seconds>', 'keep the old secret working this long (at most 86400)').default('0'))
    .action(
      run(async (id: string, opts: { grace: string }) =>
        withServices(async (services) => {
          const { key, secret } = await services.keys.rotate(id, parseInteger(opts.grace, '--grace'));
          return {
            json: { ...presentKey(key), key: secret },
            text: `Rotated ${key.id}\nNew secret, shown this once — store it now:\n${secret}`,
          };
        }),
      ),
    );

  for (const [name, description] of [
    ['revoke', 'revoke an API key (it is kept, listed as revoked, and refused from the next request)'],
    ['delete', 'delete an API key for good'],
  ] as const) {
    command(keys, name, description)
      .argument('<id>', 'key id')
      .action(
        run(async (id: string) =>
          withServices(async (services) => {
            if (name === 'delete') {
              const result = await services.keys.delete(id);
              return { json: result, text: `Deleted ${id}` };
            }
            const key = await services.keys.revoke(id);
            return { json: presentKey(key), text: `Revoked ${key.id}` };
          }),
        ),
      );
  }

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

  registerReposCommands({ program, command, run, withServices, getConfig, io });
  registerWorkerCommand({ program, command, withServices, io });
  registerGenerationCommands({ program, command, run, withServices, io });

  command(program, 'backup', 'write the embedded database to a file (stop the server first; PostgreSQL: pg_dump)')
    .requiredOption('--out <file>', 'archive to write (gzip\'d tar)')
    .action(
      run(async (opts: { out: string }) => {
        const result = await backupEmbedded(getConfig(), opts.out);
        return { json: result, text: `Backed up ${result.dataDir} to ${result.file} (${result.bytes} bytes)` };
      }),
    );

  command(program, 'restore', 'replace the embedded database with a backup (refuses a non-empty one without --force)')
    .argument('<file>', 'archive written by `changelog backup`')
    .option('--force', 'replace an existing database (it is kept aside, renamed)')
    .action(
      run(async (file: string, opts: { force?: boolean }) => {
        const result = await restoreEmbedded(getConfig(), file, { force: Boolean(opts.force) });
        const kept = result.previous ? `; the previous database is kept in ${result.previous}` : '';
        return { json: result, text: `Restored ${file} into ${result.dataDir} (schema version ${result.schemaVersion})${kept}` };
      }),
    );

  command(program, 'preview', 'print the changelog a local git repository would get, storing nothing')
    .requiredOption('--path <dir>', 'a git checkout (or bare repository)')
    .option('--type <type>', 'entry type: commit, daily, weekly or monthly (several: comma-separated)', 'weekly')
    .addOption(new Option('--format <format>', 'output format').choices(['md', 'json']).default('md'))
    .option('--timezone <tz>', 'IANA time zone of daily/weekly/monthly windows', 'UTC')
    .option('--rev <rev>', 'branch, tag or commit to read', 'HEAD')
    .option('--since <date>', 'only commits from this ISO 8601 date on')
    .option('--limit <n>', 'only the newest N entries')
    .option('--exclude-authors <list>', 'skip commits by these e-mails, names or * patterns (comma-separated)')
    .option('--path-rule <rule...>', 'GLOB=COMPONENT, e.g. "packages/*/**=$1" (default: detected monorepo layout)')
    .option('--all-sections', 'also show build, test and maintenance sections')
    .action(
      async (opts: {
        path: string; type: string; format: string; timezone: string; rev: string; since?: string; limit?: string;
        excludeAuthors?: string; pathRule?: string[]; allSections?: boolean; json?: boolean;
      }) => {
        const result = await preview({
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
        io.stdout(opts.json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
      },
    );

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
