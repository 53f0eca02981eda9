import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';

/**
 * `actions.tick`: every minute (and when a join is recorded), turns due schedules into runs and sends due runs
 * (schedules' and automations'). Any number of workers may run it at once: schedules are locked per batch, and
 * each run's send is named by the run.
 */
export const actionsTickJob = defineJob({
  id: 'actions.tick',
  payload: z.object({}).passthrough(),
  cron: '* * * * *',
  retryLimit: 2,
  retryDelaySeconds: 5,
  handle: async (_data, { ctx }) => {
    const actions = ctx.services.actions;
    await actions.planDueSchedules();
    while ((await actions.sendDueRuns(500)) === 500);
  },
});
