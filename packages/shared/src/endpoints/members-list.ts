import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { slackId } from '../input.ts';
import { levelCountsResponse } from '../levels.ts';
import { membersDataBody, membersDataResponse, membersExportBody } from '../members.ts';

/* The Members table's calls (apps/server/src/modules/members-list/routes.ts): both POSTs only read. */

const tags = ['members'] as const;

export const getMembersData = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/members/getmembersdata',
  scope: 'read',
  tags,
  summary: 'Members Data: the filter payload plus search, sort and paging (counts from the daily rollups)',
  body: membersDataBody,
  response: { 200: membersDataResponse },
});

export const getMemberLevels = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/members/levels',
  scope: 'read',
  tags,
  summary: 'How many members hold each engagement level, and the local day the levels were computed for',
  query: z.object({ team_id: slackId('team_id') }),
  response: { 200: levelCountsResponse },
});

export const exportMembersData = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/members/exportmembersdata',
  scope: 'read',
  tags,
  summary: "CSV 'Members Data' (UserName, Email) of every match, or of member_ids; streamed",
  body: membersExportBody,
  produces: ['text/csv'],
});
