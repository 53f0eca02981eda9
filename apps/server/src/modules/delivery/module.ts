import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { deliverJob, recoverJob } from './jobs.ts';
import { dmReplyListener } from './replies.ts';
import { deliveryRoutes } from './routes.ts';
import { imageUploads } from './uploads.ts';

/**
 * Delivery: the one sender. Quick actions and Receipts under /api/v0; the engine's jobs (`delivery.send` per
 * workspace, `delivery.recover` every minute); members' DM replies from the Events API. Other modules send
 * through `ctx.services.delivery`.
 */
export const deliveryModule = defineModule({
  name: 'delivery',
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
