import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rangeDays } from '@flywheel/shared/input';
import {
  activityRowsResponse,
  activityTrendBody,
  activityTrendResponse,
  channelActivityResponse,
  channelsActivityBody,
  channelsTimeBody,
  membersActivityBody,
  membersActivityResponse,
  membersChangeResponse,
  summaryCardsResponse,
  timeFilterBody,
  wordCloudResponse,
} from '@flywheel/shared/analytics';
import { cohortsQuery, cohortsResponse } from '@flywheel/shared/cohorts';
import type { AnalyticsService } from './service.ts';
import { type WorkspaceGuard, scopedOptions, teamIdParam } from '../../plugins/workspace-guard.ts';

const tags = ['analytics'];
const compareParams = z.object({
  teamId: teamIdParam,
  days: rangeDays('days'),
});

/** Analytics, normal mode: everything from the rollups, in the workspace timezone. */
export function analyticsRoutes(deps: { analytics: AnalyticsService; guard: WorkspaceGuard }) {
  const a = deps.analytics;
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);

    r.get(
      '/analytics/getanalyticscompare/:teamId/:days',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Stat cards of the last N days against the N days before (signed percent)',
          params: compareParams,
          response: { 200: summaryCardsResponse },
        },
      },
      async (req) => ({ data: await a.compare(req.params.teamId, req.params.days) }),
    );

    r.post(
      '/analytics/getactivitytrend',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary: 'Activity Trends: messages + replies + reactions per slot of local hours',
          body: activityTrendBody,
          response: { 200: activityTrendResponse },
        },
      },
      async (req) => a.trend(req.body.team_id, req.body.time_filter, req.body.slot),
    );

    r.post(
      '/analytics/activityanalytics',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary: 'Per-day activity of the workspace, or per day and channel for the given channels',
          body: channelsTimeBody,
          response: { 200: activityRowsResponse },
        },
      },
      async (req) => ({
        data: await a.activity(req.body.team_id, req.body.time_filter, req.body.channels),
      }),
    );

    r.post(
      '/analytics/memberschangeanalytics',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary: 'Per day: members joined, left, active, and the member count at the end of the day',
          body: channelsTimeBody,
          response: { 200: membersChangeResponse },
        },
      },
      async (req) => ({
        data: await a.membersChange(req.body.team_id, req.body.time_filter, req.body.channels),
      }),
    );

    r.post(
      '/analytics/membersactivityanalytics',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary: 'Members Activity: per-member totals (channel, activity and tag filters)',
          body: membersActivityBody,
          response: { 200: membersActivityResponse },
        },
      },
      async (req) => {
        const size = req.body.page_size;
        const { rows, total } = await a.membersPage(req.body.team_id, req.body.time_filter, {
          channels: req.body.channels,
          tags: req.body.tags,
          filter: req.body.activity_filter,
          limit: size,
          offset: size ? (req.body.page - 1) * size : undefined,
        });
        return { data: rows, total };
      },
    );

    r.post(
      '/analytics/channelsactivityanalytics',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary: 'Channel Activity: per-channel totals (activity filter)',
          body: channelsActivityBody,
          response: { 200: channelActivityResponse },
        },
      },
      async (req) => ({
        data: await a.channels(req.body.team_id, req.body.time_filter, req.body.activity_filter),
      }),
    );

    r.post(
      '/analytics/wordcloud',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary: 'Word cloud: top keywords (lemmas) of the window with relevance 0..1',
          body: timeFilterBody,
          response: { 200: wordCloudResponse },
        },
      },
      async (req) => ({ data: await a.wordCloud(req.body.team_id, req.body.time_filter) }),
    );

    r.get(
      '/analytics/cohorts/:teamId',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary:
            'Retention by join cohort: per week or month of joining, the share of members active in each week since',
          params: z.object({ teamId: teamIdParam }),
          querystring: cohortsQuery,
          response: { 200: cohortsResponse },
        },
      },
      async (req) => ({ data: await a.cohorts(req.params.teamId, req.query) }),
    );
  };
}
