import type { Db } from '../db/database.js';
import type { KeyScope } from '../db/schema.js';
import { contextOfRow, type ContextRef, type Principal, type ResolvedContext } from '../context.js';
import type { OrgsService } from '../orgs/orgs.service.js';
import { AppError, notFound } from '../errors.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { displayPrefix, generateKey, hashKey, isWellFormedKey } from './key-format.js';
import { keysRepository, type ApiKeyRecord } from './keys.repository.js';
import { isUuid } from '../ids.js';

/** How often a key's `last_used_at` is written at most: reads should not turn into writes. */
export const LAST_USED_THROTTLE_SECONDS = 60;
/** Longest grace period a rotation may give the old secret. */
export const MAX_ROTATION_GRACE_SECONDS = 24 * 60 * 60;

export interface KeyView extends ApiKeyRecord {
  projects: string[];
}

export interface CreatedKey {
  key: KeyView;
  /** The secret; returned by create and rotate only, and never stored. */
  secret: string;
}

function validName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) {
    throw new AppError('invalid_request', 'Invalid key name', [{ parameter: 'name', message: 'must be 1 to 100 characters' }]);
  }
  return trimmed;
}

export function createKeysService(
  db: Db,
  options: { projects: Pick<ProjectsService, 'findBySlug'>; owners: Pick<OrgsService, 'resolveOwner'>; onUseError?: (error: unknown) => void },
) {
  async function view(record: ApiKeyRecord): Promise<KeyView> {
    const slugs = await keysRepository.projectSlugs(db, [record.id]);
    return { ...record, projects: slugs.get(record.id) ?? [] };
  }

  async function requireKey(id: string): Promise<ApiKeyRecord> {
    const record = isUuid(id) ? await keysRepository.findById(db, id) : undefined;
    if (!record) throw notFound('API key');
    return record;
  }

  return {
    async create(input: {
      name: string;
      context: ContextRef | ResolvedContext;
      projectSlugs?: string[];
      expiresAt?: Date | null;
      createdBy?: string | null;
      /** The `publish` scope: the automation routes (publish, unpublish, sync, preview). Default: read-only. */
      publish?: boolean;
    }): Promise<CreatedKey> {
      const name = validName(input.name);
      if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
        throw new AppError('invalid_request', 'The expiry date must be in the future', [
          { parameter: 'expires_at', message: 'must be in the future' },
        ]);
      }
      const secret = generateKey();
      const scope: KeyScope = input.projectSlugs && input.projectSlugs.length > 0 ? 'selected' : 'all';
      const record = await db.transaction().execute(async (tx) => {
        const context = 'email' in input.context || 'slug' in input.context ? await options.owners.resolveOwner(input.context, tx) : input.context;
        const projectIds: string[] = [];
        for (const slug of input.projectSlugs ?? []) {
          const project = await options.projects.findBySlug(slug, tx);
          const inContext =
            project &&
            (context.type === 'user' ? project.owner_user_id === context.userId : project.owner_org_id === context.orgId);
          if (!inContext) {
            throw new AppError('invalid_request', `Project ${slug} does not exist in the key's context`, [
              { parameter: 'projects', message: `${slug} is not a project of this context` },
            ]);
          }
          projectIds.push(project.id);
        }
        const created = await keysRepository.insert(tx, {
          name,
          context,
          scope,
          keyHash: hashKey(secret),
          displayPrefix: displayPrefix(secret),
          createdBy: input.createdBy ?? null,
          expiresAt: input.expiresAt ?? null,
          canPublish: input.publish === true,
        });
        await keysRepository.setProjects(tx, created.id, projectIds);
        return created;
      });
      return { key: await view(record), secret };
    },

    async list(context?: ContextRef): Promise<KeyView[]> {
      const resolved = context ? await options.owners.resolveOwner(context) : undefined;
      const records = await keysRepository.list(db, resolved);
      const slugs = await keysRepository.projectSlugs(
        db,
        records.map((r) => r.id),
      );
      return records.map((record) => ({ ...record, projects: slugs.get(record.id) ?? [] }));
    },

    /** The keys of one resolved personal or organization context. */
    async listIn(context: ResolvedContext): Promise<KeyView[]> {
      const records = await keysRepository.list(db, context);
      const slugs = await keysRepository.projectSlugs(
        db,
        records.map((r) => r.id),
      );
      return records.map((record) => ({ ...record, projects: slugs.get(record.id) ?? [] }));
    },

    async get(id: string): Promise<KeyView> {
      return view(await requireKey(id));
    },

    async rename(id: string, name: string): Promise<KeyView> {
      await requireKey(id);
      const updated = await keysRepository.update(db, id, { name: validName(name) });
      if (!updated) throw notFound('API key');
      return view(updated);
    },

    /**
     * Replaces the secret. Without a grace period the old secret stops working at once; with one
     * (at most 24 h) it keeps working until the period ends.
     */
    async rotate(id: string, graceSeconds = 0): Promise<CreatedKey> {
      if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_ROTATION_GRACE_SECONDS) {
        throw new AppError('invalid_request', 'The grace period must be 0 to 86400 seconds', [
          { parameter: 'grace', message: 'must be 0 to 86400 seconds' },
        ]);
      }
      const record = await requireKey(id);
      if (record.revoked_at) throw new AppError('conflict', 'A revoked key cannot be rotated');
      const secret = generateKey();
      const updated = await db.transaction().execute(async (tx) => {
        const currentHash = await keysRepository.lockKeyHash(tx, id);
        if (currentHash === undefined) throw notFound('API key');
        return keysRepository.update(tx, id, {
          keyHash: hashKey(secret),
          displayPrefix: displayPrefix(secret),
          previousKeyHash: graceSeconds > 0 ? currentHash : null,
          previousExpiresAt: graceSeconds > 0 ? new Date(Date.now() + graceSeconds * 1000) : null,
        });
      });
      if (!updated) throw notFound('API key');
      return { key: await view(updated), secret };
    },

    async revoke(id: string): Promise<KeyView> {
      await requireKey(id);
      const updated = await keysRepository.update(db, id, { revoke: true, previousKeyHash: null, previousExpiresAt: null });
      if (!updated) throw notFound('API key');
      return view(updated);
    },

    async delete(id: string): Promise<{ id: string; deleted: true }> {
      await requireKey(id);
      if (!(await keysRepository.delete(db, id))) throw notFound('API key');
      return { id, deleted: true };
    },

    /**
     * The principal a presented secret stands for, or null. A malformed secret or a bad checksum
     * is refused without a database lookup; a failed attempt never touches `last_used_at`.
     */
    async authenticate(secret: string): Promise<Principal | null> {
      if (!isWellFormedKey(secret)) return null;
      const key = await keysRepository.findActiveByHash(db, hashKey(secret));
      if (!key) return null;
      const stale = !key.last_used_at || Date.now() - key.last_used_at.getTime() > LAST_USED_THROTTLE_SECONDS * 1000;
      if (stale) {
        // Off the request's path: a slow write must not slow the read it records.
        keysRepository.touchLastUsed(db, key.id, LAST_USED_THROTTLE_SECONDS).catch(options.onUseError ?? (() => {}));
      }
      return {
        kind: 'api_key',
        keyId: key.id,
        scope: key.scope,
        context: contextOfRow(key),
        capabilities: key.can_publish ? ['publish'] : [],
      };
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
