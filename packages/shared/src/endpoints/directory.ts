import {
  authorizedAdminSchema,
  channelSchema,
  dataOf,
  memberSchema,
  memberSuggestionSchema,
  tagSchema,
} from '../directory.ts';
import { defineEndpoint, teamParams } from '../endpoint.ts';
import { safeText } from '../input.ts';
import {
  memberHitSchema,
  memberLookupBody,
  memberSearchQuery,
  memberSearchResponse,
} from '../member-directory.ts';

/*
 * What login loads for the current workspace (members, suggestions, channels, admins, tags) and the member
 * search and name lookups (apps/server/src/modules/directory/routes.ts).
 */

const tags = ['directory'] as const;

export const getMembers = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/members/getmembers/:teamId',
  scope: 'read',
  tags,
  params: teamParams,
  response: { 200: dataOf(memberSchema) },
});

export const getMemberSuggestions = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/members/getmembersuggestion/:teamId',
  scope: 'read',
  tags,
  params: teamParams,
  response: { 200: dataOf(memberSuggestionSchema) },
});

/** Search (capped at 10) for the top bar and the pickers: what the screens need at 50,000 members. */
export const searchMembers = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/members/search/:teamId',
  scope: 'read',
  tags,
  params: teamParams,
  query: memberSearchQuery,
  response: { 200: memberSearchResponse },
});

/** Names of the ids on screen, looked up in batches. */
export const lookupMembers = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/members/lookup',
  scope: 'read',
  tags,
  body: memberLookupBody,
  response: { 200: dataOf(memberHitSchema) },
});

export const getChannels = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/channels/getchannels/:teamId',
  scope: 'read',
  tags,
  params: teamParams,
  response: { 200: dataOf(channelSchema) },
});

export const getTags = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/tags/gettags/:teamId',
  scope: 'read',
  tags,
  params: teamParams,
  response: { 200: dataOf(tagSchema) },
});

export const getAuthorizedAdmins = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/getauthorizedadmins/:teamId/:userId',
  scope: 'read',
  tags,
  params: teamParams.extend({ userId: safeText('userId', 64).min(1) }),
  response: { 200: dataOf(authorizedAdminSchema) },
});
