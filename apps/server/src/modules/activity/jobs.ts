import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';
import { refreshStandingWindows } from './standing-windows.ts';
import { refreshLevels } from './levels.ts';
import { workflowsTickJob } from '../workflows/jobs.ts';

/**
 * `slack.windows.refresh`: moves each workspace's standing windows (per-member 7/14/90/365-day totals) to its
 * local today once the day changes, and builds them for new workspaces. Every minute; a no-op when current.
 */
export const windowsJob = defineJob({
  id: 'slack.windows.refresh',
  payload: z.object({}).passthrough(),
  cron: '* * * * *',
  retryLimit: 1,
  handle: async (_data, { ctx }) => {
    await refreshStandingWindows(ctx.database.db, await ctx.services.workspaces.allTimezones());
  },
});

/**
 * `activity.levels.refresh`: recomputes each workspace's engagement levels once its local day changes and each
 * hour of the day (levels.ts). Every minute; a no-op when current.
 */
export const levelsJob = defineJob({
  id: 'activity.levels.refresh',
  payload: z.object({}).passthrough(),
  cron: '* * * * *',
  retryLimit: 1,
  handle: async (_data, { ctx }) => {
    // The test clock (end-to-end tests only) may move the levels' day ahead: dev-clock.ts.
    const changes = await refreshLevels(
      ctx.database.db,
      await ctx.services.workspaces.allTimezones(),
      new Date(),
      false,
      ctx.devClock?.levelsDaysAhead ?? 0,
    );
    // A member who changed level fires the Member Level workflows now rather than at the next minute's tick (the
    // tick looks at those workspaces' Member Level triggers at once, even if they looked seconds ago).
    const changed = [...changes].filter(([, t]) => t.length > 0).map(([teamId]) => teamId);
    if (changed.length > 0) await ctx.queue.send(workflowsTickJob, { level_teams: changed });
  },
});
