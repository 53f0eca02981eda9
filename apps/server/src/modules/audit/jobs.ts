import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';

/** `audit.retention`: daily removal of audit rows older than AUDIT_RETENTION_DAYS. */
export const auditRetentionJob = defineJob({
  id: 'audit.retention',
  payload: z.object({}).passthrough(),
  cron: '29 4 * * *',
  retryLimit: 1,
  handle: async (_data, { ctx }) => {
    await ctx.services.audit.purgeExpired();
  },
});
