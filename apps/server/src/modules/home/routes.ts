import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { rangeQuery } from '@flywheel/shared/analytics';
import {
  createTasks,
  deleteTask,
  dropTask,
  editTask,
  getCardsData,
  getChannelData,
  getMostActiveMembers,
  getTasks,
  getUserAdminData,
  workspaceHighlights,
} from '@flywheel/shared/endpoints/home';
import type { TimeFilter } from '@flywheel/shared/members';
import type { AnalyticsService } from '../analytics/service.ts';
import type { TasksService } from './service.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';

/** `?days=` or `?start_date=&end_date=` (the shared custom-range rules); default the last 7 days. */
const toFilter = (q: z.output<typeof rangeQuery>): TimeFilter =>
  q.start_date && q.end_date
    ? { type: 'dynamic', start_date: q.start_date, end_date: q.end_date }
    : { type: 'static', days: q.days ?? 7 };

/** Home: cards, charts, the content share, top members and the task board. */
export function homeRoutes(deps: {
  analytics: AnalyticsService;
  tasks: TasksService;
  guard: WorkspaceGuard;
}) {
  const a = deps.analytics;
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(workspaceHighlights, async (req) => {
      const w = await a.windowOf(req.params.teamId, toFilter(req.query), new Date());
      return { data: await a.activityPerDay(w) };
    });

    route(getChannelData, async (req) => ({
      data: await a.channels(req.params.teamId, toFilter(req.query)),
    }));

    route(getCardsData, async (req) => ({ data: await a.homeCards(req.params.teamId) }));

    route(getUserAdminData, async (req) => ({
      data: await a.adminShare(req.body.team_id, req.body.time_filter),
    }));

    route(getMostActiveMembers, async (req) => ({
      data: await a.members(req.body.team_id, req.body.time_filter, { limit: req.body.limit }),
    }));

    route(getTasks, async (req) => ({ data: await deps.tasks.list(req.params.teamId) }));

    route(createTasks, async (req, reply) => {
      const { team_id, ...t } = req.body;
      return reply.code(201).send({ data: await deps.tasks.create(team_id, t) });
    });

    route(editTask, async (req) => {
      const { team_id, id, ...t } = req.body;
      return { data: await deps.tasks.edit(team_id, id, t) };
    });

    route(dropTask, async (req) => ({
      data: await deps.tasks.move(req.body.team_id, req.body.id, req.body.status, req.body.position),
    }));

    route(deleteTask, async (req) => {
      await deps.tasks.remove(req.params.teamId, req.params.taskId);
      return { message: 'Task deleted' };
    });
  };
}
