import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';
import { joinChannel } from './channel-join.ts';

export const historyImportPayload = z.object({ teamId: z.string().min(1) });

/**
 * `slack.backfill`: works on a history import for ~20 s (less when the process stops), then queues its own
 * continuation; when another
 * runner holds the import (or a crashed one's lease has not lapsed), it looks again a little later.
 */
export const historyImportJob = defineJob({
  id: 'slack.backfill',
  payload: historyImportPayload,
  retryLimit: 10,
  retryDelaySeconds: 30,
  handle: async ({ teamId }, { ctx, stopping }) => {
    const outcome = await ctx.services.historyImport.run(teamId, 20_000, stopping);
    if (outcome === 'more') await ctx.queue.send(historyImportJob, { teamId });
    if (outcome === 'busy') await ctx.queue.send(historyImportJob, { teamId }, { startAfter: 20 });
  },
});

export const joinChannelPayload = z.object({ teamId: z.string().min(1), channelId: z.string().min(1) });

/**
 * `workspace-data.join-channel`: the bot joins a public channel created or unarchived after the install
 * (see channel-join.ts); queued by the channel listeners once the event's batch has committed.
 */
export const joinChannelJob = defineJob({
  id: 'workspace-data.join-channel',
  payload: joinChannelPayload,
  retryLimit: 5,
  retryDelaySeconds: 30,
  handle: async ({ teamId, channelId }, { ctx, logger }) => {
    const outcome = await joinChannel(ctx, teamId, channelId);
    logger.info({ teamId, channelId, outcome }, 'channel join');
  },
});
