import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { memberListRoutes } from './routes.ts';

/** The Members table: filters, search, sort and paging, and its CSV export. */
export const membersListModule = defineModule({
  name: 'members-list',
  routes: async (app, ctx) => {
    await app.register(
      memberListRoutes({ members: ctx.services.membersList, guard: workspaceGuard(ctx.services) }),
    );
  },
});
