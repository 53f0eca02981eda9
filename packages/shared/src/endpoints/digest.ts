import { z } from 'zod';
import { digestQuery, digestSchema, digestSettingsBody, digestSettingsResponse } from '../digest.ts';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';

/*
 * The weekly digest (apps/server/src/modules/digest/routes.ts): its preview (any role reads it) and the caller's
 * own subscription. Subscribing changes nothing of the workspace, only what the caller is sent, so a Viewer may
 * subscribe too (scope `read`).
 */

const tags = ['digest'] as const;
const params = z.object({ teamId: teamIdParam });

export const getDigest = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/digest/:teamId',
  scope: 'read',
  tags,
  summary: 'The digest of a week (`week`: a day in it; default: the last whole week), as it is sent',
  params,
  query: digestQuery,
  response: { 200: digestSchema },
});

export const getDigestSettings = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/digest/settings/:teamId',
  scope: 'read',
  tags,
  summary:
    "The caller's weekly digest of this workspace: e-mail, Slack DM, day and hour, the next one, the last sent",
  params,
  response: { 200: digestSettingsResponse },
});

export const saveDigestSettings = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/digest/settings',
  scope: 'read',
  tags,
  summary: "Turns the caller's weekly digest of this workspace on or off, by e-mail and Slack DM, and when",
  body: digestSettingsBody,
  response: { 200: digestSettingsResponse },
});
