import { authenticate } from '../../plugins/auth.ts';
import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { workspaceRoutes } from './routes.ts';

export const workspacesModule = defineModule({
  name: 'workspaces',
  routes: async (app, ctx) => {
    await app.register(
      workspaceRoutes({
        install: ctx.services.install,
        workspaces: ctx.services.workspaces,
        historyImport: ctx.services.historyImport,
        authed: authenticate(ctx.services.auth),
        guard: workspaceGuard(ctx.services),
      }),
    );
  },
});
