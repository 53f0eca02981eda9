import { z } from 'zod';
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
} from '../analytics.ts';
import { cohortsQuery, cohortsResponse } from '../cohorts.ts';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';
import { rangeDays } from '../input.ts';

/* Analytics, normal mode (apps/server/src/modules/analytics/routes.ts): every call only reads. */

const tags = ['analytics'] as const;

export const getAnalyticsCompare = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/analytics/getanalyticscompare/:teamId/:days',
  scope: 'read',
  tags,
  summary: 'Stat cards of the last N days against the N days before (signed percent)',
  params: z.object({ teamId: teamIdParam, days: rangeDays('days') }),
  response: { 200: summaryCardsResponse },
});

export const getActivityTrend = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/analytics/getactivitytrend',
  scope: 'read',
  tags,
  summary: 'Activity Trends: messages + replies + reactions per slot of local hours',
  body: activityTrendBody,
  response: { 200: activityTrendResponse },
});

export const activityAnalytics = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/analytics/activityanalytics',
  scope: 'read',
  tags,
  summary: 'Per-day activity of the workspace, or per day and channel for the given channels',
  body: channelsTimeBody,
  response: { 200: activityRowsResponse },
});

export const membersChangeAnalytics = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/analytics/memberschangeanalytics',
  scope: 'read',
  tags,
  summary: 'Per day: members joined, left, active, and the member count at the end of the day',
  body: channelsTimeBody,
  response: { 200: membersChangeResponse },
});

export const membersActivityAnalytics = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/analytics/membersactivityanalytics',
  scope: 'read',
  tags,
  summary: 'Members Activity: per-member totals (channel, activity and tag filters)',
  body: membersActivityBody,
  response: { 200: membersActivityResponse },
});

export const channelsActivityAnalytics = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/analytics/channelsactivityanalytics',
  scope: 'read',
  tags,
  summary: 'Channel Activity: per-channel totals (activity filter)',
  body: channelsActivityBody,
  response: { 200: channelActivityResponse },
});

export const wordCloud = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/analytics/wordcloud',
  scope: 'read',
  tags,
  summary: 'Word cloud: top keywords (lemmas) of the window with relevance 0..1',
  body: timeFilterBody,
  response: { 200: wordCloudResponse },
});

export const getCohorts = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/analytics/cohorts/:teamId',
  scope: 'read',
  tags,
  summary:
    'Retention by join cohort: per week or month of joining, the share of members active in each week since',
  params: z.object({ teamId: teamIdParam }),
  query: cohortsQuery,
  response: { 200: cohortsResponse },
});
