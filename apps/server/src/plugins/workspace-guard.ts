import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { AuthService } from '../modules/auth/service.ts';
import type { WorkspacesService } from '../modules/workspaces/service.ts';
import { authenticate, currentUser } from './auth.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyContextConfig {
    /** Marks a route guarded by `workspaceScoped` (the tenancy test walks every such route). */
    workspaceScoped?: boolean;
  }
}

/** Where a workspace-scoped route names its team: a path parameter, or team_id in the body or query. */
export function teamIdOf(request: FastifyRequest): string | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<
    string,
    unknown
  >;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const v = params.teamId ?? params.team_id ?? body.team_id ?? query.team_id;
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * preHandlers for every workspace-scoped route: a live token, then proof that the signed-in user
 * administers the named workspace (403 otherwise).
 */
export function workspaceScoped(auth: AuthService, workspaces: WorkspacesService) {
  const token = authenticate(auth);
  return [
    token,
    async (request: FastifyRequest, _reply: FastifyReply) => {
      const teamId = teamIdOf(request);
      if (!teamId) throw new AppError('VALIDATION_ERROR', 400, 'team_id is required');
      await workspaces.assertAdmin(currentUser(request).id, teamId);
    },
  ];
}
