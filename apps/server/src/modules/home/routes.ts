import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rowId } from '@flywheel/shared/input';
import {
  activityRowsResponse,
  channelActivityResponse,
  createTaskBody,
  dropTaskBody,
  editTaskBody,
  memberActivityResponse,
  mostActiveBody,
  rangeQuery,
  summaryCardsResponse,
  taskResponse,
  tasksResponse,
  timeFilterBody,
  userAdminResponse,
} from '@flywheel/shared/analytics';
import { messageResponse } from '@flywheel/shared/http';
import type { TimeFilter } from '@flywheel/shared/members';
import type { AnalyticsService } from '../analytics/service.ts';
import type { TasksService } from './service.ts';
import {
  type WorkspaceGuard,
  scopedOptions,
  teamIdParam,
  teamParams,
} from '../../plugins/workspace-guard.ts';

const tags = ['home'];
const deleteParams = z.object({
  taskId: rowId('taskId'),
  teamId: teamIdParam,
});

/** `?days=` or `?start_date=&end_date=` (the shared custom-range rules); default the last 7 days. */
const homeRange = rangeQuery;
const toFilter = (q: z.output<typeof homeRange>): TimeFilter =>
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
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);

    r.get(
      '/homepage/workspacehighlights/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Workspace Highlights: messages, replies and reactions per local day',
          params: teamParams,
          querystring: homeRange,
          response: { 200: activityRowsResponse },
        },
      },
      async (req) => {
        const w = await a.windowOf(req.params.teamId, toFilter(req.query), new Date());
        return { data: await a.activityPerDay(w) };
      },
    );

    r.get(
      '/homepage/getchanneldata/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Activity per channel (Activity, Top Channels), most active first',
          params: teamParams,
          querystring: homeRange,
          response: { 200: channelActivityResponse },
        },
      },
      async (req) => ({ data: await a.channels(req.params.teamId, toFilter(req.query)) }),
    );

    r.get(
      '/homepage/getcardsdata/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Summary cards: the last 24 hours against the 24 before',
          params: teamParams,
          response: { 200: summaryCardsResponse },
        },
      },
      async (req) => ({ data: await a.homeCards(req.params.teamId) }),
    );

    r.post(
      '/homepage/getuseradmindata',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary: 'Content Generation: admins vs members share of messages + replies',
          body: timeFilterBody,
          response: { 200: userAdminResponse },
        },
      },
      async (req) => ({ data: await a.adminShare(req.body.team_id, req.body.time_filter) }),
    );

    r.post(
      '/homepage/getmostactivemembers',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary: 'Top Performing Members: most active first (messages + replies + reactions)',
          body: mostActiveBody,
          response: { 200: memberActivityResponse },
        },
      },
      async (req) => ({
        data: await a.members(req.body.team_id, req.body.time_filter, { limit: req.body.limit }),
      }),
    );

    r.get(
      '/homepage/gettasks/:teamId',
      {
        ...opts,
        schema: { tags, summary: 'The task board', params: teamParams, response: { 200: tasksResponse } },
      },
      async (req) => ({ data: await deps.tasks.list(req.params.teamId) }),
    );

    r.post(
      '/homepage/createtasks',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Adds a task at the end of its column',
          body: createTaskBody,
          response: { 201: taskResponse },
        },
      },
      async (req, reply) => {
        const { team_id, ...t } = req.body;
        return reply.code(201).send({ data: await deps.tasks.create(team_id, t) });
      },
    );

    r.patch(
      '/homepage/edittask',
      {
        ...opts,
        schema: {
          tags,
          summary: "Edits a task's title and/or description",
          body: editTaskBody,
          response: { 200: taskResponse },
        },
      },
      async (req) => {
        const { team_id, id, ...t } = req.body;
        return { data: await deps.tasks.edit(team_id, id, t) };
      },
    );

    r.patch(
      '/homepage/droptask',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Moves a task to a column and position (drag and drop); answers the whole board',
          body: dropTaskBody,
          response: { 200: tasksResponse },
        },
      },
      async (req) => ({
        data: await deps.tasks.move(req.body.team_id, req.body.id, req.body.status, req.body.position),
      }),
    );

    r.delete(
      '/homepage/deletetask/:taskId/:teamId',
      {
        ...opts,
        schema: { tags, summary: 'Deletes a task', params: deleteParams, response: { 200: messageResponse } },
      },
      async (req) => {
        await deps.tasks.remove(req.params.teamId, req.params.taskId);
        return { message: 'Task deleted' };
      },
    );
  };
}
