import { randomBytes } from 'node:crypto';
import type { Services } from '../../src/services.js';
import { buildCommit } from './commits.js';
import { generatedJson, insertEntries } from './factories.js';
import { storeCommits } from './releases.js';

/** The tag of each tenant's one release. */
export const RELEASE_TAG = 'v1.0.0';

/**
 * One tenant of the authorization matrix: a user who owns an organization with a project, entries,
 * a webhook endpoint, a second member, a pending invitation and API keys, plus dashboard sessions.
 * `markers` are texts only this tenant's data contains and no URL of the matrix does: another
 * caller's response containing one of them has been given this tenant's data.
 */
export interface Tenant {
  user: { id: string; email: string; name: string };
  org: { id: string; slug: string; name: string };
  member: { id: string };
  project: { id: string; slug: string; name: string };
  entryId: string;
  webhookId: string;
  /** A repository link of the project (a local path; never fetched here). */
  repoLinkId: string;
  invite: { id: string; token: string };
  /** An organization key with the `publish` scope, valid throughout. */
  key: { id: string; secret: string };
  /** An organization key without the `publish` scope (read-only), valid throughout. */
  readOnly: { id: string; secret: string };
  /** A second organization key (`publish` scope) the test revokes (through the dashboard) once the servers run. */
  revocable: { id: string; secret: string };
  /** An organization key (`publish` scope) whose expiry lies in the past. */
  expired: { id: string; secret: string };
  /** Session cookie values: one kept, one the test signs out once the servers run. */
  session: string;
  doomedSession: string;
  markers: string[];
}

/** Seeds one tenant through the services (and SQL for what no service allows: a past expiry). */
export async function seedTenant(services: Services, label: 'a' | 'b'): Promise<Tenant> {
  const tag = `${label}${randomBytes(3).toString('hex')}`;
  const secretWord = `${label.toUpperCase()}-only-${randomBytes(4).toString('hex')}`;
  const user = await services.users.create({ email: `owner-${tag}@${label}.example`, name: `Owner ${secretWord}` });
  const memberUser = await services.users.create({ email: `member-${tag}@${label}.example`, name: `Member ${secretWord}` });
  const org = await services.orgs.create({ slug: `org-${tag}`, name: `Org ${secretWord}`, ownerEmail: user.email });
  const owner = await services.orgs.membership(org.slug, user.id);
  const joined = await services.orgs.createInvite(owner, 'member', user.id);
  await services.orgs.acceptInvite(joined.token, memberUser.id);
  const pending = await services.orgs.createInvite(owner, 'admin', user.id);

  const project = await services.projects.create({ name: `Project ${secretWord}`, slug: `proj-${tag}`, owner: { type: 'org', slug: org.slug } });
  const [published] = await insertEntries(services, project.id, [
    {
      status: 'published',
      title: `Release ${secretWord}`,
      generated_json: JSON.stringify(generatedJson(`Release ${secretWord}`)),
      published_at: new Date(Date.UTC(2026, 0, 2)).toISOString(),
    },
    { status: 'draft', title: `Draft ${secretWord}`, generated_json: JSON.stringify(generatedJson(`Draft ${secretWord}`)) },
  ]);
  // A tagged release, so that its note (a draft under the default policy) has pages to fill.
  await storeCommits(services, project.id, [buildCommit({ message: `feat: release ${secretWord}`, tags: [RELEASE_TAG], date: '2026-01-01T10:00:00Z' })]);
  await services.generation.generate(project.slug);
  const { endpoint } = await services.webhooks.create(project.id, { url: `http://127.0.0.1:9/hook-${tag}`, eventTypes: ['entry.published'] });

  // No service links a repository without asking git; the row is what linking would store.
  const repoLink = await services.database.db
    .insertInto('repo_links')
    .values({ project_id: project.id, kind: 'local', installation_id: null, repo_owner: null, repo_name: null, source_url: `/srv/git/${tag}-${secretWord}.git`, source_key: `local:/srv/git/${tag}.git`, tracked_branch: 'main', default_branch: 'main', restricted: true })
    .returning('id')
    .executeTakeFirstOrThrow();

  const context = { type: 'org' as const, slug: org.slug };
  // Every withdrawn key could publish: revocation and expiry must stop the strongest keys too.
  const key = await services.keys.create({ name: `key ${secretWord}`, context, publish: true });
  const readOnly = await services.keys.create({ name: `read-only ${secretWord}`, context });
  const revocable = await services.keys.create({ name: `revocable ${secretWord}`, context, publish: true });
  const expired = await services.keys.create({ name: `expired ${secretWord}`, context, expiresAt: new Date(Date.now() + 3_600_000), publish: true });
  // No service sets an expiry in the past; the expiry arriving is what this stands for.
  await services.database.db.updateTable('api_keys').set({ expires_at: new Date(Date.now() - 60_000) }).where('id', '=', expired.key.id).execute();

  const session = await services.accounts.startSession(user.id, 'auth-matrix');
  const doomedSession = await services.accounts.startSession(user.id, 'auth-matrix');

  return {
    user: { id: user.id, email: user.email, name: user.name },
    org: { id: org.id, slug: org.slug, name: org.name },
    member: { id: memberUser.id },
    project: { id: project.id, slug: project.slug, name: project.name },
    entryId: published!,
    webhookId: endpoint.id,
    repoLinkId: repoLink.id,
    invite: { id: pending.invite.id, token: pending.token },
    key: { id: key.key.id, secret: key.secret },
    readOnly: { id: readOnly.key.id, secret: readOnly.secret },
    revocable: { id: revocable.key.id, secret: revocable.secret },
    expired: { id: expired.key.id, secret: expired.secret },
    session: session.token,
    doomedSession: doomedSession.token,
    // The secret word is in every name and title above; the key prefixes are shown on key pages only.
    markers: [secretWord, user.email, memberUser.email, key.key.display_prefix, revocable.key.display_prefix],
  };
}
