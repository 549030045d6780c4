import { createAccountsService } from './auth/accounts.service.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { createChangelogService } from './changelog/changelog.service.js';
import { createEntriesService } from './entries/entries.service.js';
import { createKeysService } from './keys/keys.service.js';
import { createOrgsService } from './orgs/orgs.service.js';
import { createProjectsService } from './projects/projects.service.js';
import { createUsersService } from './users/users.service.js';

/** Every service, wired to one database. The HTTP app and the CLI both go through these. */
export function createServices(database: Database, config?: Config) {
  const db = database.db;
  return {
    database,
    users: createUsersService(db),
    orgs: createOrgsService(db),
    projects: createProjectsService(db, database.readDb),
    keys: createKeysService(db),
    entries: createEntriesService(db),
    changelog: createChangelogService(database.readDb),
    accounts: createAccountsService(db, { signupOpen: config?.signupOpen ?? false, sessionTtlHours: config?.sessionTtlHours ?? 336 }),
  };
}

export type Services = ReturnType<typeof createServices>;
