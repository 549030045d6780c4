import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import type { OrganizationRow } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { slugProblem } from '../projects/slug.js';
import { usersRepository } from '../users/users.repository.js';
import { orgsRepository } from './orgs.repository.js';

export function createOrgsService(db: Db) {
  return {
    /** Creates the organization and makes `ownerEmail` its owner, together or not at all. */
    async create(input: { slug: string; name: string; ownerEmail: string }): Promise<OrganizationRow> {
      const problem = slugProblem(input.slug);
      const name = input.name.trim();
      const details = [];
      if (problem) details.push({ parameter: 'slug', message: problem });
      if (name.length < 1 || name.length > 200) details.push({ parameter: 'name', message: 'must be 1 to 200 characters' });
      if (details.length) throw new AppError('invalid_request', 'Invalid organization', details);
      return db.transaction().execute(async (tx) => {
        const owner = await usersRepository.findByEmail(tx, input.ownerEmail.trim());
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
  };
}
