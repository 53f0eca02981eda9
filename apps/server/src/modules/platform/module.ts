import { maintenanceJob } from '../../db/maintenance.ts';
import { defineModule } from '../module.ts';
import { platformRoutes } from './routes.ts';

/** The process itself: public configuration for signed-out pages, and the nightly database maintenance. */
export const platformModule = defineModule({
  name: 'platform',
  routes: async (app, ctx) => {
    await app.register(platformRoutes(ctx.publicConfig));
  },
  jobs: [maintenanceJob],
});
