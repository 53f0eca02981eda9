import type { FastifyInstance } from 'fastify';
import {
  createForm,
  deleteForm,
  executeForm,
  exportFormResponse,
  getFormInstances,
  getFormResponses,
  getForms,
  getFormsWithSegment,
} from '@flywheel/shared/endpoints/forms';
import { FORM_CSV_TITLE, FORM_TEXTS } from '@flywheel/shared/forms';
import { sendCsv } from '../../lib/csv-reply.ts';
import { currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, type IdempotencyService } from '../delivery/idempotency.ts';
import type { FormsService } from './service.ts';

/** Forms. */
export function formsRoutes(deps: {
  forms: FormsService;
  idempotency: IdempotencyService;
  guard: WorkspaceGuard;
}) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(createForm, async (req, reply) =>
      answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => ({
        status: 201,
        body: { message: FORM_TEXTS.created, data: await deps.forms.create(currentUser(req).id, req.body) },
      })),
    );

    route(executeForm, async (req, reply) =>
      answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => ({
        status: 200,
        body: { message: FORM_TEXTS.sent, data: await deps.forms.execute(req.body) },
      })),
    );

    route(getForms, async (req) => ({ data: await deps.forms.list(req.params.teamId, req.query.search) }));
    route(getFormsWithSegment, async (req) => ({
      data: await deps.forms.list(req.params.teamId, req.query.search),
    }));

    route(deleteForm, async (req) => {
      await deps.forms.remove(req.params.teamId, req.params.id);
      return { message: FORM_TEXTS.deleted };
    });

    route(getFormInstances, async (req) => ({
      data: await deps.forms.instances(req.params.teamId, req.params.id),
    }));

    // Both only read: an instance's responses, and its CSV.
    route(getFormResponses, async (req) => ({
      data: await deps.forms.responses(req.body.team_id, req.body.master_form_id, req.body.form_id),
    }));

    route(exportFormResponse, async (req, reply) =>
      sendCsv(
        reply,
        deps.forms.csv(req.body.team_id, req.body.master_form_id, req.body.form_id),
        `${FORM_CSV_TITLE}.csv`,
      ),
    );
  };
}
