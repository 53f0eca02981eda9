import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { homeRoutes } from './routes.ts';
import { tasksService } from './service.ts';

/** Home: cards, charts, the content share, top members and the task board. */
export const homeModule = defineModule({
  name: 'home',
  provides: ['tasks'],
  services: (k) => ({ tasks: tasksService(k.database.db) }),
  routes: async (app, ctx) => {
    await app.register(
      homeRoutes({
        analytics: ctx.services.analytics,
        tasks: ctx.services.tasks,
        guard: workspaceGuard(ctx.services),
      }),
    );
  },
});
