import { sendCsv } from '../../lib/csv-reply.ts';
import type { FastifyInstance } from 'fastify';
import { MEMBERS_CSV_TITLE } from '@flywheel/shared/members';
import { exportMembersData, getMemberLevels, getMembersData } from '@flywheel/shared/endpoints/members-list';
import type { MembersService } from './service.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';

export function memberListRoutes(deps: { members: MembersService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    // All three only read (the list, the level counts and the CSV).
    const route = endpointRoutes(app, { guard: deps.guard });

    route(getMembersData, async (req) => deps.members.page(req.body));

    route(getMemberLevels, async (req) => deps.members.levelCounts(req.query.team_id));

    route(exportMembersData, async (req, reply) =>
      sendCsv(reply, deps.members.csv(req.body), `${MEMBERS_CSV_TITLE}.csv`),
    );
  };
}
