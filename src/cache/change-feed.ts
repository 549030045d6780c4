import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import type { ResponseCache } from './response-cache.js';

export const CHANGES_CHANNEL = 'changelog_changes';

/**
 * Connects the cache to the database's change notifications (see migrations/0005): each payload
 * is a cache tag to drop. While the subscription is down the cache stays off, so a missed
 * notification can never leave a stale response behind.
 */
export async function connectChangeFeed(
  database: Database,
  cache: ResponseCache,
  log: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  let wasLive = false;
  return database.listen(
    CHANGES_CHANNEL,
    (payload) => cache.invalidate(payload),
    (live) => {
      cache.setLive(live);
      if (wasLive && !live) log.warn('change notifications lost; response cache off until they are back');
      if (!wasLive && live && cache.active) log.debug('change notifications live; response cache on');
      wasLive = live;
    },
  );
}
