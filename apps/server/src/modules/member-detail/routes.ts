import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rangeDays, slackId } from '@flywheel/shared/input';
import {
  actionLogRowSchema,
  channelTotalsSchema,
  dailyActivitySchema,
  memberChannelSchema,
  memberInfoSchema,
  pieRowSchema,
} from '@flywheel/shared/members';
import type { MemberService } from './service.ts';
import { type WorkspaceGuard, scopedOptions, teamIdParam } from '../../plugins/workspace-guard.ts';

const tags = ['member'];
const memberParams = z.object({
  teamId: teamIdParam,
  memberId: slackId('memberId').describe('the member (member_id, U…)'),
});
const withDays = memberParams.extend({
  days: rangeDays('days').describe('the window: the last N days (7, 14, 90 or 365)'),
});
const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });

/** Member detail calls: 404 when the member is not in the workspace. */
export function memberRoutes(deps: { member: MemberService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);
    const m = deps.member;

    r.get(
      '/member/memberinfo/:teamId/:memberId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Profile, tags, channels and all-time totals',
          params: memberParams,
          response: { 200: dataOf(memberInfoSchema) },
        },
      },
      async (req) => ({ data: await m.info(req.params.teamId, req.params.memberId) }),
    );

    r.get(
      '/member/activity/:teamId/:memberId/:days',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Messages, replies and reactions per local day of the window (line chart)',
          params: withDays,
          response: { 200: dataOf(z.array(dailyActivitySchema)) },
        },
      },
      async (req) => ({ data: await m.activity(req.params.teamId, req.params.memberId, req.params.days) }),
    );

    r.get(
      '/member/piegraph/:teamId/:memberId/:days',
      {
        ...opts,
        schema: {
          tags,
          summary: "'User Activity Per Channel': activity (messages + replies + reactions) per channel",
          params: withDays,
          response: { 200: dataOf(z.array(pieRowSchema)) },
        },
      },
      async (req) => ({ data: await m.pie(req.params.teamId, req.params.memberId, req.params.days) }),
    );

    r.get(
      '/member/channelactivity/:teamId/:memberId/:days',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Per-channel messages, replies and reactions (bar graph and table), messages descending',
          params: withDays,
          response: { 200: dataOf(z.array(channelTotalsSchema)) },
        },
      },
      async (req) => ({
        data: await m.channelActivity(req.params.teamId, req.params.memberId, req.params.days),
      }),
    );

    r.get(
      '/member/last7days/:teamId/:memberId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Action log of the last 7 days (messages, replies, reactions; newest first; mentions readable)',
          params: memberParams,
          response: { 200: dataOf(z.array(actionLogRowSchema)) },
        },
      },
      async (req) => ({ data: await m.last7days(req.params.teamId, req.params.memberId) }),
    );

    r.get(
      '/member/channelsofuser/:teamId/:memberId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Channels the member belongs to',
          params: memberParams,
          response: { 200: dataOf(z.array(memberChannelSchema)) },
        },
      },
      async (req) => ({ data: await m.channelsOf(req.params.teamId, req.params.memberId) }),
    );
  };
}
