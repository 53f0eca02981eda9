import { z } from 'zod';
import { FORM_MODAL_CALLBACK, FORM_OPEN_ACTION } from '@flywheel/shared/forms';
import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineInteractivityListener } from '../intake/listeners.ts';
import { defineModule } from '../module.ts';
import { formsTickJob } from './jobs.ts';
import { formsRoutes } from './routes.ts';

const blockActions = z
  .object({
    type: z.literal('block_actions'),
    team: z.object({ id: z.string().min(1) }).passthrough(),
    user: z.object({ id: z.string().min(1) }).passthrough(),
    trigger_id: z.string().min(1),
    actions: z.array(z.object({ action_id: z.string(), value: z.string().optional() }).passthrough()).min(1),
  })
  .passthrough();

const stateValue = z
  .object({
    type: z.string().optional(),
    value: z.string().nullish(),
    selected_option: z.object({ value: z.string().optional() }).passthrough().nullish(),
    selected_options: z
      .array(z.object({ value: z.string().optional() }).passthrough())
      .max(100)
      .nullish(),
    selected_date: z.string().max(32).nullish(),
  })
  .passthrough();

const viewSubmission = z
  .object({
    type: z.literal('view_submission'),
    team: z
      .object({ id: z.string().min(1) })
      .passthrough()
      .nullable(),
    user: z.object({ id: z.string().min(1), team_id: z.string().optional() }).passthrough(),
    view: z
      .object({
        callback_id: z.string().optional(),
        private_metadata: z.string().optional(),
        state: z.object({ values: z.record(z.string(), z.record(z.string(), stateValue)) }).passthrough(),
      })
      .passthrough(),
  })
  .passthrough();

/** Forms: the Forms tab's API, the recurrence tick, and the form message's button and modal in Slack. */
export const formsModule = defineModule({
  name: 'forms',
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
      payload: blockActions,
      match: (p) => p.actions[0]?.action_id === FORM_OPEN_ACTION,
      handle: async (p, ctx) => {
        await ctx.services.forms.openModal(p);
        return undefined;
      },
    }),
    defineInteractivityListener({
      type: 'view_submission',
      payload: viewSubmission,
      match: (p) => p.view.callback_id === FORM_MODAL_CALLBACK,
      handle: (p, ctx) => ctx.services.forms.submit(p),
    }),
  ],
});
