import { publicUrlOf, type CliParts } from '../cli-kit/io.js';
import type { Database } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import type { AccountsService } from './accounts.service.js';
import type { UsersService } from './users.service.js';

const presentUser = (u: UserRow) => ({ id: u.id, email: u.email, name: u.name, created_at: u.created_at });

/** `changelog users create|invite`. */
export function registerUsersCommands({ program, command, run, withServices, getConfig }: CliParts<{ database: Database; users: UsersService; accounts: AccountsService }>): void {
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
          const { setupUrl } = await import('./accounts.service.js');
          const link = setupUrl(publicUrlOf(services.database, getConfig()), token);
          return {
            json: { user: presentUser(user), created: !existing, setup_link: link, expires_at: expiresAt },
            text: `${existing ? '' : `Created user ${user.email} (${user.id})\n`}Setup link for ${user.email} (works once, until ${expiresAt.toISOString()}):\n${link}`,
          };
        }),
      ),
    );
}
