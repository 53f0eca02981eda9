import { tsToDate } from '../../lib/days.ts';
import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineEventListener, type EventScope } from '../intake/listeners.ts';
import type { SlackEventOf } from '../../slack/events.ts';
import { defineModule } from '../module.ts';
import { wakeWorkflowSenderAt, wakeWorkflowSenders, workflowsSendJob, workflowsTickJob } from './jobs.ts';
import { workflowsRoutes } from './routes.ts';
import { workflowsService } from './service.ts';

/**
 * Once the event's transaction commits: a sender now for first steps due at once, and one at the time of each
 * first step written with a delay (a Delay right after the trigger), so that it is sent within seconds of it.
 */
function wake(scope: EventScope, fired: { due: number; later: Date[] }) {
  if (fired.due > 0) scope.afterCommit('workflows.send', () => wakeWorkflowSenders(scope.ctx));
  for (const at of fired.later)
    scope.afterCommit(`workflows.send:${at.getTime()}`, () => scope.ctx.services.workflows.wake([at]));
}

/**
 * A member joined the workspace (team_join, or a deactivated member back): once workspace data has recorded
 * the join, every active Workspace Join workflow fires for them, keyed by the join (a redelivery adds nothing).
 */
async function onJoin(event: SlackEventOf<'team_join'>, scope: EventScope) {
  if (event.user.deleted || !event.user.id) return;
  const at = event.event_ts ? tsToDate(event.event_ts) : new Date();
  const joinedAt = await scope.ctx.services.actions.recordedJoin(scope.tx, scope.teamId, event.user.id, at);
  if (!joinedAt) return;
  wake(
    scope,
    await scope.ctx.services.workflows.onMemberJoined(scope.tx, scope.teamId, event.user.id, joinedAt),
  );
}

/** A member joined a channel: the Channel Join workflows watching it fire, keyed by member, channel and time. */
async function onChannelJoin(event: SlackEventOf<'member_joined_channel'>, scope: EventScope) {
  if (!event.user || !event.channel) return;
  const at = (event.event_ts ? tsToDate(event.event_ts) : new Date()).toISOString();
  wake(
    scope,
    await scope.ctx.services.workflows.onMemberJoined(scope.tx, scope.teamId, event.user, at, event.channel),
  );
}

/** Workflows: triggers, chains of delayed messages and forms, their histories. */
export const workflowsModule = defineModule({
  name: 'workflows',
  needs: ['audience', 'delivery', 'workspaces', 'emit'],
  provides: ['workflows'],
  services: (k, { audience, delivery, workspaces, emit }) => ({
    workflows: workflowsService({
      db: k.database.db,
      audience,
      delivery,
      timezoneOf: (teamId, tx) => workspaces.timezone(teamId, tx),
      wakeAt: (at) => wakeWorkflowSenderAt(k.queue, at),
      memberCooldownMs: k.config.workflowMemberCooldownMs,
      logger: k.logger.child({ module: 'workflows' }),
      emit,
    }),
  }),
  routes: async (app, ctx) => {
    await app.register(
      workflowsRoutes({
        workflows: ctx.services.workflows,
        idempotency: ctx.services.idempotency,
        guard: workspaceGuard(ctx.services),
      }),
    );
  },
  jobs: [workflowsTickJob, workflowsSendJob],
  events: [
    defineEventListener({ type: 'team_join', handle: onJoin }),
    defineEventListener({ type: 'user_change', handle: onJoin }),
    defineEventListener({ type: 'member_joined_channel', handle: onChannelJoin }),
  ],
});
