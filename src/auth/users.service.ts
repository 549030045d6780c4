import type { Db, Executor } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import type { UserRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import { usersRepository } from './users.repository.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function createUsersService(db: Db) {
  return {
    findByEmail: (email: string, tx: Executor = db) => usersRepository.findByEmail(tx, email.trim()),
    findById: (id: string) => usersRepository.findById(db, id),
    count: () => usersRepository.count(db),

    async create(input: { email: string; name: string; passwordHash?: string | null }): Promise<UserRow> {
      const email = input.email.trim().toLowerCase();
      const name = input.name.trim();
      const details = [];
      if (!EMAIL.test(email) || email.length > 254) details.push({ parameter: 'email', message: 'must be an e-mail address' });
      if (name.length < 1 || name.length > 200) details.push({ parameter: 'name', message: 'must be 1 to 200 characters' });
      if (details.length) throw new AppError('invalid_request', 'Invalid user', details);
      try {
        return await usersRepository.insert(db, { email, name, passwordHash: input.passwordHash ?? null });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('conflict', `A user with e-mail ${email} already exists`);
        throw error;
      }
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
