import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { deliverJob, recoverJob } from './jobs.ts';
import { dmReplyListener } from './replies.ts';
import { deliveryRoutes } from './routes.ts';
import { imageUploads } from './uploads.ts';
import { audienceService } from '../audience/service.ts';
import { deliveryEngine } from './engine.ts';
import { idempotencyService } from './idempotency.ts';
import { wakeDelivery } from './jobs.ts';
import { pacing } from './pacing.ts';
import { deliveryRunnerRepo } from './runner-repo.ts';
import { deliveryService } from './service.ts';

/**
 * Delivery: the one sender. Quick actions and Receipts under /api/v0; the engine's jobs (`delivery.send` per
 * workspace, `delivery.recover` every minute); members' DM replies from the Events API. Other modules send
 * through `ctx.services.delivery`.
 */
export const deliveryModule = defineModule({
  name: 'delivery',
  needs: ['workspaces', 'bot', 'membersList', 'buckets', 'webhooks', 'notifications'],
  provides: ['audience', 'delivery', 'deliveryEngine', 'idempotency'],
  services: (k, { workspaces, bot, membersList, buckets, webhooks, notifications }) => {
    const { config, logger } = k;
    const db = k.database.db;
    const audience = audienceService({
      db,
      filteredMembers: (teamId, filter) =>
        membersList.memberIds({ ...filter, team_id: teamId, sort: { field: 'activity', direction: 'desc' } }),
      bucketMembers: (teamId, ids) => buckets.audienceMembers(teamId, ids),
    });
    const delivery = deliveryService({
      db,
      audience,
      workspaces,
      bot,
      slack: k.slack,
      config: config.delivery,
      limits: config.sendLimits,
      logger,
      wake: (teamId) => wakeDelivery(k.queue, teamId),
    });
    return {
      audience,
      delivery,
      idempotency: idempotencyService({ db, logger }),
      deliveryEngine: deliveryEngine({
        repo: deliveryRunnerRepo(db, {
          onFinished: async (finished) => {
            const { team_id, id, created_by: _createdBy, ...receipt } = finished;
            await webhooks.emit(
              team_id,
              'send.finished',
              { receipt_id: id, ...receipt },
              { dedupeKey: `send.finished:${id}:${receipt.finished_at}` },
            );
            await notifications.sendFinished(finished);
          },
        }),
        pacing: pacing(db),
        senders: delivery.senderHandle,
        config: config.delivery,
        logger: logger.child({ module: 'delivery' }),
        onOutcome: (teamId, outcome) => k.metrics.deliveryOutcome(teamId, outcome),
      }),
    };
  },
  routes: async (app, ctx) => {
    await app.register(
      deliveryRoutes({
        delivery: ctx.services.delivery,
        idempotency: ctx.services.idempotency,
        guard: workspaceGuard(ctx.services),
        uploads: imageUploads(ctx.config.uploads),
      }),
    );
  },
  jobs: [deliverJob, recoverJob],
  // Members' replies in their DMs with the bot (message.im), linked to the sends they answer.
  events: [dmReplyListener],
});
