import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';
import type { AuthService } from './service.ts';

/** `auth.purge`: hourly removal of expired sessions, used tokens and old login attempts. */
export const authPurgeJob = (auth: AuthService) =>
  defineJob({
    name: 'auth.purge',
    payload: z.object({}).passthrough(),
    cron: '17 * * * *',
    retryLimit: 1,
    handle: () => auth.purgeExpired(),
  });
