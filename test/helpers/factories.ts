import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { NewEntry } from '../../src/db/schema.js';
import type { Services } from '../../src/services.js';

const unique = () => randomBytes(4).toString('hex');

export async function buildUser(services: Services, overrides: { email?: string; name?: string } = {}) {
  return services.users.create({ email: overrides.email ?? `user-${unique()}@example.com`, name: overrides.name ?? 'Test User' });
}

export async function buildOrg(services: Services, ownerEmail: string, overrides: { slug?: string; name?: string } = {}) {
  return services.orgs.create({ slug: overrides.slug ?? `org-${unique()}`, name: overrides.name ?? 'Test Org', ownerEmail });
}

export async function buildProject(
  services: Services,
  owner: { type: 'user'; email: string } | { type: 'org'; slug: string },
  overrides: { slug?: string; name?: string } = {},
) {
  return services.projects.create({ name: overrides.name ?? 'Test Project', slug: overrides.slug ?? `p-${unique()}`, owner });
}

/** A new user's project with the local repository at `source` linked (branch main) and ingested once. */
export async function buildIngestedProject(services: Services, source: string) {
  const user = await buildUser(services);
  const project = await buildProject(services, { type: 'user', email: user.email });
  const { link } = await services.repos.linkLocalRepo({ projectSlug: project.slug, source, branch: 'main' });
  await services.ingest.ingestLink(link.id);
  return { user, project, link };
}

export const generatedJson = (title: string) => ({
  title,
  headline_items: [{ section_type_key: 'feature', title: `${title}: headline`, body: null }],
  sections: [
    { section_type_key: 'feature', label: 'Features', items: [{ text: 'Add a thing', component: 'core' }] },
    { section_type_key: 'fix', label: 'Bug fixes', items: [{ text: 'Fix a thing', component: null }] },
  ],
  component_tags: ['core'],
  team_attribution: 'Ada and Linus',
});

/** Inserts entries straight through the repository layer's table (for fixtures with exact timestamps). */
export async function insertEntries(services: Services, projectId: string, entries: Partial<NewEntry>[]): Promise<string[]> {
  const rows = entries.map((entry, i) => ({
    project_id: projectId,
    entry_type: 'commit' as const,
    title: `Entry ${i}`,
    ...entry,
  }));
  const inserted = await services.database.db.insertInto('changelog_entries').values(rows).returning('id').execute();
  return inserted.map((r) => r.id);
}

/**
 * Dates a link before every commit of a fixture, so that all of them are new work (publishing
 * policy) rather than history (history policy): for tests about new work.
 */
export async function linkPredatesHistory(services: Services, linkId: string): Promise<void> {
  await sql`UPDATE repo_links SET created_at = '2000-01-01T00:00:00Z' WHERE id = ${linkId}`.execute(services.database.db);
}
