import { z } from 'zod';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';
import { rangeDays, slackId } from '../input.ts';
import {
  actionLogRowSchema,
  channelTotalsSchema,
  dailyActivitySchema,
  memberChannelSchema,
  memberInfoSchema,
  pieRowSchema,
} from '../members.ts';

/* One member's page (apps/server/src/modules/member-detail/routes.ts): 404 when the member is not in the workspace. */

const tags = ['member'] as const;
const memberParams = z.object({
  teamId: teamIdParam,
  memberId: slackId('memberId').describe('the member (member_id, U…)'),
});
const withDays = memberParams.extend({
  days: rangeDays('days').describe('the window: the last N days (7, 14, 90 or 365)'),
});
const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });

export const getMemberInfo = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/member/memberinfo/:teamId/:memberId',
  scope: 'read',
  tags,
  summary: 'Profile, tags, channels and all-time totals',
  params: memberParams,
  response: { 200: dataOf(memberInfoSchema) },
});

export const getMemberActivity = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/member/activity/:teamId/:memberId/:days',
  scope: 'read',
  tags,
  summary: 'Messages, replies and reactions per local day of the window (line chart)',
  params: withDays,
  response: { 200: dataOf(z.array(dailyActivitySchema)) },
});

export const getMemberPieGraph = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/member/piegraph/:teamId/:memberId/:days',
  scope: 'read',
  tags,
  summary: "'User Activity Per Channel': activity (messages + replies + reactions) per channel",
  params: withDays,
  response: { 200: dataOf(z.array(pieRowSchema)) },
});

export const getMemberChannelActivity = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/member/channelactivity/:teamId/:memberId/:days',
  scope: 'read',
  tags,
  summary: 'Per-channel messages, replies and reactions (bar graph and table), messages descending',
  params: withDays,
  response: { 200: dataOf(z.array(channelTotalsSchema)) },
});

export const getMemberLast7Days = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/member/last7days/:teamId/:memberId',
  scope: 'read',
  tags,
  summary: 'Action log of the last 7 days (messages, replies, reactions; newest first; mentions readable)',
  params: memberParams,
  response: { 200: dataOf(z.array(actionLogRowSchema)) },
});

export const getChannelsOfMember = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/member/channelsofuser/:teamId/:memberId',
  scope: 'read',
  tags,
  summary: 'Channels the member belongs to',
  params: memberParams,
  response: { 200: dataOf(z.array(memberChannelSchema)) },
});
