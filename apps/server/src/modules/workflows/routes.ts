import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idempotencyHeaders } from '@flywheel/shared/delivery';
import { messageResponse } from '@flywheel/shared/http';
import {
  actionHistoryResponse,
  createWorkflowBody,
  pauseWorkflowBody,
  triggerHistoryResponse,
  WORKFLOW_TEXTS,
  workflowDetailResponse,
  workflowResponse,
  workflowsListResponse,
} from '@flywheel/shared/workflows';
import { currentUser } from '../../plugins/auth.ts';
import { scopedOptions, teamIdParam, type WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, type IdempotencyService } from '../delivery/idempotency.ts';
import type { WorkflowsService } from './service.ts';

const tags = ['workflows'];
const id = (what: string) =>
  z.coerce
    .number()
    .int()
    .positive(`${what} must be a ${what.replace('_', ' ')}`)
    .max(2_147_483_647);
const teamParam = z.object({ teamId: teamIdParam });
const workflowParams = teamParam.extend({ workflowId: id('workflow_id') });

/** Workflows: create, list, one, pause/activate, delete, trigger and action histories. */
export function workflowsRoutes(deps: {
  workflows: WorkflowsService;
  idempotency: IdempotencyService;
  guard: WorkspaceGuard;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);

    r.post(
      '/workflows/createworkflow',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Creates a workflow: a trigger (time, activity, inactivity, workspace_join, channel_join) and up to ten message or form tasks, each with its delay after the previous step',
          headers: idempotencyHeaders,
          body: createWorkflowBody,
          response: { 201: workflowResponse },
        },
      },
      async (req, reply) =>
        answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => ({
          status: 201,
          body: {
            message: WORKFLOW_TEXTS.created,
            data: await deps.workflows.create(currentUser(req).id, req.body),
          },
        })),
    );

    r.get(
      '/workflows/getworkflows/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: "The workspace's workflows, newest first, with their tasks and counts",
          params: teamParam,
          response: { 200: workflowsListResponse },
        },
      },
      async (req) => ({ data: await deps.workflows.list(req.params.teamId) }),
    );

    r.get(
      '/workflows/getworkflow/:teamId/:workflowId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'One workflow with the full content of each task',
          params: workflowParams,
          response: { 200: workflowDetailResponse },
        },
      },
      async (req) => ({ data: await deps.workflows.detail(req.params.teamId, req.params.workflowId) }),
    );

    r.patch(
      '/workflows/pauseworkflow',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Activates (status true) or stops (status false) a workflow; without status it toggles. Stopped: no firing, pending steps wait; activated again: they continue. A time trigger cannot be stopped.',
          body: pauseWorkflowBody,
        },
      },
      async (req) => {
        const data = await deps.workflows.setStatus(req.body.team_id, req.body.workflow_id, req.body.status);
        return { message: data.status ? WORKFLOW_TEXTS.started : WORKFLOW_TEXTS.stopped, data };
      },
    );

    r.delete(
      '/workflows/:teamId/:workflowId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Deletes a workflow: its pending steps are cancelled; what was sent keeps its receipts',
          params: workflowParams,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        await deps.workflows.remove(req.params.teamId, req.params.workflowId);
        return { message: WORKFLOW_TEXTS.deleted };
      },
    );

    r.get(
      '/workflows/gettriggerinfo/:teamId/:workflowId',
      {
        ...opts,
        schema: {
          tags,
          summary: "The trigger's history: when it fired and for whom, newest first",
          params: workflowParams,
          response: { 200: triggerHistoryResponse },
        },
      },
      async (req) => ({
        data: await deps.workflows.triggerHistory(req.params.teamId, req.params.workflowId),
      }),
    );

    r.get(
      '/workflows/getuserdetail/:teamId/:workflowId/:taskId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "One task's history: each step sent (to whom, when, its receipt and form instance) or pending",
          params: workflowParams.extend({ taskId: id('task_id') }),
          response: { 200: actionHistoryResponse },
        },
      },
      async (req) => ({
        data: await deps.workflows.actionHistory(req.params.teamId, req.params.workflowId, req.params.taskId),
      }),
    );
  };
}
