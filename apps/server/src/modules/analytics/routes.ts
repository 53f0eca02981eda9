import type { FastifyInstance } from 'fastify';
import {
  activityAnalytics,
  channelsActivityAnalytics,
  getActivityTrend,
  getAnalyticsCompare,
  getCohorts,
  membersActivityAnalytics,
  membersChangeAnalytics,
  wordCloud,
} from '@flywheel/shared/endpoints/analytics';
import type { AnalyticsService } from './service.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';

/** Analytics, normal mode: everything from the rollups, in the workspace timezone. */
export function analyticsRoutes(deps: { analytics: AnalyticsService; guard: WorkspaceGuard }) {
  const a = deps.analytics;
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(getAnalyticsCompare, async (req) => ({
      data: await a.compare(req.params.teamId, req.params.days),
    }));

    route(getActivityTrend, async (req) => a.trend(req.body.team_id, req.body.time_filter, req.body.slot));

    route(activityAnalytics, async (req) => ({
      data: await a.activity(req.body.team_id, req.body.time_filter, req.body.channels),
    }));

    route(membersChangeAnalytics, async (req) => ({
      data: await a.membersChange(req.body.team_id, req.body.time_filter, req.body.channels),
    }));

    route(membersActivityAnalytics, async (req) => {
      const size = req.body.page_size;
      const { rows, total } = await a.membersPage(req.body.team_id, req.body.time_filter, {
        channels: req.body.channels,
        tags: req.body.tags,
        filter: req.body.activity_filter,
        limit: size,
        offset: size ? (req.body.page - 1) * size : undefined,
      });
      return { data: rows, total };
    });

    route(channelsActivityAnalytics, async (req) => ({
      data: await a.channels(req.body.team_id, req.body.time_filter, req.body.activity_filter),
    }));

    route(wordCloud, async (req) => ({ data: await a.wordCloud(req.body.team_id, req.body.time_filter) }));

    route(getCohorts, async (req) => ({ data: await a.cohorts(req.params.teamId, req.query) }));
  };
}
