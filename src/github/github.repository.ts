import type { Executor } from '../db/database.js';
import type { InstallationStatus, ScmInstallationRow } from '../db/schema.js';
import { contextOfRow, type ResolvedContext } from '../context.js';

/** The context an installation or identity belongs to (the one owner type: context.ts). */
export type ContextOwner = ResolvedContext;

/** GitHub App installations, their "Connect GitHub" states, verified GitHub identities and received webhook deliveries. */
export const githubRepository = {
  async findInstallationByScmId(db: Executor, scmInstallationId: number): Promise<ScmInstallationRow | undefined> {
    return db.selectFrom('scm_installations').selectAll().where('scm_installation_id', '=', String(scmInstallationId)).executeTakeFirst();
  },

  async findInstallation(db: Executor, id: string): Promise<ScmInstallationRow | undefined> {
    return db.selectFrom('scm_installations').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async insertInstallation(
    db: Executor,
    row: { scmInstallationId: number; owner: ContextOwner; accountLogin: string; accountType: string; setupAction: string },
  ): Promise<ScmInstallationRow | undefined> {
    return db
      .insertInto('scm_installations')
      .values({
        scm_installation_id: row.scmInstallationId,
        context_type: row.owner.type,
        user_id: row.owner.type === 'user' ? row.owner.userId : null,
        org_id: row.owner.type === 'org' ? row.owner.orgId : null,
        account_login: row.accountLogin,
        account_type: row.accountType,
        setup_action: row.setupAction,
      })
      .onConflict((oc) => oc.column('scm_installation_id').doNothing())
      .returningAll()
      .executeTakeFirst();
  },

  async updateInstallation(
    db: Executor,
    id: string,
    fields: { accountLogin?: string; accountType?: string; setupAction?: string; status?: InstallationStatus },
  ): Promise<ScmInstallationRow> {
    return db
      .updateTable('scm_installations')
      .set({
        ...(fields.accountLogin !== undefined ? { account_login: fields.accountLogin } : {}),
        ...(fields.accountType !== undefined ? { account_type: fields.accountType } : {}),
        ...(fields.setupAction !== undefined ? { setup_action: fields.setupAction } : {}),
        ...(fields.status !== undefined ? { status: fields.status } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async listInstallations(db: Executor, owner: ContextOwner): Promise<ScmInstallationRow[]> {
    const query = db.selectFrom('scm_installations').selectAll();
    return (owner.type === 'user' ? query.where('user_id', '=', owner.userId) : query.where('org_id', '=', owner.orgId))
      .orderBy('created_at')
      .execute();
  },

  async insertInstallState(db: Executor, nonce: string, owner: ContextOwner, expiresAt: Date): Promise<void> {
    await db
      .insertInto('scm_install_states')
      .values({
        nonce,
        context_type: owner.type,
        user_id: owner.type === 'user' ? owner.userId : null,
        org_id: owner.type === 'org' ? owner.orgId : null,
        expires_at: expiresAt,
      })
      .execute();
  },

  /** Whose unused, unexpired state this is (the dashboard's Setup URL learns the context from it). */
  async findPendingInstallState(db: Executor, nonce: string): Promise<ContextOwner | undefined> {
    const row = await db
      .selectFrom('scm_install_states')
      .select(['context_type', 'user_id', 'org_id'])
      .where('nonce', '=', nonce)
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
    if (!row) return undefined;
    return contextOfRow(row);
  },

  /** Marks the state used if it is unused, unexpired and the owner's; true when it was. One statement: no double use. */
  async consumeInstallState(db: Executor, nonce: string, owner: ContextOwner): Promise<boolean> {
    let query = db
      .updateTable('scm_install_states')
      .set({ used_at: new Date() })
      .where('nonce', '=', nonce)
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date());
    query = owner.type === 'user' ? query.where('user_id', '=', owner.userId) : query.where('org_id', '=', owner.orgId);
    const row = await query.returning('nonce').executeTakeFirst();
    return row !== undefined;
  },

  async deliverySeen(db: Executor, deliveryId: string): Promise<boolean> {
    const row = await db.selectFrom('webhook_deliveries').select('delivery_id').where('delivery_id', '=', deliveryId).executeTakeFirst();
    return row !== undefined;
  },

  async recordDelivery(db: Executor, delivery: { deliveryId: string; event: string; action: string | null; outcome: string }): Promise<boolean> {
    const row = await db
      .insertInto('webhook_deliveries')
      .values({ delivery_id: delivery.deliveryId, event: delivery.event, action: delivery.action, outcome: delivery.outcome })
      .onConflict((oc) => oc.column('delivery_id').doNothing())
      .returning('delivery_id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** The GitHub user the context proved to be, if it did. */
  async findIdentity(db: Executor, owner: ContextOwner): Promise<{ githubUserId: number; githubLogin: string } | undefined> {
    const query = db.selectFrom('scm_identities').select(['github_user_id', 'github_login']);
    const row = await (owner.type === 'user' ? query.where('user_id', '=', owner.userId) : query.where('org_id', '=', owner.orgId)).executeTakeFirst();
    return row ? { githubUserId: Number(row.github_user_id), githubLogin: row.github_login } : undefined;
  },

  /** Records (or replaces) the GitHub user the context proved to be. */
  async saveIdentity(db: Executor, owner: ContextOwner, identity: { githubUserId: number; githubLogin: string }): Promise<void> {
    const fields = { github_user_id: identity.githubUserId, github_login: identity.githubLogin, verified_at: new Date() };
    await db
      .insertInto('scm_identities')
      .values({
        context_type: owner.type,
        user_id: owner.type === 'user' ? owner.userId : null,
        org_id: owner.type === 'org' ? owner.orgId : null,
        ...fields,
      })
      .onConflict((oc) => oc.column(owner.type === 'user' ? 'user_id' : 'org_id').doUpdateSet(fields))
      .execute();
  },

  /**
   * Records that `deliveryId` brought the body with this digest, unless another delivery already did:
   * returns the delivery the digest belongs to (this one, or the earlier one). One statement pair, safe
   * across processes: the primary key decides.
   */
  async claimPayloadDigest(db: Executor, digest: string, deliveryId: string): Promise<string> {
    const inserted = await db
      .insertInto('webhook_payload_digests')
      .values({ digest, delivery_id: deliveryId })
      .onConflict((oc) => oc.column('digest').doNothing())
      .returning('delivery_id')
      .executeTakeFirst();
    if (inserted) return inserted.delivery_id;
    const row = await db.selectFrom('webhook_payload_digests').select('delivery_id').where('digest', '=', digest).executeTakeFirst();
    return row?.delivery_id ?? deliveryId;
  },

  async prunePayloadDigests(db: Executor, olderThan: Date): Promise<void> {
    await db.deleteFrom('webhook_payload_digests').where('received_at', '<', olderThan).execute();
  },
};
