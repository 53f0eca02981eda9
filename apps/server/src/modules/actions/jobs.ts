import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';
import type { ActionsService } from './service.ts';

/**
 * `actions.tick`: every minute (and when poked), turns due schedules into runs and sends due runs (schedules'
 * and automations'). Any number of workers may run it at once: schedules are locked per batch, and each run's
 * send is named by the run.
 */
export const actionsTickJob = (actions: ActionsService) =>
  defineJob({
    name: 'actions.tick',
    payload: z.object({}).passthrough(),
    cron: '* * * * *',
    retryLimit: 2,
    retryDelaySeconds: 5,
    handle: async () => {
      await actions.planDueSchedules();
      while ((await actions.sendDueRuns(500)) === 500);
    },
  });
