import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/database.js';
import { linksRepository } from './links.repository.js';

/** How long a lease lasts unless renewed: how long a link stays blocked after its ingesting process died. */
export const LEASE_SECONDS = 30;
/** Longest pause between two looks at a lease somebody else holds. */
const MAX_WAIT_MS = 500;

/** The wait for a link's lease ended because the process is stopping. */
export class LinkLockAborted extends Error {
  constructor() {
    super('stopped while waiting for another ingest of the link to finish');
  }
}

/**
 * Serialises ingests of one link across processes (a worker, `changelog sync`, the server), on
 * PostgreSQL and on the embedded database alike: a lease on the link's row (migrations/0026),
 * taken with one UPDATE, renewed every third of its length while the ingest runs, cleared at its
 * end. Others look again after 25 ms, then after twice as long each time (at most 500 ms). Two
 * ingests at once would race on the mirror's refs; one after the other, the second is a no-op.
 *
 * Not a session advisory lock: processes that reach the embedded database through the server's
 * socket all share its one session, in which such a lock is re-entrant and excluded nothing. Not a
 * row lock either: that needs a transaction open for the whole ingest, which through the socket
 * holds the session for everyone. The price: a process that dies holding a lease blocks the link
 * until the lease lapses (LEASE_SECONDS).
 */
export function createLinkLock(db: Db, options: { leaseSeconds?: number } = {}) {
  const seconds = options.leaseSeconds ?? LEASE_SECONDS;
  /**
   * Runs `fn` holding the link's lease. `leaseLost` aborts when a renewal finds the lease taken by
   * another process (this one stalled past LEASE_SECONDS): `fn` must then stop, or two ingests race
   * on the mirror. A renewal that fails on an error is tried again at the next interval.
   */
  return async <T>(linkId: string, fn: (leaseLost: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> => {
    const token = randomUUID();
    for (let wait = 25; ; wait = Math.min(wait * 2, MAX_WAIT_MS)) {
      // A link that does not exist is `fn`'s to report.
      if ((await linksRepository.takeIngestLease(db, linkId, token, seconds)) !== 'held') break;
      try {
        await sleep(wait, undefined, signal ? { signal } : {});
      } catch {
        throw new LinkLockAborted();
      }
    }
    const lost = new AbortController();
    const renew = () =>
      void linksRepository.renewIngestLease(db, linkId, token, seconds).then(
        (held) => {
          if (!held) lost.abort();
        },
        () => {},
      );
    const renewal = setInterval(renew, (seconds * 1000) / 3);
    renewal.unref();
    try {
      return await fn(lost.signal);
    } finally {
      clearInterval(renewal);
      // Ignored: a lease that is not released expires by itself after leaseSeconds; fn's outcome is what counts.
      await linksRepository.releaseIngestLease(db, linkId, token).catch(() => {});
    }
  };
}
