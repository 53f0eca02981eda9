import { z } from 'zod';
import { defineJob, type Queue } from '../../jobs/queue.ts';

/**
 * `webhooks.deliver`: works through one subscription's queue of deliveries, in order (service.deliverQueue). Queued
 * when an event is emitted (after its transaction commits), at each retry's time, and on a resume or replay; a
 * run that finds the queue held by another worker leaves it to that one, which looks again before it lets go.
 */
export const webhooksDeliverJob = defineJob({
  id: 'webhooks.deliver',
  payload: z.object({ subscriptionId: z.number().int().positive() }),
  retryLimit: 5,
  retryDelaySeconds: 10,
  concurrency: () => 4,
  handle: async ({ subscriptionId }, { ctx }) => {
    await ctx.services.webhooks.deliverQueue(subscriptionId);
  },
});

/**
 * `webhooks.tick`: every minute, a run for each subscription with a due delivery (a lost wake, a crashed worker);
 * events older than 30 days with nothing left to deliver are dropped with their log.
 */
export const webhooksTickJob = defineJob({
  id: 'webhooks.tick',
  payload: z.object({}).passthrough(),
  cron: '* * * * *',
  retryLimit: 0,
  handle: async (_data, { ctx }) => {
    await ctx.services.webhooks.wakeDue();
  },
});

/** Queues a run of each subscription's queue, now or at `at`. */
export async function wakeWebhooks(queue: Queue, subscriptionIds: number[], at?: Date): Promise<void> {
  for (const subscriptionId of new Set(subscriptionIds))
    await queue.send(
      webhooksDeliverJob,
      { subscriptionId },
      at && at.getTime() > Date.now() ? { startAfter: at } : {},
    );
}
