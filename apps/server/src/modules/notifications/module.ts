import { defineEventListener } from '../intake/listeners.ts';
import { defineModule } from '../module.ts';
import { notificationsRetentionJob } from './jobs.ts';
import { notificationsRoutes } from './routes.ts';
import { notificationsService } from './service.ts';

/**
 * Notifications in the top bar (issue 35): one row per admin of the workspace where something happened, each
 * with their own read state; kept 90 days. Most are written where the modules emit their outbound webhook
 * events (`emit`, webhooks/module.ts); a workspace's disconnection is heard here, with the drain's transaction.
 */
export const notificationsModule = defineModule({
  name: 'notifications',
  provides: ['notifications'],
  services: (k) => ({
    notifications: notificationsService({
      db: k.database.db,
      logger: k.logger.child({ module: 'notifications' }),
    }),
  }),
  routes: async (app, ctx) => {
    await app.register(
      notificationsRoutes({ notifications: ctx.services.notifications, auth: ctx.services.auth }),
    );
  },
  jobs: [notificationsRetentionJob],
  events: [
    defineEventListener({
      type: 'app_uninstalled',
      handle: (_e, s) =>
        s.ctx.services.notifications.workspaceDisconnected(s.tx, s.teamId, 'app_uninstalled', s.eventId),
    }),
    defineEventListener({
      type: 'tokens_revoked',
      handle: async (e, s) => {
        if (!e.tokens?.bot?.length) return;
        await s.ctx.services.notifications.workspaceDisconnected(s.tx, s.teamId, 'tokens_revoked', s.eventId);
      },
    }),
  ],
});
