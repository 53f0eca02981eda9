import { z } from 'zod';
import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineEventListener, type EventScope } from '../intake/listeners.ts';
import { defineModule } from '../module.ts';
import { pollsCloseJob, pollsRefreshJob, pollsRemoveJob, pollsTickJob } from './jobs.ts';
import { pollsRoutes } from './routes.ts';

/** reaction_added / reaction_removed as Slack documents them (item of type message, file or file_comment). */
const reactionEvent = z.object({
  user: z.string().min(1),
  reaction: z.string().min(1),
  item: z
    .object({ type: z.string(), channel: z.string().optional(), ts: z.string().optional() })
    .passthrough(),
  event_ts: z.string().optional(),
});

/**
 * A vote: written with the batch's transaction (it commits or rolls back with the event), never calling
 * Slack; the poll's messages are updated by a coalesced `polls.refresh` job once the batch has committed.
 */
const onReaction = (added: boolean) => async (event: z.infer<typeof reactionEvent>, scope: EventScope) => {
  const pollId = await scope.ctx.services.polls.applyReaction(scope.tx, scope.teamId, event, added);
  if (pollId !== null)
    scope.afterCommit(`polls.refresh:${pollId}`, () => scope.ctx.services.pollJobs.refresh(pollId));
};

/** Polls: created in the dashboard, voted on with emoji reactions in Slack, closed at their end. */
export const pollsModule = defineModule({
  name: 'polls',
  routes: async (app, ctx) => {
    await app.register(
      pollsRoutes({
        polls: ctx.services.polls,
        idempotency: ctx.services.idempotency,
        guard: workspaceGuard(ctx.services),
      }),
    );
  },
  jobs: [pollsRefreshJob, pollsCloseJob, pollsRemoveJob, pollsTickJob],
  events: [
    defineEventListener({ type: 'reaction_added', payload: reactionEvent, handle: onReaction(true) }),
    defineEventListener({ type: 'reaction_removed', payload: reactionEvent, handle: onReaction(false) }),
  ],
});
