import { FORM_MODAL_CALLBACK, FORM_OPEN_ACTION } from '@flywheel/shared/forms';
import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineInteractivityListener } from '../intake/listeners.ts';
import { defineModule } from '../module.ts';
import { formsTickJob } from './jobs.ts';
import { formsRoutes } from './routes.ts';
import { formsService } from './service.ts';

/** Forms: the Forms tab's API, the recurrence tick, and the form message's button and modal in Slack. */
export const formsModule = defineModule({
  name: 'forms',
  needs: ['audience', 'delivery', 'workspaces', 'emit'],
  provides: ['forms'],
  services: (k, { audience, delivery, workspaces, emit }) => ({
    forms: formsService({
      db: k.database.db,
      audience,
      delivery,
      workspaces,
      slack: k.slack,
      timezoneOf: (teamId, tx) => workspaces.timezone(teamId, tx),
      graceMs: k.config.actionsGraceMinutes * 60_000,
      logger: k.logger.child({ module: 'forms' }),
      emit,
    }),
  }),
  routes: async (app, ctx) => {
    await app.register(
      formsRoutes({
        forms: ctx.services.forms,
        idempotency: ctx.services.idempotency,
        guard: workspaceGuard(ctx.services),
      }),
    );
  },
  jobs: [formsTickJob],
  interactivity: [
    defineInteractivityListener({
      type: 'block_actions',
      match: (p) => p.actions[0]?.action_id === FORM_OPEN_ACTION,
      handle: async (p, ctx) => {
        await ctx.services.forms.openModal(p);
        return undefined;
      },
    }),
    defineInteractivityListener({
      type: 'view_submission',
      match: (p) => p.view.callback_id === FORM_MODAL_CALLBACK,
      handle: (p, ctx) => ctx.services.forms.submit(p),
    }),
  ],
});
