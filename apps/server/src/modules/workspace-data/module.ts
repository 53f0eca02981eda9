import type { AppContext } from '../../context.ts';
import { windowsJob } from '../activity/jobs.ts';
import { defineEventListener, type EventScope } from '../intake/listeners.ts';
import { defineModule } from '../module.ts';
import { factsRepo } from './facts-repo.ts';
import { historyImportJob, joinChannelJob } from './jobs.ts';
import { backfillService, type BackfillService } from './history-import.ts';
import type { Queue } from '../../jobs/queue.ts';

/**
 * Workspace data: members, channels, messages and reactions as Slack gives them (applied from events by the
 * intake drain, see ingest.ts) and the history import after an install (history-import.ts, a table of phases).
 */
export const workspaceDataModule = defineModule({
  name: 'workspace-data',
  needs: ['workspaces', 'notifications'],
  provides: ['historyImport'],
  services: (k, { workspaces, notifications }) => ({
    historyImport: backfillService({
      db: k.database.db,
      slack: k.slack,
      workspaces,
      logger: k.logger,
      days: k.config.backfillDays,
      onFinished: (teamId, outcome) => notifications.importFinished(teamId, outcome),
    }),
  }),
  jobs: [historyImportJob, joinChannelJob],
  events: [
    // Slack sends a channel's messages only to a bot in it: the bot joins every public channel that appears.
    defineEventListener({
      type: 'channel_created',
      handle: async ({ channel }, scope) => {
        if (!channel.is_private) joinAfterCommit(scope, channel.id);
      },
    }),
    defineEventListener({
      type: 'channel_unarchive',
      handle: async ({ channel }, scope) => {
        const id = typeof channel === 'string' ? channel : channel.id;
        // A channel not known yet is tried too: Slack refuses a private one, quietly for the job.
        if ((await factsRepo.channelIsPrivate(scope.tx, scope.teamId, id)) !== true)
          joinAfterCommit(scope, id);
      },
    }),
  ],
});

/** Queues the bot's join once the batch has committed (never call Slack inside it). */
function joinAfterCommit(scope: EventScope, channelId: string) {
  const { teamId, ctx } = scope;
  scope.afterCommit(`workspace-data.join-channel:${teamId}:${channelId}`, () =>
    ctx.queue.send(joinChannelJob, { teamId, channelId }),
  );
}

/**
 * After an install: the workspace's standing windows start now (the import then adds to them), and a new
 * workspace, a reconnected one, or one whose import failed gets its history (again; idempotent).
 */
export async function onWorkspaceInstalled(
  deps: { queue: Queue; historyImport: BackfillService },
  teamId: string,
  how: { isNew: boolean; reconnected: boolean },
): Promise<void> {
  await deps.queue.send(windowsJob, {});
  const imports = deps.historyImport;
  const last = await imports.progress(teamId);
  if (how.isNew || how.reconnected || !last || last.status === 'failed') {
    if (await imports.start(teamId)) await deps.queue.send(historyImportJob, { teamId });
  }
}

/** On a worker's start: imports that were running when a process stopped carry on. */
export async function resumeHistoryImports(ctx: AppContext): Promise<void> {
  for (const teamId of await ctx.services.historyImport.listRunning())
    await ctx.queue.send(historyImportJob, { teamId });
}
