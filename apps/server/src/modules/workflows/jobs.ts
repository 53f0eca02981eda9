import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob, type Queue } from '../../jobs/queue.ts';

/** Steps one sender claims and sends at a time (one batch: see sendDueSteps). */
const CLAIM = 100;
/** At most this many senders are woken at once (each claims its own steps; workers split them). */
const MAX_SENDERS = 16;

/** A wake-up that the queue's clock (the database's) starts before this process's clock says: waits at most this. */
const MAX_EARLY_MS = 10_000;

/**
 * `workflows.send`: claims due steps in batches and sends each through the delivery engine until none is left.
 * Several run at once, in one process or many: each claims its own steps. One queued for a step's time (`at`,
 * see wakeWorkflowSenderAt) first waits for that time on this process's clock, the clock the step's due time
 * was written with, should the database's clock run a little ahead.
 */
export const workflowsSendJob = defineJob({
  id: 'workflows.send',
  payload: z.object({ at: z.number().optional() }).passthrough(),
  retryLimit: 2,
  retryDelaySeconds: 5,
  handle: async (data, { ctx }) => {
    const early = (data.at ?? 0) - Date.now();
    if (early > 0) await new Promise((r) => setTimeout(r, Math.min(early, MAX_EARLY_MS)));
    while ((await ctx.services.workflows.sendDueSteps(CLAIM)) === CLAIM);
  },
});

/** Queues a sender to start at `at` (pg-boss startAfter): a step written with a delay is sent at its time. */
export async function wakeWorkflowSenderAt(queue: Queue, at: Date): Promise<void> {
  await queue.send(workflowsSendJob, { at: at.getTime() }, { startAfter: at });
}

/** Wakes one sender per batch of due steps. */
export async function wakeWorkflowSenders(ctx: AppContext, due = 1): Promise<void> {
  const senders = Math.min(MAX_SENDERS, Math.ceil(due / CLAIM));
  for (let i = 0; i < senders; i++) await ctx.queue.send(workflowsSendJob, {});
}

/**
 * `workflows.tick`: every minute, fires time triggers whose time has come and looks for members who crossed an
 * activity threshold, then wakes senders for the due steps (delays that ended, steps missed while the product
 * was down) and sends alongside them.
 */
export const workflowsTickJob = defineJob({
  id: 'workflows.tick',
  // level_teams: workspaces where members just changed level (sent by the levels job): their Member Level
  // triggers look now rather than at their next 30 s look.
  payload: z.object({ level_teams: z.array(z.string()).max(100_000).optional() }).passthrough(),
  cron: '* * * * *',
  retryLimit: 2,
  retryDelaySeconds: 5,
  handle: async (data, { ctx }) => {
    const workflows = ctx.services.workflows;
    await workflows.planTriggers({ levelTeams: data.level_teams });
    const due = await workflows.countDueSteps();
    if (due === 0) return;
    await wakeWorkflowSenders(ctx, due - CLAIM);
    while ((await workflows.sendDueSteps(CLAIM)) === CLAIM);
  },
});
