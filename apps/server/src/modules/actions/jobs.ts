import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/queue.ts';

/** Runs one sender claims and sends at a time (one batch: see sendDueRuns). */
const CLAIM = 100;
/** At most this many senders are woken at once (each claims its own runs; workers split them). */
const MAX_SENDERS = 16;

/**
 * `actions.send`: claims due runs (schedules' and automations') in batches and sends each through the delivery
 * engine until none is left. Several run at once, in one process or many: each claims its own runs.
 */
export const actionsSendJob = defineJob({
  id: 'actions.send',
  payload: z.object({}).passthrough(),
  retryLimit: 2,
  retryDelaySeconds: 5,
  handle: async (_data, { ctx }) => {
    while ((await ctx.services.actions.sendDueRuns(CLAIM)) === CLAIM);
  },
});

/** Wakes one sender per batch of due runs (a join wakes one). */
export async function wakeActionSenders(ctx: AppContext, due = 1): Promise<void> {
  const senders = Math.min(MAX_SENDERS, Math.ceil(due / CLAIM));
  for (let i = 0; i < senders; i++) await ctx.queue.send(actionsSendJob, {});
}

/**
 * `actions.tick`: every minute, turns due schedules into runs (a schedule is locked per batch, so any number of
 * workers may plan at once), then wakes senders for the due runs, and sends alongside them.
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
    const due = await actions.countDueRuns();
    if (due === 0) return;
    await wakeActionSenders(ctx, due - CLAIM);
    while ((await actions.sendDueRuns(CLAIM)) === CLAIM);
  },
});
