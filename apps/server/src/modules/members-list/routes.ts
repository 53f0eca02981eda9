import { sendCsv } from '../../lib/csv-reply.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MEMBERS_CSV_TITLE,
  membersDataBody,
  membersDataResponse,
  membersExportBody,
} from '@flywheel/shared/members';
import type { MembersService } from './service.ts';
import { z } from 'zod';
import { levelCountsResponse } from '@flywheel/shared/levels';
import { slackId } from '@flywheel/shared/input';
import { type WorkspaceGuard, scopedOptions } from '../../plugins/workspace-guard.ts';

const tags = ['members'];

export function memberListRoutes(deps: { members: MembersService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // Both routes only read (the list and its CSV).
    const opts = scopedOptions(deps.guard, 'read');

    r.post(
      '/members/getmembersdata',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Members Data: the filter payload plus search, sort and paging (counts from the daily rollups)',
          body: membersDataBody,
          response: { 200: membersDataResponse },
        },
      },
      async (req) => deps.members.page(req.body),
    );

    r.get(
      '/members/levels',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'How many members hold each engagement level, and the local day the levels were computed for',
          querystring: z.object({ team_id: slackId('team_id') }),
          response: { 200: levelCountsResponse },
        },
      },
      async (req) => deps.members.levelCounts(req.query.team_id),
    );

    r.post(
      '/members/exportmembersdata',
      {
        ...opts,
        schema: {
          tags,
          summary: "CSV 'Members Data' (UserName, Email) of every match, or of member_ids; streamed",
          body: membersExportBody,
          produces: ['text/csv'],
        },
      },
      async (req, reply) => sendCsv(reply, deps.members.csv(req.body), `${MEMBERS_CSV_TITLE}.csv`),
    );
  };
}
