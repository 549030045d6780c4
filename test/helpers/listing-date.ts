import type { Services } from '../../src/services.js';

/** A project's listing date (projects.published_changed_at, kept by the triggers of migrations/0017). */
export async function listingDate(services: Services, projectId: string): Promise<Date> {
  const row = await services.database.db
    .selectFrom('projects')
    .select('published_changed_at')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  return row.published_changed_at;
}

/**
 * Waits until the listing date is no later than the clock. Changes in quick succession move it a
 * second ahead each, and Last-Modified is never sent later than the clock, so a test that compares
 * Last-Modified with the stored date, or expects a 304 for it, waits (at most a second per change).
 */
export async function untilListingDatePast(services: Services, projectId: string): Promise<Date> {
  const date = await listingDate(services, projectId);
  const wait = date.getTime() - Date.now() + 5;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return date;
}
