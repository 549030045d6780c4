import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import { createHash, randomBytes } from 'node:crypto';
import type { Executor } from '../db/database.js';
import type { OrganizationRow, OrgRole } from '../db/schema.js';
import type { UsersService } from '../auth/users.service.js';
import type { ContextRef, ResolvedContext } from '../context.js';
import { AppError } from '../errors.js';
import { slugProblem } from '../slug.js';
import { invitesRepository } from './invites.repository.js';
import { orgsRepository } from './orgs.repository.js';
import { isUuid } from '../ids.js';

export const ORG_ROLES: readonly OrgRole[] = ['owner', 'admin', 'member'];
/** How long an invitation link stays valid. */
export const INVITE_TTL_HOURS = 72;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface Membership {
  org: OrganizationRow;
  role: OrgRole;
}

function requireRole(role: string): OrgRole {
  if (!(ORG_ROLES as string[]).includes(role)) {
    throw new AppError('invalid_request', 'Invalid role', [{ parameter: 'role', message: 'must be owner, admin or member' }]);
  }
  return role as OrgRole;
}

/** The invitation `token` names when it can still be used (for callers inside their own transaction). */
export function findUsableInvite(db: Executor, token: string) {
  return invitesRepository.findUsable(db, hashToken(token));
}

/**
 * Adds `userId` to the invite's organization and uses the invite up, in the caller's transaction.
 * An invite works once: of two concurrent acceptances, one wins.
 */
export async function acceptInviteIn(tx: Executor, token: string, userId: string): Promise<Membership> {
  const invite = await invitesRepository.findUsable(tx, hashToken(token));
  if (!invite) throw new AppError('not_found', 'This invitation link is invalid, used or expired');
  if (await orgsRepository.role(tx, invite.organization_id, userId)) {
    throw new AppError('conflict', `You are already a member of ${invite.org_name}`);
  }
  if (!(await invitesRepository.consume(tx, invite.id, userId))) {
    throw new AppError('not_found', 'This invitation link is invalid, used or expired');
  }
  try {
    await orgsRepository.addMember(tx, invite.organization_id, userId, invite.role);
  } catch (error) {
    // A concurrent acceptance (another link) made this user a member after the check above; this
    // transaction, the invite's use included, rolls back.
    if (isUniqueViolation(error)) throw new AppError('conflict', `You are already a member of ${invite.org_name}`);
    throw error;
  }
  const org = await orgsRepository.findById(tx, invite.organization_id);
  return { org: org!, role: invite.role };
}

