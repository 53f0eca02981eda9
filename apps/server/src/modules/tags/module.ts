import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { tagRoutes } from './routes.ts';

export const tagsModule = defineModule({
  name: 'tags',
  routes: async (app, ctx) => {
    await app.register(tagRoutes({ tags: ctx.services.tags, guard: workspaceGuard(ctx.services) }));
  },
});
