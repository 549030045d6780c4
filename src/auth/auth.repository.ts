import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { UserRow } from '../db/schema.js';

export type SessionUser = Pick<UserRow, 'id' | 'email' | 'name' | 'is_instance_owner'> & {
  session_id: string;
  last_seen_at: Date;
};

export const sessionsRepository = {
  async insert(db: Executor, session: { tokenHash: string; userId: string; expiresAt: Date; userAgent: string | null }) {
    return db
      .insertInto('sessions')
      .values({
        token_hash: session.tokenHash,
        user_id: session.userId,
        expires_at: session.expiresAt,
        user_agent: session.userAgent,
      })
      .returning(['id'])
      .executeTakeFirstOrThrow();
  },

  /** The signed-in user of an unexpired session, in one statement. */
  async findUser(db: Executor, tokenHash: string): Promise<SessionUser | undefined> {
    return db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['u.id', 'u.email', 'u.name', 'u.is_instance_owner', 's.id as session_id', 's.last_seen_at'])
      .where('s.token_hash', '=', tokenHash)
      .where('s.expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
  },

  async touch(db: Executor, sessionId: string): Promise<void> {
    await db.updateTable('sessions').set({ last_seen_at: sql<Date>`now()` }).where('id', '=', sessionId).execute();
  },

  async deleteByHash(db: Executor, tokenHash: string): Promise<void> {
    await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  },

  /** Signs the user out everywhere except `keepSessionId` (the browser that asked). */
  async deleteForUserExcept(db: Executor, userId: string, keepSessionId: string): Promise<number> {
    const result = await db.deleteFrom('sessions').where('user_id', '=', userId).where('id', '!=', keepSessionId).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  async deleteForUser(db: Executor, userId: string): Promise<number> {
    const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  async countForUser(db: Executor, userId: string): Promise<number> {
    const row = await db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async deleteExpired(db: Executor): Promise<void> {
    await db.deleteFrom('sessions').where('expires_at', '<=', sql<Date>`now()`).execute();
  },
};

export interface LimitRule {
  windowSeconds: number;
  /** Failures inside the window before the rule binds. */
  limit: number;
  /** When bound: refuse until the window ends (null), or wait min(2^(failures - limit), cap) seconds after the last attempt. */
  backoffCapSeconds: number | null;
}

export const signInLimitsRepository = {
  /**
   * Reserves one attempt on `key` in one statement: the counter goes up only if the rule allows an
   * attempt now (or `exempt`), so of any number of concurrent reservations exactly as many succeed as
   * the rule allows. The row is locked until the caller's transaction ends. Returns the failures
   * counted before this one, or undefined when refused.
   */
  async reserve(db: Executor, key: string, rule: LimitRule, exempt = false): Promise<number | undefined> {
    const expired = sql<boolean>`l.window_started_at <= now() - make_interval(secs => ${rule.windowSeconds})`;
    const allowed =
      rule.backoffCapSeconds === null
        ? sql<boolean>`l.failures < ${rule.limit}`
        : sql<boolean>`(l.failures < ${rule.limit} OR l.last_attempt_at + make_interval(secs => least(power(2, l.failures - ${rule.limit}), ${rule.backoffCapSeconds})) <= now())`;
    const result = await sql<{ failures: number }>`
      INSERT INTO sign_in_limits AS l (key, failures) VALUES (${key}, 1)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN ${expired} THEN 1 ELSE l.failures + 1 END,
        window_started_at = CASE WHEN ${expired} THEN now() ELSE l.window_started_at END,
        last_attempt_at = now()
      WHERE ${expired} OR ${allowed} OR ${exempt}
      RETURNING failures`.execute(db);
    const row = result.rows[0];
    return row ? Number(row.failures) - 1 : undefined;
  },

  /** Gives a reservation back (the attempt succeeded). */
  async release(db: Executor, key: string): Promise<void> {
    await db.updateTable('sign_in_limits').set({ failures: sql<number>`greatest(failures - 1, 0)` }).where('key', '=', key).execute();
  },

  /** The pair signed in: its failures are forgiven and it counts as known from now on. */
  async succeeded(db: Executor, key: string): Promise<void> {
    await db.updateTable('sign_in_limits').set({ failures: 0, succeeded_at: sql<Date>`now()` }).where('key', '=', key).execute();
  },

  /** Whether this pair signed in within `seconds`. */
  async knownSince(db: Executor, key: string, seconds: number): Promise<boolean> {
    const row = await db
      .selectFrom('sign_in_limits')
      .select('key')
      .where('key', '=', key)
      .where('succeeded_at', '>', sql<Date>`now() - make_interval(secs => ${seconds})`)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Drops counters whose window is over, keeping pairs that signed in within `keepKnownSeconds`. */
  async prune(db: Executor, windowSeconds: number, keepKnownSeconds: number): Promise<void> {
    await db
      .deleteFrom('sign_in_limits')
      .where('window_started_at', '<', sql<Date>`now() - make_interval(secs => ${windowSeconds})`)
      .where((eb) => eb.or([eb('succeeded_at', 'is', null), eb('succeeded_at', '<', sql<Date>`now() - make_interval(secs => ${keepKnownSeconds})`)]))
      .execute();
  },
};

export const setupTokensRepository = {
  async insert(db: Executor, token: { tokenHash: string; userId: string | null; expiresAt: Date }): Promise<void> {
    await db.insertInto('account_setup_tokens').values({ token_hash: token.tokenHash, user_id: token.userId, expires_at: token.expiresAt }).execute();
  },

  /** An unused, unexpired setup token, with the e-mail and name of the user it is for (if any). */
  async findUsable(db: Executor, tokenHash: string) {
    return db
      .selectFrom('account_setup_tokens as t')
      .where('t.token_hash', '=', tokenHash)
      .where('t.used_at', 'is', null)
      .where('t.expires_at', '>', sql<Date>`now()`)
      .leftJoin('users as u', 'u.id', 't.user_id')
      .select(['t.id', 't.user_id', 'u.email', 'u.name', 't.expires_at'])
      .executeTakeFirst();
  },

  /**
   * Uses the token up in one statement, so of two concurrent uses one wins; the row stays locked until
   * the caller's transaction ends (a rolled-back setup leaves the token usable). Undefined when unusable.
   */
  async consume(db: Executor, tokenHash: string): Promise<{ id: string; user_id: string | null } | undefined> {
    return db
      .updateTable('account_setup_tokens')
      .set({ used_at: sql<Date>`now()` })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning(['id', 'user_id'])
      .executeTakeFirst();
  },

  async markUsedBy(db: Executor, id: string, userId: string): Promise<void> {
    await db.updateTable('account_setup_tokens').set({ used_by: userId }).where('id', '=', id).execute();
  },

  async deleteExpired(db: Executor): Promise<void> {
    await db.deleteFrom('account_setup_tokens').where('expires_at', '<=', sql<Date>`now()`).execute();
  },
};
