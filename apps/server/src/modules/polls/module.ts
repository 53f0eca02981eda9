import { POLL_ADD_ACTION, POLL_ADD_CALLBACK, POLL_VOTE_ACTION } from '@flywheel/shared/polls';
import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineEventListener, defineInteractivityListener, type EventScope } from '../intake/listeners.ts';
import type { SlackEventOf } from '../../slack/events.ts';
import { defineModule } from '../module.ts';
import { pollsCloseJob, pollsRefreshJob, pollsRemoveJob, pollsTickJob } from './jobs.ts';
import { pollsRoutes } from './routes.ts';
import { pollVoterKey } from '../../lib/secrets-key.ts';
import { pollJobs } from './jobs.ts';
import { pollsService } from './service.ts';

/**
 * A vote: written with the batch's transaction (it commits or rolls back with the event), never calling
 * Slack; the poll's messages are updated by a coalesced `polls.refresh` job once the batch has committed.
 */
const onReaction = (added: boolean) => async (event: SlackEventOf<'reaction_added'>, scope: EventScope) => {
  // Slack documents a reaction's user and item (a message, file or file comment); without them it is no vote.
  const { user, reaction, item } = event;
  if (!user || !reaction || !item) return;
  const vote = {
    user,
    reaction,
    item: { type: item.type, channel: item.channel ?? undefined, ts: item.ts ?? undefined },
    event_ts: event.event_ts ?? undefined,
  };
  const pollId = await scope.ctx.services.polls.applyReaction(scope.tx, scope.teamId, vote, added);
  if (pollId !== null)
    scope.afterCommit(`polls.refresh:${pollId}`, () => scope.ctx.services.pollJobs.refresh(pollId));
};

/**
 * Polls: created in the dashboard, voted on with emoji reactions or buttons in Slack, closed at their end (or
 * early, and reopened, from the dashboard).
 */
export const pollsModule = defineModule({
  name: 'polls',
  needs: ['audience', 'delivery', 'workspaces', 'emit'],
  provides: ['polls', 'pollJobs'],
  services: (k, { audience, delivery, workspaces, emit }) => {
    const polling = pollJobs(k.queue);
    return {
      polls: pollsService({
        db: k.database.db,
        audience,
        delivery,
        timezoneOf: (teamId, tx) => workspaces.timezone(teamId, tx),
        jobs: polling,
        logger: k.logger.child({ module: 'polls' }),
        emit,
        graceMs: k.config.actionsGraceMinutes * 60_000,
        botClient: async (teamId) => k.slack.sendingClient(await workspaces.botToken(teamId), 2500),
        voterKey: pollVoterKey(k.config),
      }),
      pollJobs: polling,
    };
  },
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
    defineEventListener({ type: 'reaction_added', handle: onReaction(true) }),
    defineEventListener({ type: 'reaction_removed', handle: onReaction(false) }),
  ],
  interactivity: [
    defineInteractivityListener({
      type: 'block_actions',
      match: (p) => p.actions[0]?.action_id.startsWith(POLL_VOTE_ACTION) ?? false,
      handle: async (p, ctx) => {
        await ctx.services.polls.buttonVote(p);
        return undefined;
      },
    }),
    defineInteractivityListener({
      type: 'block_actions',
      match: (p) => p.actions[0]?.action_id === POLL_ADD_ACTION,
      handle: async (p, ctx) => {
        await ctx.services.polls.openAddOption(p);
        return undefined;
      },
    }),
    defineInteractivityListener({
      type: 'view_submission',
      match: (p) => p.view.callback_id === POLL_ADD_CALLBACK,
      handle: (p, ctx) => ctx.services.polls.addOption(p),
    }),
  ],
});
