import type { Executor } from '../db/database.js';
import type { UserRow } from '../db/schema.js';

export const usersRepository = {
  async insert(db: Executor, user: { email: string; name: string; passwordHash?: string | null }): Promise<UserRow> {
    return db
      .insertInto('users')
      .values({ email: user.email, name: user.name, password_hash: user.passwordHash ?? null })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async findByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  },

  async findById(db: Executor, id: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async count(db: Executor): Promise<number> {
    const row = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async setPassword(db: Executor, id: string, passwordHash: string): Promise<void> {
    await db.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('id', '=', id).execute();
  },

  async makeInstanceOwner(db: Executor, id: string): Promise<void> {
    await db.updateTable('users').set({ is_instance_owner: true, updated_at: new Date() }).where('id', '=', id).execute();
  },

  async hasInstanceOwner(db: Executor): Promise<boolean> {
    const row = await db.selectFrom('users').select('id').where('is_instance_owner', '=', true).executeTakeFirst();
    return row !== undefined;
  },
};
