import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';

export const historyImportPayload = z.object({ teamId: z.string().min(1) });

/**
 * `slack.backfill`: works on a history import for ~20 s, then queues its own continuation; when another
 * runner holds the import (or a crashed one's lease has not lapsed), it looks again a little later.
 */
export const historyImportJob = defineJob({
  id: 'slack.backfill',
  payload: historyImportPayload,
  retryLimit: 10,
  retryDelaySeconds: 30,
  handle: async ({ teamId }, { ctx }) => {
    const outcome = await ctx.services.historyImport.run(teamId, 20_000);
    if (outcome === 'more') await ctx.queue.send(historyImportJob, { teamId });
    if (outcome === 'busy') await ctx.queue.send(historyImportJob, { teamId }, { startAfter: 20 });
  },
});
