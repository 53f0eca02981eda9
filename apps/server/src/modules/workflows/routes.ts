import type { FastifyInstance } from 'fastify';
import {
  createWorkflow,
  deleteWorkflow,
  getActionHistory,
  getTriggerHistory,
  getWorkflow,
  getWorkflows,
  pauseWorkflow,
} from '@flywheel/shared/endpoints/workflows';
import { WORKFLOW_TEXTS } from '@flywheel/shared/workflows';
import { currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, type IdempotencyService } from '../delivery/idempotency.ts';
import type { WorkflowsService } from './service.ts';

/** Workflows: create, list, one, pause/activate, delete, trigger and action histories. */
export function workflowsRoutes(deps: {
  workflows: WorkflowsService;
  idempotency: IdempotencyService;
  guard: WorkspaceGuard;
}) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(createWorkflow, async (req, reply) =>
      answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => ({
        status: 201,
        body: {
          message: WORKFLOW_TEXTS.created,
          data: await deps.workflows.create(currentUser(req).id, req.body),
        },
      })),
    );

    route(getWorkflows, async (req) => ({ data: await deps.workflows.list(req.params.teamId) }));

    route(getWorkflow, async (req) => ({
      data: await deps.workflows.detail(req.params.teamId, req.params.workflowId),
    }));

    route(pauseWorkflow, async (req) => {
      const data = await deps.workflows.setStatus(req.body.team_id, req.body.workflow_id, req.body.status);
      return { message: data.status ? WORKFLOW_TEXTS.started : WORKFLOW_TEXTS.stopped, data };
    });

    route(deleteWorkflow, async (req) => {
      await deps.workflows.remove(req.params.teamId, req.params.workflowId);
      return { message: WORKFLOW_TEXTS.deleted };
    });

    route(getTriggerHistory, async (req) => ({
      data: await deps.workflows.triggerHistory(req.params.teamId, req.params.workflowId),
    }));

    route(getActionHistory, async (req) => ({
      data: await deps.workflows.actionHistory(req.params.teamId, req.params.workflowId, req.params.taskId),
    }));
  };
}
