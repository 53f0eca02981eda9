import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineModule } from '../module.ts';
import { auditRetentionJob } from './jobs.ts';
import { auditRoutes } from './routes.ts';
import { auditService } from './service.ts';

/**
 * The audit log (issue 36): its rows are written by the hook app.ts registers (record.ts), read here, and
 * deleted by age daily.
 */
export const auditModule = defineModule({
  name: 'audit',
  provides: ['audit'],
  services: (k) => ({
    audit: auditService({ db: k.database.db, logger: k.logger, retentionDays: k.config.auditRetentionDays }),
  }),
  routes: async (app, ctx) => {
    await app.register(auditRoutes({ audit: ctx.services.audit, guard: workspaceGuard(ctx.services) }));
  },
  jobs: [auditRetentionJob],
});
