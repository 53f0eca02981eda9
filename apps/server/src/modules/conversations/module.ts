import { tsToDate } from '../../lib/days.ts';
import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineEventListener, type EventScope } from '../intake/listeners.ts';
import type { SlackEventOf } from '../../slack/events.ts';
import { defineModule } from '../module.ts';
import { conversationsRoutes } from './routes.ts';
import { conversationsService } from './service.ts';
import { llmClient } from './summary.ts';

const onPin = (pinned: boolean) => async (e: SlackEventOf<'pin_added'>, scope: EventScope) => {
  const channelId = e.item?.channel ?? e.channel_id;
  const ts = e.item?.message?.ts;
  if (e.item?.type !== 'message' || !channelId || !ts) return;
  await scope.ctx.services.conversations.applyPin(scope.tx, {
    teamId: scope.teamId,
    channelId,
    ts,
    pinned,
    by: e.user ?? null,
    at: e.event_ts ? tsToDate(e.event_ts) : new Date(),
  });
};

/**
 * The conversation workbench: Threads, Posts and Mentions (routes), pins as Slack reports them (events).
 * Sends (replies, reactions, pins, DMs) go through the delivery engine.
 */
export const conversationsModule = defineModule({
  name: 'conversations',
  needs: ['delivery'],
  provides: ['conversations'],
  services: (k, { delivery }) => ({
    conversations: conversationsService({
      db: k.database.db,
      delivery,
      slackApiUrl: () => k.slackConfig.apiUrl,
      llm: llmClient(k.config.llm),
      summaries: k.config.summaries,
      querySlices: k.config.querySlices,
      logger: k.logger.child({ module: 'conversations' }),
    }),
  }),
  routes: async (app, ctx) => {
    await app.register(
      conversationsRoutes({
        conversations: ctx.services.conversations,
        idempotency: ctx.services.idempotency,
        guard: workspaceGuard(ctx.services),
      }),
    );
  },
  events: [
    defineEventListener({ type: 'pin_added', handle: onPin(true) }),
    defineEventListener({ type: 'pin_removed', handle: onPin(false) }),
  ],
});
