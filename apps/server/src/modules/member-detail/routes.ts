import type { FastifyInstance } from 'fastify';
import {
  getChannelsOfMember,
  getMemberActivity,
  getMemberChannelActivity,
  getMemberInfo,
  getMemberLast7Days,
  getMemberPieGraph,
} from '@flywheel/shared/endpoints/member-detail';
import type { MemberService } from './service.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';

/** Member detail calls: 404 when the member is not in the workspace. */
export function memberRoutes(deps: { member: MemberService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });
    const m = deps.member;

    route(getMemberInfo, async (req) => ({ data: await m.info(req.params.teamId, req.params.memberId) }));

    route(getMemberActivity, async (req) => ({
      data: await m.activity(req.params.teamId, req.params.memberId, req.params.days),
    }));

    route(getMemberPieGraph, async (req) => ({
      data: await m.pie(req.params.teamId, req.params.memberId, req.params.days),
    }));

    route(getMemberChannelActivity, async (req) => ({
      data: await m.channelActivity(req.params.teamId, req.params.memberId, req.params.days),
    }));

    route(getMemberLast7Days, async (req) => ({
      data: await m.last7days(req.params.teamId, req.params.memberId),
    }));

    route(getChannelsOfMember, async (req) => ({
      data: await m.channelsOf(req.params.teamId, req.params.memberId),
    }));
  };
}
