import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { memberRoutes } from './routes.ts';
import { memberService } from './service.ts';

/** One member's page: profile, charts, per-channel table and action log. */
export const memberDetailModule = defineModule({
  name: 'member-detail',
  needs: ['workspaces', 'tags'],
  provides: ['memberDetail'],
  services: (k, { workspaces, tags }) => ({
    memberDetail: memberService({ db: k.database.db, workspaces, tags }),
  }),
  routes: async (app, ctx) => {
    await app.register(
      memberRoutes({ member: ctx.services.memberDetail, guard: workspaceGuard(ctx.services) }),
    );
  },
});
