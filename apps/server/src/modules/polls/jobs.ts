import { z } from 'zod';
import { defineJob, type Queue } from '../../jobs/queue.ts';
import type { PollJobs } from './service.ts';

const pollPayload = z.object({ pollId: z.number().int().positive() });

/** At most one refresh of a poll's messages per this many seconds (votes in between are shown together). */
export const REFRESH_SECONDS = 3;

/**
 * `polls.refresh`: records a poll's messages and puts its live counts in them (chat.update). Queued by the vote
 * listener after its transaction commits, coalesced per poll: one waits per 3-second slot, and it reads the
 * counts when it runs, so a burst of votes costs one update per message.
 */
export const pollsRefreshJob = defineJob({
  id: 'polls.refresh',
  payload: pollPayload,
  retryLimit: 5,
  retryDelaySeconds: 5,
  handle: async ({ pollId }, { ctx }) => {
    await ctx.services.polls.refresh(pollId);
  },
});

/** `polls.close`: at a poll's end, closes it (claimed once in the database) and shows the final results. */
export const pollsCloseJob = defineJob({
  id: 'polls.close',
  payload: pollPayload,
  retryLimit: 5,
  retryDelaySeconds: 10,
  handle: async ({ pollId }, { ctx }) => {
    await ctx.services.polls.closeDue(pollId);
  },
});

/** `polls.remove`: removes a deleted poll's messages from Slack (chat.delete), once its delivery is done. */
export const pollsRemoveJob = defineJob({
  id: 'polls.remove',
  payload: pollPayload,
  retryLimit: 5,
  retryDelaySeconds: 10,
  handle: async ({ pollId }, { ctx }) => {
    if (!(await ctx.services.polls.removeMessages(pollId)))
      await ctx.queue.send(pollsRemoveJob, { pollId }, { startAfter: 3 });
  },
});

/**
 * `polls.tick`: every minute, plans the recurring polls' due runs into scheduled polls, posts the scheduled polls
 * whose time has come, closes the ones whose end has
 * come (their own `polls.close` may have been lost) and finishes removals: any number of workers may run it.
 */
export const pollsTickJob = defineJob({
  id: 'polls.tick',
  payload: z.object({}).passthrough(),
  cron: '* * * * *',
  retryLimit: 2,
  retryDelaySeconds: 5,
  handle: async (_data, { ctx }) => {
    const polls = ctx.services.polls;
    await polls.recurring.plan();
    while ((await polls.postDue()) === 50);
    await polls.closeDue();
    for (const id of await polls.deletedIds()) await ctx.queue.send(pollsRemoveJob, { pollId: id });
  },
});

/** The queue behind the polls service. */
export function pollJobs(queue: Queue): PollJobs {
  return {
    async refresh(pollId, delayMs = 0) {
      await queue.send(
        pollsRefreshJob,
        { pollId },
        {
          singletonKey: `poll:${pollId}`,
          singletonSeconds: REFRESH_SECONDS,
          singletonNextSlot: true,
          ...(delayMs > 0 ? { startAfter: Math.ceil(delayMs / 1000) } : {}),
        },
      );
    },
    async closeAt(pollId, at) {
      await queue.send(pollsCloseJob, { pollId }, { startAfter: new Date(at) });
    },
    async remove(pollId) {
      await queue.send(pollsRemoveJob, { pollId });
    },
  };
}
