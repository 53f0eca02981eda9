import { defineModule } from '../module.ts';
import { authPurgeJob } from './jobs.ts';
import { authRoutes } from './routes.ts';

export const authModule = defineModule({
  name: 'auth',
  routes: async (app, ctx) => {
    await app.register(authRoutes(ctx.services.auth, ctx.config.links));
  },
  jobs: [authPurgeJob],
});
