import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/queue.ts';

export const deliverPayload = z.object({ teamId: z.string().min(1) });

/** How long one job works on a workspace before handing over to its continuation. */
const SLICE_MS = 20_000;
/**
 * A job of another workspace due this long waits for this process's loops: a busy one hands over (any other
 * worker process polling the queue had its chance to take it first).
 */
const HAND_OVER_AFTER_SECONDS = 2;

/** Per process (its context): the workspaces its loops work on now, and those asked for again meanwhile. */
const loops = new WeakMap<AppContext, { running: Set<string>; again: Set<string> }>();
const loopsOf = (ctx: AppContext) => {
  let l = loops.get(ctx);
  if (!l) loops.set(ctx, (l = { running: new Set(), again: new Set() }));
  return l;
};
const keyOf = (teamId: string) => `delivery:${teamId}`;

/**
 * `delivery.send`: works through a workspace's due recipients for ~20 s, then queues its continuation for when
 * the next one is due. Several may run at once (in one process or many): each claims its own rows, and the
 * pace is shared through the database.
 *
 * Fair between workspaces: a process runs up to DELIVERY_WORKSPACES_PER_WORKER workspaces at once (one loop
 * each: a second job for a workspace already running here is left to that loop), so one workspace's bulk send
 * does not hold the others' sends. When every loop is busy and another workspace's job waits, the loop asks once
 * a second and hands over: its continuation goes to the back of the queue.
 */
export const deliverJob = defineJob({
  id: 'delivery.send',
  payload: deliverPayload,
  retryLimit: 5,
  retryDelaySeconds: 2,
  concurrency: (ctx) => ctx.config.delivery.workspacesPerWorker,
  handle: async ({ teamId }, { ctx }) => {
    const here = loopsOf(ctx);
    if (here.running.has(teamId)) {
      // This process's loop on the workspace takes the new work; it comes back at once if it missed it.
      here.again.add(teamId);
      return;
    }
    here.running.add(teamId);
    let nextDueMs: number | null;
    try {
      ({ nextDueMs } = await ctx.services.deliveryEngine.run(teamId, SLICE_MS, {
        yieldWhen: async () =>
          here.running.size >= ctx.config.delivery.workspacesPerWorker &&
          (await ctx.queue.waiting(deliverJob, {
            readySeconds: HAND_OVER_AFTER_SECONDS,
            exceptKeys: [...here.running].map(keyOf),
          })) > 0,
      }));
    } finally {
      here.running.delete(teamId);
    }
    // Asked for while running (a new send may have come after the last look at the queue): look again now.
    const again = here.again.delete(teamId);
    if (again) await wakeDelivery(ctx.queue, teamId);
    else if (nextDueMs !== null) await wakeDelivery(ctx.queue, teamId, nextDueMs);
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
      singletonKey: keyOf(teamId),
      singletonSeconds: 2,
      singletonNextSlot: true,
      ...(delayMs > 0 ? { startAfter: Math.ceil(delayMs / 1000) } : {}),
    },
  );
}
