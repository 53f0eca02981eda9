import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createFormBody,
  executeFormBody,
  FORM_CSV_TITLE,
  FORM_TEXTS,
  formInstancesResponse,
  formResponse,
  formResponsesBody,
  formResponsesResponse,
  formsListResponse,
  executeFormResponse,
} from '@flywheel/shared/forms';
import { idempotencyHeaders } from '@flywheel/shared/delivery';
import { messageResponse } from '@flywheel/shared/http';
import { safeText } from '@flywheel/shared/input';
import { sendCsv } from '../../lib/csv-reply.ts';
import { currentUser } from '../../plugins/auth.ts';
import { scopedOptions, teamIdParam, type WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, type IdempotencyService } from '../delivery/idempotency.ts';
import type { FormsService } from './service.ts';

const tags = ['forms'];
const teamParam = z.object({ teamId: teamIdParam });
const formId = z.coerce
  .number()
  .int()
  .positive('the form id must be a master_form_id')
  .max(2_147_483_647, 'the form id must be a master_form_id');

/** Forms. */
export function formsRoutes(deps: {
  forms: FormsService;
  idempotency: IdempotencyService;
  guard: WorkspaceGuard;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);

    r.post(
      '/actions/createform',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "Create Form: questions (descriptive, mcq, shortDesc), acknowledgement, sender and targets; sent now (instant), once at post_at (DD/MM/YYYY HH:MM) or recurring Every Day / Weekly at time HH:MM, in the workspace's timezone",
          headers: idempotencyHeaders,
          body: createFormBody,
          response: { 201: formResponse },
        },
      },
      async (req, reply) =>
        answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => ({
          status: 201,
          body: { message: FORM_TEXTS.created, data: await deps.forms.create(currentUser(req).id, req.body) },
        })),
    );

    r.post(
      '/actions/executeform',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Send-form popup: a new instance of the form to members, channels (posted in) and tags',
          headers: idempotencyHeaders,
          body: executeFormBody,
          response: { 200: executeFormResponse },
        },
      },
      async (req, reply) =>
        answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => ({
          status: 200,
          body: { message: FORM_TEXTS.sent, data: await deps.forms.execute(req.body) },
        })),
    );

    const listQuery = z.object({
      search: z.string().max(200, 'search is too long (200 characters at most)').optional(),
    });
    r.get(
      '/actions/getforms/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: "The workspace's forms, newest first (search in name and description)",
          params: teamParam,
          querystring: listQuery,
          response: { 200: formsListResponse },
        },
      },
      async (req) => ({ data: await deps.forms.list(req.params.teamId, req.query.search) }),
    );
    // The API's description names this call with two path segments; the second has no meaning we know of.
    r.get(
      '/actions/getforms/:teamId/:segment',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'The same list as /actions/getforms/{teamId}: the second segment is accepted and not used (search with ?search=)',
          params: teamParam.extend({
            segment: safeText('the second path segment', 100),
          }),
          querystring: listQuery,
          response: { 200: formsListResponse },
        },
      },
      async (req) => ({ data: await deps.forms.list(req.params.teamId, req.query.search) }),
    );

    r.delete(
      '/actions/deleteform/:teamId/:id',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Deletes a form: it leaves the table and its future recurrences are not sent',
          params: teamParam.extend({ id: formId }),
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        await deps.forms.remove(req.params.teamId, req.params.id);
        return { message: FORM_TEXTS.deleted };
      },
    );

    r.get(
      '/actions/getallforminstances/:teamId/:id',
      {
        ...opts,
        schema: {
          tags,
          summary: "Form Instances popup: the form's sends, newest first, with their response counts",
          params: teamParam.extend({ id: formId }),
          response: { 200: formInstancesResponse },
        },
      },
      async (req) => ({ data: await deps.forms.instances(req.params.teamId, req.params.id) }),
    );

    r.post(
      '/actions/getformresponses',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary:
            "Form instance data page: the instance's responses (name, e-mail and an answer per question)",
          body: formResponsesBody,
          response: { 200: formResponsesResponse },
        },
      },
      async (req) => ({
        data: await deps.forms.responses(req.body.team_id, req.body.master_form_id, req.body.form_id),
      }),
    );

    r.post(
      '/actions/exportformresponse',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary: `'${FORM_CSV_TITLE}' CSV of an instance: Name, Email, Submitted At and one column per question`,
          body: formResponsesBody,
          produces: ['text/csv'],
        },
      },
      async (req, reply) =>
        sendCsv(
          reply,
          deps.forms.csv(req.body.team_id, req.body.master_form_id, req.body.form_id),
          `${FORM_CSV_TITLE}.csv`,
        ),
    );
  };
}
