import { defineModule } from '../module.ts';
import { authPurgeJob } from './jobs.ts';
import { authRoutes } from './routes.ts';
import { authService } from './service.ts';

export const authModule = defineModule({
  name: 'auth',
  needs: ['workspaces'],
  provides: ['auth'],
  services: async (k, { workspaces }) => ({
    auth: await authService({ db: k.database.db, config: k.config, queue: k.queue, workspaces }),
  }),
  routes: async (app, ctx) => {
    await app.register(authRoutes(ctx.services.auth, ctx.config.links));
  },
  jobs: [authPurgeJob],
});
