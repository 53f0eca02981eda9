import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { directoryRoutes } from './routes.ts';

/** What login loads for the current workspace: members, suggestions, channels, admins, tags. */
export const directoryModule = defineModule({
  name: 'directory',
  routes: async (app, ctx) => {
    await app.register(
      directoryRoutes({
        db: ctx.database.db,
        workspaces: ctx.services.workspaces,
        guard: workspaceGuard(ctx.services),
      }),
    );
  },
});
