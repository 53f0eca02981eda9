import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { digestJob } from './jobs.ts';
import { digestRoutes } from './routes.ts';
import { digestService } from './service.ts';

/** The weekly digest (docs/product/digest.md): subscriptions, the preview, and the minute tick that sends it. */
export const digestModule = defineModule({
  name: 'digest',
  needs: ['workspaces', 'conversations', 'delivery'],
  provides: ['digest'],
  services: (k, { workspaces, conversations, delivery }) => ({
    digest: digestService({
      db: k.database.db,
      workspaces,
      conversations,
      delivery,
      mailer: k.mailer,
      origin: k.config.publicUrl,
      logger: k.logger.child({ module: 'digest' }),
    }),
  }),
  routes: async (app, ctx) => {
    await app.register(digestRoutes({ digest: ctx.services.digest, guard: workspaceGuard(ctx.services) }));
  },
  jobs: [digestJob],
});
