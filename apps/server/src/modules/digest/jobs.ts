import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';

/**
 * `digest.weekly`: every minute, sends the weekly digests that are due (Monday 09:00 in each workspace's
 * timezone, or later that week if no process ran then). A no-op when none is due; each once (service.ts).
 */
export const digestJob = defineJob({
  id: 'digest.weekly',
  payload: z.object({}).passthrough(),
  cron: '* * * * *',
  retryLimit: 1,
  handle: async (_data, { ctx, logger }) => {
    const n = await ctx.services.digest.runDue();
    if (n > 0) logger.info({ digests: n }, 'weekly digests handled');
  },
});
