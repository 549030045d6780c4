import type { JobQueue } from '../queue/queue.js';
import type { WebhooksService } from './webhooks.service.js';

/**
 * The `webhook-deliver` job: one attempt of an outbound delivery (the queue retries with backoff),
 * and the loop that queues deliveries of the events database triggers wrote, ended when the queue stops.
 */
export async function workDeliverJobs(jobs: JobQueue, webhooks: WebhooksService): Promise<void> {
  await jobs.work('webhook-deliver', async ({ deliveryId }) => {
    await webhooks.deliver(deliveryId);
  });
  jobs.onStop(webhooks.startDispatcher());
}
