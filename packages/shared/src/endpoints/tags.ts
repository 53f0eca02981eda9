import { z } from 'zod';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';
import { messageResponse } from '../http.ts';
import { rowId, slackId } from '../input.ts';
import { addTagsBody, createTagBody, createTagResponse } from '../members.ts';

/* The tags module's calls (apps/server/src/modules/tags/routes.ts). The list is the directory's (gettags). */

const tags = ['tags'] as const;

export const createTag = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/tags/createtag',
  scope: 'act',
  tags,
  summary: "Creates a tag ('+ create tag'); 409 when the name exists (any case)",
  body: createTagBody,
  response: { 201: createTagResponse },
});

export const addTagsToMembers = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/tags/addtagtousers',
  scope: 'act',
  tags,
  summary: 'Adds tags to members: {team_id, tags: [{id, name}], users: [{id}]}',
  body: addTagsBody,
  response: { 200: messageResponse.extend({ added: z.number() }) },
});

export const removeTagFromMember = /* @__PURE__ */ defineEndpoint({
  method: 'DELETE',
  path: '/tags/removetagfromuser/:teamId/:memberId/:tagId',
  scope: 'act',
  tags,
  summary: 'Removes one tag from one member',
  params: z.object({
    teamId: teamIdParam,
    memberId: slackId('memberId').describe('the member (member_id, U…)'),
    tagId: rowId('tagId').describe('the tag id'),
  }),
  response: { 200: messageResponse },
});
