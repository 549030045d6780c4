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

export const signInFailuresRepository = {
  async record(db: Executor, email: string, address: string): Promise<void> {
    await db.insertInto('sign_in_failures').values({ email, address }).execute();
  },

  /** Failures inside the window for this e-mail and for this address, in one statement. */
  async recent(db: Executor, email: string, address: string, windowSeconds: number): Promise<{ email: number; address: number }> {
    const since = sql<Date>`now() - make_interval(secs => ${windowSeconds})`;
    const row = await db
      .selectFrom('sign_in_failures')
      .select([
        sql<number>`count(*) FILTER (WHERE email = ${email})`.as('email'),
        sql<number>`count(*) FILTER (WHERE address = ${address})`.as('address'),
      ])
      .where('created_at', '>', since)
      .where((eb) => eb.or([eb('email', '=', email), eb('address', '=', address)]))
      .executeTakeFirstOrThrow();
    return { email: Number(row.email), address: Number(row.address) };
  },

  async clearEmail(db: Executor, email: string): Promise<void> {
    await db.deleteFrom('sign_in_failures').where('email', '=', email).execute();
  },

  async prune(db: Executor, windowSeconds: number): Promise<void> {
    await db
      .deleteFrom('sign_in_failures')
      .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${windowSeconds})`)
      .execute();
  },
};
