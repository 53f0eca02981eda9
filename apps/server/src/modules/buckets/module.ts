import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { bucketRoutes } from './routes.ts';
import { bucketsService } from './service.ts';

/** Buckets: the advanced analytics table, saved bucket definitions, their runs, exports and tags. */
export const bucketsModule = defineModule({
  name: 'buckets',
  needs: ['membersList', 'tags'],
  provides: ['buckets'],
  services: (k, { membersList, tags }) => ({
    buckets: bucketsService({ db: k.database.db, membersList, tags, querySlices: k.config.querySlices }),
  }),
  routes: async (app, ctx) => {
    await app.register(bucketRoutes({ buckets: ctx.services.buckets, guard: workspaceGuard(ctx.services) }));
  },
});
