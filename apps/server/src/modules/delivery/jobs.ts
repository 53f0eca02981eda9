import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';
import type { DeliveryEngine } from './engine.ts';

export const deliverPayload = z.object({ teamId: z.string().min(1) });

/** How long one job works on a workspace before handing over to its continuation. */
const SLICE_MS = 20_000;

/**
 * `delivery.send`: works through a workspace's due recipients for ~20 s, then queues its continuation for when
 * the next one is due. Several may run at once (in one process or many): each claims its own rows, and the
 * pace is shared through the database.
 */
export const deliverJob = (
  engine: DeliveryEngine,
  requeue: (teamId: string, delayMs: number) => Promise<void>,
) =>
  defineJob({
    name: 'delivery.send',
    payload: deliverPayload,
    retryLimit: 5,
    retryDelaySeconds: 2,
    handle: async ({ teamId }) => {
      const { nextDueMs } = await engine.run(teamId, SLICE_MS);
      if (nextDueMs !== null) await requeue(teamId, nextDueMs);
    },
  });

/**
 * `delivery.recover`: every minute, wakes a sender for every workspace with due recipients: after a crash or a
 * kill, the rows a dead worker held come back when their lease lapses, and nothing waits on a lost job.
 */
export const recoverJob = (
  teamsWithDueWork: () => Promise<string[]>,
  wake: (teamId: string) => Promise<void>,
) =>
  defineJob({
    name: 'delivery.recover',
    payload: z.object({}).passthrough(),
    cron: '* * * * *',
    retryLimit: 1,
    handle: async () => {
      for (const teamId of await teamsWithDueWork()) await wake(teamId);
    },
  });
