import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';

/** Instances one pass claims at a time, and how many it sends at once. */
const CLAIM = 50;
const PARALLEL = 4;

/**
 * `forms.tick`: every minute, turns due recurrences and scheduled sends into instances (each form is locked
 * while it is planned and each run time is one instance, so any number of workers may tick at once), then
 * sends the due instances each worker claims, until none is left.
 */
export const formsTickJob = defineJob({
  id: 'forms.tick',
  payload: z.object({}).passthrough(),
  cron: '* * * * *',
  retryLimit: 2,
  retryDelaySeconds: 5,
  handle: async (_data, { ctx }) => {
    const forms = ctx.services.forms;
    await forms.planDueForms();
    while ((await forms.sendDueInstances(CLAIM, PARALLEL)) === CLAIM);
  },
});
