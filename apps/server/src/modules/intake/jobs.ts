import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';

/** `slack.events.drain`: applies stored Events API deliveries (poked by intake; every minute as a safety net). */
export const drainJob = defineJob({
  id: 'slack.events.drain',
  payload: z.object({}).passthrough(),
  cron: '* * * * *',
  retryLimit: 2,
  retryDelaySeconds: 1,
  handle: async (_data, { ctx }) => {
    await ctx.services.events.drain();
  },
});

/** `slack.housekeeping`: daily removal of processed inbox rows older than a week. */
export const housekeepingJob = defineJob({
  id: 'slack.housekeeping',
  payload: z.object({}).passthrough(),
  cron: '41 3 * * *',
  retryLimit: 1,
  handle: (_data, { ctx }) => ctx.services.events.purgeProcessed(),
});
