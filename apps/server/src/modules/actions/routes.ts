import type { FastifyInstance } from 'fastify';
import {
  createAutomation,
  createScheduled,
  deleteAction,
  getAutomations,
  getScheduled,
  updateAction,
} from '@flywheel/shared/endpoints/actions';
import { currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, type IdempotencyService } from '../delivery/idempotency.ts';
import type { ActionsService } from './service.ts';

/** Actions area: automations (Member Join) and schedules; lists are under /actions/getautomations|getscheduled. */
export function actionsRoutes(deps: {
  actions: ActionsService;
  idempotency: IdempotencyService;
  guard: WorkspaceGuard;
}) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(createAutomation, async (req, reply) =>
      answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => ({
        status: 201,
        body: {
          message: 'Trigger created successfully',
          data: await deps.actions.createAutomation(currentUser(req).id, req.body),
        },
      })),
    );

    route(createScheduled, async (req, reply) =>
      answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => ({
        status: 201,
        body: {
          message: 'Message scheduled successfully',
          data: await deps.actions.createScheduled(currentUser(req).id, req.body),
        },
      })),
    );

    route(getAutomations, async (req) => ({
      data: await deps.actions.list(req.params.teamId, 'automation', req.query.search),
    }));

    route(getScheduled, async (req) => ({
      data: await deps.actions.list(req.params.teamId, 'schedule', req.query.search),
    }));

    route(updateAction, async (req) => ({
      message: 'Updated successfully',
      data: await deps.actions.update(req.body),
    }));

    route(deleteAction, async (req) => {
      await deps.actions.remove(req.params.teamId, req.params.id);
      return { message: 'Deleted successfully' };
    });
  };
}
