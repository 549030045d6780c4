import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * Serialises ingests of one link across processes (a worker and `changelog sync`, say): a
 * session-level advisory lock held on one pooled connection while the ingest runs on others.
 * Two ingests at once would race on the mirror's refs; one after the other, the second is a no-op.
 */
export function postgresLinkLock(db: Db) {
  return <T>(linkId: string, fn: () => Promise<T>): Promise<T> =>
    db.connection().execute(async (connection) => {
      const key = sql`hashtextextended(${`repo-ingest:${linkId}`}, 0)`;
      await sql`SELECT pg_advisory_lock(${key})`.execute(connection);
      try {
        return await fn();
      } finally {
        await sql`SELECT pg_advisory_unlock(${key})`.execute(connection);
      }
    });
}
