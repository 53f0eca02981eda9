import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { digestJob } from './jobs.ts';
import { digestRoutes } from './routes.ts';

/** The weekly digest (docs/product/digest.md): subscriptions, the preview, and the minute tick that sends it. */
export const digestModule = defineModule({
  name: 'digest',
  routes: async (app, ctx) => {
    await app.register(digestRoutes({ digest: ctx.services.digest, guard: workspaceGuard(ctx.services) }));
  },
  jobs: [digestJob],
});