export function createOrgsService(db: Db, deps: { users: Pick<UsersService, 'findByEmail'> }) {
  const { users } = deps;
  return {
    /** The owner `ref` names (`user:EMAIL` or `org:SLUG`), read inside the caller's transaction. */
    async resolveOwner(ref: ContextRef, tx: Executor = db): Promise<ResolvedContext> {
      if (ref.type === 'user') {
        const user = await users.findByEmail(ref.email, tx);
        if (!user) throw new AppError('not_found', `No user with e-mail ${ref.email}`);
        return { type: 'user', userId: user.id };
      }
      const org = await orgsRepository.findBySlug(tx, ref.slug);
      if (!org) throw new AppError('not_found', `No organization with slug ${ref.slug}`);
      return { type: 'org', orgId: org.id };
    },

    /** Creates the organization and makes `ownerEmail` its owner, together or not at all. */
    async create(input: { slug: string; name: string; ownerEmail: string }): Promise<OrganizationRow> {
      const problem = slugProblem(input.slug);
      const name = input.name.trim();
      const details = [];
      if (problem) details.push({ parameter: 'slug', message: problem });
      if (name.length < 1 || name.length > 200) details.push({ parameter: 'name', message: 'must be 1 to 200 characters' });
      if (details.length) throw new AppError('invalid_request', 'Invalid organization', details);
      return db.transaction().execute(async (tx) => {
        const owner = await users.findByEmail(input.ownerEmail, tx);
        if (!owner) throw new AppError('not_found', `No user with e-mail ${input.ownerEmail}`);
        try {
          const org = await orgsRepository.insert(tx, { slug: input.slug, name });
          await orgsRepository.addMember(tx, org.id, owner.id, 'owner');
          return org;
        } catch (error) {
          if (isUniqueViolation(error)) throw new AppError('conflict', `The organization slug ${input.slug} is taken`);
          throw error;
        }
      });
    },

    listForUser: (userId: string) => orgsRepository.listForUser(db, userId),

    /** The user's membership of the organization; a non-member is told it does not exist. */
    async membership(slug: string, userId: string): Promise<Membership> {
      const org = await orgsRepository.findBySlug(db, slug);
      const role = org ? await orgsRepository.role(db, org.id, userId) : undefined;
      if (!org || !role) throw new AppError('not_found', `Organization ${slug} not found`);
      return { org, role };
    },

    members: (orgId: string) => orgsRepository.members(db, orgId),
    pendingInvites: (orgId: string) => invitesRepository.listPending(db, orgId),

    /** A single-use invitation link token; only owners invite. The token is returned once and stored hashed. */
    async createInvite(membership: Membership, role: string, createdBy: string) {
      if (membership.role !== 'owner') throw new AppError('forbidden', 'Only owners invite members');
      const token = randomBytes(24).toString('base64url');
      const invite = await invitesRepository.insert(db, {
        orgId: membership.org.id,
        tokenHash: hashToken(token),
        role: requireRole(role),
        createdBy,
        expiresAt: new Date(Date.now() + INVITE_TTL_HOURS * 3_600_000),
      });
      return { token, invite };
    },

    async cancelInvite(membership: Membership, inviteId: string): Promise<void> {
      if (membership.role !== 'owner') throw new AppError('forbidden', 'Only owners manage invitations');
      if (!isUuid(inviteId) || !(await invitesRepository.delete(db, membership.org.id, inviteId))) {
        throw new AppError('not_found', 'Invitation not found');
      }
    },

    findInvite: (token: string) => findUsableInvite(db, token),

    acceptInvite: (token: string, userId: string) => db.transaction().execute((tx) => acceptInviteIn(tx, token, userId)),

    /**
     * Only owners change roles; the last owner cannot stop being one. `membership` was read before the
     * transaction, so the actor's ownership is checked again under the owners' lock: an owner demoted
     * meanwhile by another owner acts no more.
     */
    async changeRole(membership: Membership, actorUserId: string, targetUserId: string, role: string): Promise<void> {
      const newRole = requireRole(role);
      if (membership.role !== 'owner') throw new AppError('forbidden', 'Only owners change roles');
      await db.transaction().execute(async (tx) => {
        const owners = await orgsRepository.lockOwners(tx, membership.org.id);
        if (!owners.includes(actorUserId)) throw new AppError('forbidden', 'Only owners change roles');
        if (newRole !== 'owner' && owners.length === 1 && owners[0] === targetUserId) {
          throw new AppError('conflict', 'The last owner cannot stop being an owner: make someone else an owner first');
        }
        if (!(await orgsRepository.setRole(tx, membership.org.id, targetUserId, newRole))) throw new AppError('not_found', 'Member not found');
      });
    },

    /** Owners remove anyone, everyone may leave; the last owner can do neither. */
    async removeMember(membership: Membership, actorUserId: string, targetUserId: string): Promise<void> {
      if (membership.role !== 'owner' && actorUserId !== targetUserId) throw new AppError('forbidden', 'Only owners remove members');
      await db.transaction().execute(async (tx) => {
        const owners = await orgsRepository.lockOwners(tx, membership.org.id);
        // Checked again under the lock, as in changeRole.
        if (actorUserId !== targetUserId && !owners.includes(actorUserId)) throw new AppError('forbidden', 'Only owners remove members');
        if (owners.length === 1 && owners[0] === targetUserId) {
          throw new AppError('conflict', 'The last owner cannot leave: make someone else an owner first');
        }
        if (!(await orgsRepository.removeMember(tx, membership.org.id, targetUserId))) throw new AppError('not_found', 'Member not found');
      });
    },
  };
}
export type OrgsService = ReturnType<typeof createOrgsService>;
