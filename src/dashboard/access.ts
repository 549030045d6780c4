import type { SessionUser } from '../auth/auth.repository.js';
import type { ResolvedContext } from '../context.js';
import type { EntryRow, OrganizationRow, OrgRole, ProjectRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { EntriesService } from '../entries/entries.service.js';
import type { KeysService, KeyView } from '../keys/keys.service.js';
import type { Membership, OrgsService } from '../orgs/orgs.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { RepoLinksConfig } from '../config.js';
import type { SourceGrant } from '../repos/source-policy.js';

/** A personal or organization context as the signed-in user sees it. */
export interface Workspace {
  kind: 'user' | 'org';
  label: string;
  /** URL of the workspace page; its keys live under `${base}/keys`. */
  base: string;
  resolved: ResolvedContext;
  org?: OrganizationRow;
  role?: OrgRole;
  /** May manage its projects, entries and API keys: yourself, or an org's admins and owners. */
  canManage: boolean;
  membership?: Membership;
}

const personal = (user: SessionUser): Workspace => ({
  kind: 'user',
  label: 'Personal',
  base: '/dashboard/personal',
  resolved: { type: 'user', userId: user.id },
  canManage: true,
});

function ofMembership(membership: Membership): Workspace {
  return {
    kind: 'org',
    label: membership.org.name,
    base: `/dashboard/orgs/${membership.org.slug}`,
    resolved: { type: 'org', orgId: membership.org.id },
    org: membership.org,
    role: membership.role,
    canManage: membership.role !== 'member',
    membership,
  };
}

const notFound = (what: string) => new AppError('not_found', `${what} not found`);

/**
 * Every dashboard authorization decision goes through here. Things outside the user's reach are
 * reported as not found, so their existence is not revealed.
 */
export function createAccess(
  services: { orgs: OrgsService; projects: ProjectsService; entries: EntriesService; keys: KeysService },
  repoLinks: Pick<RepoLinksConfig, 'pathsOrgs'>,
) {
  async function workspace(user: SessionUser, orgSlug: string | undefined): Promise<Workspace> {
    return orgSlug === undefined ? personal(user) : ofMembership(await services.orgs.membership(orgSlug, user.id));
  }

  async function workspaceOfOwner(user: SessionUser, owner: { userId: string | null; orgId: string | null }): Promise<Workspace | undefined> {
    if (owner.userId !== null) return owner.userId === user.id ? personal(user) : undefined;
    const orgs = await services.orgs.listForUser(user.id);
    const org = orgs.find((o) => o.id === owner.orgId);
    return org ? ofMembership({ org, role: org.role }) : undefined;
  }

  return {
    workspace,

    /**
     * Whether the user may link local paths (under REPO_PATHS_ALLOWED) in this workspace's projects:
     * the directories are the operator's grant, so only the installation owner, in any workspace they
     * manage, and the owners of the organizations the operator names in REPO_PATHS_ORGS, in those.
     */
    linkGrant(user: SessionUser, ws: Workspace): SourceGrant {
      const orgOwner = ws.kind === 'org' && ws.role === 'owner' && ws.org !== undefined && repoLinks.pathsOrgs.includes(ws.org.slug);
      return { localPaths: ws.canManage && (user.is_instance_owner || orgOwner) };
    },

    /** A workspace whose keys and projects the user may manage. */
    async managedWorkspace(user: SessionUser, orgSlug: string | undefined): Promise<Workspace> {
      const ws = await workspace(user, orgSlug);
      if (!ws.canManage) throw new AppError('forbidden', 'Only admins and owners of the organization may do this');
      return ws;
    },

    /** A project the user may see (its owner, or any member of its organization). */
    async project(user: SessionUser, slug: string, manage = false): Promise<{ project: ProjectRow; ws: Workspace }> {
      const project = await services.projects.findBySlug(slug);
      const ws = project && (await workspaceOfOwner(user, { userId: project.owner_user_id, orgId: project.owner_org_id }));
      if (!project || !ws) throw notFound(`Project ${slug}`);
      if (manage && !ws.canManage) throw new AppError('forbidden', 'Only admins and owners of the organization may do this');
      return { project, ws };
    },

    /**
     * An entry and its project, when the user may see the project (and manage it, with `manage`).
     * Any entry outside the user's reach is "Entry not found": never its project's slug.
     */
    async entry(user: SessionUser, id: string, manage = false): Promise<{ entry: EntryRow; project: ProjectRow; ws: Workspace }> {
      const entry = await services.entries.get(id);
      const project = await services.projects.findById(entry.project_id);
      const ws = project && (await workspaceOfOwner(user, { userId: project.owner_user_id, orgId: project.owner_org_id }));
      if (!project || !ws) throw notFound('Entry');
      if (manage && !ws.canManage) throw new AppError('forbidden', 'Only admins and owners of the organization may do this');
      return { entry, project, ws };
    },

    /** A key the user may see and edit: only in a context they manage; any other key does not exist for them. */
    async key(user: SessionUser, id: string): Promise<{ key: KeyView; ws: Workspace }> {
      let key: KeyView;
      try {
        key = await services.keys.get(id);
      } catch {
        throw notFound('API key');
      }
      const ws = await workspaceOfOwner(user, { userId: key.user_id, orgId: key.org_id });
      if (!ws || !ws.canManage) throw notFound('API key');
      return { key, ws };
    },
  };
}

export type Access = ReturnType<typeof createAccess>;
