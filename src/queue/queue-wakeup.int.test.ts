import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { createJobQueue, type JobQueue } from './queue.js';

// A job sent by another process (here: another queue on the same database, which cannot call this
// worker directly) wakes the worker at once. The worker polls once an hour, so only the
// notification can bring these jobs to it within the test's time.
describe('a worker and jobs sent elsewhere', () => {
  let database: TestDatabase;
  let worker: JobQueue;
  let sender: JobQueue;

  beforeAll(async () => {
    database = await createTestDatabase();
    worker = createJobQueue(database, { pollingIntervalSeconds: 3600 });
    sender = createJobQueue(database, { pollingIntervalSeconds: 3600 });
  });

  afterAll(async () => {
    await worker?.stop();
    await sender?.stop();
    await database?.close();
  });

  it('fetches each job when it is sent, not at its next poll', async () => {
    const handled: string[] = [];
    let arrived: () => void = () => {};
    await worker.work('webhook-deliver', async ({ deliveryId }) => {
      handled.push(deliveryId);
      arrived();
    });
    // The first job may meet the worker's first fetch; the second comes while it waits for its next poll.
    for (const id of ['first', 'second']) {
      const done = new Promise<void>((resolve) => (arrived = resolve));
      await sender.send('webhook-deliver', { deliveryId: id }, { key: id });
      await done;
    }
    expect(handled).toEqual(['first', 'second']);
  }, 20_000);
});
