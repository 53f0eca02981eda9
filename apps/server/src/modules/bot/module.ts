import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { botRoutes } from './routes.ts';

/** Customise Bot, and the public Flywheel bot image. */
export const botModule = defineModule({
  name: 'bot',
  routes: async (app, ctx) => {
    await app.register(
      botRoutes({ bot: ctx.services.bot, guard: workspaceGuard(ctx.services), links: ctx.config.links }),
    );
  },
});
