import { tsToDate } from '../../lib/days.ts';
import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineEventListener, type EventScope } from '../intake/listeners.ts';
import type { SlackEventOf } from '../../slack/events.ts';
import { defineModule } from '../module.ts';
import { actionsSendJob, actionsTickJob, wakeActionSenders } from './jobs.ts';
import { actionsRoutes } from './routes.ts';
import { actionsService } from './service.ts';

/**
 * A member joined (team_join), or a deactivated member came back (user_change): once workspace data has
 * recorded the join, every active automation gets a run keyed by the member and the join, in the event's
 * transaction. Redeliveries find the same join; the runs are sent after the commit (and by the minute tick).
 */
async function onJoin(event: SlackEventOf<'team_join'>, scope: EventScope) {
  if (event.user.deleted || !event.user.id) return;
  const at = event.event_ts ? tsToDate(event.event_ts) : new Date();
  const actions = scope.ctx.services.actions;
  const joinedAt = await actions.recordedJoin(scope.tx, scope.teamId, event.user.id, at);
  if (!joinedAt) return;
  if ((await actions.addJoinRuns(scope.tx, scope.teamId, event.user.id, joinedAt)) > 0)
    scope.afterCommit('actions.send', () => wakeActionSenders(scope.ctx));
}

/** Actions area: automations (Member Join) and schedules. */
export const actionsModule = defineModule({
  name: 'actions',
  needs: ['audience', 'delivery', 'workspaces'],
  provides: ['actions'],
  services: (k, { audience, delivery, workspaces }) => ({
    actions: actionsService({
      db: k.database.db,
      audience,
      delivery,
      timezoneOf: (teamId, tx) => workspaces.timezone(teamId, tx),
      graceMs: k.config.actionsGraceMinutes * 60_000,
      logger: k.logger.child({ module: 'actions' }),
    }),
  }),
  routes: async (app, ctx) => {
    await app.register(
      actionsRoutes({
        actions: ctx.services.actions,
        idempotency: ctx.services.idempotency,
        guard: workspaceGuard(ctx.services),
      }),
    );
  },
  jobs: [actionsTickJob, actionsSendJob],
  events: [
    defineEventListener({ type: 'team_join', handle: onJoin }),
    defineEventListener({ type: 'user_change', handle: onJoin }),
  ],
});
