import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageResponse } from '@flywheel/shared/http';
import { revokeInvitationBody } from '@flywheel/shared/invitations';
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
} from '@flywheel/shared/roles';
import { currentUser } from '../../plugins/auth.ts';
import { scopedOptions, teamParams, type WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import type { WorkspacesService } from './service.ts';

const tags = ['workspaces'];

/** The workspace's team (admins, roles, invitations) and its API keys (issue 36); changes are the Owner's. */
export function teamRoutes(deps: { workspaces: WorkspacesService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/workspaces/team/:teamId',
      {
        ...scopedOptions(deps.guard),
        schema: {
          tags,
          summary: "The workspace's admins with their roles, and its pending invitations",
          params: teamParams,
          response: { 200: teamResponse },
        },
      },
      async (req) => deps.workspaces.team(req.params.teamId),
    );

    r.post(
      '/workspaces/setrole',
      {
        ...scopedOptions(deps.guard, 'manage'),
        schema: {
          tags,
          summary: "Changes an admin's role (Owner only)",
          description: 'A change that would leave the workspace without an Owner answers 400.',
          body: setRoleBody,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        await deps.workspaces.changeAdmin(req.body.team_id, req.body.user_id, req.body.role);
        return { message: 'Role changed.' };
      },
    );

    r.post(
      '/workspaces/removeadmin',
      {
        ...scopedOptions(deps.guard, 'manage'),
        schema: {
          tags,
          summary: 'Removes an admin from the workspace in Flywheel (Owner only)',
          description:
            'Their API keys stop working with them. Removing the last Owner answers 400. Slack itself is untouched.',
          body: removeAdminBody,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        await deps.workspaces.changeAdmin(req.body.team_id, req.body.user_id, null);
        return { message: 'Admin removed.' };
      },
    );

    r.post(
      '/workspaces/revokeinvitation',
      {
        ...scopedOptions(deps.guard, 'manage'),
        schema: {
          tags,
          summary: 'Withdraws a pending invitation (Owner only)',
          body: revokeInvitationBody,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        await deps.workspaces.revokeInvitation(req.body.team_id, req.body.email);
        return { message: 'Invitation withdrawn.' };
      },
    );

    r.get(
      '/apikeys/:teamId',
      {
        ...scopedOptions(deps.guard),
        schema: {
          tags,
          summary: "The workspace's API keys (never their secret)",
          params: teamParams,
          response: { 200: apiKeysResponse },
        },
      },
      async (req) => ({ data: await deps.workspaces.listApiKeys(req.params.teamId) }),
    );

    r.post(
      '/apikeys/create',
      {
        ...scopedOptions(deps.guard, 'manage'),
        schema: {
          tags,
          summary: 'Creates an API key (Owner only); the answer is the only time its secret is shown',
          description: `The key (\`${API_KEY_PREFIX}...\`) is sent as \`Authorization: Bearer ${API_KEY_PREFIX}...\` on this workspace's /api/v0 routes: a \`read\` key on the routes that read, an \`act\` key also on those that act; never on the routes that manage the workspace, nor on account routes. It acts on behalf of the Owner who created it, never above their role. ${API_KEY_RATE.burst} requests at once, then ${API_KEY_RATE.perSecond} a second per key (429 with Retry-After).`,
          body: createApiKeyBody,
          response: { 201: createApiKeyResponse },
        },
      },
      async (req, reply) => {
        const { team_id, name, scope } = req.body;
        return reply
          .code(201)
          .send(await deps.workspaces.createApiKey(team_id, currentUser(req).id, name, scope));
      },
    );

    r.post(
      '/apikeys/revoke',
      {
        ...scopedOptions(deps.guard, 'manage'),
        schema: {
          tags,
          summary: 'Revokes an API key (Owner only): it answers 401 from then on',
          body: revokeApiKeyBody,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        await deps.workspaces.revokeApiKey(req.body.team_id, req.body.id);
        return { message: 'API key revoked.' };
      },
    );
  };
}
