import type { FastifyInstance } from 'fastify';
import {
  createApiKey,
  getTeam,
  listApiKeys,
  removeAdmin,
  revokeApiKey,
  revokeInvitation,
  setRole,
} from '@flywheel/shared/endpoints/workspaces';
import { currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import type { WorkspacesService } from './service.ts';

/** The workspace's team (admins, roles, invitations) and its API keys (issue 36); changes are the Owner's. */
export function teamRoutes(deps: { workspaces: WorkspacesService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(getTeam, async (req) => deps.workspaces.team(req.params.teamId));

    route(setRole, async (req) => {
      await deps.workspaces.changeAdmin(req.body.team_id, req.body.user_id, req.body.role);
      return { message: 'Role changed.' };
    });

    route(removeAdmin, async (req) => {
      await deps.workspaces.changeAdmin(req.body.team_id, req.body.user_id, null);
      return { message: 'Admin removed.' };
    });

    route(revokeInvitation, async (req) => {
      await deps.workspaces.revokeInvitation(req.body.team_id, req.body.email);
      return { message: 'Invitation withdrawn.' };
    });

    route(listApiKeys, async (req) => ({ data: await deps.workspaces.listApiKeys(req.params.teamId) }));

    route(createApiKey, async (req, reply) => {
      const { team_id, name, scope } = req.body;
      return reply
        .code(201)
        .send(await deps.workspaces.createApiKey(team_id, currentUser(req).id, name, scope));
    });

    route(revokeApiKey, async (req) => {
      await deps.workspaces.revokeApiKey(req.body.team_id, req.body.id);
      return { message: 'API key revoked.' };
    });
  };
}
