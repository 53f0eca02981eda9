import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  actionId,
  actionResponse,
  actionsListResponse,
  createAutomationBody,
  createScheduledBody,
  updateActionBody,
} from '@flywheel/shared/actions';
import { idempotencyHeaders } from '@flywheel/shared/delivery';
import { messageResponse } from '@flywheel/shared/http';
import { currentUser } from '../../plugins/auth.ts';
import { scopedOptions, teamIdParam, type WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, type IdempotencyService } from '../delivery/idempotency.ts';
import type { ActionsService } from './service.ts';

const tags = ['actions'];
const teamParam = z.object({ teamId: teamIdParam });
const listQuery = z.object({
  search: z.string().max(200, 'search is too long (200 characters at most)').optional(),
});

/** Actions area: automations (Member Join) and schedules; lists are under /actions/getautomations|getscheduled. */
export function actionsRoutes(deps: {
  actions: ActionsService;
  idempotency: IdempotencyService;
  guard: WorkspaceGuard;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);

    r.post(
      '/actions/createautomation',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Create Trigger (Member Join): DM the new member, members, tags, channels or the workspace',
          headers: idempotencyHeaders,
          body: createAutomationBody,
          response: { 201: actionResponse },
        },
      },
      async (req, reply) =>
        answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => ({
          status: 201,
          body: {
            message: 'Trigger created successfully',
            data: await deps.actions.createAutomation(currentUser(req).id, req.body),
          },
        })),
    );

    r.post(
      '/actions/createscheduled',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "Schedule Message: One Time (post_at DD/MM/YYYY HH:MM, 15 minutes to 30 days ahead), Every Day or Weekly at time HH:MM, in the workspace's timezone",
          headers: idempotencyHeaders,
          body: createScheduledBody,
          response: { 201: actionResponse },
        },
      },
      async (req, reply) =>
        answerOnce(deps.idempotency, req, reply, req.body.team_id, async () => ({
          status: 201,
          body: {
            message: 'Message scheduled successfully',
            data: await deps.actions.createScheduled(currentUser(req).id, req.body),
          },
        })),
    );

    for (const [url, kind] of [
      ['/actions/getautomations/:teamId', 'automation'],
      ['/actions/getscheduled/:teamId', 'schedule'],
    ] as const) {
      r.get(
        url,
        {
          ...opts,
          schema: {
            tags,
            summary: `The workspace's ${kind === 'automation' ? 'automations' : 'schedules'}, newest first (search in name and message)`,
            params: teamParam,
            querystring: listQuery,
            response: { 200: actionsListResponse },
          },
        },
        async (req) => ({ data: await deps.actions.list(req.params.teamId, kind, req.query.search) }),
      );
    }

    r.patch(
      '/actions/updateactions',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Edit trigger: DM members (user_ids), channels and message; bulk-DM rows cannot be edited',
          body: updateActionBody,
          response: { 200: actionResponse },
        },
      },
      async (req) => ({ message: 'Updated successfully', data: await deps.actions.update(req.body) }),
    );

    r.delete(
      '/actions/deleteaction/:teamId/:id',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Deletes an automation or schedule; runs not sent yet are cancelled',
          params: teamParam.extend({ id: actionId }),
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        await deps.actions.remove(req.params.teamId, req.params.id);
        return { message: 'Deleted successfully' };
      },
    );
  };
}
