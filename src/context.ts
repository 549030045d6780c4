import type { ContextType } from './db/schema.js';
import { AppError } from './errors.js';

/** A personal or organization context, as people write it: `user:EMAIL` or `org:SLUG`. */
export type ContextRef = { type: 'user'; email: string } | { type: 'org'; slug: string };
/** The owner of projects, keys and installations, once: every layer uses this type. */
export type ResolvedContext = { type: 'user'; userId: string } | { type: 'org'; orgId: string };

/**
 * What a key may do beyond reading, granted when it is made (`publish`: the automation routes). Routes
 * name what they need in their security requirement (`{ bearerAuth: ['publish'] }`, http/route-policy.ts).
 */
export const KEY_CAPABILITIES = ['publish'] as const;
export type KeyCapability = (typeof KEY_CAPABILITIES)[number];

/** Who is calling an authenticated route, and so which projects they may see. */
export type Principal =
  | {
      kind: 'api_key';
      keyId: string;
      context: ResolvedContext;
      scope: 'all' | 'selected';
      capabilities: readonly KeyCapability[];
    }
  /** A user vouched for by the trusted gateway through X-Identity-User-Id: personal projects only. */
  | { kind: 'identity'; userId: string };

/** The context a row names in its `context_type`, `user_id` and `org_id` columns. */
export function contextOfRow(row: { context_type: 'user' | 'org'; user_id: string | null; org_id: string | null }): ResolvedContext {
  return row.context_type === 'user' ? { type: 'user', userId: row.user_id! } : { type: 'org', orgId: row.org_id! };
}

/** The inverse: the `context_type`, `user_id` and `org_id` columns that name a context. */
export function contextColumns(context: ResolvedContext): { context_type: ContextType; user_id: string | null; org_id: string | null } {
  return {
    context_type: context.type,
    user_id: context.type === 'user' ? context.userId : null,
    org_id: context.type === 'org' ? context.orgId : null,
  };
}

export function parseContextRef(value: string, option = 'context'): ContextRef {
  const match = /^(user|org):(.+)$/.exec(value.trim());
  if (!match) {
    throw new AppError('invalid_request', `${option} must be user:EMAIL or org:SLUG (got "${value}")`, [
      { parameter: option, message: 'must be user:EMAIL or org:SLUG' },
    ]);
  }
  return match[1] === 'user' ? { type: 'user', email: match[2]!.toLowerCase() } : { type: 'org', slug: match[2]! };
}

