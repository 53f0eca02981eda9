import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';

/** `notifications.retention`: daily removal of notifications older than 90 days. */
export const notificationsRetentionJob = defineJob({
  id: 'notifications.retention',
  payload: z.object({}).passthrough(),
  cron: '41 4 * * *',
  retryLimit: 1,
  handle: async (_data, { ctx, logger }) => {
    const removed = await ctx.services.notifications.purgeExpired();
    if (removed > 0) logger.info({ removed }, 'old notifications removed');
  },
});
