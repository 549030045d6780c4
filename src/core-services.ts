import { createAccountsService } from './auth/accounts.service.js';
import { createUsersService } from './auth/users.service.js';
import { createChangelogService } from './changelog/changelog.service.js';
import { EntryJson } from './changelog/entry-json.js';
import { createReleasesService } from './changelog/releases.service.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { createEntriesService, type ReleaseMarkdown } from './entries/entries.service.js';
import { renderMarkdown } from './generation/engine/render.js';
import type { GeneratedJson } from './generation/engine/types.js';
import { createKeysService } from './keys/keys.service.js';
import { acceptInviteIn, createOrgsService, findUsableInvite } from './orgs/orgs.service.js';
import { createProjectsService } from './projects/projects.service.js';

/**
 * The services that need nothing but the database and the settings: users, organizations, projects,
 * keys, entries, accounts. createServices (services.ts) builds every other one on top of these. A CLI
 * command that only reads and writes such rows builds these alone, and so loads no job queue, GitHub
 * client, Markdown renderer or generation engine: about a third of its start-up.
 */
/** The release editor's Markdown: generation's renderer with the project's pull-request links. */
export const releaseMarkdown: ReleaseMarkdown = (json, settings) =>
  renderMarkdown(json as GeneratedJson, { pullRequestUrl: typeof settings.pullRequestUrl === 'string' ? settings.pullRequestUrl : null });

export function createCoreServices(database: Database, config: Config) {
  const db = database.db;
  // Shared by every read that shows entries: one memory budget, one copy of each serialized version.
  const entryJson = new EntryJson(config.entryJsonCacheBytes);
  // Services other services call (a domain reaches another's tables only through its service).
  const users = createUsersService(db);
  const orgs = createOrgsService(db, { users });
  const projects = createProjectsService(db, database.readDb, orgs);
  const changelog = createChangelogService(database.readDb, entryJson, { projects });
  return {
    database,
    /** What the services were made with; the worker reads its own settings (the poll interval) here. */
    config,
    users,
    orgs,
    projects,
    keys: createKeysService(db, { projects, owners: orgs }),
    entries: createEntriesService(db, { projects, releaseMarkdown }),
    changelog,
    /** Published release notes (the API's extension, changelog.md, `changelog export`). */
    releases: createReleasesService(database.readDb),
    accounts: createAccountsService(db, {
      signupOpen: config.signupOpen,
      sessionTtlHours: config.sessionTtlHours,
      passwordScryptLogN: config.passwordScryptLogN,
      passwordHashing: config.passwordHashing,
      invitations: { findUsable: findUsableInvite, acceptIn: acceptInviteIn },
    }),
  };
}

export type CoreServices = ReturnType<typeof createCoreServices>;
