import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';

/** `auth.purge`: hourly removal of expired sessions, used tokens and old login attempts. */
export const authPurgeJob = defineJob({
  id: 'auth.purge',
  payload: z.object({}).passthrough(),
  cron: '17 * * * *',
  retryLimit: 1,
  handle: (_data, { ctx }) => ctx.services.auth.purgeExpired(),
});
