import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { botRoutes } from './routes.ts';
import { botService } from './service.ts';

/** Customise Bot, and the public Flywheel bot image. */
export const botModule = defineModule({
  name: 'bot',
  needs: ['workspaces'],
  provides: ['bot'],
  services: (k, { workspaces }) => ({
    bot: botService({
      db: k.database.db,
      workspaces,
      slack: k.slack,
      publicUrl: k.config.publicUrl,
      logger: k.logger,
    }),
  }),
  routes: async (app, ctx) => {
    await app.register(
      botRoutes({ bot: ctx.services.bot, guard: workspaceGuard(ctx.services), links: ctx.config.links }),
    );
  },
});
