import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { memberListRoutes } from './routes.ts';
import { membersService } from './service.ts';

/** The Members table: filters, search, sort and paging, and its CSV export. */
export const membersListModule = defineModule({
  name: 'members-list',
  needs: ['workspaces', 'tags'],
  provides: ['membersList'],
  services: (k, { workspaces, tags }) => ({
    membersList: membersService({ db: k.database.db, workspaces, tags, querySlices: k.config.querySlices }),
  }),
  routes: async (app, ctx) => {
    await app.register(
      memberListRoutes({ members: ctx.services.membersList, guard: workspaceGuard(ctx.services) }),
    );
  },
});
