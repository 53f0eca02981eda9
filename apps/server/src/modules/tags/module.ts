import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { tagRoutes } from './routes.ts';
import { tagsService } from './service.ts';

export const tagsModule = defineModule({
  name: 'tags',
  provides: ['tags'],
  services: (k) => ({ tags: tagsService(k.database.db) }),
  routes: async (app, ctx) => {
    await app.register(tagRoutes({ tags: ctx.services.tags, guard: workspaceGuard(ctx.services) }));
  },
});
