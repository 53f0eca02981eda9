import { tsToDate } from '../../lib/days.ts';
import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { sql } from 'drizzle-orm';
import { firstRow } from '../../db/sql.ts';
import { defineEventListener, type EventScope } from '../intake/listeners.ts';
import type { SlackEventOf } from '../../slack/events.ts';
import { defineModule } from '../module.ts';
import { memberEvents } from '../workspace-data/table.ts';
import { webhooksDeliverJob, webhooksTickJob } from './jobs.ts';
import { webhooksRoutes } from './routes.ts';
import type { Emit } from './service.ts';
import { webhooksService } from './service.ts';
import { wakeWebhooks } from './jobs.ts';

/**
 * A join or leave workspace data recorded for this event (team_join, user_change to or from deleted), as its
 * canonical time: a redelivered event finds the same row, and the event's dedupe key makes it one event.
 */
async function recorded(scope: EventScope, memberId: string, kind: 'join' | 'leave', at: Date) {
  const row = await firstRow<{ at: string }>(
    scope.tx,
    sql`select to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
      from ${memberEvents} where team_id = ${scope.teamId} and member_id = ${memberId} and kind = ${kind}
        and at between ${at.toISOString()}::timestamptz - interval '1 day' and ${at.toISOString()}::timestamptz + interval '1 day'
      order by at desc limit 1`,
  );
  return row?.at ?? null;
}

/** member.joined / member.left: written with the drain's transaction, their deliveries woken once it commits. */
async function onMember(event: SlackEventOf<'team_join'>, scope: EventScope, fromTeamJoin: boolean) {
  if (!event.user.id) return;
  const at = event.event_ts ? tsToDate(event.event_ts) : new Date();
  const kind = event.user.deleted ? 'leave' : 'join';
  if (fromTeamJoin && kind === 'leave') return;
  const when = await recorded(scope, event.user.id, kind, at);
  if (!when) return;
  const u = event.user as Record<string, unknown> & { profile?: Record<string, unknown> };
  const profile = (u.profile ?? {}) as Record<string, unknown>;
  const type = kind === 'join' ? 'member.joined' : 'member.left';
  const webhooks = scope.ctx.services.webhooks;
  const subs = await webhooks.emitIn(
    scope.tx,
    scope.teamId,
    type,
    {
      member_id: event.user.id,
      name: typeof u.real_name === 'string' ? u.real_name : (profile.real_name ?? u.name ?? null),
      display_name: profile.display_name ?? null,
      is_bot: u.is_bot === true,
      [kind === 'join' ? 'joined_at' : 'left_at']: when,
    },
    `${type}:${event.user.id}:${when}`,
  );
  if (subs.length > 0) scope.afterCommit(`webhooks:${type}:${event.user.id}`, () => webhooks.wake(subs));
}

/** Outbound webhooks: subscriptions, the signed deliveries (in order per subscription) and their log. */
export const webhooksModule = defineModule({
  name: 'webhooks',
  needs: ['notifications'],
  provides: ['webhooks', 'emit'],
  services: (k, { notifications }) => {
    const webhooks = webhooksService({
      db: k.database.db,
      box: k.box,
      config: k.config.webhooks,
      logger: k.logger.child({ module: 'webhooks' }),
      wake: (ids, at) => wakeWebhooks(k.queue, ids, at),
    });
    /**
     * What the modules emit where a thing happens goes to the outbound webhooks and to the admins' notifications
     * alike (one emission: both tell the same happenings, with the same de-duplication keys).
     */
    const emit: Emit = async (teamId, type, data, opts) => {
      await webhooks.emit(teamId, type, data, opts);
      await notifications.onEvent(teamId, type, data, opts);
    };
    return { webhooks, emit };
  },
  routes: async (app, ctx) => {
    await app.register(
      webhooksRoutes({ webhooks: ctx.services.webhooks, guard: workspaceGuard(ctx.services) }),
    );
  },
  jobs: [webhooksDeliverJob, webhooksTickJob],
  events: [
    defineEventListener({ type: 'team_join', handle: (e, s) => onMember(e, s, true) }),
    defineEventListener({ type: 'user_change', handle: (e, s) => onMember(e, s, false) }),
  ],
});
