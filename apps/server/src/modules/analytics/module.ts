import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { analyticsRoutes } from './routes.ts';
import { analyticsService } from './service.ts';

/** Analytics (normal mode): everything from the rollups, in the workspace timezone. */
export const analyticsModule = defineModule({
  name: 'analytics',
  needs: ['workspaces'],
  provides: ['analytics'],
  services: (k, { workspaces }) => ({ analytics: analyticsService({ db: k.database.db, workspaces }) }),
  routes: async (app, ctx) => {
    await app.register(
      analyticsRoutes({ analytics: ctx.services.analytics, guard: workspaceGuard(ctx.services) }),
    );
  },
});
