import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/queue.ts';

export const deliverPayload = z.object({ teamId: z.string().min(1) });

/** How long one job works on a workspace before handing over to its continuation. */
const SLICE_MS = 20_000;

/**
 * `delivery.send`: works through a workspace's due recipients for ~20 s, then queues its continuation for when
 * the next one is due. Several may run at once (in one process or many): each claims its own rows, and the
 * pace is shared through the database.
 */
export const deliverJob = defineJob({
  id: 'delivery.send',
  payload: deliverPayload,
  retryLimit: 5,
  retryDelaySeconds: 2,
  handle: async ({ teamId }, { ctx }) => {
    const { nextDueMs } = await ctx.services.deliveryEngine.run(teamId, SLICE_MS);
    if (nextDueMs !== null) await wakeDelivery(ctx.queue, teamId, nextDueMs);
  },
});

/**
 * `delivery.recover`: every minute, wakes a sender for every workspace with due recipients: after a crash or a
 * kill, the rows a dead worker held come back when their lease lapses, and nothing waits on a lost job.
 */
export const recoverJob = defineJob({
  id: 'delivery.recover',
  payload: z.object({}).passthrough(),
  cron: '* * * * *',
  retryLimit: 1,
  handle: async (_data, { ctx }) => {
    for (const teamId of await ctx.services.delivery.teamsWithDueWork())
      await wakeDelivery(ctx.queue, teamId);
  },
});

/** Queues a sender for a workspace: at most one waiting per workspace per 2-second slot (a running one hands over). */
export async function wakeDelivery(queue: AppContext['queue'], teamId: string, delayMs = 0): Promise<void> {
  await queue.send(
    deliverJob,
    { teamId },
    {
      singletonKey: `delivery:${teamId}`,
      singletonSeconds: 2,
      singletonNextSlot: true,
      ...(delayMs > 0 ? { startAfter: Math.ceil(delayMs / 1000) } : {}),
    },
  );
}
