import { z } from 'zod';
import {
  authRedirectBody,
  authRedirectResponse,
  installUrlResponse,
  workspaceStatusResponse,
} from '../directory.ts';
import { defineEndpoint, teamParams } from '../endpoint.ts';
import { messageResponse } from '../http.ts';
import { safeText } from '../input.ts';
import {
  INVITATION_VALID_DAYS,
  inviteAdminBody,
  inviteAdminResponse,
  revokeInvitationBody,
} from '../invitations.ts';
import {
  API_KEY_PREFIX,
  API_KEY_RATE,
  apiKeysResponse,
  createApiKeyBody,
  createApiKeyResponse,
  removeAdminBody,
  revokeApiKeyBody,
  setRoleBody,
  teamResponse,
} from '../roles.ts';
import { slackManifestResponse } from '../workspace.ts';

/*
 * Workspaces (apps/server/src/modules/workspaces: routes.ts, team-routes.ts, invitation-routes.ts): installing
 * one, its status, its team (admins, roles, invitations) and its API keys; changes to the team are the Owner's.
 */

const tags = ['workspaces'] as const;

/** The Slack authorize URL for 'Create Workspace' (no team_id) or 'Add as Admin' (team_id). */
export const installUrl = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/slack/installurl',
  scope: 'user',
  tags,
  query: z.object({ team_id: safeText('team_id', 32).optional() }),
  response: { 200: installUrlResponse },
});

export const slackManifest = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/slack/manifest',
  scope: 'user',
  tags,
  response: { 200: slackManifestResponse },
});

export const authRedirect = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/auth-redirect',
  scope: 'public',
  tags,
  body: authRedirectBody,
  response: { 200: authRedirectResponse },
});

export const workspaceStatus = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/workspaces/status/:teamId',
  scope: 'read',
  tags,
  params: teamParams,
  response: { 200: workspaceStatusResponse },
});

export const getTeam = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/workspaces/team/:teamId',
  scope: 'read',
  tags,
  summary: "The workspace's admins with their roles, and its pending invitations",
  params: teamParams,
  response: { 200: teamResponse },
});

export const setRole = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/workspaces/setrole',
  scope: 'manage',
  tags,
  summary: "Changes an admin's role (Owner only)",
  description: 'A change that would leave the workspace without an Owner answers 400.',
  body: setRoleBody,
  response: { 200: messageResponse },
});

export const removeAdmin = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/workspaces/removeadmin',
  scope: 'manage',
  tags,
  summary: 'Removes an admin from the workspace in Flywheel (Owner only)',
  description:
    'Their API keys stop working with them. Removing the last Owner answers 400. Slack itself is untouched.',
  body: removeAdminBody,
  response: { 200: messageResponse },
});

export const revokeInvitation = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/workspaces/revokeinvitation',
  scope: 'manage',
  tags,
  summary: 'Withdraws a pending invitation (Owner only)',
  body: revokeInvitationBody,
  response: { 200: messageResponse },
});

export const listApiKeys = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/apikeys/:teamId',
  scope: 'read',
  tags,
  summary: "The workspace's API keys (never their secret)",
  params: teamParams,
  response: { 200: apiKeysResponse },
});

export const createApiKey = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/apikeys/create',
  scope: 'manage',
  tags,
  summary: 'Creates an API key (Owner only); the answer is the only time its secret is shown',
  description: `The key (\`${API_KEY_PREFIX}...\`) is sent as \`Authorization: Bearer ${API_KEY_PREFIX}...\` on this workspace's /api/v0 routes: a \`read\` key on the routes that read, an \`act\` key also on those that act; never on the routes that manage the workspace, nor on account routes. It acts on behalf of the Owner who created it, never above their role. ${API_KEY_RATE.burst} requests at once, then ${API_KEY_RATE.perSecond} a second per key (429 with Retry-After).`,
  body: createApiKeyBody,
  response: { 201: createApiKeyResponse },
});

export const revokeApiKey = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/apikeys/revoke',
  scope: 'manage',
  tags,
  summary: 'Revokes an API key (Owner only): it answers 401 from then on',
  body: revokeApiKeyBody,
  response: { 200: messageResponse },
});

export const inviteAdmin = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/workspaces/inviteadmin',
  // The guard runs before the schema, as on every workspace-scoped route: strangers get 403 whatever they send.
  scope: 'manage',
  tags,
  summary: 'Invites a person by e-mail to administer the workspace in Flywheel',
  description: `An Owner of the workspace invites an e-mail address with a role (owner, editor or viewer; editor when not said); the invitation is valid ${INVITATION_VALID_DAYS} days. The invitee becomes an admin with that role when they log in with a verified account of that address (signing up first if they have none). Inviting the same address again renews the invitation.`,
  body: inviteAdminBody,
  response: { 201: inviteAdminResponse },
});
