import { sql, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../db/schema.js';

/** Which projects a caller may see; resolved in SQL so a request needs one statement for it. */
export type Visibility =
  | { kind: 'user'; userId: string; apiKeyId?: string; selected?: boolean }
  | { kind: 'org'; orgId: string; apiKeyId?: string; selected?: boolean };

/**
 * Narrows a query over `projects as p` to what `visibility` may see: its context's projects, and
 * only the selected ones for a key limited to some. The one statement of the rule, shared by the
 * listing and by routes that address a project by id.
 */
export function whereVisible<Q extends SelectQueryBuilder<DB & { p: DB['projects'] }, 'p', object>>(query: Q, visibility: Visibility): Q {
  let narrowed =
    visibility.kind === 'user'
      ? query.where('p.owner_type', '=', 'user').where('p.owner_user_id', '=', visibility.userId)
      : query.where('p.owner_type', '=', 'org').where('p.owner_org_id', '=', visibility.orgId);
  if (visibility.selected && visibility.apiKeyId) {
    const keyId = visibility.apiKeyId;
    narrowed = narrowed.where((eb) =>
      eb.exists(
        eb
          .selectFrom('api_key_projects as akp')
          .select(sql`1`.as('one'))
          .whereRef('akp.project_id', '=', 'p.id')
          .where('akp.api_key_id', '=', keyId),
      ),
    );
  }
  return narrowed as Q;
}
