import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';
import type { BackfillService } from './backfill.ts';
import type { EventsService } from './events-service.ts';

/** `slack.events.drain`: applies stored Events API deliveries (poked by intake; every minute as a safety net). */
export const drainJob = (events: EventsService) =>
  defineJob({
    name: 'slack.events.drain',
    payload: z.object({}).passthrough(),
    cron: '* * * * *',
    retryLimit: 2,
    retryDelaySeconds: 1,
    handle: async () => {
      await events.drain();
    },
  });

export const backfillPayload = z.object({ teamId: z.string().min(1) });

/**
 * `slack.backfill`: works on a history import for ~20 s, then queues its own continuation; when another
 * runner holds the import (or a crashed one's lease has not lapsed), it looks again a little later.
 */
export const backfillJob = (
  backfill: BackfillService,
  requeue: (teamId: string, delaySeconds: number) => Promise<void>,
) =>
  defineJob({
    name: 'slack.backfill',
    payload: backfillPayload,
    retryLimit: 10,
    retryDelaySeconds: 30,
    handle: async ({ teamId }) => {
      const outcome = await backfill.run(teamId, 20_000);
      if (outcome === 'more') await requeue(teamId, 0);
      if (outcome === 'busy') await requeue(teamId, 20);
    },
  });

/** `slack.housekeeping`: daily removal of processed inbox rows older than a week. */
export const housekeepingJob = (events: EventsService) =>
  defineJob({
    name: 'slack.housekeeping',
    payload: z.object({}).passthrough(),
    cron: '41 3 * * *',
    retryLimit: 1,
    handle: () => events.purgeProcessed(),
  });

/**
 * `slack.windows.refresh`: moves each workspace's standing windows (per-member 7/14/90/365-day totals) to its
 * local today once the day changes, and builds them for new workspaces. Every minute; a no-op when current.
 */
export const windowsJob = (refresh: () => Promise<unknown>) =>
  defineJob({
    name: 'slack.windows.refresh',
    payload: z.object({}).passthrough(),
    cron: '* * * * *',
    retryLimit: 1,
    handle: async () => {
      await refresh();
    },
  });
